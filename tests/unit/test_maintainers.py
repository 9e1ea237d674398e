# SPDX-License-Identifier: GPL-2.0-only
"""series.maintainers: MAINTAINERS sections, get_maintainer.pl."""

import unittest
from pathlib import Path

from detasklet.series import maintainers
from test_series import MAINTAINERS

ROOT = Path(__file__).resolve().parents[2]


class Owner(unittest.TestCase):
    idx = maintainers.Index(maintainers.parse(MAINTAINERS))

    def test_file_section_before_folder_section(self) -> None:
        o = self.idx.owner("drivers/dma/foo.c")
        self.assertEqual(o[1].name if o else None, "FOO DMA DRIVER")
        o = self.idx.owner("drivers/dma/sub/baz.c")
        self.assertEqual(o[1].name if o else None, "DMA GENERIC OFFLOAD ENGINE SUBSYSTEM")

    def test_sub_entries(self) -> None:
        self.assertTrue(self.idx.has_sub_entries("drivers/dma"))
        self.assertFalse(self.idx.has_sub_entries("drivers/net/wireless/ath/ath9k"))


class GetMaintainer(unittest.TestCase):
    def test_order_is_stable(self) -> None:
        """get_maintainer.pl lists people in Perl hash order; unseeded, six
        runs on ibmvnic's patch gave two orders."""
        kdir = ROOT / "cache" / "linux-source-6.12"
        self.assertTrue((kdir / "scripts/get_maintainer.pl").is_file(),
                        f"no reference tree at {kdir} (make references)")
        patch = "".join(f"--- a/{f}\n+++ b/{f}\n@@ -1,1 +1,1 @@\n-x\n+y\n" for f in
                        ("drivers/net/ethernet/ibm/ibmvnic.c", "drivers/net/ethernet/ibm/ibmvnic.h"))
        self.assertEqual(len({str(maintainers.recipients(kdir, patch)) for _ in range(6)}), 1)

    def test_no_git_fallback(self) -> None:
        """As b4 runs it: the author of a file's last commit is not a
        recipient, even of a file no MAINTAINERS section names."""
        import shutil
        import subprocess
        import tempfile
        ref = ROOT / "cache" / "linux-source-6.12"
        self.assertTrue((ref / "scripts/get_maintainer.pl").is_file(),
                        f"no reference tree at {ref} (make references)")
        with tempfile.TemporaryDirectory() as tmp:
            kdir = Path(tmp)
            for d in ("Documentation", "arch", "include", "drivers/misc", "fs", "init", "ipc",
                      "kernel", "lib", "scripts"):
                (kdir / d).mkdir(parents=True, exist_ok=True)
            for f in ("COPYING", "CREDITS", "Kbuild", "Makefile", "README"):
                (kdir / f).write_text("x\n")
            (kdir / "MAINTAINERS").write_text(MAINTAINERS)
            shutil.copyfile(ref / "scripts/get_maintainer.pl", kdir / "scripts/get_maintainer.pl")
            (kdir / "drivers/misc/orphan.c").write_text("x\n")
            env = {"GIT_AUTHOR_NAME": "Last Author", "GIT_AUTHOR_EMAIL": "last@example.org",
                   "GIT_COMMITTER_NAME": "Last Author", "GIT_COMMITTER_EMAIL": "last@example.org",
                   "HOME": tmp, "PATH": "/usr/bin:/bin"}
            for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "x"]):
                subprocess.run(["git", "-C", tmp, *cmd], check=True, env=env)
            patch = "--- a/drivers/misc/orphan.c\n+++ b/drivers/misc/orphan.c\n@@ -1 +1 @@\n-x\n+y\n"
            to, cc = maintainers.recipients(kdir, patch)
            self.assertNotIn("last@example.org", " ".join(to + cc))
            self.assertIn("--nogit-fallback", maintainers.GET_MAINTAINER)
            # the same tree and patch, with get_maintainer.pl's defaults
            r = subprocess.run(["perl", "scripts/get_maintainer.pl", "-f", "drivers/misc/orphan.c"],
                               cwd=kdir, capture_output=True, text=True)
            self.assertIn("last@example.org", r.stdout)     # what the fallback gave


if __name__ == "__main__":
    unittest.main()
