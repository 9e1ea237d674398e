#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A build farm as compile-test's CC="distcc gcc" uses it: two distccd on
loopback ports, a compile sample sent through them with local fallback
off, and the checks that both servers compiled (their logs name the
files) and that every object equals a local gcc build, byte for byte.

One line per case, then 'N passed, N failed'. Needs distcc (make test
installs it).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# The sample: small kernel-style files, each with what a compile must get
# right (a header, a macro, a static inline, optimisation).
HEADER = "#define SCALE(x, n) ((x) * (n))\nstatic inline int twice(int x) { return 2 * x; }\n"
SAMPLE = {f"s{i}.c": (f'#include "sample.h"\nint f{i}(int x)\n{{\n\treturn SCALE(twice(x), {i});\n}}\n')
          for i in range(1, 7)}
FLAGS = ["-O2", "-Wall", "-c"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(port: int, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        ["distccd", "--no-detach", "--daemon", "--listen", "127.0.0.1", "--port", str(port),
         "--allow", "127.0.0.1", "--log-stderr", "--log-level", "info", "--jobs", "1"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log.open("w"),
        start_new_session=True)


def listening(port: int, wait: float = 10.0) -> bool:
    end = time.monotonic() + wait
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.1)
    return False


def compile_all(src: Path, env: dict[str, str], cc: list[str], suffix: str) -> list[str]:
    """Each sample file compiled by cc, in parallel; the errors."""
    def one(name: str) -> str:
        p = subprocess.run([*cc, *FLAGS, name, "-o", name[:-2] + suffix], cwd=src, env=env,
                           capture_output=True, text=True, timeout=120)
        return "" if p.returncode == 0 else f"{name}: {p.stderr.strip()[-200:]}"
    with ThreadPoolExecutor(max_workers=len(SAMPLE)) as ex:
        return [e for e in ex.map(one, sorted(SAMPLE)) if e]


def main() -> int:
    passed = failed = 0

    def case(name: str, err: str) -> None:
        nonlocal passed, failed
        print(f"FAIL {name}: {err}" if err else f"ok   {name}", flush=True)
        failed += bool(err)
        passed += not err

    if not (shutil.which("distcc") and shutil.which("distccd")):
        case("distcc-installed", "no distcc/distccd (apt-get install distcc)")
        print(f"{passed} passed, {failed} failed")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        t.chmod(0o755)
        (t / "src").mkdir()
        (t / "src/sample.h").write_text(HEADER)
        for name, text in SAMPLE.items():
            (t / "src" / name).write_text(text)
        ports = [free_port(), free_port()]
        servers = [start(p, t / f"distccd-{p}.log") for p in ports]
        try:
            up = [p for p in ports if listening(p)]
            case("two-servers-listen", "" if len(up) == 2 else f"listening: {up} of {ports}")
            env = {**os.environ, "DISTCC_HOSTS": " ".join(f"127.0.0.1:{p}/1" for p in ports),
                   "DISTCC_FALLBACK": "0", "DISTCC_DIR": str(t / "distcc"),
                   "DISTCC_SKIP_LOCAL_RETRY": "1"}
            (t / "distcc").mkdir()
            errs = compile_all(t / "src", env, ["distcc", "gcc"], ".farm.o")
            case("sample-through-the-farm", "; ".join(errs))
        finally:
            for s in servers:
                try:
                    os.killpg(s.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                s.wait(timeout=30)
        done = {p: {n for n in SAMPLE if f" {n} on localhost completed ok" in
                    (t / f"distccd-{p}.log").read_text()} for p in ports}
        case("both-servers-compiled", "" if all(done.values()) else f"by port: {done}")
        case("every-file-compiled-remotely", "" if set().union(*done.values()) == set(SAMPLE)
             else f"not in a server log: {sorted(set(SAMPLE) - set().union(*done.values()))}")
        errs = compile_all(t / "src", dict(os.environ), ["gcc"], ".local.o")
        diff = [n for n in sorted(SAMPLE) if not errs and
                (t / "src" / (n[:-2] + ".farm.o")).read_bytes()
                != (t / "src" / (n[:-2] + ".local.o")).read_bytes()]
        case("objects-equal-a-local-build", "; ".join(errs) or (f"differ: {diff}" if diff else ""))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
