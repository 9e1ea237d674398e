# SPDX-License-Identifier: GPL-2.0-only
"""Results kept between runs, keyed by everything that produced them.

A kind of result (spatch's run on one file, get_maintainer.pl's answer for
one patch) is stored under the SHA-256 of its inputs: for spatch, the text
it reads, the group's facts, the rules, the parsing hints, the tool's
Python that the rules import and spatch's identity; for get_maintainer.pl,
the diff, MAINTAINERS and the script. What the key does not name cannot
change the result, so an entry is reused as it is.

Safe against a killed run: an entry is written to a temporary name in its
folder, synced, then renamed into place, so a reader sees a whole entry or
none; each entry also repeats its key and the digest of its payload, and a
mismatch (a disk that lost the last write) is a miss, never a result.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import json
import logging
import os
import tempfile
import time
from pathlib import Path

log = logging.getLogger("detasklet")

DEFAULT = Path(__file__).resolve().parents[2] / "cache" / "results"
FORMAT = "detasklet-cache-1"


def digest(*parts: str | bytes) -> str:
    """The SHA-256 of parts, each length-prefixed (no two splits collide)."""
    h = hashlib.sha256()
    for p in parts:
        b = p.encode("utf-8", errors="surrogateescape") if isinstance(p, str) else p
        h.update(f"{len(b)}:".encode())
        h.update(b)
    return h.hexdigest()


SCRIPTS = Path(__file__).resolve().parents[1]


def _module_file(name: str) -> Path | None:
    base = SCRIPTS.joinpath(*name.split("."))
    for f in (base.with_suffix(".py"), base / "__init__.py"):
        if f.is_file():
            return f
    return None


def sources_of(*modules: str) -> list[Path]:
    """The tool's source files that importing modules loads: the modules,
    their packages' __init__.py and, read from their import statements,
    every module of the tool they import, transitively (an import under
    TYPE_CHECKING counts too: more files, never fewer)."""
    seen: dict[str, Path] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for i in range(1, len(parts) + 1):          # the packages, then the module
            mod = ".".join(parts[:i])
            f = _module_file(mod)
            if f is None or mod in seen:
                continue
            seen[mod] = f
            pkg = mod if f.name == "__init__.py" else ".".join(mod.split(".")[:-1])
            for node in ast.walk(ast.parse(f.read_text(), str(f))):
                if isinstance(node, ast.Import):
                    todo += [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    up = pkg.split(".")[:len(pkg.split(".")) - node.level + 1] \
                        if node.level else []
                    base = ".".join(up + ([node.module] if node.module else []))
                    todo += [base] + [f"{base}.{a.name}" for a in node.names]
    return sorted(set(seen.values()))


def code_digest(*modules: str) -> str:
    """One digest of sources_of(modules): a result that depends only on
    them survives changes elsewhere in the tool."""
    parts: list[str | bytes] = list(modules)
    for f in sources_of(*modules):
        parts += [str(f.relative_to(SCRIPTS)), f.read_bytes()]
    return digest(*parts)


# A temporary entry older than this is a killed run's (a write takes
# milliseconds): removed when its folder is next written.
STALE_TMP = 3600


def _sweep(folder: Path) -> None:
    """Remove the temporary entries a killed run (kill -9) left in folder."""
    now = time.time()
    try:
        for q in folder.glob(".tmp-*"):
            if now - q.stat().st_mtime > STALE_TMP:
                q.unlink(missing_ok=True)
    except OSError:
        pass


class Cache:
    """A folder of entries, by kind and key; None: no caching at all."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.hits = self.misses = 0
        self._code: dict[tuple[str, ...], str] = {}

    def code(self, *modules: str) -> str:
        """code_digest(modules), once per run."""
        if modules not in self._code:
            try:
                self._code[modules] = code_digest(*modules)
            except (OSError, SyntaxError, ValueError) as e:
                log.warning(f"cache: cannot read the tool's sources ({e}): "
                            "nothing is reused or kept")
                self.root, self._code[modules] = None, ""
        return self._code[modules]

    def _path(self, kind: str, key: str) -> Path:
        assert self.root is not None
        return self.root / kind / key[:2] / f"{key}.json.gz"

    def get(self, kind: str, key: str) -> dict | None:
        """The payload stored under key, or None (absent, or not whole)."""
        if self.root is None:
            return None
        p = self._path(kind, key)
        try:
            entry = json.loads(gzip.decompress(p.read_bytes()))
            payload = entry["payload"]
            ok = (entry.get("format") == FORMAT and entry.get("key") == key
                  and entry.get("digest") == digest(json.dumps(payload, sort_keys=True)))
        except FileNotFoundError:
            ok, payload = False, None
        except (OSError, ValueError, KeyError, TypeError, EOFError):
            ok, payload = False, None
            log.debug("cache: %s is not a whole entry: ignored", p)
        if ok:
            self.hits += 1
            return payload
        self.misses += 1
        return None

    def put(self, kind: str, key: str, payload: dict) -> None:
        """Store payload under key: whole or not at all. A cache that cannot
        be written is a warning once, not a failure of the run."""
        if self.root is None:
            return
        p = self._path(kind, key)
        entry = {"format": FORMAT, "key": key, "payload": payload,
                 "digest": digest(json.dumps(payload, sort_keys=True))}
        data = gzip.compress(json.dumps(entry, sort_keys=True).encode(), mtime=0)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=p.parent)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, p)
            except BaseException:
                os.unlink(tmp)
                raise
            _sweep(p.parent)
        except OSError as e:
            log.warning(f"cache: cannot write in {self.root} ({e.strerror}): "
                        "results are not kept for the next run")
            self.root = None

    def summary(self) -> str:
        if self.root is None:
            return "no cache"
        return f"cache {self.hits} reused, {self.misses} computed"
