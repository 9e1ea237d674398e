#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The README, line by line: every make command it shows parses as written
from the project folder (make -n: nothing runs), the quick ones run, and
the claims a quick check can hold are checked here; the claims another
runner checks name it, and that runner must have the case. A claim that
no test checks says so in the README ("not checked by a test").

One line per case, then 'N passed, N failed'. Arguments: case name parts.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
sys.path.insert(0, str(ROOT / "scripts"))


def make(args: list[str], dry: bool = True, timeout: int = 120) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(["make", *(["-n"] if dry else []), "--no-print-directory", *args],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=timeout)


def shown_commands() -> list[str]:
    """The make lines of the README's code blocks (indented), and each
    `make ...` of its text with the optional [ ... ] parts left out."""
    cmds = [ln.strip().split("#")[0].strip() for ln in README.splitlines()
            if re.match(r"^ {4}make ", ln)]
    for m in re.finditer(r"`(make [^-`][^`]*)`", README):    # not "make -f ...": a description
        text = re.sub(r"\[[^\]]*\]", "", m.group(1).replace("\\|", "|"))
        cmds.append(re.sub(r"\s+", " ", text).strip())
    return list(dict.fromkeys(cmds))


def parses(cmd: str) -> str:
    words = re.findall(r'"[^"]*"|\S+', cmd)[1:]
    args = [w.replace('"', "") if "=" in w else w for w in words]
    p = make(args)
    return "" if p.returncode == 0 else f"make -n exit {p.returncode}: {p.stderr.strip()[:200]}"


def runs(args: list[str], want: str) -> Callable[[], str]:
    def check() -> str:
        p = make(args, dry=False, timeout=300)
        if p.returncode != 0:
            return f"exit {p.returncode}: {(p.stdout + p.stderr)[-300:]!r}"
        return "" if want in p.stdout else f"no {want!r} in its output"
    return check


def help_lists_targets() -> str:
    shown = set(re.findall(r"^  make ([\w-]+)", make(["help"], dry=False).stdout, re.M))
    named = {m.split()[1] for m in re.findall(r"`(make [\w][\w-]*)", README)}
    missing = sorted(named - shown - {"test-fast"} | ({"test-fast"} - shown))
    return f"make help lacks {missing}" if missing else ""


def variables_exist() -> str:
    para = README[README.index("Variables: `KVER`"):]
    para = para[:para.index("\n\n")]
    names = re.findall(r"`([A-Z_]+)(?:=1)?`", para)
    mk = (ROOT / "Makefile").read_text()
    tool = {"DETASKLET_DATE", "SOURCE_DATE_EPOCH"}
    missing = [n for n in names if n not in tool and not re.search(rf"\b{n}\b", mk)]
    return f"not in the Makefile: {missing}" if missing else ""


def out_table() -> str:
    from detasklet.out.place import ENTRIES
    rows = re.findall(r"^\| `([\w./-]+?)/?` \|", README[README.index("| in OUT |"):], re.M)
    missing = [r for r in rows if r not in ENTRIES]
    return f"not what convert writes (out/place.py ENTRIES): {missing}" if missing else ""


def layout() -> str:
    block = README[README.index("## Where things are"):]
    block = block[:block.index("\n[docs/design.md]")]
    missing = []
    stack: list[tuple[int, str]] = []
    for ln in block.splitlines():
        m = re.match(r"^( {4,})([\w./_-]+)\s", ln + " ")
        if not m or ln.strip().startswith("KDIR"):
            continue
        depth = len(m.group(1))
        stack = [(d, p) for d, p in stack if d < depth]
        path = (stack[-1][1] if stack else "") + m.group(2)
        if m.group(2).endswith("/"):
            stack.append((depth, path))
        if not (ROOT / path).exists():
            missing.append(path)
    return f"missing: {missing}" if missing else ""


def rule_modes() -> str:
    para = README[README.index("`MODE=patch` rewrites with"):]
    para = para[:para.index("\n\n")]
    patch = set(re.findall(r"`(\d\d-[\w-]+)`", para[:para.index("`MODE=report` of those")]))
    errs = []
    for p in sorted((ROOT / "cocci").glob("*.cocci")):
        text = p.read_text()
        if not re.search(r"^virtual report$", text, re.M):
            errs.append(f"{p.stem}: no report mode")
        rewrites = p.stem not in ("20-legacy-init", "22-legacy-data") and \
            re.search(r"^virtual patch$", text, re.M)
        if bool(rewrites) != (p.stem in patch):
            errs.append(f"{p.stem}: patch mode {'not ' if not rewrites else ''}in the file, "
                        f"{'' if p.stem in patch else 'not '}in the README")
    return "; ".join(errs)


def hints() -> str:
    text = (ROOT / "cocci/parsing-hints.h").read_text()
    defined = set(re.findall(r"^#define (\w+)", text, re.M))
    said = {"scoped_guard", "scoped_cond_guard", "__context_unsafe", "__no_context_analysis"}
    for name in said:
        if f"`{name}" not in README:
            return f"README does not name {name}"
    return "" if defined == said else f"parsing-hints.h defines {sorted(defined)}"


