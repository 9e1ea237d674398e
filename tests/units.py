#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The unit tests (tests/unit/test_*.py, stdlib unittest), one line per
test, then 'N passed, N failed'. Also: python3 -m unittest discover tests/unit
(with PYTHONPATH=scripts). Arguments select tests by name part."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))


class Result(unittest.TestResult):
    def __init__(self) -> None:
        super().__init__()
        self.passed = 0

    @staticmethod
    def _name(test: unittest.TestCase) -> str:
        return test.id().removeprefix("test_")

    def addSuccess(self, test: unittest.TestCase) -> None:
        self.passed += 1
        print(f"ok   {self._name(test)}", flush=True)

    def _fail(self, test: unittest.TestCase, err: tuple) -> None:
        last = self._exc_info_to_string(err, test).strip().splitlines()[-1]
        print(f"FAIL {self._name(test)}: {last}", flush=True)

    def addFailure(self, test: unittest.TestCase, err: tuple) -> None:
        super().addFailure(test, err)
        self._fail(test, err)

    def addError(self, test: unittest.TestCase, err: tuple) -> None:
        super().addError(test, err)
        self._fail(test, err)

    def addSubTest(self, test: unittest.TestCase, sub: unittest.TestCase,
                   err: tuple | None) -> None:
        if err is not None:
            super().addSubTest(test, sub, err)
            self._fail(sub, err)


def tests(suite: unittest.TestSuite) -> list[unittest.TestCase]:
    out = []
    for t in suite:
        out += tests(t) if isinstance(t, unittest.TestSuite) else [t]
    return out


def main(only: list[str]) -> int:
    found = tests(unittest.defaultTestLoader.discover(str(ROOT / "tests" / "unit"),
                                                      top_level_dir=str(ROOT / "tests" / "unit")))
    chosen = [t for t in found if not only or any(o in t.id() for o in only)]
    result = Result()
    unittest.TestSuite(chosen).run(result)
    failed = len(result.failures) + len(result.errors)
    print(f"{result.passed} passed, {failed} failed")
    return 1 if failed or not result.passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
