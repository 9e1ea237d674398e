# SPDX-License-Identifier: GPL-2.0-only
"""series.prefix: subject prefixes from the table and from git history."""

import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from detasklet.series import plan, prefix
from detasklet.series.drivers import Driver


class Table(unittest.TestCase):
    def test_table(self) -> None:
        want = {("drivers/dma", "at_hdmac"): ("dmaengine: at_hdmac", ":"),
                ("drivers/dma/qcom", "bam_dma"): ("dmaengine: qcom: bam_dma", ":"),
                ("drivers/dma", "dma-axi-dmac"): ("dmaengine: axi-dmac", ":"),
                ("drivers/crypto", "ccp"): ("crypto: ccp", " -"),
                ("drivers/crypto/aspeed", "aspeed_crypto"): ("crypto: aspeed", " -"),
                ("drivers/crypto/aspeed", "aspeed_acry"): ("crypto: aspeed_acry", " -"),
                ("drivers/crypto/intel/ixp4xx", "ixp4xx_crypto"): ("crypto: ixp4xx", " -"),
                ("drivers/crypto/intel/qat", "qat_common"): ("crypto: qat", " -"),
                ("drivers/net/wireless/ath", "ath9k"): ("wifi: ath9k", ":"),
                ("drivers/infiniband/hw", "hfi1"): ("RDMA/hfi1", ":"),
                ("net", "mac80211"): ("wifi: mac80211", ":"),
                ("drivers/s390/net", "ctcm"): ("s390/ctcm", ":"),
                ("drivers/net/ethernet", "ni"): ("net: nixge", ":"),
                ("drivers/net/ethernet/cavium", "thunder"): ("net: thunderx", ":"),
                ("drivers", "hv"): ("Drivers: hv", ":"),
                ("drivers/bus/mhi", "host"): ("bus: mhi: host", ":"),
                ("drivers/bus/mhi/host", "mhi"): ("bus: mhi: host", ":"),
                ("drivers/net/ethernet/netronome", "nfp"): ("nfp", ":"),
                ("drivers/net/ethernet/netronome/nfp", "nfp"): ("nfp", ":"),
                ("drivers/tty/vt", "keyboard"): ("tty: vt: keyboard", ":"),
                ("drivers/unknown", "thing"): ("unknown: thing", ":")}
        for (where, name), got in want.items():
            with self.subTest(where=where, name=name):
                self.assertEqual(prefix.from_table(where, name)[:2], got)

    def test_a_key_for_the_files_of_one_driver(self) -> None:
        wed = ("drivers/net/ethernet/mediatek/mtk_wed_wo.c",
               "drivers/net/ethernet/mediatek/mtk_wed_wo.h")
        # the driver found as the folder (7.3.4) or as its files (6.12.118)
        for where, name in (("drivers/net/ethernet", "mediatek"),
                            ("drivers/net/ethernet/mediatek", "mtk_wed_wo")):
            self.assertEqual(prefix.from_table(where, name, wed)[:2],
                             ("net: ethernet: mtk_wed", ":"))
        self.assertEqual(prefix.key_name(wed), "mtk_wed")
        eth = wed + ("drivers/net/ethernet/mediatek/mtk_eth_soc.c",)
        self.assertEqual(prefix.key_name(eth), "")
        self.assertEqual(prefix.from_table("drivers/net/ethernet", "mediatek", eth)[:2],
                         ("net: mediatek", ":"))

    def test_prefix_of_a_subject(self) -> None:
        self.assertEqual(prefix.prefix_of_subject("[PATCH v2 3/7] crypto: ccp - Fix a leak"),
                         ("crypto: ccp", " -"))
        self.assertEqual(prefix.prefix_of_subject("dmaengine: at_hdmac: Fix x: y"),
                         ("dmaengine: at_hdmac: Fix x", ":"))


class DriverNames(unittest.TestCase):
    """The driver a patch's message names: the key of the files' names
    (mtk_wed)."""

    def test_mtk_wed(self) -> None:
        files = ["drivers/net/ethernet/mediatek/mtk_wed_wo.c",
                 "drivers/net/ethernet/mediatek/mtk_wed_wo.h"]
        d = Driver("mediatek", "drivers/net/ethernet", "mediatek", "folder", "mtk_eth")
        self.assertEqual(plan.name_patch(files, {f: d for f in files}, {f: "" for f in files}),
                         ("drivers/net/ethernet", "mtk_wed"))


class History(unittest.TestCase):
    def test_most_frequent_prefix_wins(self) -> None:
        env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
               "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}
        with tempfile.TemporaryDirectory() as d:
            def git(*a: str) -> None:
                subprocess.run(["git", "-C", d, *a], env=env, check=True, capture_output=True)
            git("init", "-q")
            for n, subj in enumerate(["dmaengine: foo: Fix a", "dmaengine: Fix b",
                                      "dmaengine: foo: Fix c", "Merge branch x"]):
                Path(d, "foo.c").write_text(f"int a{n};\n")
                git("add", "foo.c")
                git("commit", "-q", "-m", subj)
            self.assertEqual(prefix.from_history(Path(d), ["foo.c"]), ("dmaengine: foo", ":"))


if __name__ == "__main__":
    unittest.main()
