#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The fast self-test of make runtime's harness (no kernel, no QEMU): the
initramfs builder on a small set, the log checker on canned serial logs
(tests/runtime/*.log: a lockdep splat and the 6.12.118 dma_bus_init failure
must be caught, a clean boot must pass), the marker parser and verdicts,
the mail line. One line per case, then 'N passed, N failed'."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from detasklet.check.runtime import initramfs, kbuild, logcheck, results  # noqa: E402
from detasklet.ctext.workcb import converted_callbacks  # noqa: E402

DATA = ROOT / "tests" / "runtime"


def read_newc(blob: bytes) -> dict[str, tuple[int, bytes, int, int]]:
    """name -> (mode, data, rdevmajor, rdevminor) of a newc archive."""
    out, i = {}, 0
    while True:
        assert blob[i:i + 6] == b"070701", f"bad magic at {i}"
        f = [int(blob[i + 6 + 8 * k:i + 14 + 8 * k], 16) for k in range(13)]
        name = blob[i + 110:i + 110 + f[11] - 1].decode()
        i += 110 + f[11]
        i += -i % 4
        data = blob[i:i + f[6]]
        i += f[6]
        i += -i % 4
        if name == "TRAILER!!!":
            return out
        out[name] = (f[1], data, f[9], f[10])


def case_initramfs() -> None:
    binary = Path(shutil.which("env") or "/usr/bin/env")
    libs = initramfs.shared_libs(binary)
    assert libs, f"{binary} should be dynamic"
    tree = initramfs.base_tree(b"#!/bin/sh\necho hi\n")
    initramfs.add_binary(tree, binary)
    with tempfile.TemporaryDirectory() as d:
        dest = Path(d) / "i.cpio"
        assert initramfs.write(tree, dest)
        assert not initramfs.write(tree, dest), "the same tree must not be written twice"
        got = read_newc(dest.read_bytes())
    assert got["init"][1].startswith(b"#!/bin/sh") and got["init"][0] & 0o111
    assert got["bin/busybox"][1] == initramfs.BUSYBOX.read_bytes()
    assert got["dev/console"][0] & 0o170000 == 0o020000 and got["dev/console"][2:] == (5, 1)
    assert str(binary).strip("/") in got
    for lib in libs:
        assert str(lib).strip("/") in got, f"{lib} missing"
        assert got[str(lib).strip("/")][1] == lib.resolve().read_bytes()
    assert "bin" in got and got["bin"][0] & 0o040000


def case_lockdep_caught() -> None:
    f = logcheck.find((DATA / "lockdep.log").read_text())
    kinds = [x.kind for x in f]
    assert kinds == ["lockdep"], kinds
    run = results.parse((DATA / "lockdep.log").read_text(), ["hwsim"])
    assert run.workloads["hwsim"].status == "pass"
    assert [x.kind for x in run.workloads["hwsim"].findings] == ["lockdep"]
    assert results.verdict(run.workloads["hwsim"], run.workloads["hwsim"]) == "fails-on-both"


def case_dma_bus_init_caught() -> None:
    f = logcheck.find((DATA / "dma-bus-init-6.12.log").read_text())
    assert [x.kind for x in f] == ["warning", "initcall"], f
    assert "dma_bus_init" in f[1].text and "-12" in f[1].text
    run = results.parse((DATA / "dma-bus-init-6.12.log").read_text(), ["boot"])
    assert len(run.boot.findings) == 2 and run.workloads["boot"].status == "fail"
    assert run.workloads["boot"].reasons == ["/sys/class/dma missing: dma_bus_init() failed"]


def case_clean_passes() -> None:
    text = (DATA / "clean.log").read_text()
    assert logcheck.find(text) == [], logcheck.find(text)
    run = results.parse(text, ["boot", "ifb", "hwsim"])
    ifb = run.workloads["ifb"]
    assert run.done and run.profiled == 21
    assert (ifb.status, ifb.secs, ifb.figures["ifb_mbit"]) == ("pass", 12.9, "312")
    assert ifb.hits == {"ifb_ri_tasklet": 2210, "ifb_xmit": 0}
    assert run.workloads["hwsim"].status == "not-run"
    assert results.verdict(ifb, ifb) == "pass"
    ex = results.exercised(ifb.hits, {"drivers/net/ifb.c": ["ifb_ri_tasklet", "ifb_xmit"],
                                      "net/x.c": ["other"]})
    assert ex == {"drivers/net/ifb.c": ["ifb_ri_tasklet"]}, ex


def case_crash_is_not_a_pass() -> None:
    text = "@@detasklet begin ppp\n[   9.1] Kernel panic - not syncing: Fatal exception\n"
    run = results.parse(text, ["ppp", "vtkbd"])
    ppp = run.workloads["ppp"]
    assert ppp.status == "crashed" and [x.kind for x in ppp.findings] == ["panic"]
    ok = results.Slice("ppp", 1, status="pass")
    assert results.verdict(ok, ppp) == "FAIL"
    assert results.verdict(ok, run.workloads["vtkbd"]) == "not-run"
    assert results.verdict(ppp, ok) == "pristine-only-fail"


def case_callbacks_from_patch() -> None:
    patch = ("+++ b/drivers/x.c\n-static void x_bh(struct tasklet_struct *t)\n"
             "+static void x_bh(struct work_struct *work)\n+void x_queue(struct work_struct *w);\n"
             "+++ b/drivers/y.c\n+y_dpc(struct work_struct *work)\n"
             "+++ b/drivers/z.h\n+\tstruct work_struct bh;\n")
    got = converted_callbacks(patch)
    assert got == {"drivers/x.c": ["x_bh"], "drivers/y.c": ["y_dpc"]}, got


def case_background_not_credited() -> None:
    from detasklet.check.runtime import report
    from detasklet.check.runtime.workloads import by_name
    log = ("@@detasklet begin ifb\n@@detasklet hit ifb ifb_ri_tasklet 9\n"
           "@@detasklet hit ifb ieee80211_tasklet_handler 4\n@@detasklet end ifb rc=0 secs=1\n")
    runs = {k: results.parse(log, ["ifb"]) for k in ("pristine", "converted")}
    fns = {"drivers/net/ifb.c": ["ifb_ri_tasklet"],
           "net/mac80211/main.c": ["ieee80211_tasklet_handler"]}
    w = report._workload(by_name(["ifb"])[0], runs, fns)
    assert w["verdict"] == "pass"
    assert w["exercised"] == {"drivers/net/ifb.c": ["ifb_ri_tasklet"]}, w
    assert w["also_ran"] == {"net/mac80211/main.c": ["ieee80211_tasklet_handler"]}, w


def case_config_symbols() -> None:
    frag = "# c\nCONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=y\n"
    assert kbuild.missing_symbols("CONFIG_A=y\nCONFIG_D=y\n", frag) == ["CONFIG_C=y"]
    assert kbuild.missing_symbols("CONFIG_A=y\nCONFIG_C=y\n", frag) == []


def case_version_fragment() -> None:
    with tempfile.TemporaryDirectory() as d:
        rt = Path(d)
        (rt / "runtime.config").write_text("CONFIG_A=y\n")
        (rt / "runtime-7.3.config").write_text("CONFIG_DIBS=y\n")
        assert kbuild.fragments(rt, "7.3.4") == [rt / "runtime.config", rt / "runtime-7.3.config"]
        assert kbuild.fragments(rt, "6.12.118") == [rt / "runtime.config"]


def case_bench_ratios() -> None:
    from detasklet.check.runtime import bench
    log = ("@@detasklet begin ncm\n@@detasklet figure ncm ncm_mbit 50\n"
           "@@detasklet figure ncm ncm_ping_p99_ms 2.5\n@@detasklet figure ncm ncm_loss_pct 0\n"
           "@@detasklet end ncm rc=0 secs=3\n@@detasklet begin smc\n"
           "@@detasklet figure smc smc_mbit 900\n@@detasklet end smc rc=1 secs=1\n")
    figs = bench.bench_figures(results.parse(log, ["ncm", "smc"]))
    # the loss is no benchmark figure; a failed workload's figures do not count
    assert figs == {"ncm.ncm_mbit": 50.0, "ncm.ncm_ping_p99_ms": 2.5}, figs
    rounds = [{"pristine": {"a_mbit": 100.0}, "converted": {"a_mbit": 90.0}},
              {"pristine": {"a_mbit": 100.0}, "converted": {"a_mbit": 110.0}},
              {"pristine": {"a_mbit": 50.0, "b_p99_ms": 1.0}, "converted": {"a_mbit": 60.0}}]
    r = bench.ratios(rounds)
    assert list(r) == ["a_mbit"], r           # b: never on the converted kernel
    assert r["a_mbit"]["ratio_median"] == 1.1 and r["a_mbit"]["spread"] == [0.9, 1.2], r
    assert r["a_mbit"]["pristine_median"] == 100.0 and r["a_mbit"]["rounds"] == 3


def case_report_annotated() -> None:
    from detasklet.check.runtime.annotate import annotate_report
    doc = {"kernel": "7.3.4", "accel": "tcg", "workloads": [
        {"name": "ifb", "verdict": "pass", "converted": {"hits": {"ifb_ri_tasklet": 7}},
         "exercised": {"drivers/net/ifb.c": ["ifb_ri_tasklet"]}},
        {"name": "wpan", "verdict": "fails-on-both", "converted": {"hits": {"h": 3}},
         "exercised": {"net/mac802154/main.c": ["h"]}}]}
    with tempfile.TemporaryDirectory() as d:
        rep = Path(d) / "report.json"
        rep.write_text(json.dumps({"files": [
            {"path": "drivers/net/ifb.c", "status": "converted"},
            {"path": "net/mac802154/main.c", "status": "converted",
             "runtime": {"kernel": "old"}}]}))
        assert annotate_report(rep, doc) == 1
        files = json.loads(rep.read_text())["files"]
    assert files[0]["runtime"] == {"kernel": "7.3.4", "accel": "tcg",
                                   "workloads": {"ifb": {"ifb_ri_tasklet": 7}}}, files
    # a workload that failed credits nothing, and an earlier run's key goes
    assert "runtime" not in files[1], files


def case_results_name_their_patches() -> None:
    """runtime.json records the patches it ran (kept by --from-logs), and
    a mail says nothing of a runtime.json of other patches than OUT's."""
    import contextlib
    import io
    from detasklet.check.runtime.run import Options, from_logs
    from detasklet.series import evidence
    with tempfile.TemporaryDirectory() as d:
        out = Path(d)
        (out / "all.patch").write_text("+++ b/drivers/net/ifb.c\n"
                                       "+static void ifb_ri_tasklet(struct work_struct *w)\n")
        (out / "tasklet-free.patch").write_text("core\n")
        (out / "report.json").write_text('{"files": []}')
        ids = evidence.patch_ids(out)
        (out / "runtime").mkdir()
        (out / "runtime" / "runtime.json").write_text(json.dumps(
            {"kernel": "7.3.4", "kernels": {}, "patches": ids}))
        for k in ("pristine", "converted"):
            shutil.copy(DATA / "clean.log", out / "runtime" / f"{k}.log")
        o = Options(kdir=out, out=out, build_dir=out, workloads=["ifb"],
                    kernels=["pristine", "converted"], jobs=1, cc="gcc", timeout=1)
        with contextlib.redirect_stdout(io.StringIO()):
            assert from_logs(o) == 0
        doc = json.loads((out / "runtime" / "runtime.json").read_text())
        assert doc["patches"] == ids and doc["exercised_files"] == {"drivers/net/ifb.c": ["ifb"]}
        assert evidence.load(out, {"files": []}).runtime["kernel"] == "7.3.4"
        (out / "all.patch").write_text("another conversion\n")
        assert evidence.load(out, {"files": []}).runtime == {}, "runtime.json of other patches"


def case_smc_stream_builds() -> None:
    if not shutil.which("gcc"):
        raise AssertionError("gcc missing (make runtime installs it)")
    with tempfile.TemporaryDirectory() as d:
        b = initramfs.build_program(DATA / "smc-stream.c", Path(d) / "smc-stream")
        assert initramfs.shared_libs(b) == [], "smc-stream must be static"


CASES: list[tuple[str, Callable[[], None]]] = [
    ("initramfs-busybox-init-libs", case_initramfs),
    ("logcheck-lockdep-caught", case_lockdep_caught),
    ("logcheck-dma-bus-init-6.12-caught", case_dma_bus_init_caught),
    ("logcheck-clean-passes", case_clean_passes),
    ("results-crash-is-not-a-pass", case_crash_is_not_a_pass),
    ("workcb-callbacks-from-patch", case_callbacks_from_patch),
    ("report-background-not-credited", case_background_not_credited),
    ("kbuild-config-symbols-checked", case_config_symbols),
    ("kbuild-version-fragment", case_version_fragment),
    ("bench-ratios-median-spread", case_bench_ratios),
    ("report-json-per-file-workloads", case_report_annotated),
    ("results-name-their-patches", case_results_name_their_patches),
    ("smc-stream-builds-static", case_smc_stream_builds),
]


def main() -> int:
    passed = failed = 0
    for name, fn in CASES:
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - a case's failure, reported
            failed += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
        else:
            passed += 1
            print(f"ok   {name}", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
