# SPDX-License-Identifier: GPL-2.0-only
"""The house rules of scripts/, measured on the code itself (ast), so that
a change that breaks one fails here:

- one process layer: no module but detasklet/proc.py imports subprocess
  (or starts a program through os);
- one C reader: no re. call outside detasklet/ctext/ names the tasklet API
  (its regexes live in ctext/ and are imported from there);
- modules of one concern and functions a screen long: no module over
  MAX_MODULE lines, no function over MAX_FUNCTION lines."""

from __future__ import annotations

import ast
import re
import tempfile
import unittest
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
PKG = SCRIPTS / "detasklet"
PROC = PKG / "proc.py"
CTEXT = PKG / "ctext"
MAX_MODULE, MAX_FUNCTION = 450, 80
# os calls that start a program
_OS_START = re.compile(r"system|popen|spawn\w*|exec\w*|posix_spawn\w*|fork\w*")
# The tasklet API in a pattern: tasklet_*, struct tasklet_struct, DECLARE_TASKLET*,
# from_tasklet(), TASKLET_STATE_*, TASKLET_SOFTIRQ, "tasklets" in prose; not
# the tool's own name (detasklet, __detasklet_ markers, DETASKLET_*).
_API = re.compile(r"(?<!de)(?<!DE)(?:tasklet|TASKLET)")


def modules() -> list[Path]:
    return sorted(p for p in SCRIPTS.rglob("*.py") if "__pycache__" not in p.parts)


def tree(p: Path) -> ast.Module:
    return ast.parse(p.read_text(), str(p))


def rel(p: Path) -> str:
    return str(p.relative_to(SCRIPTS))


def starts_programs(mod: ast.Module) -> list[str]:
    """Where mod imports subprocess or calls os.system/popen/spawn*/exec*."""
    found = []
    for n in ast.walk(mod):
        if isinstance(n, ast.Import) and any(a.name.split(".")[0] == "subprocess"
                                             for a in n.names):
            found.append(f"{n.lineno}: import subprocess")
        elif isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "subprocess":
            found.append(f"{n.lineno}: from subprocess import")
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "os" \
                and _OS_START.fullmatch(n.func.attr):
            found.append(f"{n.lineno}: os.{n.func.attr}()")
    return found


def api_regexes(mod: ast.Module) -> list[str]:
    """The re.<fn>() calls of mod whose pattern (its string parts) names
    the tasklet API."""
    found = []
    for n in ast.walk(mod):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "re" and n.args:
            parts = [c.value for c in ast.walk(n.args[0])
                     if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            if any(_API.search(s) for s in parts):
                found.append(f"{n.lineno}: re.{n.func.attr}({parts[0][:50]!r}...)")
    return found


def too_long(p: Path, mod: ast.Module) -> list[str]:
    found = []
    lines = len(p.read_text().splitlines())
    if lines > MAX_MODULE:
        found.append(f"the module: {lines} lines")
    for n in ast.walk(mod):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            size = (n.end_lineno or n.lineno) - n.lineno + 1
            if size > MAX_FUNCTION:
                found.append(f"{n.name}() at line {n.lineno}: {size} lines")
    return found


class OneProcessLayer(unittest.TestCase):
    def test_only_proc_starts_programs(self) -> None:
        bad = {rel(p): f for p in modules() if p != PROC and (f := starts_programs(tree(p)))}
        self.assertEqual(bad, {}, "run programs through detasklet/proc.py")
        self.assertTrue(starts_programs(tree(PROC)), "proc.py is no longer the process layer")

    def test_the_measure_sees_each_way(self) -> None:
        mod = ast.parse("import subprocess as s\nfrom subprocess import run\nimport os\n"
                        "os.system('x')\nos.execvp('x', [])\nos.kill(1, 0)\n")
        self.assertEqual(len(starts_programs(mod)), 4)


class OneCReader(unittest.TestCase):
    def test_tasklet_regexes_live_in_ctext(self) -> None:
        bad = {rel(p): f for p in modules()
               if CTEXT not in p.parents and (f := api_regexes(tree(p)))}
        self.assertEqual(bad, {}, "name these patterns in detasklet/ctext/ and import them")
        self.assertTrue(any(api_regexes(tree(p)) for p in CTEXT.glob("*.py")))

    def test_the_measure_sees_a_pattern_in_each_form(self) -> None:
        mod = ast.parse("import re\nA = re.compile(r'\\btasklet_kill\\s*\\(')\n"
                        "B = re.search(r'\\b' + x + r'\\s*=\\s*DECLARE_TASKLET', c)\n"
                        "C = re.sub(f'{x}TASKLET_STATE_SCHED', '', c)\n"
                        "D = re.compile(r'detasklet-(\\d+)-|__detasklet_\\w+|DETASKLET_HI')\n"
                        "E = re.match(r'\\bfoo', c)\n")
        self.assertEqual([f.split(":")[0] for f in api_regexes(mod)], ["2", "3", "4"])


class Sizes(unittest.TestCase):
    def test_no_long_module_or_function(self) -> None:
        bad = {rel(p): f for p in modules() if (f := too_long(p, tree(p)))}
        self.assertEqual(bad, {}, f"at most {MAX_MODULE} lines a module, {MAX_FUNCTION} a "
                                  "function: split along its passes")

    def test_the_measure_counts_every_line(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            p = Path(d, "m.py")
            p.write_text("def f():\n" + "    x = 1\n" * (MAX_FUNCTION - 1)
                         + "\n\ndef g():\n" + "    x = 1\n" * MAX_FUNCTION)
            self.assertEqual(too_long(p, tree(p)), [f"g() at line {MAX_FUNCTION + 3}: "
                                                    f"{MAX_FUNCTION + 1} lines"])
            p.write_text("x = 1\n" * (MAX_MODULE + 1))
            self.assertEqual(too_long(p, tree(p)), [f"the module: {MAX_MODULE + 1} lines"])


if __name__ == "__main__":
    unittest.main()
