#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Golden tests for the semantic patches: one case per pattern.

tests/NAME.c        input; expected/NAME.c is the output, byte for byte.
tests/NAME_refused.c  must stay unconverted and unchanged;
                    expected/NAME_refused.reason is a text that the tool's
                    reason must contain.
tests/NAME/         a folder case (a header and several .c): expected/NAME.patch
                    is the whole diff, so a shared header changes exactly once;
                    expected/NAME.steps, when there, the driver's own patches
                    (cocci/drivers/ with `// Fix:` or `// Prep:`), each diff
                    from the text the one before it left.
tests/NAME.toml     the decisions the case's driver comes with (decisions/ form).
expected/NAME.sites the verdict of each enable/kill/disable/... site, one a line
                    (line, function, API, replacement, verdict, analysis).
expected/NAME.why   when there, the sentence of each such site (line: why;
                    a folder case's lines start with the file: path:line: why).
tests/thread-NAME.c a case converted with TARGET=thread; expected/thread-NAME.target
                    pins the target it got and why, and each guard (line,
                    work function, callback).
Every converted output also goes through the rules again: nothing may change.
The rule files are checked as the kernel runs them too: their headers, and
make coccicheck with one rule alone on a small tree.
Closing line: 'N passed, N failed'.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from fixtures import Tally  # noqa: E402
from detasklet.convert.rewrite import classify, spatch  # noqa: E402
from detasklet.convert.facts import driver_patches  # noqa: E402
from detasklet.convert.verdicts import decisions  # noqa: E402
from detasklet.convert import pipeline  # noqa: E402
from detasklet.convert.output import write as convert_write  # noqa: E402
from detasklet.convert.facts.groups import Group  # noqa: E402
from detasklet.ctext.gitdiff import file_diff, parse  # noqa: E402
from detasklet.errors import PatchError  # noqa: E402

TESTS, EXPECTED = ROOT / "tests", ROOT / "expected"


def convert_dir(tree: Path, decs: list[decisions.Decision] | None = None,
                target: str = "bh") -> list[classify.Outcome]:
    return [o for g in pipeline.run(tree, [], 2, 60, decs=decs or [], target=target) for o in g]


def target_of(name: str) -> str:
    return "thread" if name.startswith("thread-") else "bh"


def targets(o: classify.Outcome) -> str:
    """What expected/thread-NAME.target pins."""
    return (f"{o.target}: {o.target_why}\n"
            + "".join(f"{g['line']} {g['work_function']}() runs {g['callback']}()\n"
                      for g in o.guards))


def case_decisions(name: str) -> list[decisions.Decision]:
    """tests/NAME.toml: the decisions a case's driver comes with (its files
    named as in the case's tree: NAME.c, or the folder's files)."""
    f = TESTS / f"{name}.toml"
    return decisions.load_file(f, f"tests/{f.name}") if f.is_file() else []


def single(src: Path) -> tuple[str, str, str, str, str, str]:
    """(status, reason, output text, site verdicts, target, sentences) of
    one file converted on its own."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / src.name).write_bytes(src.read_bytes())
        outs = convert_dir(Path(tmp), case_decisions(src.stem), target_of(src.stem))
    if not outs:
        return "none", "no tasklet API found", src.read_text(), "", "", ""
    o = outs[0]
    return o.status, o.reason, o.new, verdicts(o), targets(o), sentences(o)


def sentences(o: classify.Outcome) -> str:
    """'line: why' per site with a verdict (expected/NAME.why pins them)."""
    return "".join(f"{s['line']}: {s['why']}\n" for s in o.sites if s["verdict"])


def verdicts(o: classify.Outcome) -> str:
    """One line per site with a verdict: line, function, API, replacement,
    verdict, analysis (expected/NAME.sites pins them)."""
    return "".join(f"{s['line']} {s['function']}() {s['api']} -> {s['replacement']}: "
                   f"{s['verdict']}{' (' + s['analysis'] + ')' if s['analysis'] else ''}\n"
                   for s in o.sites if s["verdict"])


def case_file(src: Path) -> str:
    name = src.stem
    status, reason, out, sites, target, whys = single(src)
    if name.endswith("_refused"):
        want_reason = (EXPECTED / f"{name}.reason").read_text().strip()
        if status == "converted":
            return "converted, but must be refused"
        if out != src.read_text():
            return "refused file was changed"
        if want_reason not in reason:
            return f"reason {reason!r} does not contain {want_reason!r}"
        return ""
    want = (EXPECTED / src.name).read_text()
    if status != "converted":
        return f"not converted: {reason}"
    if out != want:
        diff = "".join(file_diff(src.name, want, out).splitlines(True)[3:40])
        return "output differs from expected:\n" + diff
    pinned = EXPECTED / f"{name}.sites"
    if pinned.is_file() and pinned.read_text() != sites:
        return f"site verdicts differ from {pinned.name}:\n{sites}"
    said = EXPECTED / f"{name}.why"
    if said.is_file() and said.read_text() != whys:
        return f"site sentences differ from {said.name}:\n{whys}"
    if target_of(name) == "thread" and (EXPECTED / f"{name}.target").read_text() != target:
        return f"target differs from {name}.target:\n{target}"
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / src.name
        p.write_text(want)
        scratch = Path(tmp) / "scratch"
        scratch.mkdir()
        again = spatch.run_one(Path(tmp), src.name, spatch.combined_cocci(scratch / "x.cocci"),
                                scratch, 60, Group([src.name]))
    if again.new_text != want:
        return "second pass changed the expected output"
    return ""


def case_dir(d: Path) -> str:
    outs = convert_dir(d, case_decisions(d.name))
    bad = [o for o in outs if o.status != "converted"]
    if bad:
        return f"{bad[0].path} not converted: {bad[0].reason}"
    got = "".join(file_diff(o.path, o.old, o.new) for o in sorted(outs, key=lambda o: o.path))
    want = (EXPECTED / f"{d.name}.patch").read_text()
    if got != want:
        return "patch differs from expected"
    steps = EXPECTED / f"{d.name}.steps"
    if steps.exists() and own_patches(outs) != steps.read_text():
        return "the driver's own patches (fix, prep) differ from expected"
    outs = sorted(outs, key=lambda o: o.path)
    for suffix, got in (("sites", "".join(f"{o.path}:{v}" for o in outs
                                          for v in verdicts(o).splitlines(True))),
                        ("why", "".join(f"{o.path}:{w}" for o in outs
                                        for w in sentences(o).splitlines(True)))):
        pinned = EXPECTED / f"{d.name}.{suffix}"
        if pinned.is_file() and pinned.read_text() != got:
            return f"site {suffix} differ from {pinned.name}:\n{got}"
    return ""


def own_patches(outs: list[classify.Outcome]) -> str:
    """The driver's patches of their own (report.json "driver_prep"), in
    series order: for each, '# fix: <subject>' or '# prep: <subject>', its
    Fixes: tag, then its diff (expected/NAME.steps pins them)."""
    return "".join(f"# {'fix' if r.get('fix') else 'prep'}: {r['subject']}\n"
                   + (f"# Fixes: {r['fixes']}\n" if r.get("fixes") else "") + r["diff"]
                   for r in convert_write.driver_preps(outs))


RULES = sorted((ROOT / "cocci").glob("*.cocci"))
DRIVER_PATCHES = sorted((ROOT / "cocci" / "drivers").glob("*.cocci"))
HINTS = ROOT / "cocci" / "parsing-hints.h"


def _virtuals(text: str) -> list[str]:
    return re.findall(r"^virtual\s+(\w+)", text, re.M)


def parse_cocci() -> str:
    """Every rule file parses in each of its modes, and so does the file
    make convert runs (all of them, every mode)."""
    with tempfile.TemporaryDirectory() as tmp:
        files = [(c, _virtuals(c.read_text())) for c in RULES + DRIVER_PATCHES]
        files.append((spatch.combined_cocci(Path(tmp) / "all.cocci"), ["patch", "report", "facts"]))
        for c, modes in files:
            flags = [w for m in modes for w in ("-D", m)]
            p = subprocess.run(["spatch", "--parse-cocci", str(c), *flags],
                               capture_output=True, text=True)
            if p.returncode != 0:
                return f"{c.name} does not parse: {p.stderr.strip().splitlines()[-1:]}"
    return ""


def headers() -> str:
    """The kernel's header: a short /// text (coccicheck prints it as the
    message to submit), Confidence, and an Options line that names no file
    (coccicheck runs spatch from the object tree); a mode to run in."""
    for c in RULES:
        text = c.read_text()
        says = re.findall(r"^///", text, re.M)
        if not 1 <= len(says) <= 3:
            return f"{c.name}: {len(says)} /// lines, want 1 to 3"
        m = re.search(r"^// Options:(.*)$", text, re.M)
        if not m or "/" in m.group(1) or len(re.findall("Options:", text)) != 1:
            return f"{c.name}: want one // Options: line that names no file"
        if "// Confidence:" not in text or not {"patch", "report"} & set(_virtuals(text)):
            return f"{c.name}: no // Confidence: line, or no virtual patch or report"
    return ""


def driver_headers() -> str:
    """A driver patch (cocci/drivers/) says why in its /// text, which is
    the commit message's, names its files and runs in patch mode; a plain
    diff one parses and changes only the files it names."""
    loaded = {d.path: d for d in driver_patches.load()}
    for c in sorted((ROOT / "cocci" / "drivers").glob("*.patch")):
        if c not in loaded:
            return f"drivers/{c.name}: no /// text or no // Files: line"
        try:
            named = {fd.path for fd in parse(c.read_text())}
        except PatchError as e:
            return f"drivers/{c.name}: {e}"
        if not named or named - set(loaded[c].files):
            return f"drivers/{c.name}: its diff changes files its // Files: line does not name"
    for c in DRIVER_PATCHES:
        text = c.read_text()
        if c not in loaded:
            return f"drivers/{c.name}: no /// text or no // Files: line"
        if "// Confidence:" not in text or "// Options:" not in text \
                or _virtuals(text) != ["patch"]:
            return f"drivers/{c.name}: no // Confidence: or // Options: line, or not " \
                   "virtual patch alone"
        missing = [f for f in re.search(r"^// Files:(.*)$", text, re.M).group(1).split()
                   if not re.search(r"^[\w.-]+(?:/[\w.-]+)+\.[ch]$", f)]
        if missing:
            return f"drivers/{c.name}: {missing[0]!r} is not a tree-relative .c or .h path"
    return ""


def parsing_hints() -> str:
    """Each rule file, with the options of its header and the hints of
    cocci/parsing-hints.h (what make convert passes, and SPFLAGS alone),
    parses the unbraced scoped_guard() of tests/guard-scope-ended.c."""
    src = TESTS / "guard-scope-ended.c"
    for c in RULES:
        opts = re.search(r"^// Options:(.*)$", c.read_text(), re.M).group(1).split()
        p = subprocess.run(["spatch", "--parse-c", *opts, "--macro-file", str(HINTS), str(src)],
                           capture_output=True, text=True)
        if not re.search(r"nb bad = 0\b", p.stdout + p.stderr):
            return f"{c.name}: {src.name} does not parse with {' '.join(opts)} and the hints"
    return ""


# (rule, case, line of the report, words of its message)
REPORTS = [
    ("16-report-kill-before-init", "kill-before-init_refused", 36, "before its init in this function"),
    ("20-legacy-init", "legacy-callback-reads-data", 22, "only with the facts make convert proves"),
    ("21-legacy-nodata", "declare-tasklet-old", 6, "MODE=patch writes INIT_WORK() or DECLARE_WORK()"),
    ("22-legacy-data", "legacy-callback-reads-data", 22, "only with the facts make convert proves"),
    ("30-setup", "setup-from-tasklet", 29, "MODE=patch writes INIT_WORK() or from_work()"),
    ("40-calls", "setup-from-tasklet", 23, "MODE=patch writes queue_work(system_bh_wq)"),
    ("45-open-coded-schedule", "open-coded-schedule-sock", 19, "sock_hold() first"),
    ("50-state", "state-sched-test", 11, "MODE=patch writes work_pending()"),
    ("90-types", "setup-from-tasklet", 7, "MODE=patch writes struct work_struct"),
]


def coccicheck(rule: str, mode: str, case: str, want: list[str], nothing: bool = False) -> str:
    """rule run alone by the kernel's own make coccicheck, on a small tree:
    the reference tree's Makefile, scripts/ and include/ (linked, only read; O= takes
    what make writes) and one file, tests/CASE.c as drivers/foo/foo.c."""
    ref = ROOT / "cache" / "linux-source-7.3"
    if not (ref / "scripts/coccicheck").is_file():
        return f"no reference tree at {ref} (make references)"
    with tempfile.TemporaryDirectory() as tmp:
        k = Path(tmp) / "linux"
        (k / "drivers/foo").mkdir(parents=True)
        (k / "arch/x86").mkdir(parents=True)
        for f in ("Makefile", "scripts", "include", "arch/x86/Makefile"):
            (k / f).symlink_to(ref / f)
        (k / "drivers/foo/foo.c").write_bytes((TESTS / f"{case}.c").read_bytes())
        p = subprocess.run(["make", "-s", "-C", str(k), f"O={tmp}/o", "coccicheck",
                            f"COCCI={ROOT / 'cocci' / rule}", f"MODE={mode}"],
                           capture_output=True, text=True, timeout=300)
        missing = [w for w in want if w not in p.stdout]
        if nothing and re.search(r"^[-+][^-+]", p.stdout, re.M):
            return f"{rule} changed something alone: {p.stdout[-300:]!r}"
        if p.returncode or missing:
            return f"exit {p.returncode}, lacks {missing}: {(p.stdout + p.stderr)[-300:]!r}"
    return ""


def main(argv: list[str]) -> int:
    only = set(argv)
    cases = [("parse-cocci", parse_cocci), ("headers", headers),
             ("driver-headers", driver_headers),
             ("parsing-hints", parsing_hints),
             ("coccicheck-patch-30-setup", lambda: coccicheck(
                 "30-setup.cocci", "patch", "setup-from-tasklet",
                 ["-\ttasklet_setup(&priv->rx_tasklet, foo_rx_tasklet);",
                  "+\tINIT_WORK(&priv->rx_tasklet, foo_rx_tasklet);"])),
             ("coccicheck-patch-40-calls", lambda: coccicheck(
                 "40-calls.cocci", "patch", "setup-from-tasklet",
                 ["-\ttasklet_schedule(&priv->rx_tasklet);",
                  "+\tqueue_work(system_bh_wq, &priv->rx_tasklet);"])),
             ("coccicheck-report-15-sync-in-atomic", lambda: coccicheck(
                 "15-report-sync-in-atomic.cocci", "report", "kill-under-guard_refused",
                 ["drivers/foo/foo.c:", ": sync call in atomic context (lock or irqs off since"]))]
    # Every rule file has a report mode (the kernel's default MODE): where
    # MODE=patch would change the file, and why; 20 and 22 say they need
    # the group's facts, and alone in MODE=patch change nothing.
    for rule, case, line, words in REPORTS:
        cases.append((f"coccicheck-report-{rule}", lambda r=rule, c=case, ln=line, w=words: coccicheck(
            f"{r}.cocci", "report", c, [f"drivers/foo/foo.c:{ln}:", w])))
    for rule in ("20-legacy-init", "22-legacy-data"):
        cases.append((f"coccicheck-patch-{rule}-alone", lambda r=rule: coccicheck(
            f"{r}.cocci", "patch", "legacy-callback-reads-data", [], nothing=True)))
    for p in sorted(TESTS.iterdir()):
        if p.suffix == ".c":
            cases.append((p.stem, lambda p=p: case_file(p)))
        elif p.is_dir() and (EXPECTED / f"{p.name}.patch").exists():
            cases.append((p.name, lambda p=p: case_dir(p)))
    tally = Tally()
    for name, fn in cases:
        if not only or name in only:
            tally.case(name, fn())
    return tally.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
