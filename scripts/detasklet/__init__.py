# SPDX-License-Identifier: GPL-2.0-only
"""detasklet: convert Linux kernel tasklet users to BH workqueues.

The folders are the flow, KDIR -> convert/ -> OUT/all.patch -> series/ ->
OUT/series/ -> check/:

    convert/   scan, group, rewrite with spatch, classify, write OUT
    series/    one mail per driver, and the cover letter
    check/     the evidence: send-check, compile-test, coverage,
               tasklet-free, leftovers
    ctext/     C, Kbuild and diffs as text: one lexer, one vocabulary of the
               tasklet API, one #include resolver, one Kbuild reader
    out/       OUT: where it may be, how it is written, its files read back
    mapping.py the tasklet -> workqueue table; kdir.py the tree checks;
    progress.py on a terminal, a line while a stage prints nothing;
    module.py  M=: an external module, its maintainer and its decisions;
    errors.py  the one error hierarchy; __main__.py the command line
"""

from __future__ import annotations

__version__ = "0.1.0"


def version() -> str:
    """The one version string, which --version prints and a cover letter's
    reproduce line names: __version__, and in a git checkout its commit
    (git describe --always --dirty), e.g. "0.1.0 (git 7f23685)"."""
    # Not proc.run: spatch's rules import this package, and what it imports
    # is part of every spatch cache key (cache.code_digest).
    import subprocess
    from pathlib import Path
    here = Path(__file__).resolve().parents[2]
    try:
        r = subprocess.run(["git", "-C", str(here), "describe", "--always", "--dirty"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return __version__
    commit = r.stdout.strip() if r.returncode == 0 and (here / ".git").exists() else ""
    return f"{__version__} (git {commit})" if commit else __version__
