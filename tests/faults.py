#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Faults and reruns on a small fake tree.

A file spatch cannot parse, or that takes longer than the time limit, is
reported unconverted with the reason and the run goes on; Ctrl-C or a
SIGTERM leaves OUT as it was; a rerun is byte-identical; an already
converted tree gives an empty patch; a KDIR reached through a symlink
works. Then a run stopped in each of its stages (scan, facts, site
planning, spatch, classify, write, get_maintainer, series) with SIGINT to
its process group and with SIGTERM to the tool (tests/stopping.py): exit
130 or 143 within 10 s, no traceback, no process of it left, OUT as it
was, and the next run's OUT the same as a clean run's.
Closing line: 'N passed, N failed'.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fixtures import ENV, FOO_C, Tally, kernel
import stopping
from stopping import contents

# Line 10 cannot be parsed: spatch skips the function, so its
# tasklet_schedule stays and the file must not reach the patch.
BAD = """\
struct bar { struct tasklet_struct t; };

static void bar_ok(struct bar *b)
{
\ttasklet_schedule(&b->t);
}

static void bar_broken(struct bar *b)
{
\ttasklet_schedule(&b->t) + ;
}
"""


def slow(n: int) -> str:
    body = "".join(f"\tif (x == {i})\n\t\ttasklet_schedule(&s->t);\n\telse\n\t\ts->a++;\n"
                   for i in range(n))
    return ("struct slow { struct tasklet_struct t; int a; };\n\n"
            f"static void slow_kick(struct slow *s, int x)\n{{\n{body}}}\n")


def make_tree(top: Path) -> Path:
    return kernel(top / "linux", {"drivers/foo/foo.c": FOO_C, "drivers/bar/bar.c": BAD,
                                  "drivers/slow/slow.c": slow(4000)})   # ~7 s of spatch


def convert(args: list[str], cwd: Path, cache: Path | None = None
            ) -> subprocess.CompletedProcess[str]:
    """detasklet convert ARGS, with no cache unless one is given (the
    faults below need spatch to run)."""
    keep = ["--cache", str(cache)] if cache else ["--no-cache"]
    return subprocess.run([sys.executable, "-m", "detasklet", "convert", *args, *keep, "-q"],
                          cwd=cwd, env=ENV, capture_output=True, text=True, timeout=300)


def status(out: Path) -> dict[str, tuple[str, str]]:
    rep = json.loads((out / "report.json").read_text())
    return {f["path"]: (f["status"], f["reason"]) for f in rep["files"]}


def same(a: Path, b: Path, why: str) -> str:
    """'' when the OUTs a and b hold the same, else why and the files that differ."""
    x, y = contents(a), contents(b)
    diff = sorted(n for n in set(x) | set(y) if x.get(n) != y.get(n))
    return f"{why}: {diff[:5]}" if diff else ""


def check(cond: bool, why: str) -> str:
    return "" if cond else why


def case_parse_error(k: Path, t: Path) -> str:
    p = convert([str(k), "drivers/foo", "drivers/bar", "-o", str(t / "o1")], t)
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    st = status(t / "o1")
    bar = st.get("drivers/bar/bar.c", ("missing", ""))
    if bar[0] != "unconverted" or "parse error at line 10" not in bar[1]:
        return f"bar.c: {bar}"
    if "drivers/bar/bar.c" in (t / "o1/all.patch").read_text():
        return "the half-parsed bar.c reached all.patch"
    return check(st.get("drivers/foo/foo.c", ("",))[0] == "converted", f"foo.c: {st}")


def case_timeout(k: Path, t: Path) -> str:
    start = time.time()
    p = convert([str(k), "drivers/slow", "drivers/foo", "-o", str(t / "o2"),
                 "--timeout", "2"], t)
    took = time.time() - start
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    st = status(t / "o2")
    if st.get("drivers/slow/slow.c") != ("unconverted", "timeout after 2 s"):
        return f"slow.c: {st.get('drivers/slow/slow.c')}"
    if st.get("drivers/foo/foo.c", ("",))[0] != "converted":
        return f"the run did not go on: foo.c {st.get('drivers/foo/foo.c')}"
    return check(took < 60, f"took {took:.0f} s with a 2 s limit")


def case_rerun_identical(k: Path, t: Path) -> str:
    # The same command again: the cover letter names OUT, so the same OUT.
    a = contents(t / "o1")
    p = convert([str(k), "drivers/foo", "drivers/bar", "-o", str(t / "o1")], t)
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    b = contents(t / "o1")
    diff = sorted(n for n in set(a) | set(b) if a.get(n) != b.get(n))
    return check(not diff, f"differ between two runs: {diff}")


