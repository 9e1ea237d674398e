# SPDX-License-Identifier: GPL-2.0-only
"""Stage 2: per-vector tasklets, an array beside the array that is their data.

A driver with one tasklet per interrupt vector often keeps them in an array
member T[N] of its device struct C, next to an array V[N] of per-vector
structs S, and every init passes the vector with the same index as the
tasklet's data (pm8001, pmcraid):

    tasklet_init(&X->T[i], cb, (unsigned long)&X->V[i]);

The callback gets the struct S, but a work item in C's array cannot lead
back to it: from_work() finds the container of the item, and T[i] is
inside C. Moving the tasklet into S, X->T[i] becomes X->V[i].T: the same
item for the same vector (both arrays have N entries, and the index of
every init is the same on both sides), now inside the object the callback
is given, so that the generic rules convert it with from_work().

The move is written as a semantic patch made from the facts found here (a
tasklet-to-tasklet rewrite, like a driver's own patch in cocci/drivers/),
and applied before the facts of the group are taken. It is applied only if
afterwards no X->T[...] is left in the group's files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ...ctext.tasklet import ARRAY_RE, VECTOR_INIT_RE, array_inits
from .legacy_local import struct_at


@dataclass(frozen=True)
class PerVector:
    container: str      # "struct C"
    tasklets: str       # T
    size: str           # N
    vectors: str        # V
    vector_type: str    # "struct S"

    def cocci(self) -> str:
        """The semantic patch that moves T into S."""
        return f"""virtual patch

// &(H->T[I]) loses its parentheses on the line this rewrites (checkpatch:
// UNNECESSARY_PARENTHESES, pmcraid)
@per_vector_paren depends on patch@
{self.container} *H;
expression I;
@@
- &(H->{self.tasklets}[I])
+ &H->{self.vectors}[I].{self.tasklets}

@per_vector depends on patch@
{self.container} *H;
expression I;
@@
- H->{self.tasklets}[I]
+ H->{self.vectors}[I].{self.tasklets}

@drop_array depends on patch@
identifier t = {self.tasklets};
@@
{self.container} {{
  ...
- struct tasklet_struct t[{self.size}];
  ...
}};

@add_member depends on patch@
@@
{self.vector_type} {{
+ struct tasklet_struct {self.tasklets};
  ...
}};
"""

    def why(self) -> str:
        c, t, v, s = self.container, self.tasklets, self.vectors, self.vector_type
        return (f"{t}[i] of {c} is always paired with {v}[i], the {s} that every "
                f"tasklet_init() passes as its data (the same index on both sides), and both "
                f"arrays have {self.size} entries. The tasklet moves into {s}, so "
                f"{t}[i] becomes {v}[i].{t}: the same item for the same vector, now inside "
                "the object its callback is given, which container_of() finds.")

    def left(self, code: str) -> bool:
        """Whether masked code still indexes the tasklet array."""
        return re.search(r"(?:->|\.)\s*" + self.tasklets + r"\s*\[", code) is not None


def find(codes: dict[str, str]) -> list[PerVector]:
    """The per-vector tasklet arrays of a group (codes: path -> masked
    text), each proven to have the shape above."""
    out = []
    joined = "\n".join(codes.values())
    for code in codes.values():
        for m in ARRAY_RE.finditer(code):
            t, size = m.group(1), m.group(2)
            ctype = struct_at(code, m.start())
            inits = [i for i in VECTOR_INIT_RE.finditer(joined) if i.group("t") == t]
            any_init = array_inits(joined, t)
            vs = {i.group("v") for i in inits}
            if not ctype.startswith("struct ") or not inits or len(any_init) != len(inits) \
                    or len(vs) != 1:
                continue
            v = vs.pop()
            decl = re.search(r"\bstruct\s+(\w+)\s+" + v + r"\s*\[\s*" + size + r"\s*\]\s*;", code)
            if not decl or struct_at(code, decl.start()) != ctype:
                continue
            stype = f"struct {decl.group(1)}"
            body = re.search(r"\b" + stype.replace(" ", r"\s+") + r"\s*\{([^{}]*)\}", joined)
            if not body or re.search(r"\b" + t + r"\b", body.group(1)):
                continue
            # every use of T indexes it; no pointer to the array escapes
            uses = len(re.findall(r"\b" + t + r"\b", joined))
            indexed = len(re.findall(r"(?:->|\.)\s*" + t + r"\s*\[", joined))
            if uses != indexed + 1:
                continue
            out.append(PerVector(ctype, t, size, v, stype))
    return out


def write_cocci(pv: PerVector, folder: Path) -> Path:
    p = folder / f"per-vector-{pv.tasklets}.cocci"
    p.write_text(pv.cocci())
    return p
