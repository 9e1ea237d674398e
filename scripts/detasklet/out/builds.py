# SPDX-License-Identifier: GPL-2.0-only
"""The compile-test record of a converted file, as one type.

make compile-test (check/compile_test.py, check/module_build.py for M=)
writes it into report.json, a file's "build" (a prep patch's under
"prep"): the arches and config it was built with, the word for each side,
pristine and converted (OK, ERROR or NOT_BUILT), the first error, and
whether it is a regression. Every reader takes it as a Build (files.builds()
gives them; Build.of() reads one record), never as bare strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Union

OK, ERROR, NOT_BUILT = "ok", "error", "not-built"


@dataclass(frozen=True)
class Build:
    pristine: str = NOT_BUILT
    converted: str = NOT_BUILT
    arch: str = ""                 # the arches it built on, "x86_64+arm64"
    config: str = ""
    log: str = ""                  # the first error, for a failure
    regression: bool = False       # builds pristine, fails converted
    # of the changed code lines, how many the compiler saw (-1: not checked)
    changed: int = -1
    changed_compiled: int = -1

    @classmethod
    def of(cls, rec: Union["Build", Mapping[str, object]]) -> "Build":
        """The Build of a report.json record (a Build as it is)."""
        if isinstance(rec, Build):
            return rec
        lines = rec.get("changed_lines")
        n, c = (int(lines.get("of", -1)), int(lines.get("compiled", -1))) \
            if isinstance(lines, Mapping) else (-1, -1)
        return cls(str(rec.get("pristine", NOT_BUILT)), str(rec.get("converted", NOT_BUILT)),
                   str(rec.get("arch", "")), str(rec.get("config", "")), str(rec.get("log", "")),
                   bool(rec.get("regression")), n, c)

    @property
    def compiled_out(self) -> bool:
        """Its objects were compiled, but none of its changed lines: they
        sit under preprocessor conditions the configurations leave off."""
        return self.changed > 0 and self.changed_compiled == 0

    @property
    def builds(self) -> bool:
        """It built converted, with its changed lines."""
        return self.converted == OK and not self.compiled_out

    @property
    def fails(self) -> bool:
        """It failed to build converted."""
        return self.converted == ERROR

    @property
    def breaks(self) -> bool:
        """It builds pristine and fails converted."""
        return self.pristine == OK and self.converted == ERROR

    @property
    def built(self) -> bool:
        """It was compiled on some arch, pristine or converted (a pristine
        that was not compiled has converted "ok"), where it changed."""
        return (self.pristine != NOT_BUILT or self.converted != NOT_BUILT) \
            and not self.compiled_out

    def arches(self) -> list[str]:
        return [a for a in self.arch.split("+") if a]

    def first_error(self) -> str:
        return (self.log.splitlines() or [""])[0]
