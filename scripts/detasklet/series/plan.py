# SPDX-License-Identifier: GPL-2.0-only
"""The patches of the series: which files, which driver, which subject.

A patch is a driver (series.drivers): the groups of files that share a
tasklet are never split, and groups of one driver are one patch. Its
subject prefix comes from git history or the table of series.prefix; when
two drivers would get one subject, each gets its name.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..ctext import kbuild
from ..ctext.gitdiff import FileDiff, parse
from ..ctext.lex import mask
from ..ctext.tasklet import FORWARD_DECL_RE, MEMBER_LINE_RE, shared_names
from . import drivers as drivers_, maintainers, prefix, trees

SUBJECT = "Convert from tasklet to BH workqueue"
THREAD_SUBJECT = "Convert from tasklet to workqueue"    # TARGET=thread
UNUSED_SUBJECT = "Remove unused struct tasklet_struct declaration"
CORE_SUBJECT = "Remove the tasklet API"


@dataclass
class Patch:
    files: list[str]
    prefix: str = ""
    sep: str = ":"
    source: str = ""          # history | table | path
    name: str = ""            # the driver, for the message
    entries: list[str] = field(default_factory=list)
    shared: str = ""          # why files of several sections are one patch
    modules: int = 0          # the kbuild modules its .c files are linked into
    named: bool = False       # the prefix's driver name is in MAINTAINERS or the paths
    to: list[str] = field(default_factory=list)
    cc: list[str] = field(default_factory=list)
    no_rcpt: str = ""         # why the patch has no To/Cc, when it has none
    tree: trees.Tree = field(default_factory=lambda: trees.Tree("misc"))
    unused_only: bool = False  # the patch only deletes unused declarations
    prep: dict = field(default_factory=dict)    # a policy's prep patch (report.json "prep")
    # a driver's prep patch (report.json "driver_prep"), right before the
    # driver's conversion; its own diffs, from the pristine files
    driver_prep: dict = field(default_factory=dict)
    diffs: dict[str, FileDiff] = field(default_factory=dict)
    core: bool = False        # the removal of the tasklet core, last of all
    # TARGET=thread (report.json): BH wq -> process-context wq when every
    # file moved, their guards, and why a patch of such a run stayed on BH
    thread: dict[str, str] = field(default_factory=dict)
    guards: list[dict] = field(default_factory=list)
    kept_bh: str = ""

    def file_diffs(self, fds: dict[str, FileDiff]) -> list[FileDiff]:
        """The diffs of its files: its own (a prep patch, the core removal)
        or those of all.patch (fds)."""
        return [self.diffs.get(f) or fds[f] for f in self.files]
    queues: dict[str, str] = field(default_factory=dict)  # system wq -> the policy's, used here
    queues_by: str = ""       # the subject of the prep patch that adds those queues

    @property
    def fix(self) -> bool:
        """A driver's bug fix (a cocci/drivers/ patch with a `// Fix:` line):
        first in its series, for the tree's fixes branch."""
        return bool(self.driver_prep.get("fix"))

    @property
    def subject(self) -> str:
        if self.prep:
            return f"{self.prefix}{self.sep} {self.prep['subject'].partition(': ')[2]}"
        if self.driver_prep:
            return f"{self.prefix}{self.sep} {self.driver_prep['subject']}"
        if self.core:
            return f"{self.prefix}{self.sep} {CORE_SUBJECT}"
        return f"{self.prefix}{self.sep} " + (UNUSED_SUBJECT if self.unused_only else
                                              THREAD_SUBJECT if self.thread else SUBJECT)


