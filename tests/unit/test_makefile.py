# SPDX-License-Identifier: GPL-2.0-only
"""The Makefile's variables: a kernel habit it does not share (M=, O=, V=,
W=) is refused in one line with what to use instead, a bad J, TIMEOUT or
TARGET names the variable, and an exported PREFIX, CC, TARGET or OUT does
not reach the commands (make -n: nothing runs)."""

from __future__ import annotations

import os
import subprocess
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def make_n(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), *args],
                          capture_output=True, text=True, env={**clean, **(env or {})}, timeout=60)


class Habits(unittest.TestCase):
    def test_refused_in_one_line(self) -> None:
        for args, words in ((["convert", "M=drivers/dma", "O=/x"], "OUT=<dir>"),
                            (["series", "M=../mod"], 'PATHS="drivers/dma'),
                            (["convert", "O=/x"], "OUT=<dir>"),
                            (["convert", "V=1"], "-v"),
                            (["compile-test", "W=1"], "default warnings"),
                            (["convert", "J=0"], "J=0: the number of parallel jobs"),
                            (["convert", "J=two"], "J=two"),
                            (["convert", "TIMEOUT=1s"], "TIMEOUT=1s"),
                            (["convert", "TARGET=process"], "TARGET=process: bh or thread")):
            with self.subTest(args=args):
                p = make_n(args)
                self.assertEqual(p.returncode, 2, p.stdout[:200])
                self.assertEqual(p.stdout, "")
                self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
                self.assertIn(words, p.stderr)

    def test_module_reaches_convert_and_compile_test(self) -> None:
        p = make_n(["convert", "compile-test", "KDIR=/k", "M=/m", "DECISIONS=/d", "TO=A <a@b.c>"])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("--module '/m' --decisions '/d' --to 'A <a@b.c>'", p.stdout)
        # convert, compile-test's --check, compile-test
        self.assertEqual(p.stdout.count("--module '/m'"), 3)

    def test_module_build_folder_and_variables(self) -> None:
        p = make_n(["compile-test", "KDIR=/k", "M=/m", "MDIR=drivers/x",
                    "MVARS=X_ALL=m X_INC={M}/include"])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.count(
            "--module '/m' --module-dir 'drivers/x' --module-vars 'X_ALL=m X_INC={M}/include'"), 2)

    def test_environment_does_not_leak(self) -> None:
        p = make_n(["convert", "compile-test", "branches", "KDIR=/k"],
                   {"PREFIX": "/usr/local", "CC": "clang", "TARGET": "x86_64-linux-gnu",
                    "OUT": "/srv/www", "J": "0"})
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("--target 'bh'", p.stdout)
        self.assertIn("-o 'out'", p.stdout)
        self.assertIn("--prefix 'detasklet/'", p.stdout)
        self.assertNotIn("clang", p.stdout)
        self.assertNotIn("/srv/www", p.stdout)

    def test_command_line_still_counts(self) -> None:
        p = make_n(["convert", "compile-test", "KDIR=/k", "TARGET=thread", "OUT=/o", "CC=ccache gcc", "J=3"])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("--target 'thread'", p.stdout)
        self.assertIn("-o '/o'", p.stdout)
        self.assertIn('--cc "ccache gcc"', p.stdout)
        self.assertIn("-j 3", p.stdout)


if __name__ == "__main__":
    unittest.main()
