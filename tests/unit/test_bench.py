# SPDX-License-Identifier: GPL-2.0-only
"""check.bench and series.hotpaths: the bench lines of a made-up kunit.py
test.log read into bench.json's content, the ratios, the bar, the table,
the gnuplot input, and the cover-letter sentence (no kernel, no QEMU)."""

import contextlib
import io
import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from detasklet.check import bench, bench_plot
from detasklet.errors import InputError
from detasklet.series import hotpaths

MECHS = bench.MECHS
# p99 latency in ns per mechanism; the tasklet's is 10000
P99 = {"tasklet": 10000, "bh": 10500, "bh_highpri": 9000, "tasklet_hi": 8000, "percpu": 40000,
       "highpri": 12000, "percpu_noguard": 30000}


def log_text(cpus: int = 2, skip: str = "", bh: int = 0, more: bool = False) -> str:
    """A kunit.py test.log with one of each bench line (skip: a kind left out;
    bh: BH work's p99 in ns, P99's when 0; more: the softirq, spin_lock_bh()
    and CFS-load sources and the bursts too)."""
    p99s = {**P99, **({"bh": bh} if bh else {})}
    lines = ["[12:00:00] KTAP version 1", "    # Subtest: detasklet_bench",
             f"    # dtb_latency_process: bench: kind=meta release=7.3.4 machine=x86_64 "
             f"cpus={cpus} hz=250 preempt=none percpu_wq=system_percpu_wq events=10000"]
    srcs = ("process", "hardirq") + (("softirq", "lock_bh", "hardirq_cfs") if more else ())
    for src in srcs:
        for m in MECHS:
            p99 = p99s[m] * (2 if src == "process" else 1)
            lines.append(f"    # dtb_latency_{src}: bench: kind=latency src={src} mech={m} "
                         f"n=10000 p50={p99 // 2} p99={p99} max={p99 * 3}")
    for m in MECHS:
        if skip != "cost":
            lines.append(f"    # dtb_cost: bench: kind=cost mech={m} batch=256 rounds=21 "
                         f"sched_ns={P99[m] // 100} run_ns={P99[m] // 50}")
        lines.append(f"    # dtb_throughput: bench: kind=throughput mech={m} window_ms=200 "
                     f"cpus={cpus} one_cpu_per_s={10 ** 9 // P99[m]} "
                     f"all_cpus_per_s={cpus * 10 ** 9 // P99[m]}")
    lines.append("    # dtb_fifo_wakeup: bench: kind=wakeup mech=none flood_runs=0 n=2000 "
                 "p50=5000 p99=9000 max=20000")
    for m in MECHS:
        flood = 2000000 if m != "percpu" else 60000
        lines.append(f"    # dtb_fifo_wakeup: bench: kind=wakeup mech={m} flood_runs=4000 "
                     f"n=2000 p50={flood // 2} p99={flood} max={flood * 2}")
    for label, n in (("one_pass", 10), ("over_restarts", 200)) if more else ():
        for m in MECHS:
            handoff = 100 if m.startswith("bh") and n == 200 else 0
            lines.append(f"    # dtb_burst: bench: kind=burst label={label} burst={n} mech={m} "
                         f"ksoftirqd={handoff} n=100 p50={P99[m] * n // 20} "
                         f"p99={P99[m] * n // 10} max={P99[m] * n // 5}")
    lines.append("    ok 1 dtb_latency_process")
    return "\n".join(lines) + "\n"


SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench.sh"
# the least a tree needs for bench.sh's checks of KDIR (scripts/kunit-lib.sh)
FAKE_KDIR = {"Makefile": "VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 4\n", "kernel/workqueue.c": "",
             "include/linux/workqueue.h": "enable_and_queue_work system_bh_highpri_wq\n",
             "lib/Makefile": "", "lib/Kconfig.debug": "", "tools/testing/kunit/kunit.py": ""}


