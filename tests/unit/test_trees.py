# SPDX-License-Identifier: GPL-2.0-only
"""series.trees: which tree takes a patch, its tag and its parts."""

import unittest

from detasklet.series import maintainers, trees

MAINTAINERS = """\
NETWORKING DRIVERS
M:	Net Person <net@example.org>
L:	netdev@vger.kernel.org
S:	Maintained
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net.git
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net-next.git
F:	drivers/net/

ATM
M:	Atm Person <atm@example.org>
L:	netdev@vger.kernel.org
S:	Maintained
F:	drivers/atm/

FOO NIC DRIVER
M:	Foo Person <foo@example.org>
S:	Maintained
F:	drivers/net/ethernet/foo/

CRYPTO API
M:	Crypto Person <crypto@example.org>
L:	linux-crypto@vger.kernel.org
S:	Maintained
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/herbert/cryptodev-2.6.git
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/herbert/crypto-2.6.git
F:	drivers/crypto/

ARM/FOO MACHINE SUPPORT
M:	Arm Person <arm@example.org>
S:	Maintained
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/arm/foo.git
F:	drivers/crypto/foo-crypt.c

BAR MISC DRIVER
M:	Bar Person <bar@example.org>
L:	bar-devel@lists.example.org
L:	linux-kernel@vger.kernel.org
S:	Maintained
F:	drivers/misc/bar.c

NETWORKING [GENERAL]
M:	Net Person <net@example.org>
L:	netdev@vger.kernel.org
S:	Maintained
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net.git
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/netdev/net-next.git
F:	net/

SHARED MEMORY COMMUNICATIONS (SMC) SOCKETS
M:	Smc Person <smc@example.org>
L:	linux-rdma@vger.kernel.org
L:	linux-s390@vger.kernel.org
S:	Supported
F:	net/smc/

S390 ARCHITECTURE
M:	S390 Person <s390@example.org>
L:	linux-s390@vger.kernel.org
S:	Supported
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/s390/linux.git
F:	drivers/s390/

S390 ZFCP DRIVER
M:	Zfcp Person <zfcp@example.org>
L:	linux-s390@vger.kernel.org
S:	Supported
F:	drivers/s390/scsi/zfcp_*

SCSI SUBSYSTEM
M:	Scsi Person <scsi@example.org>
L:	linux-scsi@vger.kernel.org
S:	Maintained
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/jejb/scsi.git
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/mkp/scsi.git
F:	drivers/scsi/

LINUX FOR POWERPC (32-BIT AND 64-BIT)
M:	Ppc Person <ppc@example.org>
L:	linuxppc-dev@lists.ozlabs.org
S:	Supported
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/powerpc/linux.git
F:	drivers/net/ethernet/ibm/ibmvnic.*
F:	drivers/scsi/ibmvscsi/

IBM Power SRIOV Virtual NIC Device Driver
M:	Vnic Person <vnic@example.org>
L:	netdev@vger.kernel.org
S:	Maintained
F:	drivers/net/ethernet/ibm/ibmvnic.*

THE REST
M:	Linus <linus@example.org>
L:	linux-kernel@vger.kernel.org
S:	Buried alive in reporters
T:	git git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git
F:	*
"""


