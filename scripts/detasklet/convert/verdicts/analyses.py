# SPDX-License-Identifier: GPL-2.0-only
"""The named analyses of a group's sync calls, on its masked code.

A kill or disable needs, to be proven exact, what the driver does around
it: the functions and who calls them (facts_of), whether a function takes
the device, an interface or the module down, or brings it up (teardown:
its registration as .remove, .ndo_stop, module_exit(), .probe ... or
being reached only from such functions; never its name), what was stopped
before the call (stopped_before: free_irq(), del_timer_sync(), ...),
whether a callback queues its own item again (requeues_itself), and
whether it completes work a caller waits for (completes). convert.verdicts.sites
chooses with them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ...ctext.decls import prototypes
from ...ctext.lex import call_args, function_spans, line_start
from ...ctext.pointers import assigned, pointer_calls, typed_calls, typed_stores
from ...ctext.ptrtypes import Declarations, members, merged, object_struct
from ...ctext.tasklet import DECLARE_RE, SETUP_OR_INIT_RE, key, schedule_of
from ...ctext.teardown import Registration, completion_call, is_static, referenced, registrations
from .scope import count, role, sees

if TYPE_CHECKING:
    from .sites import Site

_CALLED_RE = re.compile(r"(\w+)\s*\(")

_STOP_RE = re.compile(r"\b(free_irq|devm_free_irq|synchronize_irq|disable_irq|"
                      r"disable_irq_nosync|pci_free_irq_vectors|pci_free_irq|"
                      r"del_timer_sync|timer_delete_sync|timer_shutdown_sync|hrtimer_cancel|"
                      r"napi_disable|usb_kill_urb|usb_kill_anchored_urbs|usb_poison_urb|"
                      r"free_netdev|unregister_netdev|kfree)\s*\(")


@dataclass
class Facts:
    bodies: dict[str, str]                  # function -> body (first definition)
    callers: dict[str, set[str]]            # function -> the functions calling it
    callees: dict[str, set[str]]
    callbacks: dict[str, set[str]]          # item -> its callbacks
    regs: dict[str, Registration]           # function -> how it is registered
    codes: dict[str, str]
    static: set[str] = field(default_factory=set)      # functions defined static
    inits: dict[str, set[str]] = field(default_factory=dict)  # item -> functions setting it up
    referenced: set[str] = field(default_factory=set)  # named other than by a call
    # function -> its calls through a pointer: (member, the call as written,
    # the struct whose member it is: "" not known, None a plain pointer)
    pointer_calls: dict[str, list[tuple[str, str, str | None]]] = field(default_factory=dict)
    # member (or pointer) -> (function of the group stored into it, the
    # struct whose member was set: "" not known, None a plain pointer)
    stored: dict[str, set[tuple[str, str | None]]] = field(default_factory=dict)
    # member -> the structs whose member of that name the group also sets
    # to something else (a parameter, a function of another file): what a
    # call through them runs is not known
    stored_other: dict[str, set[str | None]] = field(default_factory=dict)
    # item -> callback -> the structs whose member of that name is set up
    # with it ("": not known, or a global)
    structs: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    homes: dict[str, str] = field(default_factory=dict)  # function -> the file defining it
    # the other files of the group's kbuild modules (masked), read for the
    # functions the group reaches (facts_of), never rewritten
    module: dict[str, str] = field(default_factory=dict)
    # functions a file of the group declares (a prototype) that no file
    # read defines: another module's, whose run is not read
    unread: set[str] = field(default_factory=set)
    # .c file -> its kbuild module, 'folder:module' (one driver's instances)
    mates: dict[str, str] = field(default_factory=dict)


def _module_functions(bodies: dict[str, str], homes: dict[str, str], codes: dict[str, str],
                      module: dict[str, str]) -> set[str]:
    """Add to bodies (and homes) the functions of the module's other files
    (module: path -> masked code, convert.facts.module_reach) that the
    group's functions reach: called by name, or stored (in any file read)
    into a member they call through; the functions added."""
    index: dict[str, tuple[str, str]] = {}
    for path, code in module.items():
        for a, b, n in function_spans(code):
            if n not in bodies:
                index.setdefault(n, (path, code[a:b]))
    stores: dict[str, set[str]] = {}
    for code in list(codes.values()) + list(module.values()):
        for name, fns in assigned(code).items():
            stores.setdefault(name, set()).update(fns & index.keys())
    todo, added = sorted(bodies), set()
    while todo:
        body = bodies[todo.pop()]
        names = set(_CALLED_RE.findall(body)) | {
            g for m, _ in pointer_calls(body) for g in stores.get(m, ())}
        for n in sorted(names - bodies.keys()):
            if n in index:
                homes[n], bodies[n] = index[n]
                added.add(n)
                todo.append(n)
    return added


def facts_of(codes: dict[str, str], module: dict[str, str] | None = None, *,
             types: dict[str, dict[str, str]] | None = None) -> Facts:
    """The facts of a group's masked codes; module: the masked codes of the
    other files of its kbuild modules, of which the functions the group
    reaches are read too (their run is part of a kill's proof); types: the
    members of the structs its headers define (ctext.ptrtypes.included)."""
    bodies: dict[str, str] = {}
    homes: dict[str, str] = {}
    for path, code in codes.items():
        for a, b, n in function_spans(code):
            bodies.setdefault(n, code[a:b])
            homes.setdefault(n, path)
    module = module or {}
    added = _module_functions(bodies, homes, codes, module) if module else set()
    callees = {n: {c for c in _CALLED_RE.findall(b) if c in bodies and c != n
                   and sees(homes[n], c, homes, codes, module)}
               for n, b in bodies.items()}
    callers: dict[str, set[str]] = {n: set() for n in bodies}
    for n, cs in callees.items():
        for c in cs:
            callers[c].add(n)
    cbs: dict[str, set[str]] = {}
    regs: dict[str, Registration] = {}
    static: set[str] = set()
    refd: set[str] = set()
    inits: dict[str, set[str]] = {}
    structs: dict[str, dict[str, set[str]]] = {}
    for code in codes.values():
        spans = function_spans(code)
        cache: dict[str, tuple[Declarations, dict[str, dict[str, str]]]] = {}
        for m in SETUP_OR_INIT_RE.finditer(code):
            args = call_args(code, m.end())
            fn = next((n for x, y, n in spans if x <= m.start() < y), "")
            inits.setdefault(key(args[0]), set()).add(fn)
            if len(args) >= 2:
                # behind a cast: (void *)cb, (void (*)(struct tasklet_struct *))cb
                cb = re.sub(r"^\(\s*[\w\s]+(?:\*|\(\s*\*\s*\)\s*\([^()]*\))\s*\)\s*", "",
                            args[1])
                if re.fullmatch(r"\w+", cb):
                    cbs.setdefault(key(args[0]), set()).add(cb)
                    structs.setdefault(key(args[0]), {}).setdefault(cb, set()).add(
                        object_struct(code, m.start(), args[0], spans, cache))
        for m in DECLARE_RE.finditer(code):
            cbs.setdefault(m.group(1), set()).add(m.group(2))
            structs.setdefault(m.group(1), {}).setdefault(m.group(2), set()).add("")
        for fn, r in registrations(code).items():
            regs.setdefault(fn, r)
        static |= {n for n in bodies if is_static(code, n)}
        refd |= {n for n in bodies if n in code and referenced(code, n)}
    for n in added:         # a function of another file: its own file says
        home = module[homes[n]]
        static |= {n} if is_static(home, n) else set()
        refd |= {n} if referenced(home, n) else set()
    for code in module.values():
        for fn, r in registrations(code).items():
            regs.setdefault(fn, r)
    read = list(codes.values()) + list(module.values())
    types = merged([types or {}] + [members(c) for c in read])
    stored: dict[str, set[tuple[str, str | None]]] = {}
    other: dict[str, set[str | None]] = {}
    calls: dict[str, list[tuple[str, str, str | None]]] = {}
    for code in read:
        decls = Declarations(code)
        for name, fn, tag in typed_stores(code, decls, types):
            if fn in bodies:
                stored.setdefault(name, set()).add((fn, tag))
            else:
                other.setdefault(name, set()).add(tag)
        for a, b, n in function_spans(code):
            if n in bodies and code[a:b] == bodies[n]:
                calls.setdefault(n, typed_calls(code, a, b, decls, types))
    return Facts(bodies, callers, callees, cbs, regs, codes, static=static, inits=inits,
                 referenced=refd, structs=structs, pointer_calls=calls, stored=stored,
                 stored_other=other, homes=homes, module=module,
                 unread=set().union(*(prototypes(c) for c in codes.values())) - bodies.keys())


def teardown(fn: str, f: Facts, seen: frozenset[str] = frozenset()) -> Registration | None:
    """How fn is proven to take the device, an interface or the module down
    (kind gone or down) or to bring it up (kind start, where a kill is the
    error unwind of its own set-up): its registration, or being a static
    function whose address is never taken and that is called only from
    such functions. None when nothing proves it; a name never does."""
    if not fn or fn in seen:
        return None
    if fn in f.regs:
        return f.regs[fn]
    callers = sorted(f.callers.get(fn, set()))
    if not callers or fn not in f.static or fn in f.referenced:
        return None
    hows = [teardown(c, f, seen | {fn}) for c in callers]
    if not all(hows):
        return None
    kinds = {h.kind for h in hows if h}
    kind = "start" if kinds == {"start"} else ("gone" if "gone" in kinds else "down")
    said = [f"{c}(), {role(h)}" for c, h in zip(callers, hows) if h]
    return Registration(kind, "called only from " + said[0] if len(said) == 1 else
                        f"called from {count(len(said))} functions only: "
                        + "; ".join(said[:-1]) + "; and " + said[-1])


def for_site(site: Site, f: Facts) -> Facts:
    """f as site sees its item: when the object of its call is declared a
    struct (&ddev->tasklet, ddev a struct txx9dmac_dev *) and the item's
    callbacks are set up on members of more than one struct, only the
    callbacks set up on that struct's member (or on one whose struct is
    not known) are its own: two structs' members of one name are two
    items. f itself when nothing tells them apart."""
    own = f.structs.get(site.item, {})
    if len({s for ss in own.values() for s in ss}) < 2:
        return f
    struct = site.struct
    cbs = {cb for cb, ss in own.items() if struct in ss or "" in ss}
    if not struct or not cbs or cbs == f.callbacks.get(site.item):
        return f
    return replace(f, callbacks={**f.callbacks, site.item: cbs})


def stopped_before(site: Site, f: Facts) -> str:
    """The call before the site, in its function, that stops what queues
    the item or frees what it works on (free_irq(), del_timer_sync(), ...)."""
    code = f.codes[site.path]
    start = next((a for a, b, n in function_spans(code) if n == site.function), -1)
    if start < 0:
        return ""
    before = code[start:line_start(code, site.line)]
    hits = [(m.group(1), before.count("\n", 0, m.start())) for m in _STOP_RE.finditer(before)
            if m.group(1) != "kfree"]
    if not hits:
        return ""
    return f"{hits[-1][0]}()"


@dataclass(frozen=True)
class Targets:
    """What a call through a pointer runs of the group's functions."""
    proven: frozenset[str]      # stored into that member of the same struct
    maybe: frozenset[str]       # stored into a member of that name of a struct not known
    complete: bool              # nothing else: no code outside the group


