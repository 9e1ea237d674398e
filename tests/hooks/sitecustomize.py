# SPDX-License-Identifier: GPL-2.0-only
"""A test hook (tests/safety.py puts this folder on PYTHONPATH): kill -9
the tool at a chosen write. DETASKLET_KILL_AT="TEXT:N" sends SIGKILL to the
process at the N-th Path.write_text of a path containing TEXT, before
it writes: a run stopped at that very moment."""

from __future__ import annotations

import os
import pathlib
import signal

_at = os.environ.get("DETASKLET_KILL_AT", "")
if _at:
    _text, _, _n = _at.rpartition(":")
    _left = [int(_n)]
    _write_text = pathlib.Path.write_text

    def _killing(self: pathlib.Path, *args: object, **kwargs: object) -> int:
        if _text in str(self):
            _left[0] -= 1
            if _left[0] <= 0:
                os.kill(os.getpid(), signal.SIGKILL)
        return _write_text(self, *args, **kwargs)  # type: ignore[arg-type]

    pathlib.Path.write_text = _killing  # type: ignore[method-assign,assignment]
