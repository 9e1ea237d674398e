# SPDX-License-Identifier: GPL-2.0-only
"""The parts of the command line that are not a subcommand (those are in
__main__.py): the logger's one-line format, the parser whose usage error
is one line and exit 2 (naming the make variable under make), the number
types of J and TIMEOUT, and the workers a J gives."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import NoReturn

log = logging.getLogger("detasklet")


class _Format(logging.Formatter):
    """Progress as it is; warnings and errors as one line that says so."""

    PREFIX = {logging.WARNING: "detasklet: warning: ", logging.ERROR: "detasklet: error: ",
              logging.CRITICAL: "detasklet: internal error: "}

    def format(self, record: logging.LogRecord) -> str:
        return self.PREFIX.get(record.levelno, "") + record.getMessage()


def setup_logging(level: int) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Format())
    log.handlers[:] = [handler]
    log.propagate = False
    log.setLevel(level)


# The make variable of each option (the Makefile sets DETASKLET_MAKE=1):
# an error then names what the user typed.
MAKE_NAMES = {"argument -j/--jobs": "J=", "argument --timeout": "TIMEOUT=",
              "argument -o/--out": "OUT=", "argument --target": "TARGET=",
              "argument --cache": "CACHE=", "argument --base": "BASE=",
              "argument --prefix": "PREFIX=", "argument --arches": "ARCHES=",
              "argument --pristine": "PRISTINE="}


def from_make() -> bool:
    return os.environ.get("DETASKLET_MAKE") == "1"


class Parser(argparse.ArgumentParser):
    """A usage error is one line and exit 2, as every other user error."""

    def error(self, message: str) -> NoReturn:
        if from_make():
            for arg, var in MAKE_NAMES.items():
                message = message.replace(arg + ": ", var)
        hint = "" if from_make() else " (--help explains)"
        print(f"{self.prog}: error: {message}{hint}", file=sys.stderr)
        sys.exit(2)


# Bounds of the numbers: more seconds than a day per file, or more jobs,
# is a typo (and 2**32 s overflows the timers).
MAX_TIMEOUT = 24 * 3600
MAX_JOBS = 4096


def positive(text: str, most: int = MAX_JOBS) -> int:
    """argparse type: an integer from 1 to most (J, TIMEOUT)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is not a positive number")
    if n > most:
        raise argparse.ArgumentTypeError(f"{n} is more than {most}")
    return n


def seconds(text: str) -> int:
    """argparse type: TIMEOUT, 1 s to a day."""
    return positive(text, MAX_TIMEOUT)


def workers(jobs: int) -> int:
    """J capped at the CPUs this process may run on: more processes than
    CPUs only add memory and switching."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(jobs, cpus))
