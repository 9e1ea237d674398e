# SPDX-License-Identifier: GPL-2.0-only
"""Every external process of detasklet (git, spatch, get_maintainer.pl,
make, patch, ldd, QEMU) is started here, and every one of them is stopped
here; no other module imports subprocess (tests/unit/test_house.py).

run() starts a program in a process group of its own (so that it and what
it starts can be killed as one), with its output captured and a time
limit; a program that is missing is a ToolError, one line. run_bytes()
is the same for a program whose input or output is not text (git
fast-import, format-patch); lines() and raw() give a program's output as
it comes (a build, a guest's serial console). The process
groups of the programs still running are kept in OWN, the one piece of
process state of the tool: a signal handler is global, so is what it
must stop. stop() ends them all (SIGTERM, a grace time, SIGKILL), and
with them every other descendant of this process (the workers of a
process pool and what they started).

handle_signals() makes SIGINT, SIGTERM and SIGHUP end the run in
finish(): every process stopped, the registered cleanups run (the
scratch folders), one line, exit 130, 143 or 129. held() keeps a signal
out of a block (OUT's two renames) until its end.

pool() is the process pool of a stage: its workers ignore SIGINT and
SIGHUP (a Ctrl-C at the terminal reaches the whole foreground process
group; the main process decides) and die on SIGTERM; leaving the block
by an exception stops them at once instead of waiting for their work.

tool_version() is the tool's own version (git describe of its checkout).
The scratch folders of a run, which a signal also removes: scratch.py.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import subprocess
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generic, Iterator, NoReturn, TypeVar

from . import __version__
from .errors import ToolError

log = logging.getLogger("detasklet")

GRACE = 3.0        # seconds a stopped process gets before SIGKILL
_PR_SET_CHILD_SUBREAPER = 36


T = TypeVar("T", str, bytes)


@dataclass
class Ran(Generic[T]):
    """A finished process: its exit code, output (text, or bytes from
    run_bytes()) and run time."""
    args: list[str]
    rc: int
    stdout: T
    stderr: T
    seconds: float
    timed_out: bool = False

    def first_error(self) -> str:
        """The first line of stderr (else stdout, else the exit code)."""
        text = _text(self.stderr).strip() or _text(self.stdout).strip()
        return text.splitlines()[0] if text else f"exit code {self.rc}"


def _text(out: str | bytes) -> str:
    return out if isinstance(out, str) else out.decode(errors="replace")


class Children:
    """The process groups this process started and that still run."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.live: dict[int, subprocess.Popen[Any]] = {}
        self.stopping = False
        self.held = 0           # > 0: a signal waits (held())
        self.pending = 0        # the signal that waits
        self.cleanups: list[Callable[[], None]] = []

    def add(self, p: subprocess.Popen[Any]) -> None:
        with self.lock:
            self.live[p.pid] = p

    def drop(self, p: subprocess.Popen[Any]) -> None:
        with self.lock:
            self.live.pop(p.pid, None)

    def groups(self) -> list[int]:
        with self.lock:
            return list(self.live)


OWN = Children()