def only_deletes_declarations(fds: list[FileDiff]) -> bool:
    """Every change of these diffs deletes a forward declaration of struct
    tasklet_struct, or a member of that type and its kernel-doc line
    (convert's output for a dead one)."""
    gone = [ln if ln.endswith("\n") else ln + "\n" for fd in fds for ln in fd.lines("-")]
    return bool(gone) and not any(fd.lines("+") for fd in fds) and \
        any(FORWARD_DECL_RE.fullmatch(ln) or MEMBER_LINE_RE.fullmatch(ln) for ln in gone) and \
        all(FORWARD_DECL_RE.fullmatch(ln) or MEMBER_LINE_RE.fullmatch(ln)
            or re.fullmatch(r"[ \t]*\*[ \t]+\S.*\n", ln) for ln in gone)


def name_patch(files: list[str], drivers: dict[str, drivers_.Driver],
               old: dict[str, str]) -> tuple[str, str]:
    """(where, name): the folder and the short name of the driver of a
    patch (see prefix.from_table); a folder named after a bus (pcie/) is
    replaced by its parent (qtnfmac); a table key of the files' names
    names them (mtk_wed)."""
    where, name = _name_patch(files, drivers, old)
    if prefix.key_name(tuple(files)):
        return where, prefix.key_name(tuple(files))
    if not any(_norm(name) in _norm(f) for f in files):
        # a module named unlike its files (hdma from hidma.c): the files' name
        stems = [posixpath.splitext(posixpath.basename(f))[0] for f in files]
        name = prefix.common_name(stems) or name
    # up to the folder a subsystem's table row names, or that names the
    # driver itself (mlx5/ of mlx5/core/: a "fixed" row, whose prefix is the
    # same from its parent)
    while name in prefix.GENERIC and "/" in where and (
            prefix.root_of(where + "/") != where + "/"
            or prefix.TABLE[where + "/"][1] == "fixed"):
        where, name = posixpath.dirname(where), posixpath.basename(where)
    return where, name


def _name_patch(files: list[str], drivers: dict[str, drivers_.Driver],
                old: dict[str, str]) -> tuple[str, str]:
    keys = {drivers[f].key for f in files}
    cs = [f for f in files if f.endswith(".c")] or files
    if all(f.startswith("include/") for f in files) and len(files) == 1:
        return posixpath.dirname(files[0]), posixpath.splitext(posixpath.basename(files[0]))[0]
    if len(keys) == 1:
        d = drivers[files[0]]
        if d.kind == "entry":
            names = sorted({drivers[f].name for f in cs})
            if len(names) == 1:
                return d.folder, names[0]
            common = posixpath.commonpath([posixpath.dirname(f) for f in files])
            return common, prefix.common_name(names) or posixpath.basename(common)
        if d.kind == "folder" and prefix.root_of(f"{d.folder}/{d.name}/") == f"{d.folder}/{d.name}/":
            # the folder is a whole subsystem's (drivers/atm/): name the module
            names = sorted({drivers[f].module for f in cs})
            return f"{d.folder}/{d.name}", prefix.common_name(names) or names[0]
        if d.kind == "folder":
            # the deepest folder of the files (qtnfmac/ in quantenna/)
            common = posixpath.commonpath([posixpath.dirname(f) for f in files])
            return posixpath.dirname(common), posixpath.basename(common)
        return d.folder, d.name
    local = [f for f in files if not f.startswith("include/")] or files
    common = posixpath.commonpath([posixpath.dirname(f) for f in local])
    root = prefix.root_of(common + "/")
    one_folder_of_many = all(posixpath.dirname(f) == common and drivers[f].kind in ("module", "entry")
                             for f in local)
    if root and len(common) + 1 > len(root) and common + "/" != root and \
            not one_folder_of_many:
        return posixpath.dirname(common), posixpath.basename(common)
    # the one module all the .c files are linked into (ctcm: ctcm_main.c,
    # ctcm_fsms.c, ctcm_mpc.c)
    mods = {drivers[f].module for f in local if f.endswith(".c")}
    if len(mods) == 1 and "" not in mods:
        return common, mods.pop()
    # the header most files include names it (virt-dma.h, usbnet.h)
    hs = [f for f in files if f.endswith(".h")]
    if hs:
        def users(h: str) -> int:
            b = posixpath.basename(h)
            return sum(b in old[f] for f in files if f != h)
        h = max(sorted(hs), key=users)
        stem = posixpath.splitext(posixpath.basename(h))[0]
        twin = [f for f in local if posixpath.basename(f) == stem + ".c"]
        where = posixpath.dirname(twin[0] if twin else local[0])
        return where, stem
    return posixpath.dirname(common), posixpath.basename(common)


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def name_found(pfx: str, files: list[str], entries: list[maintainers.Entry]) -> bool:
    """The last component of the prefix (the driver) is named by a
    MAINTAINERS section that owns the files (title or F: pattern) or is
    part of a path of the patch: the check behind 'matches MAINTAINERS'."""
    last = _norm(re.split(r"[:/ ]+", pfx.strip())[-1])
    if not last:
        return False
    hay = [_norm(e.name) for e in entries] + [_norm(f) for e in entries for f in e.files]
    hay += [_norm(f) for f in files]
    return any(last in h for h in hay)


