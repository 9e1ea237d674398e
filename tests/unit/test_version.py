# SPDX-License-Identifier: GPL-2.0-only
"""One version from one place: --version prints proc.tool_version() (the
mails name no version of the tool: it has no public place to fetch it
from); report.md indexes each file's patch and has no empty heading."""

from __future__ import annotations

import os
import subprocess
import sys
import unittest
from pathlib import Path
from types import SimpleNamespace

from detasklet import __version__
from detasklet.proc import tool_version
from detasklet.series import write

ROOT = Path(__file__).resolve().parents[2]


class Version(unittest.TestCase):
    def test_one_version(self) -> None:
        v = tool_version()
        self.assertTrue(v.startswith(__version__), v)
        p = subprocess.run([sys.executable, "-m", "detasklet", "--version"], capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "scripts")})
        self.assertEqual(p.stdout.strip(), f"detasklet {v}")


class Help(unittest.TestCase):
    def test_exit_codes_and_examples(self) -> None:
        p = subprocess.run([sys.executable, "-m", "detasklet", "--help"], capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "scripts")})
        self.assertEqual(p.returncode, 0)
        for words in ("examples:", "detasklet convert ~/linux", "exit codes:",
                      "2    a user error", "130  stopped by Ctrl-C"):
            self.assertIn(words, p.stdout)


class Index(unittest.TestCase):
    def test_patch_index(self) -> None:
        a = SimpleNamespace(subject="dmaengine: dw: Convert from tasklet to BH workqueue",
                            files=["drivers/dma/dw/regs.h", "drivers/dma/dw/core.c"])
        b = SimpleNamespace(subject="net: foo: Convert", files=["drivers/net/foo.c"])
        series = [SimpleNamespace(folder="dmaengine", patches=[a]),
                  SimpleNamespace(folder="net-next", patches=[b])]
        rows = write.patch_index(series)    # type: ignore[arg-type]
        self.assertEqual(rows[1], "### Patches, by file")
        self.assertEqual(rows[5:], [
            "| `drivers/dma/dw/core.c` | `series/dmaengine/"
            "0001-dmaengine-dw-Convert-from-tasklet-to-BH-workqueue.patch` |",
            "| `drivers/dma/dw/regs.h` | `series/dmaengine/"
            "0001-dmaengine-dw-Convert-from-tasklet-to-BH-workqueue.patch` |",
            "| `drivers/net/foo.c` | `series/net-next/0001-net-foo-Convert.patch` |"])
        self.assertEqual(write.patch_index([]), [])


if __name__ == "__main__":
    unittest.main()