class Stopped(KeyboardInterrupt):
    """Raised in a thread that would start a program after the run was
    told to stop (finish() is ending it)."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signum)
        self.signum = signum


def _start(args: list[str], cwd: Path | str | None, env: dict[str, str] | None,
           errors: str | None, stdin: bool, merge: bool) -> subprocess.Popen[Any]:
    """args started in a process group of its own, kept in OWN; its pipes
    are text unless errors is None; a program not found is a ToolError."""
    if OWN.stopping:
        raise Stopped()
    try:
        p = subprocess.Popen(args, cwd=cwd, env=env, text=errors is not None, errors=errors,
                             stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                             stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT if merge else subprocess.PIPE,
                             process_group=0)
    except FileNotFoundError:
        raise ToolError(f"{args[0]} not found: install it (see README.md)") from None
    except PermissionError:
        raise ToolError(f"{args[0]} cannot be run (permission denied)") from None
    OWN.add(p)
    if OWN.stopping:            # the stop began while it started
        _kill_group(p.pid, signal.SIGKILL)
    return p


def run(args: list[str], *, cwd: Path | str | None = None, env: dict[str, str] | None = None,
        stdin: str | None = None, timeout: float | None = None, errors: str = "strict",
        merge: bool = False) -> Ran[str]:
    """args run to its end (or timeout seconds, then its process group is
    killed and timed_out set); stdout and stderr captured as text (merge:
    stderr into stdout). A program not found is a ToolError."""
    start = time.monotonic()
    p = _start(args, cwd, env, errors, stdin is not None, merge)
    out, err, timed_out = _communicate(p, stdin, timeout)
    return Ran(list(args), p.returncode, out or "", err or "",
               round(time.monotonic() - start, 3), timed_out)


def run_bytes(args: list[str], *, cwd: Path | str | None = None,
              env: dict[str, str] | None = None, stdin: bytes | None = None,
              timeout: float | None = None) -> Ran[bytes]:
    """run() for a program whose input and output are bytes."""
    start = time.monotonic()
    p = _start(args, cwd, env, None, stdin is not None, False)
    out, err, timed_out = _communicate(p, stdin, timeout)
    return Ran(list(args), p.returncode, out or b"", err or b"",
               round(time.monotonic() - start, 3), timed_out)


def _communicate(p: subprocess.Popen[Any], stdin: Any, timeout: float | None
                 ) -> tuple[Any, Any, bool]:
    """p's stdout and stderr once it ends, and whether it was killed at
    timeout; an exception meanwhile (a signal) kills it."""
    timed_out = False
    try:
        try:
            out, err = p.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(p.pid, signal.SIGKILL)
            out, err = p.communicate()
    except BaseException:
        kill(p)
        raise
    finally:
        OWN.drop(p)
    return out, err, timed_out


@contextmanager
def lines(args: list[str], *, cwd: Path | str | None = None,
          env: dict[str, str] | None = None,
          errors: str = "replace") -> Iterator[subprocess.Popen[str]]:
    """args with stdout and stderr merged into one pipe the block reads
    line by line (a build's progress); its exit code is the returncode
    after the block. Leaving the block by an exception kills it."""
    with _reaped(_start(args, cwd, env, errors, False, True)) as p:
        yield p


@contextmanager
def raw(args: list[str], *, cwd: Path | str | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """lines() as bytes, for a block that reads what comes when it comes
    (a guest's serial console, read without blocking) and may end the
    program early (kill())."""
    with _reaped(_start(args, cwd, None, None, False, True)) as p:
        yield p


@contextmanager
def _reaped(p: subprocess.Popen[Any]) -> Iterator[subprocess.Popen[Any]]:
    """p waited for after the block, killed if the block raises."""
    try:
        yield p
        p.wait()
    except BaseException:
        kill(p)
        raise
    finally:
        OWN.drop(p)


def kill(p: subprocess.Popen[Any]) -> None:
    """A child to end now (an exception, a time limit): its whole group
    killed, and reaped."""
    _kill_group(p.pid, signal.SIGKILL)
    p.wait()


def _kill_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


# ---- stopping everything -------------------------------------------------------

def own_descendants() -> None:
    """Make this process the reaper of its orphaned descendants (a pool
    worker killed before its child): they stay findable by stop()."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def descendants(root: int) -> set[int]:
    """Every process below root, from /proc (their parent links)."""
    parent: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read().decode("latin-1")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        parent[int(name)] = int(fields[1])
    found: set[int] = set()
    todo = [root]
    while todo:
        here = todo.pop()
        for pid, pp in parent.items():
            if pp == here and pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def _signal_all(pids: set[int], sig: int) -> None:
    for pgid in OWN.groups():
        _kill_group(pgid, sig)
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _reap() -> None:
    """Collect the exit status of every child that has ended."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def on_signal(signum: int, frame: object) -> None:
    """The main process's handler of SIGINT, SIGTERM and SIGHUP: the run
    ends here (finish()), not by an exception raised wherever the main
    thread is (inside a lock of logging, say, which would then be held
    for ever). Within held(), the signal waits for the end of the block."""
    if OWN.held:
        OWN.pending = OWN.pending or signum
        return
    finish(signum)


def finish(signum: int, outcome: str = "OUT left as it was") -> NoReturn:
    """End the run for signal signum: no new process, every process of it
    stopped, the cleanups (scratch folders) run, one line, and exit
    128 + signum (130 for SIGINT, 143 for SIGTERM) at once: no exit
    handler may wait for a worker that is gone."""
    OWN.stopping = True
    try:
        for s in STOP_SIGNALS:
            signal.signal(s, signal.SIG_IGN)
        stop()
        for fn in reversed(OWN.cleanups):
            try:
                fn()
            except Exception:
                pass
        name = signal.Signals(signum).name
        os.write(2, f"detasklet: stopped by {name}; {outcome}\n".encode())
    finally:
        os._exit(128 + signum)


@contextmanager
def held() -> Iterator[None]:
    """A block a signal does not cut (OUT's two renames): a signal that
    comes meanwhile ends the run after it."""
    OWN.held += 1
    try:
        yield
    finally:
        OWN.held -= 1
        if not OWN.held and OWN.pending:
            finish(OWN.pending, "OUT holds the new results, written before it came")


@contextmanager
def cleanup(fn: Callable[[], None]) -> Iterator[None]:
    """fn runs if a signal ends the run within the block."""
    OWN.cleanups.append(fn)
    try:
        yield
    finally:
        OWN.cleanups.remove(fn)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def handle_signals() -> None:
    """Install on_signal for the three signals that end a run."""
    for s in STOP_SIGNALS:
        signal.signal(s, on_signal)


def stop(grace: float = GRACE) -> None:
    """End every process of this run: SIGTERM to all, up to grace seconds
    for them to go, then SIGKILL to what is left, until none is."""
    me = os.getpid()
    end = time.monotonic() + grace
    n = 0
    while time.monotonic() < end:
        below = descendants(me)
        if not below:
            return
        if n % 5 == 0:      # again: a worker forked meanwhile, or one that lost it in
            _signal_all(below, signal.SIGTERM)      # its first instants
            _signal_all(below, signal.SIGCONT)      # a stopped process acts once let go
        n += 1
        time.sleep(0.05)
        _reap()
    for _ in range(100):
        left = descendants(me)
        if not left:
            return
        _signal_all(left, signal.SIGKILL)
        time.sleep(0.05)
        _reap()


def _worker_init() -> None:
    """A pool worker leaves SIGINT and SIGHUP to the main process and dies
    on SIGTERM, without a word."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool whose workers the main process stops: leaving the
    block by an exception cancels what is queued and ends the workers
    now, without waiting for their work."""
    ex = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)
    try:
        yield ex
    except BaseException:
        ex.shutdown(wait=False, cancel_futures=True)
        stop()
        raise
    ex.shutdown()


class TimeLimit(Exception):
    """The block of time_limit() ran out of time."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """TimeLimit raised in the block after seconds (SIGALRM: the main
    thread of a process, a pool worker's own)."""
    def ring(signum: int, frame: object) -> None:
        raise TimeLimit()
    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)




# ---- the tool's own version ----------------------------------------------------

def tool_version() -> str:
    """The one version string, which --version prints and a cover letter's
    reproduce line names: __version__, and in a git checkout its commit
    (git describe --always --dirty), e.g. "0.1.0 (git 7f23685)"."""
    here = Path(__file__).resolve().parents[2]
    try:
        r = run(["git", "-C", str(here), "describe", "--always", "--dirty"], timeout=30)
    except ToolError:
        return __version__
    commit = r.stdout.strip() if r.rc == 0 and (here / ".git").exists() else ""
    return f"{__version__} (git {commit})" if commit else __version__
