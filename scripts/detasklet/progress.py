# SPDX-License-Identifier: GPL-2.0-only
"""Never silent on a terminal: while a command runs, a line rewritten in
place says how long it has been since the last line whenever that is more
than a few seconds (a stage with no count of its own: the scan, the facts,
get_maintainer.pl, a build). Each line the command prints clears it first.
Off a terminal nothing is added: each stage says one line when it starts.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from types import TracebackType
from typing import TextIO

QUIET = 3.0     # seconds without a line before the ticker shows
EVERY = 1.0     # its refresh


class _Out:
    """stdout on a terminal: the ticker cleared before each write."""

    def __init__(self, beat: "Heartbeat", real: TextIO) -> None:
        self._beat, self._real = beat, real

    def write(self, text: str) -> int:
        self._beat.clear()
        return self._real.write(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self._real, name)


class Heartbeat(logging.Filter):
    """with Heartbeat(): ... — the ticker of a command on a terminal."""

    def __init__(self, stream: TextIO | None = None, quiet: float = QUIET,
                 every: float = EVERY) -> None:
        super().__init__()
        self.stream = stream or sys.stderr
        self.quiet, self.every = quiet, every
        self.last = time.monotonic()
        self.shown = False
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        self.saved: TextIO | None = None

    def clear(self) -> None:
        """A line is about to be printed: the ticker goes, the clock restarts."""
        with self.lock:
            if self.shown:
                self.stream.write("\r\033[K")
                self.stream.flush()
                self.shown = False
            self.last = time.monotonic()

    def filter(self, record: logging.LogRecord) -> bool:
        self.clear()
        return True

    def tick(self) -> None:
        with self.lock:
            idle = time.monotonic() - self.last
            if idle >= self.quiet:
                self.stream.write(f"\r\033[K  ... still working ({idle:.0f} s since the "
                                  "last line)")
                self.stream.flush()
                self.shown = True

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            self.tick()

    def __enter__(self) -> "Heartbeat":
        if not self.stream.isatty():
            return self
        for h in logging.getLogger("detasklet").handlers:
            h.addFilter(self)
        if sys.stdout.isatty():
            self.saved = sys.stdout
            sys.stdout = _Out(self, sys.stdout)     # type: ignore[assignment]
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.thread is None:
            return
        self.stop.set()
        self.thread.join()
        self.clear()
        for h in logging.getLogger("detasklet").handlers:
            h.removeFilter(self)
        if self.saved is not None:
            sys.stdout = self.saved
