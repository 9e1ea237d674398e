# SPDX-License-Identifier: GPL-2.0-only
"""The guest's initramfs: busybox-static, the workloads' tools from Debian
with their shared libraries (found with ldd), the project's /init and the
workload scripts, written as a newc cpio archive (uncompressed: every kernel
reads it).

The archive is made in Python, so no cpio program is needed and the device
node /dev/console can be written without being root. Every entry has
mtime 0 and uid/gid 0, so the same inputs give the same bytes.
"""

from __future__ import annotations

import logging
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ... import proc
from ...errors import ToolError

log = logging.getLogger("detasklet")

BUSYBOX = Path("/bin/busybox")


@dataclass
class Tree:
    """What goes into the archive: path in the guest -> entry."""
    dirs: set[str] = field(default_factory=set)
    files: dict[str, tuple[bytes, int]] = field(default_factory=dict)  # data, mode
    links: dict[str, str] = field(default_factory=dict)                # symlink -> target
    nodes: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # mode, major, minor

    def _parents(self, path: str) -> None:
        parts = path.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            self.dirs.add("/".join(parts[:i]))

    def add_file(self, path: str, data: bytes, mode: int = 0o644) -> None:
        self._parents(path)
        self.files[path.strip("/")] = (data, mode)

    def add_dir(self, path: str) -> None:
        self._parents(path + "/x")

    def add_link(self, path: str, target: str) -> None:
        self._parents(path)
        self.links[path.strip("/")] = target

    def add_char(self, path: str, major: int, minor: int, mode: int = 0o600) -> None:
        self._parents(path)
        self.nodes[path.strip("/")] = (0o020000 | mode, major, minor)


def shared_libs(binary: Path) -> list[Path]:
    """The shared libraries (and the ELF interpreter) ldd lists for binary;
    [] for a static binary. A library ldd cannot find is an error."""
    r = proc.run(["ldd", str(binary)])
    text = r.stdout + r.stderr
    if "not a dynamic executable" in text or "statically linked" in text:
        return []
    if r.rc:
        raise ToolError(f"ldd {binary} failed: {text.strip().splitlines()[:1]}")
    libs = []
    for line in text.splitlines():
        if "not found" in line:
            raise ToolError(f"{binary}: shared library missing: {line.strip()}")
        m = re.search(r"=>\s*(/\S+)\s*\(", line) or re.match(r"\s*(/\S+)\s*\(", line)
        if m:
            libs.append(Path(m.group(1)))
    return libs


def add_binary(tree: Tree, binary: Path) -> None:
    """binary at its own path, with its libraries at theirs (symlinks
    resolved: the guest gets the file under the name the loader asks for)."""
    tree.add_file(str(binary), binary.resolve().read_bytes(), 0o755)
    for lib in shared_libs(binary):
        if str(lib).strip("/") not in tree.files:
            tree.add_file(str(lib), lib.resolve().read_bytes(), 0o755)


def build_program(src: Path, dest: Path) -> Path:
    """src (one C file of ours) compiled static to dest, again only when
    src is newer; a compile error is a ToolError with gcc's first line."""
    if dest.is_file() and dest.stat().st_mtime >= src.stat().st_mtime:
        return dest
    r = proc.run(["gcc", "-static", "-O2", "-Wall", "-o", str(dest), str(src)], merge=True)
    if r.rc:
        raise ToolError(f"gcc {src.name}: {(r.stdout.strip().splitlines() or ['failed'])[0]}")
    log.info(f"initramfs: {src.name} built static ({dest})")
    return dest


def find_tool(name: str) -> Path:
    """A tool's path on this machine (the Debian package installs it)."""
    p = shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")
    if not p:
        raise ToolError(f"{name} not found (make runtime installs the Debian packages; "
                        f"scripts/apt-install.sh)")
    return Path(p)


def base_tree(init: bytes, busybox: Path = BUSYBOX) -> Tree:
    """busybox at /bin/busybox, /init, the mount points and /dev/console."""
    if not busybox.is_file():
        raise ToolError(f"{busybox} not found (Debian package busybox-static)")
    if shared_libs(busybox):
        raise ToolError(f"{busybox} is not static (install busybox-static)")
    t = Tree()
    t.add_file("bin/busybox", busybox.read_bytes(), 0o755)
    t.add_file("init", init, 0o755)
    for d in ("dev", "proc", "sys", "tmp", "run", "root", "etc", "mnt", "bbin"):
        t.add_dir(d)
    t.add_link("var/run", "/run")      # iproute2, iw and iwpan: /var/run/netns
    t.add_link("bin/sh", "busybox")
    t.add_char("dev/console", 5, 1)
    t.add_file("etc/passwd", b"root:x:0:0:root:/root:/bin/sh\n")
    t.add_file("etc/group", b"root:x:0:\n")
    return t


def _entry(name: str, mode: int, data: bytes, ino: int, rdev: tuple[int, int] = (0, 0),
           nlink: int = 1) -> bytes:
    nb = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, nlink, 0, len(data), 0, 0, rdev[0], rdev[1], len(nb), 0]
    head = b"070701" + b"".join(b"%08X" % f for f in fields)
    out = head + nb
    out += b"\0" * (-len(out) % 4)
    out += data
    out += b"\0" * (-len(out) % 4)
    return out


def cpio(tree: Tree) -> bytes:
    """The tree as a newc archive: directories first, then everything else,
    each list sorted; the TRAILER!!! entry closes it."""
    parts, ino = [], 1
    for d in sorted(tree.dirs):
        parts.append(_entry(d, 0o040755, b"", ino, nlink=2))
        ino += 1
    for name in sorted(set(tree.files) | set(tree.links) | set(tree.nodes)):
        if name in tree.files:
            data, mode = tree.files[name]
            parts.append(_entry(name, 0o100000 | mode, data, ino))
        elif name in tree.links:
            parts.append(_entry(name, 0o120777, tree.links[name].encode(), ino))
        else:
            mode, major, minor = tree.nodes[name]
            parts.append(_entry(name, mode, b"", ino, (major, minor)))
        ino += 1
    parts.append(_entry("TRAILER!!!", 0, b"", 0, nlink=1))
    blob = b"".join(parts)
    return blob + b"\0" * (-len(blob) % 512)


def write(tree: Tree, dest: Path) -> bool:
    """dest = the archive; False (and dest untouched) when it is already that."""
    blob = cpio(tree)
    if dest.is_file() and dest.read_bytes() == blob:
        return False
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_bytes(blob)
    tmp.replace(dest)
    log.info(f"initramfs: {dest} ({len(blob) // 1024} KiB, {len(tree.files)} files)")
    return True