def targets(member: str, tag: str | None, f: Facts) -> Targets:
    """The functions of the group a call through member of an object of
    struct tag may run. A function stored into that member of another
    struct is not one (tty->ops->write() of a struct tty_operations never
    runs the .write of a struct tty_ldisc_ops). Where either struct is not
    known, the function may be one, but the call may also run code
    outside the group: only a call whose struct the group is seen to fill
    with its own functions, and with nothing else, is complete. A plain
    pointer (tag None) runs what the group stores into that name."""
    stores = f.stored.get(member, set())
    other = f.stored_other.get(member, set())
    if tag is None:
        fns = frozenset(fn for fn, _ in stores)
        return Targets(fns, frozenset(), bool(fns) and not other)
    proven = frozenset(fn for fn, t in stores if tag and t == tag)
    maybe = frozenset(fn for fn, t in stores if t is not None and (not tag or not t)) - proven
    return Targets(proven, maybe, bool(proven) and not ({tag, ""} & other))


def next_calls(fn: str, f: Facts) -> list[str]:
    """The functions of the group fn calls: directly, and through each
    pointer it calls, every function of the group that pointer may hold
    (targets())."""
    through: set[str] = set()
    for m, _, tag in f.pointer_calls.get(fn, ()):
        t = targets(m, tag, f)
        through |= t.proven | t.maybe
    return sorted(f.callees.get(fn, set()) | through)


