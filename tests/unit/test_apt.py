# SPDX-License-Identifier: GPL-2.0-only
"""scripts/apt-install.sh: linux-source-7.* is fetched through an apt
configuration of our own under the cache (its plan names no /etc/apt path
to write, and its sources list the machine's mirror), the files an earlier
detasklet wrote into /etc/apt are removed only when they are exactly those,
and, as root with the network, a real index update leaves /etc/apt as it was."""

from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "apt-install.sh"
# apt-get indextargets lines of a machine whose sources name a mirror
TARGETS = ("http://mirror.invalid/debian-security/ bookworm-security main Packages\n"
           "http://mirror.invalid/debian/ bookworm main Packages\n"
           "http://mirror.invalid/debian/ bookworm main Translations\n")


def apt(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=300)


def etc_digest(top: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(top.rglob("*")):
        h.update(str(p).encode())
        if p.is_file() and not p.is_symlink():
            h.update(p.read_bytes())
    return h.hexdigest()


def codename() -> str:
    for line in Path("/etc/os-release").read_text().splitlines():
        if line.startswith("VERSION_CODENAME="):
            return line.split("=", 1)[1].strip('"')
    return "bookworm"


class Plan(unittest.TestCase):
    def plan(self, cache: str, version: str = "7.3") -> list[str]:
        tfile = Path(cache) / "targets"
        tfile.write_text(TARGETS.replace("bookworm", codename()))
        p = apt(["--cache", cache, "--plan", "--source", version],
                {"DETASKLET_APT_TARGETS": str(tfile)})
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.splitlines()

    def test_backports_through_our_own_configuration(self) -> None:
        with tempfile.TemporaryDirectory() as cache:
            lines = self.plan(cache)
            self.assertEqual(lines[0], f"# {cache}/apt/sources.list.d/detasklet.sources: "
                             "http://mirror.invalid/debian trixie-backports main "
                             + subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                                              text=True).stdout.strip())
            commands = [shlex.split(ln) for ln in lines[1:]]
            self.assertEqual([c[0] for c in commands], ["apt-get", "apt-get", "dpkg-deb"])
            self.assertEqual(commands[0][-2:], ["update", "-q"])
            self.assertEqual(commands[1][-2:], ["download", "linux-source-7.3"])
            for c in commands[:2]:
                dirs = dict(c[i + 1].split("=", 1) for i, w in enumerate(c) if w == "-o"
                            and c[i + 1].startswith("Dir::"))
                for key in ("Dir::Etc::SourceList", "Dir::Etc::SourceParts", "Dir::Etc::Preferences",
                            "Dir::Etc::PreferencesParts", "Dir::State::Lists", "Dir::State::status",
                            "Dir::Cache"):
                    self.assertIn(key, dirs)
                for key, value in dirs.items():
                    self.assertTrue(value in ("", "/dev/null") or value.startswith(cache + "/apt/"),
                                    f"{key}={value}")
            self.assertEqual(commands[2][-1], f"{cache}/apt/root")
            self.assertFalse(any("/etc/apt" in ln for ln in lines), lines)
            self.assertEqual(list(Path(cache).iterdir()), [Path(cache) / "targets"],
                             "--plan wrote something")

    def test_no_mirror_is_one_line(self) -> None:
        with tempfile.TemporaryDirectory() as cache:
            tfile = Path(cache) / "targets"
            tfile.write_text("http://mirror.invalid/other/ sid main Packages\n")
            p = apt(["--cache", cache, "--plan", "--source", "7.3"],
                    {"DETASKLET_APT_TARGETS": str(tfile)})
            self.assertEqual(p.returncode, 2)
            self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
            self.assertIn("no Debian mirror", p.stderr)


