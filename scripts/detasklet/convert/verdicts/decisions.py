# SPDX-License-Identifier: GPL-2.0-only
"""Per-driver decisions: decisions/*.toml, written by a person who read the
driver, for the sites where no analysis proves the rewrite exact.

Each [[site]] names the file, the function that holds the call, the API,
the item (the last identifier of the tasklet argument), the replacement
and why, in the driver's terms; the tool applies it and quotes the reason
in the commit message. Optional: occurrence (1-based, among the calls of
that API on that item in that function), kernels (["6.12"], ["7.3"]: the
trees it was read on, when not both), cpu (an enable of a per-CPU item:
the CPU whose item it is, for queue_work_on()), guard (a kill done only
when a C condition holds: the condition under which the item was set up),
initialised (a kill or disable that cocci/16-report-kill-before-init.cocci
finds reachable before its function sets the item up: why every caller
only reaches it after an earlier init, in the driver's terms).
replacement = "refuse"
keeps the group unconverted with the decision's reason: no replacement
is right without a change to the driver itself (a work item that some
path cancels without ever having initialised it, for example).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError

FOLDER = Path(__file__).resolve().parents[4] / "decisions"

# API -> the replacements a decision may name.
REPLACEMENTS: dict[str, frozenset[str]] = {
    "tasklet_enable": frozenset({"enable_work", "enable_and_queue_work", "tracked"}),
    "tasklet_kill": frozenset({"cancel_work_sync", "flush_work", "flush_then_cancel"}),
    "tasklet_disable": frozenset({"disable_work_sync"}),
    "tasklet_disable_nosync": frozenset({"disable_work"}),
    # disable_work: disable_work() and the spin on work_busy() (cocci/40-calls.cocci);
    # disable_work_sync: where the core's own wait is allowed (docs/verdicts.md).
    "tasklet_disable_in_atomic": frozenset({"disable_work", "disable_work_sync"}),
    "tasklet_unlock_wait": frozenset({"flush_work"}),
    "tasklet_schedule": frozenset({"system_bh_highpri_wq", "own"}),
    "tasklet_hi_schedule": frozenset({"system_bh_highpri_wq", "own"}),
}
_KEYS = {"file", "function", "api", "item", "replacement", "why", "occurrence", "kernels",
         "cpu", "guard", "initialised"}
# The calls whose replacement WARNs on a work item never set up.
_NEED_INIT = frozenset({"tasklet_kill", "tasklet_disable", "tasklet_unlock_wait"})


@dataclass(frozen=True)
class Decision:
    file: str
    function: str
    api: str
    item: str
    replacement: str
    why: str
    source: str                       # decisions/<name>.toml
    occurrence: int = 0               # 0: every call of the api on the item there
    kernels: tuple[str, ...] = ()     # () : every tree
    cpu: str = ""
    guard: str = ""                   # a kill done only when this C condition holds
    initialised: str = ""             # why the item is always set up before this call

    def applies(self, kernel: str) -> bool:
        """Whether this decision was made for the tree of version kernel
        ("7.3.4" matches "7.3")."""
        return not self.kernels or any(kernel == k or kernel.startswith(k + ".")
                                       for k in self.kernels)

    def matches(self, file: str, function: str, api: str, item: str, occurrence: int) -> bool:
        return (self.file, self.function, self.api, self.item) == (file, function, api, item) \
            and self.occurrence in (0, occurrence)


def _entry(src: str, i: int, e: object) -> Decision:
    where = f"{src}: site {i + 1}"
    if not isinstance(e, dict):
        raise InputError(f"{where} is not a table")
    unknown = sorted(set(e) - _KEYS)
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r}")
    for k in ("file", "function", "api", "item", "replacement", "why"):
        if not isinstance(e.get(k), str) or not e[k].strip():
            raise InputError(f"{where}: '{k}' must be a non-empty string")
    api, rep = e["api"], e["replacement"]
    if api not in REPLACEMENTS:
        raise InputError(f"{where}: api {api!r} is not one of {', '.join(sorted(REPLACEMENTS))}")
    if rep not in REPLACEMENTS[api] | {"refuse"}:
        raise InputError(f"{where}: {api} cannot become {rep!r} (choose "
                         f"{', '.join(sorted(REPLACEMENTS[api]))})")
    occ = e.get("occurrence", 0)
    if not isinstance(occ, int) or occ < 0:
        raise InputError(f"{where}: occurrence must be a positive integer")
    kernels = e.get("kernels", [])
    if not isinstance(kernels, list) or not all(isinstance(k, str) for k in kernels):
        raise InputError(f"{where}: kernels must be a list of versions like \"7.3\"")
    cpu = e.get("cpu", "")
    if cpu and api != "tasklet_enable":
        raise InputError(f"{where}: cpu is only for tasklet_enable")
    guard = e.get("guard", "")
    if guard and (api, rep) not in (("tasklet_kill", "cancel_work_sync"),
                                    ("tasklet_kill", "flush_work")):
        raise InputError(f"{where}: guard is only for a kill that becomes cancel_work_sync "
                         "or flush_work")
    initialised = e.get("initialised", "")
    if initialised and (api not in _NEED_INIT or not isinstance(initialised, str)):
        raise InputError(f"{where}: initialised is a text, only for "
                         f"{', '.join(sorted(_NEED_INIT))}")
    return Decision(e["file"], e["function"], api, e["item"], rep, " ".join(e["why"].split()),
                    src, occ, tuple(kernels), cpu, guard, " ".join(initialised.split()))


def load(folder: Path = FOLDER, prefix: str = "decisions/") -> list[Decision]:
    """Every decision of folder, checked; a malformed file is an InputError.
    prefix: how the decisions' sources name the folder."""
    return [d for f in (sorted(folder.glob("*.toml")) if folder.is_dir() else [])
            for d in load_file(f, f"{prefix}{f.name}")]


def load_file(f: Path, src: str) -> list[Decision]:
    """The decisions of one file (src names it in reasons and messages)."""
    try:
        data = tomllib.loads(f.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise InputError(f"{src}: {e}") from None
    sites = data.get("site", [])
    if not isinstance(sites, list) or set(data) - {"site"}:
        raise InputError(f"{src}: only [[site]] tables belong in a decision file")
    return [_entry(src, i, e) for i, e in enumerate(sites)]


def for_files(decisions: list[Decision], files: set[str], kernel: str) -> list[Decision]:
    """The decisions about files, made for this kernel."""
    return [d for d in decisions if d.file in files and d.applies(kernel)]