def reached(item: str, f: Facts) -> list[tuple[str, str]]:
    """(callback, function) for each callback of item and each function
    of the group it reaches through calls (direct, or through a pointer
    member to the functions of the group stored into it), the callback
    first."""
    out = []
    for cb in sorted(f.callbacks.get(item, ())):
        todo, seen = [cb], set()
        while todo:
            fn = todo.pop()
            if fn in seen:
                continue
            seen.add(fn)
            out.append((cb, fn))
            todo += next_calls(fn, f)
    return out


def _unfollowed(item: str, f: Facts) -> tuple[str, str, str] | None:
    """(callback, function, call) of the first call through a pointer, in
    the functions the callbacks of item reach, that may run code outside
    the group (targets(): no function of the group is stored into that
    member of its struct, the struct is not known, or the group also
    sets the member to something else): what it runs is not known to the
    analysis; or of the first direct call to a function a file of the
    group declares and no file read defines (another module's: f.unread). None when every call reached is read."""
    for cb, fn in reached(item, f):
        for member, call, tag in f.pointer_calls.get(fn, ()):
            if not targets(member, tag, f).complete:
                return cb, fn, call
        called = sorted(set(_CALLED_RE.findall(f.bodies.get(fn, ""))) & f.unread)
        if called:      # a direct call to a function of another module
            return cb, fn, called[0]
    return None


