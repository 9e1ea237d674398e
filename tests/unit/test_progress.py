# SPDX-License-Identifier: GPL-2.0-only
"""progress.Heartbeat: on a terminal, a line that says how long it has been
since the last line, cleared before the next one; nothing off a terminal."""

from __future__ import annotations

import io
import logging
import time
import unittest

from detasklet.progress import Heartbeat


class Tty(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


class Beat(unittest.TestCase):
    def run_beat(self, tty: bool) -> str:
        stream = Tty(tty)
        log = logging.getLogger("detasklet")
        handler = logging.StreamHandler(stream)
        log.addHandler(handler)
        old = log.level
        log.setLevel(logging.INFO)
        try:
            with Heartbeat(stream, quiet=0.2, every=0.05):
                time.sleep(0.5)
                log.info("a stage line")
                time.sleep(0.1)
        finally:
            log.removeHandler(handler)
            log.setLevel(old)
        return stream.getvalue()

    def test_terminal(self) -> None:
        text = self.run_beat(True)
        self.assertIn("  ... still working (0 s since the last line)", text)
        # cleared before the stage's line, and nothing after it within the quiet time
        self.assertIn("\r\033[Ka stage line\n", text)
        self.assertFalse(text.split("a stage line\n")[1].strip("\r\033[K"), text)

    def test_not_a_terminal(self) -> None:
        self.assertEqual(self.run_beat(False), "a stage line\n")


if __name__ == "__main__":
    unittest.main()
