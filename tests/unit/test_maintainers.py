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


if __name__ == "__main__":
    unittest.main()