OLD_LIST = ("Types: deb\nURIs: http://mirror.invalid/debian\nSuites: trixie-backports\n"
            "Components: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
OLD_PIN = ("Package: *\nPin: release n=trixie-backports\nPin-Priority: -1\n\n"
           "Package: /^linux-source-7\\./\nPin: release n=trixie-backports\nPin-Priority: 500\n")


class ForgetOld(unittest.TestCase):
    def etc(self, top: Path, pin: str) -> Path:
        (top / "sources.list.d").mkdir(parents=True)
        (top / "preferences.d").mkdir()
        (top / "sources.list.d/detasklet-trixie-backports.sources").write_text(OLD_LIST)
        (top / "preferences.d/detasklet-trixie-backports").write_text(pin)
        return top

    def test_ours_are_removed(self) -> None:
        with tempfile.TemporaryDirectory() as t:
            etc = self.etc(Path(t), OLD_PIN)
            p = apt(["--forget-old", "--plan"], {"DETASKLET_APT_ETC": str(etc)})
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(shlex.split(p.stdout), [
                "rm", "-f", f"{etc}/sources.list.d/detasklet-trixie-backports.sources",
                f"{etc}/preferences.d/detasklet-trixie-backports"])

    def test_changed_ones_are_left(self) -> None:
        with tempfile.TemporaryDirectory() as t:
            etc = self.etc(Path(t), OLD_PIN + "# mine\n")
            before = etc_digest(etc)
            p = apt(["--forget-old"], {"DETASKLET_APT_ETC": str(etc)})
            self.assertEqual(p.returncode, 2)
            self.assertIn("left as it is", p.stderr)
            self.assertEqual(etc_digest(etc), before)


FAKES = {
    "id": "#!/bin/sh\necho 0\n",
    "dpkg": "#!/bin/sh\n[ \"$1\" = --print-architecture ] && echo amd64 && exit 0\nexit 1\n",
    "dpkg-query": "#!/bin/sh\necho 1.0-1\n",
    # apt's usual chatter, then the exit status the test asks for
    "apt-get": ("#!/bin/sh\nfor i in $(seq 58); do echo \"Unpacking noise $i ...\"; done\n"
                "exit ${FAKE_APT_RC:-0}\n"),
}


class Install(unittest.TestCase):
    """Ordinary packages with a fake apt-get, dpkg and id (root): one line
    per package and none of apt's output when it works; all of it when it
    fails."""

    def run_fake(self, rc: int) -> tuple[subprocess.CompletedProcess, Path]:
        self.tmp = tempfile.TemporaryDirectory()
        t = Path(self.tmp.name)
        (t / "bin").mkdir()
        for name, text in FAKES.items():
            (t / "bin" / name).write_text(text)
            (t / "bin" / name).chmod(0o755)
        p = apt(["--cache", str(t / "cache"), "bc", "flex"],
                {"PATH": f"{t / 'bin'}:{os.environ['PATH']}", "FAKE_APT_RC": str(rc),
                 "DETASKLET_APT_ETC": str(t / "etc")})
        self.addCleanup(self.tmp.cleanup)
        return p, t

    def test_quiet_when_it_works(self) -> None:
        p, t = self.run_fake(0)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertEqual(p.stderr.splitlines(), [
            f"detasklet: installing bc flex (log: {t}/cache/apt/install.log)",
            "detasklet: installed bc 1.0-1", "detasklet: installed flex 1.0-1"])
        self.assertIn("Unpacking noise 58", (t / "cache/apt/install.log").read_text())

    def test_apt_output_when_it_fails(self) -> None:
        p, _ = self.run_fake(100)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("Unpacking noise 58", p.stderr)
        self.assertIn("apt-get install bc flex failed (above)", p.stderr.splitlines()[-1])


class Real(unittest.TestCase):
    @unittest.skipUnless(os.geteuid() == 0, "as root only (apt would refuse a user anyway)")
    def test_index_update_leaves_etc_apt_alone(self) -> None:
        """Our own lists brought up to date through the machine's mirror,
        the .deb's URI asked for; /etc/apt byte for byte as before."""
        before = etc_digest(Path("/etc/apt"))
        with tempfile.TemporaryDirectory() as cache:
            p = apt(["--cache", cache, "--uris", "--source", "7.3"])
            if p.returncode != 0 and "Could not resolve" in p.stderr + p.stdout:
                self.skipTest("no network")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertRegex(p.stdout, r"linux-source-7\.3_7\.3\.[0-9]+-[^ ]*_all\.deb")
            self.assertTrue((Path(cache) / "apt/lists").is_dir())
        self.assertEqual(etc_digest(Path("/etc/apt")), before)


if __name__ == "__main__":
    unittest.main()
