# SPDX-License-Identifier: GPL-2.0-only
"""series.prefix: subject prefixes from the table and from git history."""

import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from detasklet.series import prefix


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
                ("drivers", "hv"): ("Drivers: hv", ":"),
                ("drivers/unknown", "thing"): ("unknown: thing", ":")}
        for (where, name), got in want.items():
            with self.subTest(where=where, name=name):
                self.assertEqual(prefix.from_table(where, name)[:2], got)

    def test_prefix_of_a_subject(self) -> None:
        self.assertEqual(prefix.prefix_of_subject("[PATCH v2 3/7] crypto: ccp - Fix a leak"),
                         ("crypto: ccp", " -"))
        self.assertEqual(prefix.prefix_of_subject("dmaengine: at_hdmac: Fix x: y"),
                         ("dmaengine: at_hdmac: Fix x", ":"))


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
