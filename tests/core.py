#!/usr/bin/env python3
"""Cheap checks of the core-removal generator (scripts/detasklet/core.py).

1. The item splitter and the drop rules on small, made-up C (always run).
2. On a real tree (KDIR, default the reference tree in cache/): the
   generated patch applies with patch(1) to a copy of the three core files,
   leaves no tasklet identifier outside comments and strings, keeps the BH
   workqueue calls, and the renamed softirq actions are still the ones
   registered.  Skipped, and said so, when no tree is there.
Closing line: 'core: N passed, N failed'.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from detasklet import core  # noqa: E402

results: list[tuple[str, str | None]] = []


def case(name: str, ok: bool, why: str = "") -> None:
    results.append((name, None if ok else why or "failed"))


SNIPPET = """\
#include <linux/x.h>

/*
 * Tasklets
 */
struct tasklet_head {
	struct tasklet_struct *head;
};

static DEFINE_PER_CPU(struct tasklet_head, tasklet_vec);

#if defined(CONFIG_SMP)
void tasklet_unlock(struct tasklet_struct *t)
{
	clear_bit(TASKLET_STATE_RUN, &t->state);
}
#else
static inline void tasklet_unlock(struct tasklet_struct *t) { }
#endif

static int keep_me(int a)
{
	if (a) {
		return 1;
	} else {
		return 2;
	}
}
"""


def unit_cases() -> None:
    parts = core.items(SNIPPET)
    kinds = [p.kind for p in parts]
    case("items: whole lines, nothing lost", core.join(parts) == SNIPPET)
    case("items: kinds", kinds == ["pp", "blank", "comment", "code", "blank", "code", "blank",
                                   "pp", "code", "pp", "code", "pp", "blank", "code"],
         f"got {kinds}")
    doomed = {k for k, p in enumerate(parts) if p.kind in ("code", "pp") and p.names()}
    out = core.join(core.drop(parts, doomed))
    case("drop: items, their comment, the emptied #if/#else, doubled blanks",
         out == "#include <linux/x.h>\n\n" + SNIPPET[SNIPPET.index("static int keep_me"):],
         repr(out))
    case("mask keeps offsets", len(core.mask(SNIPPET)) == len(SNIPPET))
    case("leftovers ignores comments and strings",
         core.leftovers('/* tasklet_schedule() */ char *s = "tasklet_kill";\n') == [])
    case("leftovers sees any tasklet_ identifier",
         core.leftovers("static void tasklet_foo(void);\n") == ["tasklet_foo"])
    try:
        core.remove_core(core.TRACE_IRQ_H, "int x;\n")
        case("a file without the core is refused", False, "no CoreError")
    except core.CoreError:
        case("a file without the core is refused", True)


def tree_cases(kdir: Path) -> None:
    try:
        text = core.patch(kdir)
    except core.CoreError as e:
        case("patch generated", False, str(e))
        return
    case("patch generated", True)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for f in core.FILES + tuple(core.SYMBOL_STRINGS):
            (t / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(kdir / f, t / f)
        r = subprocess.run(["patch", "-p1", "-s", "--no-backup-if-mismatch"], cwd=t,
                           input=text, capture_output=True, text=True)
        case("patch applies to the tree", r.returncode == 0, r.stdout + r.stderr)
        if r.returncode:
            return
        new = {f: (t / f).read_text(errors="surrogateescape") for f in core.FILES}
        lk = (t / "drivers/misc/lkdtm/core.c").read_text(errors="replace")
        case("lkdtm's kprobe crash point follows the renamed TASKLET_SOFTIRQ action",
             '"bh_workqueue_action"' in lk and '"tasklet_action"' not in lk)
    for f in core.FILES:
        left = core.leftovers(new[f])
        case(f"{f}: no tasklet identifier outside comments", not left, " ".join(left))
    sc = new[core.SOFTIRQ_C]
    case("softirq.c keeps workqueue_softirq_action(false) and (true)",
         "workqueue_softirq_action(false);" in sc and "workqueue_softirq_action(true);" in sc)
    case("softirq.c keeps workqueue_softirq_dead on CPU death",
         "workqueue_softirq_dead(cpu);" in sc and "CPUHP_SOFTIRQ_DEAD" in sc)
    reg = dict(re.findall(r"open_softirq\((\w+), (\w+)\);", sc))
    defined = set(re.findall(r"^static __latent_entropy void (\w+)\(void\)$", sc, re.M))
    case("TASKLET/HI_SOFTIRQ actions are registered and defined",
         set(reg) == {"TASKLET_SOFTIRQ", "HI_SOFTIRQ"} and set(reg.values()) == defined,
         f"registered {reg}, defined {defined}")
    body = re.search(r"void bh_workqueue_action\(void\)\n\{\n(.*?)\n\}", sc, re.S)
    case("the TASKLET_SOFTIRQ action is the workqueue call alone",
         bool(body) and body.group(1).strip() == "workqueue_softirq_action(false);")
    ih = new[core.INTERRUPT_H]
    case("interrupt.h keeps the softirq vectors",
         "TASKLET_SOFTIRQ," in ih and "HI_SOFTIRQ=0," in ih)
    case("the balance of braces and #if/#endif is unchanged",
         all(new[f].count("#endif") - len(re.findall(r"^\s*#\s*if", new[f], re.M)) ==
             (kdir / f).read_text(errors="replace").count("#endif") -
             len(re.findall(r"^\s*#\s*if", (kdir / f).read_text(errors="replace"), re.M))
             for f in core.FILES))
    try:
        core.remove_core(core.SOFTIRQ_C, sc)
        case("running it twice is refused", False, "no CoreError")
    except core.CoreError:
        case("running it twice is refused", True)


def main() -> int:
    unit_cases()
    kdir = Path(os.environ.get("KDIR") or ROOT / "cache/linux-source-6.12")
    if (kdir / "kernel/softirq.c").is_file():
        tree_cases(kdir)
        where = f"on {kdir}"
    else:
        # make test unpacks the reference tree first: a missing tree is a
        # failure, not a skipped case.
        results.append(("a kernel tree to check", f"no kernel tree at {kdir} (set KDIR)"))
        where = "no tree"
    bad = [(n, w) for n, w in results if w]
    for n, w in bad:
        print(f"FAIL {n}: {w}")
    print(f"core: {len(results) - len(bad)} passed, {len(bad)} failed ({where})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