def case_already_converted(k: Path, t: Path) -> str:
    k2 = t / "converted"
    shutil.copytree(k, k2)
    p = subprocess.run(["patch", "-p1", "-s", "-i", str(t / "o1/all.patch")], cwd=k2,
                       capture_output=True, text=True)
    if p.returncode != 0:
        return f"all.patch does not apply: {p.stdout}{p.stderr}"
    p = convert([str(k2), "drivers/foo", "drivers/bar", "-o", str(t / "o4")], t)
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    if (t / "o4/all.patch").read_text() or list((t / "o4/series").iterdir()):
        return "a converted tree gave a non-empty patch"
    st = status(t / "o4")
    return check("drivers/foo/foo.c" not in st, f"foo.c still listed: {st}")


def _interactive() -> None:
    """SIGINT as in a terminal's job: a runner started in the background
    (nohup, '&') hands its children SIGINT ignored, and Python then
    installs no KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(k: Path, t: Path, name: str, sig: int, group: bool) -> str:
    out = t / name
    shutil.copytree(t / "o1", out)          # a previous result to keep
    before = contents(out)
    proc = subprocess.Popen([sys.executable, "-m", "detasklet", "convert", str(k),
                             "drivers/slow", "-o", str(out), "--timeout", "120", "--no-cache"],
                            cwd=t, env=ENV, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_interactive)
    assert proc.stderr is not None
    for line in proc.stderr:                 # wait until spatch runs
        if line.startswith("rewriting") or "with spatch" in line:
            break
    until = time.time() + 20                 # ... on slow.c (a loaded machine starts it late)
    while time.time() < until and proc.poll() is None and not subprocess.run(
            ["pgrep", "-f", "spatch.*slow"], capture_output=True).stdout:
        time.sleep(0.1)
    time.sleep(0.5)
    if proc.poll() is not None:
        return f"the run ended (exit {proc.returncode}) before it could be interrupted"
    start = time.time()
    if group:
        os.killpg(proc.pid, sig)             # what Ctrl-C does to the job
    else:
        proc.send_signal(sig)                # a kill of the tool alone
    try:
        rc = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        return "still running 30 s after the signal"
    took = time.time() - start
    left = subprocess.run(["pgrep", "-f", str(k / "drivers/slow")],
                          capture_output=True, text=True).stdout.split()
    want = 128 + sig
    if rc != want:
        return f"exit {rc}, want {want}"
    if contents(out) != before:
        return "OUT changed"
    if (t / (name + ".incomplete")).exists():
        return "OUT.incomplete left behind"
    if left:
        subprocess.run(["kill", "-9", *left])
        return f"spatch still running after the tool exited: {left}"
    # The next run starts clean, without a manual step.
    p = convert([str(k), "drivers/foo", "-o", str(out)], t)
    if p.returncode != 0 or "drivers/foo/foo.c" not in (out / "all.patch").read_text():
        return f"the next run failed: {p.stderr[-300:]}"
    return check(took < 3, f"took {took:.1f} s to stop (spatch not killed?)")


def case_ctrl_c(k: Path, t: Path) -> str:
    return interrupt(k, t, "o5", signal.SIGINT, group=True)


def case_sigterm(k: Path, t: Path) -> str:
    return interrupt(k, t, "o6", signal.SIGTERM, group=False)


def case_symlink_kdir(k: Path, t: Path) -> str:
    (t / "link").symlink_to(k)
    p = convert(["link", "drivers/foo", "-o", str(t / "o7")], t)
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    patch = (t / "o7/all.patch").read_text()
    return check("+++ b/drivers/foo/foo.c" in patch, f"unexpected patch: {patch[:200]!r}")


def cache_entries(c: Path) -> list[Path]:
    return sorted(p for p in c.rglob("*.json.gz"))


def case_cache_rerun_reuses(k: Path, t: Path) -> str:
    """A run with a cache, then the same run again: every spatch run and
    get_maintainer answer reused, the same OUT as without a cache."""
    c = t / "cache1"
    args = [str(k), "drivers/foo", "drivers/bar"]
    for out in ("c1", "c2"):
        p = convert([*args, "-o", str(t / out)], t, cache=c)
        if p.returncode != 0:
            return f"{out}: exit {p.returncode}: {p.stderr[-300:]}"
    first = json.loads((t / "c1/run.json").read_text()).get("cache", {})
    again = json.loads((t / "c2/run.json").read_text()).get("cache", {})
    if not first.get("computed") or first.get("reused"):
        return f"first run: {first}"
    if again.get("computed") or again.get("reused") != first.get("computed"):
        return f"second run reused {again}, first computed {first}"
    return same(t / "c2", t / "o1", "the run from the cache differs from the run without one")


def case_cache_killed_run_trusts_nothing_half_written(k: Path, t: Path) -> str:
    """SIGKILL while spatch runs, then an entry damaged as a lost write
    would: the next run reads neither, and gives the OUT a run without a
    cache gives."""
    c = t / "cache2"
    proc = subprocess.Popen([sys.executable, "-m", "detasklet", "convert", str(k),
                             "drivers/foo", "drivers/bar", "drivers/slow", "-o", str(t / "c3"),
                             "--cache", str(c), "-j", "2"],
                            cwd=t, env=ENV, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True, start_new_session=True, preexec_fn=_interactive)
    assert proc.stderr is not None
    for line in proc.stderr:     # slow.c (the largest, first) runs ~7 s beside the others
        if "with spatch" in line:
            break
    time.sleep(3)
    os.killpg(proc.pid, signal.SIGKILL)
    if proc.wait(timeout=30) != -signal.SIGKILL:
        return f"the run ended before the kill (exit {proc.returncode}): nothing tested"
    subprocess.run(["pkill", "-9", "-f", str(k / "drivers/slow")], capture_output=True)
    kept = cache_entries(c)
    if not kept:
        return "no entry was written before the kill"
    kept[0].write_bytes(kept[0].read_bytes()[:20])          # a torn write
    (kept[0].parent / ".tmp-half").write_bytes(b"\x1f\x8b half")
    p = convert([str(k), "drivers/foo", "drivers/bar", "-o", str(t / "c4")], t, cache=c)
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stderr[-300:]}"
    return same(t / "c4", t / "o1", "the run after the kill differs from a run without a cache")


# The stage cases' tree: three drivers in three groups (so that the
# process pools run), and a get_maintainer.pl that takes a second.
GET_MAINTAINER = """\
#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-only
sleep 1;
print "Foo Maintainer <foo\\@example.org>\\nfoo-list\\@example.org\\n";
"""


def stage_tree(top: Path) -> Path:
    files = {f"drivers/{n}/{n}.c": FOO_C.replace("foo", n) for n in ("foo", "qux", "zap")}
    return kernel(top / "stages", {**files, "scripts/get_maintainer.pl": GET_MAINTAINER})


def stage_cases(t: Path, tally: Tally) -> None:
    """A run stopped in each stage with each signal (see the docstring)."""
    k = stage_tree(t)
    snap = contents(k)
    out = t / "so"
    args = ["convert", str(k), "-o", str(out), "-j", "2", "--no-cache"]
    clean = subprocess.run([sys.executable, "-m", "detasklet", *args], cwd=t, env=ENV,
                           capture_output=True, text=True, timeout=300)
    if clean.returncode != 0:
        tally.case("stop-clean-run", f"exit {clean.returncode}: {clean.stderr[-300:]}")
        return
    ref = contents(out)
    for stage in stopping.STAGES:
        for name, (sig, want) in stopping.SIGNALS.items():
            before = contents(out)      # a case failed before may have left another OUT
            s = stopping.stop_at(args, t, stage, sig)
            err = stopping.verdict(s, want, out, before)
            if not err:
                again = subprocess.run([sys.executable, "-m", "detasklet", *args, "-q"],
                                       cwd=t, env=ENV, capture_output=True, text=True,
                                       timeout=300)
                err = (f"the rerun failed: {again.stderr[-300:]}" if again.returncode else
                       check(contents(out) == ref, "the rerun's OUT differs from a clean run's"))
            if not err and contents(k) != snap:
                err = "KDIR was written"
            tally.case(f"stop-{stage}-{name} (exit {s.rc} in {s.seconds} s)", err)


CASES = [case_parse_error, case_timeout, case_rerun_identical, case_already_converted,
         case_ctrl_c, case_sigterm, case_symlink_kdir, case_cache_rerun_reuses,
         case_cache_killed_run_trusts_nothing_half_written]


def main() -> int:
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        k = make_tree(t)
        snap = contents(k)
        for case in CASES:
            err = case(k, t)
            if not err and contents(k) != snap:
                err = "KDIR was written"
            tally.case(case.__name__[5:].replace("_", "-"), err)
        stage_cases(t, tally)
    return tally.close()


if __name__ == "__main__":
    sys.exit(main())
