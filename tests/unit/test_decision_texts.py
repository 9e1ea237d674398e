# SPDX-License-Identifier: GPL-2.0-only
"""decisions/*.toml: a reason is prose. The commit message wraps each
reason into one bullet, so a list inside it ('- masks ...;' lines) comes
out as '... steps: - masks ...; - erases ...' (i2c-bcm-iproc's did)."""

import re
import unittest

from detasklet.convert.verdicts import decisions


class DecisionTexts(unittest.TestCase):
    def test_no_list_inside_a_reason(self) -> None:
        for d in decisions.load():
            with self.subTest(source=d.source, function=d.function):
                self.assertIsNone(re.search(r"(?:^|[:;]\s*\n?)\s*[-*]\s", d.why, re.M), d.why)

    def test_no_reason_names_a_kernel_version(self) -> None:
        # final read of round 45: virt-dma's 7.3.4 mail said "request_irq()
        # on 6.12.118"; a mail goes to one tree, a reason true of one tree
        # only is a decision with kernels = [...]
        for d in decisions.load():
            with self.subTest(source=d.source, function=d.function):
                self.assertIsNone(re.search(r"\b(?:6\.12|7\.3)(?:\.\d+)?\b", d.why), d.why)

    def _why(self, source: str, function: str) -> str:
        return " ".join(next(d.why for d in decisions.load()
                             if d.source.endswith(source) and d.function == function).split())

    def test_mhi_reasons_hold_in_every_branch(self) -> None:
        """The final read of round 42: mhi_pm_disable_transition() skips the
        MHI reset in MHI_PM_LD_ERR_FATAL_DETECT (and in RDDM), and
        mhi_pm_sys_error_transition() reaches its loop in
        MHI_PM_SYS_ERR_FAIL too when the reset times out."""
        off = self._why("mhi.toml", "mhi_pm_disable_transition")
        self.assertNotIn("MHI reset and disable_irq() have already happened", off)
        self.assertIn("not when the device is in RDDM", off)
        err = self._why("mhi.toml", "mhi_pm_sys_error_transition")
        self.assertNotIn("only reached once pm_state is MHI_PM_SYS_ERR_PROCESS", err)
        self.assertIn("MHI_PM_SYS_ERR_FAIL", err)

    def test_nfp_napi_del_after_ring_freeing(self) -> None:
        """nfp_net_close_free_all() frees the rings before
        nfp_net_cleanup_vector(): no pending run touches rings being freed."""
        why = self._why("nfp.toml", "nfp_net_napi_del")
        self.assertNotIn("rings being freed", why)
        self.assertIn("which has freed the tx and rx rings just before", why)


# Reasons a maintainer's read found false, with what the driver's source
# says instead: (file, function, words the reason must hold, words it must
# not). solos-pci: solos_bh() wakes param_wq in process_command() and in
# fpga_tx() (for pclose()); the reason named only the first and said no one
# waits any more (sample 46).
READ = [
    ("drivers/atm/solos-pci.c", "fpga_remove", ("fpga_tx()", "pclose()", "bounded at 5 s"),
     ("no one waits on param_wq",)),
    # tegra20-apb-dma: "a pending run delivers ..., and returns only when it
    # is done" gave the run flush_work()'s return (sample 46)
    ("drivers/dma/tegra20-apb-dma.c", "tegra_dma_synchronize",
     ("it lets a pending tegra_dma_tasklet() run deliver", "returns only when that run is done"),
     ("and returns only when it is done",)),
]


class ReadReasons(unittest.TestCase):
    def test_reasons_say_what_the_source_does(self) -> None:
        found = {(d.file, d.function): d.why for d in decisions.load()}
        for file, function, holds, not_ in READ:
            with self.subTest(file=file, function=function):
                why = " ".join(found[(file, function)].split())
                for w in holds:
                    self.assertIn(w, why)
                for w in not_:
                    self.assertNotIn(w, why)


class DriverTexts(unittest.TestCase):
    """The texts of cocci/drivers/ a maintainer's read found wrong."""

    def test_i915_guc_ct_names_no_second_step(self) -> None:
        # sample 46: "The pair becomes the wait alone, tasklet_unlock_wait(),
        # which the conversion then makes a flush_work()" told the tool's
        # two steps, and the site's own point said flush_work() again
        from detasklet.convert.facts import driver_patches
        why = next(" ".join(d.why.split()) for d in driver_patches.load()
                   if d.path.name == "i915-guc-ct.cocci")
        self.assertIn("So the pair is that wait alone", why)
        self.assertNotIn("the conversion then makes", why)

    def test_i915_guc_ct_states_its_row(self) -> None:
        # sample 46, after the tree's API went into an in-place driver
        # patch's table: the pair's tasklet_disable() was listed as
        # "tasklet_disable() -> disable_work_sync()", a call i915 never makes
        from detasklet.convert.facts import driver_patches
        rows = next(d.rows for d in driver_patches.load() if d.path.name == "i915-guc-ct.cocci")
        self.assertEqual(rows, ("tasklet_disable() + tasklet_enable() -> flush_work()",))


if __name__ == "__main__":
    unittest.main()