class Trees(unittest.TestCase):
    idx = maintainers.Index(maintainers.parse(MAINTAINERS, lambda p: p.endswith("/")))
    table, lists = trees.load_table(), trees.load_lists()

    def of(self, path: str) -> trees.Tree:
        return trees.tree_of([path], self.idx, self.table, self.lists)

    def test_tree_name(self) -> None:
        self.assertEqual(trees.tree_name("git git://x/netdev/net-next.git"), "net-next")
        self.assertEqual(trees.tree_name("git git://x/git/kees/linux.git"), "kees-linux")
        self.assertEqual(trees.tree_name("git git://x/tip/tip.git irq/core"), "tip-irq-core")
        self.assertEqual(trees.tree_name("https://github.com/pkshih/rtw.git"), "rtw")

    def test_development_tree_over_fixes_tree(self) -> None:
        self.assertEqual(self.of("drivers/net/ethernet/bar/bar.c").name, "net-next")
        self.assertEqual(self.of("drivers/crypto/baz.c").name, "crypto")

    def test_section_without_tree_defers_to_the_one_above(self) -> None:
        t = self.of("drivers/net/ethernet/foo/foo.c")
        self.assertEqual((t.name, t.tag, t.limit), ("net-next", "net-next", 15))

    def test_list_of_the_table_names_the_tree(self) -> None:
        t = self.of("drivers/atm/eni.c")
        self.assertEqual((t.name, t.tag, t.via), ("net-next", "net-next", "list netdev@vger.kernel.org"))

    def test_a_tree_above_before_the_section_s_list(self) -> None:
        """net/smc/'s section names linux-rdma first and no tree: netdev,
        whose section takes net/, applies it."""
        t = self.of("net/smc/smc_core.c")
        self.assertEqual((t.name, t.tag, t.via), ("net-next", "net-next", ""))

    def test_an_architecture_decides_last(self) -> None:
        """LINUX FOR POWERPC lists ibmvnic and ibmvscsi; netdev and SCSI
        apply them. drivers/s390/block/ has no subsystem tree above: s390's."""
        self.assertEqual(self.of("drivers/net/ethernet/ibm/ibmvnic.c").name, "net-next")
        self.assertEqual(self.of("drivers/scsi/ibmvscsi/ibmvscsi.c").name, "scsi")
        self.assertEqual(self.of("drivers/s390/block/dasd.c").name, "s390-linux")

    def test_zfcp_goes_to_the_scsi_tree(self) -> None:
        from detasklet.series.plan import Patch
        t = self.of("drivers/s390/scsi/zfcp_qdio.c")
        self.assertEqual((t.name, t.via), ("scsi", "section SCSI SUBSYSTEM"))
        self.assertIn("SCSI maintainers", t.why)
        # and its mail goes to the SCSI maintainers and list too
        p = Patch(["drivers/s390/scsi/zfcp_qdio.c"], tree=t, to=["Zfcp Person <zfcp@example.org>"],
                  cc=["linux-s390@vger.kernel.org"])
        maintainers.add_taker([p], self.idx)
        self.assertEqual((p.to, p.cc), (["Zfcp Person <zfcp@example.org>",
                                         "Scsi Person <scsi@example.org>"],
                                        ["linux-s390@vger.kernel.org",
                                         "linux-scsi@vger.kernel.org"]))
        self.assertEqual(self.of("drivers/s390/block/dasd.c").name, "s390-linux")

    def test_an_orphaned_driver_goes_to_the_keeper_of_its_tree(self) -> None:
        """b43legacy's section is Orphan, lists only, and the wireless
        section excludes broadcom/: get_maintainer names no one, so the
        mail was To: nobody; the wireless tree's maintainer takes it."""
        from detasklet.series.plan import Patch
        text = ("NETWORKING DRIVERS (WIRELESS)\nM:\tWifi Person <wifi@example.org>\n"
                "L:\tlinux-wireless@vger.kernel.org\nS:\tMaintained\n"
                "T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/wireless/wireless.git\n"
                "T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/wireless/"
                "wireless-next.git\nF:\tdrivers/net/wireless/\nX:\tdrivers/net/wireless/broadcom/\n\n"
                "B43LEGACY WIRELESS DRIVER\nL:\tlinux-wireless@vger.kernel.org\n"
                "L:\tb43-dev@lists.infradead.org\nS:\tOrphan\n"
                "F:\tdrivers/net/wireless/broadcom/b43legacy/\n")
        idx = maintainers.Index(maintainers.parse(MAINTAINERS + "\n" + text,
                                                  lambda p: p.endswith("/")))
        f = "drivers/net/wireless/broadcom/b43legacy/main.c"
        t = trees.Tree("wireless-next", tag="wireless-next",
                       via="list linux-wireless@vger.kernel.org")
        p = Patch([f], tree=t, cc=["linux-wireless@vger.kernel.org", "b43-dev@lists.infradead.org"])
        maintainers.add_taker([p], idx)
        self.assertEqual((p.to, p.cc), (["Wifi Person <wifi@example.org>"],
                                        ["linux-wireless@vger.kernel.org",
                                         "b43-dev@lists.infradead.org"]))
        # a patch with a maintainer of its own keeps only them
        q = Patch(["drivers/net/ethernet/foo/foo.c"], tree=self.of("drivers/net/ethernet/foo/foo.c"),
                  to=["Foo Person <foo@example.org>"])
        maintainers.add_taker([q], idx)
        self.assertEqual(q.to, ["Foo Person <foo@example.org>"])

    def test_platform_section_is_not_the_tree(self) -> None:
        self.assertEqual(self.of("drivers/crypto/foo-crypt.c").name, "crypto")

    def test_first_real_list_then_misc(self) -> None:
        self.assertEqual(self.of("drivers/misc/bar.c").name, "bar-devel")
        self.assertEqual(self.of("lib/other.c").name, "misc")

    def test_parts_near_equal_within_the_limit(self) -> None:
        t = trees.Tree("net-next", limit=15)
        self.assertEqual(trees.parts(t, 15), [(0, 15)])
        self.assertEqual(trees.parts(t, 34), [(0, 12), (12, 24), (24, 34)])
        self.assertEqual(trees.parts(trees.Tree("dmaengine"), 40), [(0, 40)])



class TableRows(unittest.TestCase):
    """A trees.toml row is keyed by the name tree_name() gives the tree's
    T: line in MAINTAINERS; a row under another key is never read."""

    def test_rdma_row_is_the_infiniband_trees(self) -> None:
        t = trees.make_tree("git git://git.kernel.org/pub/scm/linux/kernel/git/rdma/rdma.git",
                            trees.load_table())
        self.assertEqual((t.name, t.tag), ("rdma", "rdma-next"))
        self.assertIn("for-rc", t.fixes)

    def test_i915_is_drm_intel(self) -> None:
        # sample 46: the i915 cover said "for the i915-kernel tree", the
        # last components of its gitlab URL, a name nobody uses
        t = trees.make_tree("git https://gitlab.freedesktop.org/drm/i915/kernel.git",
                            trees.load_table())
        self.assertEqual((t.name, t.tag), ("drm-intel", ""))

if __name__ == "__main__":
    unittest.main()