class BenchScriptTest(unittest.TestCase):
    """scripts/bench.sh refuses a bad BENCH_BOOTS or BENCH_RT in one line,
    exit 2, before it copies or builds anything."""
    def run_sh(self, **env: str) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory() as tmp:
            for rel, text in FAKE_KDIR.items():
                (Path(tmp) / "k" / rel).parent.mkdir(parents=True, exist_ok=True)
                (Path(tmp) / "k" / rel).write_text(text)
            res = subprocess.run(["bash", str(SCRIPT), str(Path(tmp) / "k"),
                                  str(Path(tmp) / "out")], capture_output=True, text=True,
                                 env={**os.environ, "BENCH_BUILD": str(Path(tmp) / "b"), **env})
            self.assertFalse((Path(tmp) / "b").exists())
        return res

    def test_bad_boots_and_rt(self) -> None:
        for env, said in (({"BENCH_BOOTS": "0"}, "BENCH_BOOTS '0' must be a number >= 1"),
                          ({"BENCH_RT": "yes"}, "BENCH_RT 'yes' must be 0 or 1"),
                          ({"BENCH_RT": "1"}, "UML has no PREEMPT_RT")):
            res = self.run_sh(**env)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertEqual(res.stderr.strip().count("\n"), 0, res.stderr)
            self.assertIn(said, res.stderr)


class BenchTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        (self.dir / "um.log").write_text(log_text(cpus=1))
        (self.dir / "x86_64.log").write_text(log_text(cpus=2))

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def data(self) -> dict:
        return bench.build({"um": self.dir / "um.log", "x86_64": self.dir / "x86_64.log"},
                           "make bench KDIR=/k", "7.3.4")

    def test_parse_lines_key_values(self) -> None:
        recs = bench.parse_lines(["noise", "  # dtb_cost: bench: kind=cost mech=bh sched_ns=12 "
                                  "run_ns=34", "# other: no bench here"])
        self.assertEqual(recs, [{"kind": "cost", "mech": "bh", "sched_ns": 12, "run_ns": 34}])

    def test_latency_and_ratios(self) -> None:
        d = self.data()
        lat = d["runs"]["x86_64"]["latency"]["hardirq"]
        self.assertEqual(lat["bh"], {"n": 10000, "p50": 5250, "p99": 10500, "max": 31500})
        r = d["ratios"]["x86_64"]
        self.assertEqual(r["latency"]["hardirq"]["bh"]["p99"], 1.05)
        self.assertEqual(r["latency"]["process"]["tasklet"]["p99"], 1.0)
        self.assertEqual(r["cost"]["percpu"]["sched_ns"], 4.0)
        self.assertEqual(r["wakeup"]["percpu"]["p99"], 0.03)

    def test_verdict_bar(self) -> None:
        v = self.data()["verdict"]
        self.assertEqual(v["p99_ratios"]["um/process"]["bh_vs_tasklet"], 1.05)
        self.assertEqual(v["p99_ratios"]["um/process"]["bh_highpri_vs_tasklet_hi"], 1.125)
        self.assertEqual(v["worst"], 1.125)
        self.assertFalse(v["within_bar"])

    def test_boots_median_spread_and_noise(self) -> None:
        """Three boots whose BH p99 ratios are 1.02, 1.08 and 1.30: the
        median is 1.08, the spread [1.02, 1.30] covers the bar, so the
        verdict is within noise, not met; the thread pairs are there."""
        logs = []
        for i, bh in enumerate((10200, 13000, 10800)):
            (self.dir / f"b{i}.log").write_text(log_text(bh=bh))
            logs.append(self.dir / f"b{i}.log")
        d = bench.build({"x86_64": logs}, "make bench BENCH_BOOTS=3", "7.3.4")
        v = d["verdict"]
        self.assertEqual(v["boots"], {"x86_64": 3})
        self.assertEqual(v["p99_ratios"]["x86_64/hardirq"]["bh_vs_tasklet"], 1.08)
        self.assertEqual(v["spread"]["x86_64/hardirq"]["bh_vs_tasklet"], [1.02, 1.3])
        self.assertEqual(v["outcomes"]["x86_64/hardirq"]["bh_vs_tasklet"], "within noise")
        self.assertEqual(v["outcomes"]["x86_64/hardirq"]["percpu_vs_tasklet"], "not met")
        self.assertEqual(v["p99_ratios"]["x86_64/hardirq"]["highpri_vs_tasklet_hi"], 1.5)
        self.assertEqual(v["outcome"], "not met")       # bh_highpri 1.125 in every boot
        self.assertEqual(d["runs"]["x86_64"]["latency"]["hardirq"]["bh"]["p99"], 10800)
        self.assertEqual(d["runs"]["x86_64"]["meta"]["boots"], 3)
        self.assertEqual(d["ratios"]["x86_64"]["latency"]["hardirq"]["bh"]["p99"], 1.08)
        self.assertEqual(d["spread"]["x86_64"]["latency"]["hardirq"]["bh"]["p99"], [1.02, 1.3])
        self.assertEqual(len(d["boots"]["x86_64"]), 3)
        self.assertEqual(bench.outcome(0.9, 1.1), "met")
        self.assertEqual(bench.outcome(1.11, 1.3), "not met")

    def test_repeated_log_is_one_boot_each(self) -> None:
        out = self.dir / "o"
        with contextlib.redirect_stdout(io.StringIO()):
            bench.main([f"x86_64={self.dir / 'x86_64.log'}", f"x86_64={self.dir / 'um.log'}"],
                       out, "make bench", "7.3.4", plot=False)
        self.assertEqual(json.loads((out / "bench.json").read_text())["verdict"]["boots"],
                         {"x86_64": 2})

    def test_missing_kind_is_an_input_error(self) -> None:
        (self.dir / "bad.log").write_text(log_text(skip="cost"))
        with self.assertRaisesRegex(InputError, "no bench lines for cost"):
            bench.build({"um": self.dir / "bad.log"}, "make bench", "7.3.4")

    def test_missing_log_is_an_input_error(self) -> None:
        with self.assertRaisesRegex(InputError, "cannot read"):
            bench.build({"um": self.dir / "nope.log"}, "make bench", "7.3.4")

    def test_bad_log_argument(self) -> None:
        with self.assertRaisesRegex(InputError, "WHERE=PATH"):
            bench.main(["um"], self.dir, "make bench", "7.3.4", plot=False)

    def test_table_shows_ratios_and_command(self) -> None:
        text = "\n".join(bench.table(self.data()))
        self.assertIn("== x86_64: Linux 7.3.4, 2 CPU(s)", text)
        self.assertIn("21.0 1.05x", text)          # bh, process p99 (us, ratio)
        self.assertIn("  um/process: bh/tasklet 1.05x [1.05-1.05] met; bh_highpri/tasklet_hi "
                      "1.12x [1.12-1.12] not met; percpu/tasklet 4.00x", text)
        self.assertIn("bar 1.1x (BH work over the tasklet): NOT MET (worst median 1.12x)", text)
        self.assertIn("reproduce: make bench KDIR=/k", text)

    def test_more_sources_and_bursts(self) -> None:
        """The softirq, spin_lock_bh() and CFS-load sources are latency
        sources like the others (ratios, verdict); a burst keeps its label,
        its size and how many bursts ended in ksoftirqd, with its ratio."""
        (self.dir / "more.log").write_text(log_text(more=True))
        d = bench.build({"x86_64": self.dir / "more.log"}, "make bench", "7.3.4")
        self.assertEqual(sorted(d["runs"]["x86_64"]["latency"]),
                         ["hardirq", "hardirq_cfs", "lock_bh", "process", "softirq"])
        self.assertEqual(d["verdict"]["outcomes"]["x86_64/lock_bh"]["bh_vs_tasklet"], "met")
        burst = d["runs"]["x86_64"]["burst"]["over_restarts"]["bh"]
        self.assertEqual((burst["burst"], burst["ksoftirqd"], burst["p99"]), (200, 100, 210000))
        self.assertEqual(d["ratios"]["x86_64"]["burst"]["one_pass"]["percpu"]["p99"], 4.0)
        text = "\n".join(bench.table(d))
        self.assertIn("p99 us from softirq: tasklet 10.0 1.00x | bh 10.5 1.05x", text)
        self.assertIn("burst over_restarts (200 items), p50 us to the last: tasklet 100.0 "
                      "1.00x ksoftirqd 0/100 | bh 105.0 1.05x ksoftirqd 100/100", text)
        # a log of the suite before the bursts: no burst figures, no error
        self.assertEqual(self.data()["runs"]["um"]["burst"], {})

    def test_write_json(self) -> None:
        path = bench.write(self.data(), self.dir / "out")
        self.assertEqual(json.loads(path.read_text())["command"], "make bench KDIR=/k")

    def test_plot_input(self) -> None:
        d = self.data()
        rows = bench_plot.latency_rows(d)
        self.assertEqual(len(rows), 4)
        self.assertTrue(rows[0].startswith('"um process\\n(tasklet 20.0 us)" 1.05 0.9 0.8 4.0'))
        self.assertEqual(bench_plot.wakeup_rows(d)[1],
                         '"x86_64\\n(tasklet flood 2000 us)" 0.0045 1 1 1 1 0.03 1 1')
        self.assertIn("'wakeup.dat' using 7:xtic(1) title 'percpu'", bench_plot.script("t"))