def index_of(kdir: Path) -> maintainers.Index:
    """KDIR's MAINTAINERS, indexed (empty without one)."""
    text = (kdir / "MAINTAINERS").read_text(errors="replace") \
        if (kdir / "MAINTAINERS").is_file() else ""
    return maintainers.Index(maintainers.parse(text, lambda p: (kdir / p).is_dir()))


def policy_queues(files: list[str], fds: dict[str, FileDiff], preps: list[dict]) -> dict[str, str]:
    """system workqueue -> the policy's, for those of a policy's workqueues
    that the added lines of files name."""
    added = "".join(ln for f in files for ln in fds[f].lines("+"))
    return {s: o for pr in preps if all(f.startswith(tuple(pr["paths"])) for f in files)
            for s, o in sorted(pr["queues"].items()) if re.search(r"\b" + o + r"\b", added)}


def queues_subject(queues: dict[str, str], preps: list[dict]) -> str:
    """The subject of the prep patch that adds the workqueues of queues
    (the policy's): the name a patch gives it, which stays true once both
    are commits; "" when queues is empty."""
    return next((pr["subject"] for pr in preps
                 if set(queues.values()) & set(pr["queues"].values())), "") if queues else ""


def crossing(unit: list[str], own: dict, modules: dict[str, str]) -> bool:
    """The files of one group are in several MAINTAINERS sections or
    kbuild modules: the message says why they are one patch."""
    return len({own[f][1].name for f in unit if own[f]}) > 1 or \
        len({modules[f] for f in unit if modules.get(f)}) > 1


def shared_sentence(unit: list[str], old: dict[str, str], own: dict,
                    modules: dict[str, str]) -> str:
    """Why the files of one group (unit) are in one patch: the work items
    (tasklet members and variables) a file of it declares that another one
    names, headers first (why convert grouped them); else the functions
    and macros on the tasklet type that they share."""
    order = sorted(unit, key=lambda f: not f.endswith(".h"))
    text = {f: mask(old[f]) for f in unit}

    def named(kind: int) -> dict[str, str]:
        got: dict[str, str] = {}
        for f in order:
            for x in sorted(shared_names(text[f])[kind]):
                if x not in got and any(re.search(r"\b" + re.escape(x) + r"\b", text[g])
                                        for g in unit if g != f):
                    got[x] = f
        return got
    items, what = named(0), "work item"
    if not items:
        items, what = named(1), "function or macro on the tasklet type"
    where = list(dict.fromkeys(items.values()))
    names = ", ".join(unit[:-1]) + " and " + unit[-1]
    sections = len({own[f][1].name for f in unit if own[f]})
    mods = len({modules[f] for f in unit if modules.get(f)})
    plural = what.replace("item", "items").replace("function or macro", "functions and macros")
    return (f"{names} are changed in one patch because they share the "
            + (what if len(items) == 1 else plural)
            + (f" {_and(sorted(items))} declared in {_and(where)}, whose type "
               "changes in all of them at once." if items else ".")
            + (f" They are maintained in {sections} MAINTAINERS sections." if sections > 1
               else "")
            + (f" They are linked into {mods} modules." if mods > 1 else ""))