def spatch_version() -> str:
    from detasklet.convert.rewrite import spatch
    return "" if "(1, 1, 1)" in Path(spatch.__file__).read_text() else "1.1.1 not required"


def not_checked_marks() -> str:
    """The claims no test checks say so in the README, each of these."""
    marks = ["Debian 13 and other Python versions: not checked by a test",
             "(the lines themselves: not checked by a test)",
             "(the figures: measured by `make bench`, not checked by a test)"]
    missing = [m for m in marks if m not in README]
    return f"the README no longer marks: {missing}" if missing else ""


def pip_install() -> str:
    """The README's install block, run as written with HOME in a scratch
    folder and Debian's python3 (/usr/bin first in PATH: the python3 of a
    fresh Debian machine)."""
    import tempfile
    block = README[README.index("## As a command"):README.index("## Two commands")]
    lines = [ln.strip() for ln in block.splitlines() if ln.startswith("    ")]
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "HOME": home, "PATH": "/usr/bin:" + os.environ.get("PATH", "")}
        env.pop("PYTHONPATH", None)
        p = subprocess.run(["bash", "-ec", "\n".join(lines)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            return f"exit {p.returncode}: {(p.stdout + p.stderr)[-300:]!r}"
        from detasklet.proc import tool_version
        want = f"detasklet {tool_version()}"
        return "" if want in p.stdout else f"--version said {p.stdout.strip()[-100:]!r}"


def elsewhere(runner: str, case: str) -> Callable[[], str]:
    """A claim another runner of make test-fast checks: it must have the case."""
    def check() -> str:
        text = (ROOT / runner).read_text()
        return "" if case in text else f"{runner} has no {case!r}"
    return check


# (case, words of the README that make the claim, check)
CLAIMS: list[tuple[str, str, Callable[[], str]]] = [
    ("help-lists-every-target", "`make help` lists them", help_lists_targets),
    ("variables-are-the-makefiles", "Variables: `KVER`", variables_exist),
    ("variables-from-the-command-line", "read from the command line only",
     elsewhere("tests/unit/test_makefile.py", "test_environment_does_not_leak")),
    ("kernel-habits-refused", "are\nrefused in one line",
     elsewhere("tests/unit/test_makefile.py", "test_refused_in_one_line")),
    ("out-table-is-what-convert-writes", "| in OUT | what it is |", out_table),
    ("where-things-are", "## Where things are", layout),
    ("every-rule-has-report-mode", "`MODE=patch` rewrites with", rule_modes),
    ("rules-run-by-kernel-coccicheck", "`make test` runs every rule this way",
     elsewhere("tests/golden.py", "coccicheck-report-")),
    ("hints-file", "The hints file makes", hints),
    ("spatch-1.1.1", "Coccinelle (`spatch` 1.1.1)", spatch_version),
    ("etc-apt-not-written", "nothing in `/etc/apt` is written",
     elsewhere("tests/unit/test_apt.py", "test_index_update_leaves_etc_apt_alone")),
    ("installs-one-line-each", "one line per package; apt's output goes to",
     elsewhere("tests/unit/test_apt.py", "test_quiet_when_it_works")),
    ("apt-forget-only-ours", "removes them if they are unchanged",
     elsewhere("tests/unit/test_apt.py", "test_changed_ones_are_left")),
    ("same-bytes-but-run-json", "two runs write the same bytes",
     elsewhere("tests/faults.py", "case_cache_rerun_reuses")),
    ("out-remembers-its-tree", "OUT remembers its tree",
     elsewhere("tests/unit/test_origin.py", "test_changed_version_is_refused")),
    ("bad-argument-one-line", "Every bad argument is one line and exit 2",
     elsewhere("tests/cli.py", "expect_error")),
    ("mapping-table", "`tests/unit/test_mapping.py`\nchecks that it is here",
     elsewhere("tests/unit/test_mapping.py", "README")),
    ("spdx-line", "`tests/unit/test_licence.py` checks it",
     elsewhere("tests/unit/test_licence.py", "SPDX")),
    ("not-checked-is-said", "not checked by a test", not_checked_marks),
    ("distcc-farm", "without the distcc farm test",
     elsewhere("tests/distcc.py", "objects-equal-a-local-build")),
    ("pip-install-runs-as-written", "pip install --no-build-isolation -e .", pip_install),
    ("coccicheck-runs-as-written", "make coccicheck RULE=30-setup MODE=patch PATHS=drivers/dma/dw",
     runs(["coccicheck", "RULE=30-setup", "MODE=patch", "PATHS=drivers/dma/dw"],
          "+\tINIT_WORK(&dw->tasklet, dw_dma_tasklet);")),
]


def main(only: list[str]) -> int:
    cases: list[tuple[str, Callable[[], str]]] = []
    for cmd in shown_commands():
        cases.append((f"parses: {cmd}", lambda c=cmd: parses(c)))
    for name, words, check in CLAIMS:
        cases.append((name, lambda w=words, c=check: (
            f"the README no longer says {w!r}" if w not in README else c())))
    passed = failed = 0
    for name, fn in cases:
        if only and not any(o in name for o in only):
            continue
        err = fn()
        print(f"FAIL {name}: {err}" if err else f"ok   {name}", flush=True)
        failed += bool(err)
        passed += not err
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
