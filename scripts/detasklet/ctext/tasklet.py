# SPDX-License-Identifier: GPL-2.0-only
"""The tasklet API as text: its identifiers and the patterns that read it.

Every regex of the package that names the tasklet API is here, by what it
finds: a use of an API identifier, a declaration of a tasklet, the item an
API call acts on, a sync call; and at the end, those of the analyses of
convert/, each under the module that reads it. They run on masked text
(lex.mask). tests/unit/test_house.py fails on a re. call elsewhere that
names the API.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lex import TOKEN_RE, function_spans, line_of, line_start, mask

# The tasklet core itself: never a "user", never rewritten by the driver rules.
CORE_FILES = ("include/linux/interrupt.h", "include/trace/events/irq.h", "kernel/softirq.c")

# Every identifier of the tasklet API (include/linux/interrupt.h).
API_IDENTIFIERS = (
    "tasklet_struct", "tasklet_setup", "tasklet_init", "from_tasklet",
    "tasklet_schedule", "tasklet_hi_schedule", "__tasklet_schedule",
    "__tasklet_hi_schedule", "tasklet_kill", "tasklet_kill_immediate",
    "tasklet_disable", "tasklet_disable_nosync", "tasklet_disable_in_atomic",
    "tasklet_enable", "tasklet_unlock_wait", "tasklet_unlock_spin_wait",
    "tasklet_trylock", "tasklet_unlock", "DECLARE_TASKLET",
    "DECLARE_TASKLET_OLD", "DECLARE_TASKLET_DISABLED",
    "DECLARE_TASKLET_DISABLED_OLD", "TASKLET_STATE_SCHED", "TASKLET_STATE_RUN",
)
API_RE = re.compile(r"\b(" + "|".join(sorted(API_IDENTIFIERS, key=len, reverse=True)) + r")\b")
# Text that may hold the API, for a quick look at raw bytes before reading.
MAYBE_RE = re.compile(rb"tasklet|TASKLET")

# The type, as written anywhere.
STRUCT = r"\bstruct\s+tasklet_struct\b"
STRUCT_RE = re.compile(STRUCT)
# A tasklet declared by name: a field, a variable, a parameter, a pointer.
_DECL_RE = re.compile(STRUCT + r"\s*\**\s*(\w+)")
# The calls that wait for a running callback: their work_struct
# replacements may sleep.
SYNC_CALLS = ("tasklet_kill", "tasklet_disable", "tasklet_unlock_wait")
SYNC_CALL_RE = re.compile(r"\b(?:" + "|".join(SYNC_CALLS) + r")\s*\(")
HI_SCHEDULE_RE = re.compile(r"\btasklet_hi_schedule\s*\(([^;]*)\)\s*;")
# The item each API call or declaration names.
_ITEM_RE = re.compile(r"\btasklet_\w+\s*\(\s*([^,;()]*(?:\([^()]*\))?[^,;()]*)"
                      r"|" + STRUCT + r"\s*\**\s*(\w+)"
                      r"|\bDECLARE_TASKLET\w*\(\s*(\w+)")


def declared_names(code: str) -> set[str]:
    """The names code declares as tasklets (struct tasklet_struct [*]name)."""
    return set(_DECL_RE.findall(code))


def declaration_of(name: str) -> re.Pattern[str]:
    """A declaration of name as a tasklet or a pointer to one."""
    return re.compile(STRUCT + r"\s*\**\s*" + re.escape(name) + r"\b")


def member_declaration(name: str) -> re.Pattern[str]:
    """name declared as a plain tasklet member or variable: no pointer,
    no array."""
    return re.compile(STRUCT + r"\s+" + re.escape(name) + r"\s*;")


def any_declaration(name: str) -> re.Pattern[str]:
    """Any declaration that names name as a tasklet, with whatever
    declarator (array, pointer, several names)."""
    return re.compile(STRUCT + r"[^;(){}]*?\b" + re.escape(name) + r"\b")


# What a header gives its includers: the tasklets it declares as members or
# variables (the declarator ends the declaration: not a parameter), the
# functions whose prototype names the type, the macros that name the API.
_SHARED_VAR_RE = re.compile(STRUCT + r"\s*\**\s*(\w+)\s*(?:\[[^\]]*\]\s*)*[;,=]")
_SHARED_FN_RE = re.compile(r"\b(\w+)\s*\([^;{}()]*" + STRUCT)
_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)((?:[^\n]*\\\n)*[^\n]*)", re.M)


def macros(code: str) -> dict[str, str]:
    """convert/verdicts/outside.py: each #define of masked code, name ->
    its body (continuation lines joined as they are)."""
    return {m.group(1): m.group(2) for m in _DEFINE_RE.finditer(code)}


def file_scope(code: str) -> str:
    """Masked code with the bodies of its function definitions blanked
    (newlines kept): what the file declares for others to name."""
    out, last = [], 0
    for a, b, _ in function_spans(code):
        out += [code[last:a], re.sub(r"[^\n]", " ", code[a:b])]
        last = b
    return "".join(out) + code[last:]


def shared_names(code: str) -> tuple[set[str], set[str]]:
    """(members, names) of masked code: the tasklets it declares outside
    function bodies and not static (a file uses one as x.name or x->name,
    or by name for a variable; a local such as a static inline's
    `struct tasklet_struct *t` is nobody's item), and the functions and
    macros that name the tasklet API or those tasklets."""
    scope = file_scope(code)
    members = {m.group(1) for m in _SHARED_VAR_RE.finditer(scope)
               if not re.search(r"\bstatic\b[^;{}]*$", scope[max(0, m.start() - 400):m.start()])}
    names = set(members) | set(_SHARED_FN_RE.findall(scope))
    for m in _DEFINE_RE.finditer(code):
        body = m.group(2)
        if API_RE.search(body) or any(re.search(r"\b" + re.escape(n) + r"\b", body)
                                      for n in members):
            names.add(m.group(1))
    return members, names


def uses_shared(code: str, members: set[str], names: set[str]) -> bool:
    """Whether masked code names one of a header's shared tasklets,
    functions or macros (shared_names)."""
    if not names:
        return False
    alts = "|".join(sorted(re.escape(n) for n in names))
    return re.search(r"\b(?:" + alts + r")\b", code) is not None


def key(expr: str) -> str:
    """The name that identifies a tasklet expression: its last identifier
    (rx_tasklet for &p->rx_tasklet, tasklet for &p->chan[i].tasklet)."""
    names = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[[^\]]*\]", "", expr))
    return names[-1] if names else expr.strip()


def item_names(text: str) -> list[str]:
    """The tasklet items a file names: declared fields and variables, and
    the key of each API call's tasklet argument."""
    names = set()
    for m in _ITEM_RE.finditer(mask(text)):
        arg = m.group(1) if m.group(1) is not None else (m.group(2) or m.group(3))
        if arg and arg.strip():
            names.add(key(arg))
    return sorted(n for n in names if not n.isdigit())


@dataclass(frozen=True)
class Use:
    """One occurrence of a tasklet API identifier."""
    line: int
    ident: str


def find_uses(text: str) -> list[Use]:
    """Every API identifier outside comments and literals, with its line."""
    code = mask(text)
    return [Use(line_of(code, m.start()), m.group(1)) for m in API_RE.finditer(code)]


# A forward declaration of the type, alone on its line: "struct tasklet_struct;".
FORWARD_DECL_RE = re.compile(r"^[ \t]*struct[ \t]+tasklet_struct[ \t]*;[ \t]*\n", re.M)


# A plain member of the type, alone on its line: "\tstruct tasklet_struct irq_tasklet;".
MEMBER_LINE_RE = re.compile(r"^[ \t]*struct[ \t]+tasklet_struct[ \t]+(\w+)[ \t]*;[ \t]*\n", re.M)


def _only_lines(text: str, line_re: re.Pattern[str]) -> bool:
    """True when every use of the tasklet API in text is struct
    tasklet_struct on a line of its own that line_re matches."""
    uses = find_uses(text)
    return bool(uses) and all(u.ident == "tasklet_struct" for u in uses) and \
        len(uses) == len(line_re.findall(mask(text)))


def only_members(text: str) -> bool:
    """True when the tasklet API appears in text only as plain members
    declared alone on their lines (a header whose struct nothing uses can
    lose them)."""
    return _only_lines(text, MEMBER_LINE_RE)


def only_forward_declared(text: str) -> bool:
    """True when the tasklet API appears in text only as forward
    declarations of struct tasklet_struct, which nothing else uses: the
    declaration is dead and goes, rather than becoming struct work_struct."""
    return _only_lines(text, FORWARD_DECL_RE)


# ---- the patterns of the analyses of convert/ and the wording of series/ --------
# Each under the module that reads it; they run on masked text too.

# The parameter of a legacy callback: unsigned long, or uintptr_t (qat),
# the same type on every architecture Linux builds for.
PARAM = r"(?:unsigned\s+long|uintptr_t)"

# facts/legacy.py
# Any tasklet_init(), to its end.
INIT_RE = re.compile(r"\btasklet_init\s*\([^;]*;")
# The callback of any tasklet_init(), also behind a (void *) cast.
INIT_CB_RE = re.compile(r"\btasklet_init\s*\(\s*[^,;]*,\s*(?:\(\s*void\s*\*\s*\)\s*)?(\w+)\s*,")
# tasklet_init(&D->F, cb, (cast)D) or tasklet_init(&D.F, cb, (cast)&D); cb may be
# cast to (void *) when it takes a void * (ibmvfc)
CONTAINER_INIT_RE = re.compile(
    r"\btasklet_init\s*\(\s*&\s*(?P<d>[^,]+?)\s*(?P<op>->|\.)\s*(?P<f>\w+)\s*,"
    r"\s*(?:\(\s*void\s*\*\s*\)\s*)?(?P<cb>\w+)\s*,\s*\(\s*[\w\s]+\)\s*(?P<amp>&?)\s*"
    r"(?P<data>[^;]+?)\s*\)\s*;")

# facts/legacy_local.py
# tasklet_init(&E->f, cb, data) and tasklet_init(&E.f, cb, data), also &(E->f).
MEMBER_INIT_RE = re.compile(
    r"\btasklet_init\s*\(\s*&\s*(?P<par>\(?)\s*(?P<e>[^,;]+?)\s*(?P<op>->|\.)\s*(?P<f>\w+)"
    r"\s*\)?\s*,\s*(?P<cb>\w+)\s*,\s*(?P<data>[^;]+?)\s*\)\s*;")
# A tasklet_init() whose callback argument is not a function name.
INIT_PTR_RE = re.compile(r"\btasklet_init\s*\(\s*[^,;]*,(?!\s*(?:\(\s*void\s*\*\s*\)\s*)?\w+\s*,)"
                         r"\s*([^,;]+?)\s*,")

# facts/per_vector.py
ARRAY_RE = re.compile(r"\bstruct\s+tasklet_struct\s+(\w+)\s*\[\s*(\w+)\s*\]\s*;")
# tasklet_init(&X->T[i], cb, (unsigned long)&X->V[i]), also &(X->T[i]) and &(X->V[i])
VECTOR_INIT_RE = re.compile(
    r"\btasklet_init\s*\(\s*&\s*\(?\s*(?P<x>\w+)\s*->\s*(?P<t>\w+)\s*\[\s*(?P<i>[^\]]+?)\s*\]"
    r"\s*\)?\s*,\s*(?P<cb>\w+)\s*,\s*\(\s*unsigned\s+long\s*\)\s*&\s*\(?\s*(?P=x)\s*->\s*"
    r"(?P<v>\w+)\s*\[\s*(?P=i)\s*\]\s*\)?\s*\)\s*;")

# facts/refusals.py
# The uses of ->state with an equivalent (50-state.cocci, and the open-coded
# schedule of 45-open-coded-schedule.cocci): not internal. Any other
# test_and_set_bit() is left as API by the rules, and classify refuses it.
SCHED_TEST_RE = re.compile(r"\b(?:test_bit|test_and_set_bit)\s*\(\s*TASKLET_STATE_SCHED\s*,"
                           r"\s*&[^;]*?\bstate\s*\)")
IN_ATOMIC_RE = re.compile(r"\btasklet_disable_in_atomic\s*\(([^;]*)\)\s*;")

# verdicts/analyses.py
SETUP_OR_INIT_RE = re.compile(r"\b(?:tasklet_setup|tasklet_init)\s*\(")
DECLARE_RE = re.compile(r"\bDECLARE_TASKLET\w*\s*\(\s*(\w+)\s*,\s*(\w+)")

# verdicts/disabled.py: DECLARE_TASKLET_DISABLED(name, cb), also _OLD
DISABLED_DECL_RE = re.compile(r"\bDECLARE_TASKLET_DISABLED(_OLD)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")

# verdicts/balance.py
DISABLE_RE = re.compile(r"\b(tasklet_disable(?:_nosync|_in_atomic)?)\s*\(")
ENABLE_RE = re.compile(r"\btasklet_enable\s*\(")

# verdicts/sites.py
SITE_CALL_RE = re.compile(r"\b(tasklet_enable|tasklet_kill|tasklet_disable_nosync|"
                          r"tasklet_disable_in_atomic|tasklet_disable|tasklet_unlock_wait|"
                          r"tasklet_hi_schedule|tasklet_schedule)\s*\(")

# rewrite/fixups.py
SCHEDULE_CALL_RE = re.compile(r"\btasklet_schedule\s*\(")
# convert/verdicts/outside.py: a queue of any tasklet, normal or hi.
ANY_SCHEDULE_RE = re.compile(r"\btasklet_(?:hi_)?schedule\s*\(")

# output/tasklet_free.py: the hotplug lines that only serve the tasklet lists
RAISE_TASKLET_SOFTIRQ_RE = re.compile(
    r"^\s*raise_softirq_irqoff\s*\(\s*(HI|TASKLET)_SOFTIRQ\s*\)\s*;")

# output/tasklet_free_text.py
# The API's functions and macros, as prose names them.
API_FUNCS_RE = re.compile(r"\b(" + "|".join(sorted(
    (i for i in API_IDENTIFIERS if i != "tasklet_struct"), key=len, reverse=True)) + r")\b")


def init_or_legacy_callback(cb: str) -> re.Pattern[str]:
    """facts/legacy_local.py: a tasklet_init() that names cb, or a
    definition or prototype of cb as a legacy callback."""
    return re.compile(r"\btasklet_init\s*\([^;]*?\b" + cb + r"\b[^;]*;"
                      r"|\b" + cb + r"\s*\(\s*" + PARAM + r"\b(?:\s+\w+)?\s*\)")


def array_inits(code: str, member: str) -> list[str]:
    """facts/per_vector.py: every tasklet_init() or tasklet_setup() of an
    element of the tasklet array member."""
    return re.findall(r"\btasklet_(?:init|setup)\s*\([^;]*(?:->|\.)\s*" + member
                      + r"\s*\[", code)


def takes_tasklet(code: str, fn: str) -> bool:
    """facts/normalise.py: whether code defines or declares fn with a
    struct tasklet_struct * parameter."""
    return re.search(r"\b" + re.escape(fn) + r"\s*\(\s*struct\s+tasklet_struct\s*\*",
                     code) is not None


def file_scope_tasklet(code: str, name: str) -> bool:
    """facts/refusals.py: whether code declares name as a tasklet at the
    start of a line (static or extern), or with DECLARE_TASKLET*()."""
    n = re.escape(name)
    return re.search(r"^(?:static\s+|extern\s+)*" + declaration_of(name).pattern
                     + r"|\bDECLARE_TASKLET\w*\(\s*" + n + r"\b", code, re.M) is not None


def global_tasklet(code: str, item: str) -> bool:
    """verdicts/sites.py: whether code declares item as a global tasklet:
    DECLARE_TASKLET*(), or static struct tasklet_struct item; alone."""
    return re.search(r"\bDECLARE_TASKLET\w*\s*\(\s*" + item
                     + r"\b|^static\s+struct\s+tasklet_struct\s+" + item + r"\s*;",
                     code, re.M) is not None


def declared_enabled(text: str, item: str) -> str:
    """verdicts/disabled.py: text with the DECLARE_TASKLET_DISABLED*() of
    item made DECLARE_TASKLET*()."""
    return re.sub(r"\bDECLARE_TASKLET_DISABLED(_OLD)?(\s*\(\s*" + re.escape(item) + r"\s*,)",
                  r"DECLARE_TASKLET\1\2", text)


def schedule_of(item: str) -> re.Pattern[str]:
    """verdicts/analyses.py: a tasklet_schedule() or tasklet_hi_schedule()
    of item."""
    return re.compile(r"\btasklet_(?:hi_)?schedule\s*\([^;]*\b" + re.escape(item) + r"\b")


# output/tasklet_free.py: any identifier that starts with tasklet_.
PREFIXED_RE = re.compile(r"\btasklet_\w*")
# series/message.py: a comment that says tasklet or tasklets.
SAYS_TASKLET_RE = re.compile(r"(?i)\btasklets?\b")


def _comments(text: str) -> list[str]:
    return [m.group(0) for m in TOKEN_RE.finditer(text) if m.group(0).startswith("/")]


def kept_tasklet_comments(old: str, new: str) -> int:
    """convert/output/write.py: how many of the comments of new that say
    tasklet were in old too (the driver's own, which a conversion keeps;
    kernel-doc lines such as nfp's '@tasklet: ... tasklet for servicing')."""
    ours = set(_comments(old))
    return sum(1 for c in _comments(new) if c in ours and SAYS_TASKLET_RE.search(c))


_SET_UP_OR_DISABLED_RE = re.compile(r"\s*tasklet_(setup|init|disable)\s*\(([^;]*)\)\s*")


def set_up_just_before(code: str, line: int, item: str) -> bool:
    """Whether, in the function of masked code holding line, the statements
    before that line back to a tasklet_setup()/tasklet_init() of item are all
    tasklet_setup(), tasklet_init() or tasklet_disable() calls: a disable
    there (zfcp_qdio_setup()) follows the init with nothing between that
    could have queued item in this thread."""
    pos = line_start(code, line)
    here = next(((a, b) for a, b, _ in function_spans(code) if a <= pos < b), None)
    if here is None:
        return False
    body = code[code.find("{", here[0]) + 1:pos]
    for stmt in reversed(body.split(";")[:-1]):
        m = _SET_UP_OR_DISABLED_RE.fullmatch(stmt)
        if not m:
            return False
        if m.group(1) != "disable" and key(m.group(2).split(",")[0]) == item:
            return True
    return False