def _and(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def plan(kdir: Path, fds: dict[str, FileDiff], old: dict[str, str],
         groups: list[list[str]], index: maintainers.Index | None = None,
         preps: list[dict] | None = None,
         driver_preps: list[dict] | None = None) -> list[Patch]:
    """The patches: drivers, joined groups, subjects, trees; preps: the
    subsystems' prep patches (report.json "prep"), each a patch of its own
    that comes first in its tree's series (series.write.split);
    driver_preps: the drivers' own prep patches (report.json
    "driver_prep"), each right before the conversion of its files."""
    preps = preps or []
    index = index or index_of(kdir)
    table, lists = trees.load_table(), trees.load_lists()
    mods: dict[str, dict[str, str]] = {}
    drivers: dict[str, drivers_.Driver] = {}
    for f in sorted(fds):
        d = posixpath.dirname(f)
        if d not in mods:
            mods[d] = kbuild.modules(kbuild.read(kdir, d))
        drivers[f] = drivers_.driver_of(f, index, mods[d],
                                        lambda x: drivers_.building_folder(kdir, x),
                                        lambda d: bool(kbuild.read(kdir, d)))
    git = prefix.is_git(kdir)
    patches = []
    prep_of = {tuple(sorted(pr["files"])): pr for pr in preps}
    # a prep patch is never joined with a driver's files
    mod_cache: dict[str, dict[str, str]] = {}
    modules = {f: drivers_.module_of(kdir, f, mod_cache) for f in fds}
    alone = [g[0] for g in groups if len(g) == 1 and g[0].endswith(".h")
             and tuple(g) not in prep_of]
    modules.update(drivers_.header_modules(kdir, alone, sorted(fds), modules))
    units_list = [[g] for g in groups if tuple(sorted(g)) in prep_of] + drivers_.split(
        [g for g in groups if tuple(sorted(g)) not in prep_of], modules)
    for units in units_list:
        files = sorted(f for u in units for f in u)
        p = Patch(files, unused_only=only_deletes_declarations([fds[f] for f in files]))
        p.prep = prep_of.get(tuple(files), {})
        p.queues = {} if p.prep else policy_queues(files, fds, preps)
        p.queues_by = queues_subject(p.queues, preps)
        where, p.name = name_patch(files, drivers, old)
        hist = prefix.from_history(kdir, files) if git else None
        if p.prep:
            p.prefix, p.sep, p.source = p.prep["subject"].partition(": ")[0], ":", "table"
        elif hist:
            (p.prefix, p.sep), p.source = hist, "history"
        else:
            p.prefix, p.sep, p.source = prefix.from_table(where, p.name, tuple(files))
        own = {f: index.owner(f) for f in files}
        p.named = p.source == "history" or name_found(p.prefix, files, [
            e for o in own.values() if o for e in [o[1]]])
        p.entries = sorted({o[1].name for o in own.values() if o})
        p.tree = trees.tree_of(files, index, table, lists)
        p.modules = len({modules[f] for f in files if modules.get(f)})
        p.shared = " ".join(shared_sentence(u, old, own, modules) for u in units
                            if len(u) > 1 and crossing(u, own, modules))
        patches.append(p)
    # one subject per patch: two drivers under one fixed prefix get their names
    subs: dict[str, list[Patch]] = {}
    for p in patches:
        if not p.prep:
            subs.setdefault(p.prefix, []).append(p)
    for same in subs.values():
        if len(same) > 1 and len({p.name for p in same}) == len(same):
            for p in same:
                if not p.prefix.endswith(p.name):
                    p.prefix += f": {p.name}"
        elif len(same) > 1:
            by_module(same, modules)
    return with_driver_preps(patches, driver_preps or [])


def by_module(same: list[Patch], modules: dict[str, str]) -> None:
    """Patches that got one subject prefix and one driver name (the
    folder ipw2x00/ for ipw2100.c and ipw2200.c) but whose .c files kbuild
    links into one module each, a different one per patch: each is named
    after its module instead (wifi: ipw2100, wifi: ipw2200; scsi:
    megaraid_mbox, scsi: megaraid_sas), so no two mails of a series carry
    one subject. When one of them spans modules (rtlwifi/: the rtlwifi
    core and rtl_pci in one patch, rtl_usb in another), it keeps the
    folder's name and the others add their module to it (wifi: rtlwifi:
    rtl_usb). Left as they are when two span modules or two share one."""
    sets = [{modules[f].partition(":")[2] for f in p.files if modules.get(f)} for p in same]
    multi = [p for p, ms in zip(same, sets) if len(ms) > 1]
    if any(not ms for ms in sets) or len(multi) > 1:
        return
    singles = [p for p, ms in zip(same, sets) if len(ms) == 1]
    mods = [next(iter(ms)) for ms in sets if len(ms) == 1]
    if len(set(mods)) != len(mods) or multi and multi[0].name in mods:
        return
    # the module's name as the subsystem's history has it (aspeed_crypto ->
    # aspeed, beside aspeed_acry), when that keeps the subjects apart
    short = [prefix.strip_name(m, p.prefix.partition(":")[0]) for p, m in zip(singles, mods)]
    mods = short if len(set(short)) == len(short) else mods
    for p, m in zip(singles, mods):
        p.prefix = (p.prefix[:-len(p.name)] + m if p.name and p.prefix.endswith(p.name)
                    and not multi else f"{p.prefix}: {m}")
        p.name = m


def with_driver_preps(patches: list[Patch], preps: list[dict]) -> list[Patch]:
    """patches with each driver's patch of its own (report.json
    "driver_prep": a fix, a prep patch, in that order) inserted right
    before the conversion patch that holds its files (some of them: a file
    the patch alone changes is not in the conversion), from the same
    driver, tree and prefix. series.write.split then moves the fixes to
    the front of their series."""
    out: list[Patch] = []
    done: list[dict] = []
    for p in patches:
        for pr in preps:
            if set(pr["files"]) & set(p.files) and pr not in done:
                done.append(pr)
                out.append(Patch(sorted(pr["files"]), p.prefix, p.sep, p.source, p.name,
                                 p.entries, named=p.named, tree=p.tree, driver_prep=pr,
                                 diffs={fd.path: fd for fd in parse(pr["diff"])}))
        out.append(p)
    return out


SOFTIRQ = "kernel/softirq.c"     # its tree takes the core removal
# MAINTAINERS gives kernel/softirq.c no section of its own (THE REST):
# its changes go through the IRQ subsystem's tree, tip irq/core
SOFTIRQ_HOME = "kernel/irq/manage.c"


def core_tree(files: list[str], index: maintainers.Index) -> trees.Tree:
    """The tree of the core removal: kernel/softirq.c's, or the IRQ
    subsystem's where MAINTAINERS names none for it."""
    table, lists = trees.load_table(), trees.load_lists()
    own = trees.tree_of([f for f in files if f == SOFTIRQ] or files[-1:], index, table, lists)
    if own.name != "misc" or SOFTIRQ not in files:
        return own
    return trees.tree_of([SOFTIRQ_HOME], index, table, lists)


def core_patch(kdir: Path, diffs: list[FileDiff], index: maintainers.Index | None = None
               ) -> Patch:
    """The removal of the tasklet core (OUT/tasklet-free.patch), a patch of
    the tree that maintains kernel/softirq.c, sent once every other series
    is in."""
    index = index or index_of(kdir)
    files = [fd.path for fd in diffs]
    own = {f: index.owner(f) for f in files}
    return Patch(files, "softirq", ":", "table", "softirq",
                 sorted({o[1].name for o in own.values() if o}), named=True,
                 tree=core_tree(files, index),
                 diffs={fd.path: fd for fd in diffs}, core=True)
