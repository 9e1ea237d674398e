#!/usr/bin/env python3
"""Golden tests for the semantic patches: one case per pattern.

tests/NAME.c        input; expected/NAME.c is the output, byte for byte.
tests/NAME_refused.c  must stay unconverted and unchanged;
                    expected/NAME_refused.reason is a text that the tool's
                    reason must contain.
tests/NAME/         a folder case (a header and several .c): expected/NAME.patch
                    is the whole diff, so a shared header changes exactly once.
tests/NAME.toml     the decisions the case's driver comes with (decisions/ form).
expected/NAME.sites the verdict of each enable/kill/disable/... site, one a line
                    (line, function, API, replacement, verdict, analysis).
Every converted output also goes through the rules again: nothing may change.
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

from detasklet import classify, decisions, facts, rewrite, scan, series  # noqa: E402
from detasklet.__main__ import pipeline  # noqa: E402

TESTS, EXPECTED = ROOT / "tests", ROOT / "expected"


def convert_dir(tree: Path, decs: list[decisions.Decision] | None = None
                ) -> list[classify.Outcome]:
    return [o for g in pipeline(tree, [], 2, 60, decs=decs or []) for o in g]


def case_decisions(name: str) -> list[decisions.Decision]:
    """tests/NAME.toml: the decisions a case's driver comes with (its files
    named as in the case's tree: NAME.c, or the folder's files)."""
    f = TESTS / f"{name}.toml"
    return decisions.load_file(f, f"tests/{f.name}") if f.is_file() else []


def single(src: Path) -> tuple[str, str, str, str]:
    """(status, reason, output text, site verdicts) of one file converted
    on its own."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / src.name).write_bytes(src.read_bytes())
        outs = convert_dir(Path(tmp), case_decisions(src.stem))
    if not outs:
        return "none", "no tasklet API found", src.read_text(), ""
    o = outs[0]
    return o.status, o.reason, o.new, verdicts(o)


def verdicts(o: classify.Outcome) -> str:
    """One line per site with a verdict: line, function, API, replacement,
    verdict, analysis (expected/NAME.sites pins them)."""
    return "".join(f"{s['line']} {s['function']}() {s['api']} -> {s['replacement']}: "
                   f"{s['verdict']}{' (' + s['analysis'] + ')' if s['analysis'] else ''}\n"
                   for s in o.sites if s["verdict"])


def case_file(src: Path) -> str:
    name = src.stem
    status, reason, out, sites = single(src)
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
        diff = "".join(series.unified(src.name, want, out).splitlines(True)[3:40])
        return "output differs from expected:\n" + diff
    pinned = EXPECTED / f"{name}.sites"
    if pinned.is_file() and pinned.read_text() != sites:
        return f"site verdicts differ from {pinned.name}:\n{sites}"
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / src.name
        p.write_text(want)
        scratch = Path(tmp) / "scratch"
        scratch.mkdir()
        again = rewrite.run_one(Path(tmp), src.name, rewrite.combined_cocci(scratch / "x.cocci"),
                                scratch, 60, _env())
    if again.new_text != want:
        return "second pass changed the expected output"
    return ""


def _env() -> dict[str, str]:
    import os
    return {**os.environ, "PYTHONPATH": str(ROOT / "scripts")}


def case_dir(d: Path) -> str:
    outs = convert_dir(d, case_decisions(d.name))
    bad = [o for o in outs if o.status != "converted"]
    if bad:
        return f"{bad[0].path} not converted: {bad[0].reason}"
    got = "".join(series.unified(o.path, o.old, o.new) for o in sorted(outs, key=lambda o: o.path))
    want = (EXPECTED / f"{d.name}.patch").read_text()
    if got != want:
        return "patch differs from expected"
    return ""


def parse_cocci() -> str:
    for c in sorted((ROOT / "cocci").glob("*.cocci")):
        p = subprocess.run(["spatch", "--parse-cocci", str(c)], capture_output=True, text=True)
        if p.returncode != 0:
            return f"{c.name} does not parse: {p.stderr.strip().splitlines()[-1:]}"
    return ""


def options_line() -> str:
    """Each rule file run alone, with the options of its header, as the
    kernel's coccicheck would: it must parse the unbraced scoped_guard() of
    tests/guard-scope-ended.c. The combined run gets that from rule 15's
    "iterator name" declaration too; a rule file alone has only
    cocci/parsing-hints.h, which its // Options: line must name."""
    src = TESTS / "guard-scope-ended.c"
    for c in sorted((ROOT / "cocci").glob("*.cocci")):
        m = re.search(r"^// Options:(.*)$", c.read_text(), re.M)
        if not m:
            return f"{c.name} has no // Options: line"
        opts = [str(ROOT / o) if o.startswith("cocci/") else o for o in m.group(1).split()]
        p = subprocess.run(["spatch", "--parse-c", *opts, str(src)],
                           capture_output=True, text=True)
        if not re.search(r"nb bad = 0\b", p.stdout + p.stderr):
            return f"{c.name}: {src.name} does not parse with {m.group(1).strip()!r}"
    return ""


def main(argv: list[str]) -> int:
    only = set(argv)
    cases = [("parse-cocci", parse_cocci), ("options-line", options_line)]
    for p in sorted(TESTS.iterdir()):
        if p.suffix == ".c":
            cases.append((p.stem, lambda p=p: case_file(p)))
        elif p.is_dir() and (EXPECTED / f"{p.name}.patch").exists():
            cases.append((p.name, lambda p=p: case_dir(p)))
    passed = failed = 0
    for name, fn in cases:
        if only and name not in only:
            continue
        err = fn()
        if err:
            failed += 1
            print(f"FAIL {name}: {err}")
        else:
            passed += 1
            print(f"ok   {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