# a hot path that schedules from process context (the table has none)
PROCESS = hotpaths.HotPath("a process-context user", ("x/",), "tasklet", "process")


class HotPathsTest(unittest.TestCase):
    def test_table_names_the_hot_paths(self) -> None:
        paths = [p for h in hotpaths.load() for p in h.paths]
        for want in ("net/mac80211/", "drivers/net/ethernet/", "drivers/dma/",
                     "drivers/tty/serial/timbuart.c", "drivers/input/serio/hp_sdc.c"):
            self.assertIn(want, paths)
        # TSQ is a per-CPU work item of its own in 7.x, no tasklet to quote
        self.assertNotIn("net/ipv4/tcp_output.c", paths)

    def test_late_draining_drivers_say_what_they_lose(self) -> None:
        late = {h.name: h.overflow for h in hotpaths.load() if h.overflow}
        self.assertEqual(sorted(late), ["Atmel/Microchip USART", "HP SDC and HIL",
                                        "Timberdale UART"])
        self.assertNotIn("\n", late["Timberdale UART"])

    def test_matching(self) -> None:
        self.assertEqual(hotpaths.matching("drivers/dma/pl330.c").name, "DMA engine completion")
        self.assertEqual(hotpaths.matching("drivers/tty/serial/timbuart.c").source, "hardirq")
        self.assertIsNone(hotpaths.matching("drivers/tty/serial/timbuart.c.orig"))
        self.assertIsNone(hotpaths.matching("drivers/dmaengine.c"))

    def bench_json(self, tmp: str, accel: str = "") -> Path:
        log = Path(tmp) / "x86_64.log"
        log.write_text(log_text())
        (Path(tmp) / "um.log").write_text(log_text(cpus=1))
        data = bench.build({"x86_64": log, "um": Path(tmp) / "um.log"},
                           "make bench KDIR=/k", "7.3.4", accel)
        return bench.write(data, Path(tmp))

    def test_sentence_has_p50_p99_ratio_and_aim(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = self.bench_json(tmp)
            hp = hotpaths.matching("drivers/dma/pl330.c")
            s = hotpaths.sentence(path, hp)
            um = hotpaths.sentence(path, hp, "um")
        self.assertEqual(s, "QEMU x86_64, 2 CPUs, 10000 events each: BH work p50 5.2us, "
                         "p99 10.5us; tasklet p50 5.0us, p99 10.0us. BH work's p99 is 1.05 "
                         "times the tasklet's: within the series' aim of at most 1.1 times.")
        self.assertTrue(um.startswith("UML, 1 CPU, 10000 events each: "), um)

    def test_sentence_process_context_and_tcg(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = self.bench_json(tmp, "tcg")
            s = hotpaths.sentence(path, PROCESS)
        self.assertIn("QEMU x86_64 (TCG, no KVM), 2 CPUs", s)
        self.assertIn("BH work p50 10.5us, p99 21.0us; tasklet p50 10.0us, p99 20.0us", s)

    def test_sentence_with_the_spread_of_the_boots(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            logs = []
            for i, bh in enumerate((10200, 13000, 10800)):
                (Path(tmp) / f"b{i}.log").write_text(log_text(bh=bh))
                logs.append(Path(tmp) / f"b{i}.log")
            data = bench.build({"x86_64": logs}, "make bench", "7.3.4", "tcg")
        hp = hotpaths.matching("drivers/dma/pl330.c")
        self.assertIn("2 CPUs, 10000 events each, median of 3 boots: BH work p50 5.4us, "
                      "p99 10.8us; tasklet p50 5.0us, p99 10.0us. Within each boot, BH work's "
                      "p99 was 1.02 to 1.30 times the tasklet's (1.08 in the median boot): "
                      "within noise of the series' aim of at most 1.1 times.",
                      hotpaths.sentence(data, hp))
        # TARGET=thread: the guarded per-CPU item, and system_highpri_wq for tasklet_hi
        self.assertIn("Within each boot, process-context work's p99 was 4.00 times the "
                      "tasklet's (4.00 in the median boot): this misses",
                      hotpaths.sentence(data, hp, target="thread"))
        hi = hotpaths.HotPath("hi", ("x/",), "tasklet_hi", "hardirq")
        self.assertIn("highpri process-context work's p99 was 1.50 times the tasklet_hi's",
                      hotpaths.sentence(data, hi, target="thread").lower())

    def test_sentence_says_the_aim_is_missed(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            data = json.loads(self.bench_json(tmp).read_text())
        hp = hotpaths.matching("drivers/dma/pl330.c")
        lat = data["runs"]["x86_64"]["latency"]["hardirq"]
        lat["bh"]["p99"] = 12900
        data["verdict"]["p99_ratios"]["x86_64/hardirq"]["bh_vs_tasklet"] = 1.29
        self.assertIn("p99 12.9us; tasklet p50 5.0us, p99 10.0us. BH work's p99 is 1.29 "
                      "times the tasklet's: this misses the series' aim of at most 1.1 "
                      "times.", hotpaths.sentence(data, hp))
        data["verdict"]["p99_ratios"]["x86_64/hardirq"]["bh_vs_tasklet"] = 1.104
        self.assertIn("is 1.104 times the tasklet's: this misses", hotpaths.sentence(data, hp))

    def test_accel_only_with_a_qemu_run(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "um.log").write_text(log_text(cpus=1))
            um = bench.build({"um": Path(tmp) / "um.log"}, "make bench", "7.3.4", "tcg")
            self.assertNotIn("accel", um)
            self.assertEqual(json.loads(self.bench_json(tmp, "tcg").read_text())["accel"], "tcg")

    def test_command_without_local_path(self) -> None:
        self.assertEqual(hotpaths.command({"kernel": "7.3.4", "command":
                                           "make bench KDIR=/my tree/linux BENCH_CPUS=4"}),
                         "make bench KDIR=<linux-7.3.4> BENCH_CPUS=4")
        self.assertEqual(hotpaths.command({"runs": {}}), "make bench")

    def test_sentence_missing_run(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bench.json"
            path.write_text(json.dumps({"runs": {}}))
            with self.assertRaisesRegex(InputError, "no tasklet latency figures from process "
                                        "context for run 'x86_64'"):
                hotpaths.sentence(path, PROCESS)
            self.assertEqual(hotpaths.runs(json.loads(path.read_text()), PROCESS),
                             [])

    def test_bad_table(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            t = Path(tmp) / "h.toml"
            t.write_text('[[hotpath]]\nname = "x"\npaths = ["a/"]\nmech = "timer"\n'
                         'source = "process"\n')
            with self.assertRaisesRegex(InputError, "unknown"):
                hotpaths.load(t)


if __name__ == "__main__":
    unittest.main()