def unresolved(item: str, f: Facts) -> str:
    """The first call of the reach of item through a pointer the analysis
    cannot follow (_unfollowed): "ops->handler() in foo_cb()"; "" when
    every pointer call reached is resolved."""
    hit = _unfollowed(item, f)
    return f"{hit[2]}() in {hit[1]}()" if hit else ""


def through_pointers(item: str, f: Facts) -> list[str]:
    """The pointer calls the reach of item followed, with the functions of
    the group they lead to: "ops->handler(), where the driver stores
    foo_handler() in the handler of its struct foo_ops objects" where that
    member of the call's struct is set to it (in some object of that
    struct: not always the one called);
    "e->done(), which may hold foo_done()" where one of the two structs is
    not known; "(*cb)(), set to foo_cb()" for a plain pointer."""
    out = []
    for _, fn in reached(item, f):
        for member, call, tag in f.pointer_calls.get(fn, ()):
            t = targets(member, tag, f)
            fs = [f"{g}()" for g in sorted(t.proven)]
            fns = fs[0] if len(fs) == 1 else ", ".join(fs[:-1]) + " or " + fs[-1] if fs else ""
            # the member of any object of that struct, not only the one called
            words = [] if not t.proven else [f"set to {fns}"] if tag is None else \
                [f"where the driver stores {fns} in the {member} of its struct {tag} objects"]
            if t.maybe:
                words.append(f"which may hold {' or '.join(f'{g}()' for g in sorted(t.maybe))}")
            line = f"{call}(), {' and '.join(words)}" if words else ""
            if line and line not in out:
                out.append(line)
    return out


