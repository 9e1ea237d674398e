# SPDX-License-Identifier: GPL-2.0-only
"""The one error hierarchy of detasklet.

Every error the user can act on is a DetaskletError subclass: the command
line prints its message as one line and exits 2. Anything else is a bug in
the tool: one line, and the traceback in a log file (see __main__).
"""

from __future__ import annotations


class DetaskletError(Exception):
    """A one-line reason a command cannot go on; exit code 2."""


class TreeError(DetaskletError):
    """KDIR is missing, not a kernel tree, or has no BH workqueues."""


class OutError(DetaskletError):
    """OUT (or a build folder) cannot be used: not ours, locked, not writable."""


class InputError(DetaskletError):
    """A bad argument or environment value (PATHS, J, TIMEOUT, dates), or
    an OUT whose report.json, groups.json or all.patch is damaged."""


class ToolError(DetaskletError):
    """A program the run needs is missing (spatch, a compiler)."""


class BuildError(DetaskletError):
    """make (allmodconfig, a build) or patch failed in a build folder."""


class PatchError(InputError, ValueError):
    """A patch (all.patch, a series file) that cannot be read or applied."""


class CoreError(DetaskletError):
    """The tasklet core of KDIR is not in the shape the removal expects."""