def requeues_itself(item: str, f: Facts) -> str:
    """The callback of item that queues item again, directly or through a
    function of the group it calls; "" when none does."""
    sched = schedule_of(item)
    return next((cb for cb, fn in reached(item, f) if sched.search(f.bodies.get(fn, ""))), "")


def completes(item: str, f: Facts) -> tuple[str, str]:
    """(callback, call): the callback of item that completes work a caller
    waits for (ctext.teardown.completion_call), directly or through a
    function of the group it calls (through a pointer the group sets to its
    own functions too: those are read); else the first call through a
    pointer the analysis cannot follow (unresolved()), which may complete
    work; ("", "") when none does."""
    for cb, fn in reached(item, f):
        call = completion_call(f.bodies.get(fn, ""))
        if call:
            return cb, call + (f" in {fn}()" if fn != cb else "")
    hit = _unfollowed(item, f)
    if hit:
        cb, fn, call = hit
        how = "of another module, not read" if direct(call) else "through a pointer"
        return cb, f"{call}() {how}" + (f" in {fn}()" if fn != cb else "")
    return "", ""


def direct(call: str) -> bool:
    """Whether an unread call (_unfollowed) names its function: a call of
    another module's function, not one through a pointer."""
    return re.fullmatch(r"\w+", call) is not None


def roots(fn: str, f: Facts) -> set[str]:
    """The entry points of the group that reach fn: the registered
    functions on the way up its callers, and those no function of the
    group calls (fn itself when nothing calls it)."""
    out, todo, seen = set(), [fn], set()
    while todo:
        g = todo.pop()
        if g in seen:
            continue
        seen.add(g)
        up = f.callers.get(g, set())
        if g in f.regs or not up:
            out.add(g)
        todo += sorted(up)
    return out


def _first(reg: Registration) -> bool:
    """Whether a start registration is the first a device or module runs
    (.probe, .setup, module_init()), before any other callback."""
    return re.search(r"\.(?:probe|setup) of|module's init", reg.how) is not None


def before_init(site: Site, f: Facts) -> str:
    """Why a kill, disable or unlock_wait can run before its item is ever
    set up, across functions: it is reached from the first start callback
    (.probe, .setup, module_init()) that never reaches the item's set-up,
    while the set-up is reached from a later start callback of the driver
    (.set_online, .ndo_open, .start) and from no first one (lcs: the
    probe's error path frees a channel whose tasklet only set_online sets
    up). "" when no such path is found, or the item is set up in the
    site's own function (cocci/16-report-kill-before-init.cocci looks there)
    or at file scope (DECLARE_TASKLET()). A set-up reached only from
    functions no registration names (a bus core's, a function pointer) is
    not ordered by this analysis: no refusal."""
    where = f.inits.get(site.item, set())
    if not where or "" in where or site.function in where or not site.function:
        return ""
    init_roots = set().union(*(roots(i, f) for i in where))
    later = sorted(r for r in init_roots if r in f.regs and f.regs[r].kind == "start"
                   and not _first(f.regs[r]))
    if not later or any(r in f.regs and _first(f.regs[r]) for r in init_roots):
        return ""
    for r in sorted(roots(site.function, f)):
        reg = f.regs.get(r)
        if reg and reg.kind == "start" and _first(reg) and r not in init_roots:
            return (f"it is reached from {r}() ({reg.how}), which never sets {site.item} up "
                    f"(it is set up in {' and '.join(f'{i}()' for i in sorted(where))}, reached "
                    f"from {' and '.join(f'{i}()' for i in sorted(init_roots))}, and "
                    f"{later[0]}() is {f.regs[later[0]].how}): cancel_work_sync() "
                    "of a never-initialised work item WARNs, tasklet_kill() did not")
    return ""
