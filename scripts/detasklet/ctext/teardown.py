# SPDX-License-Identifier: GPL-2.0-only
"""How a driver registers its functions, and what a callback completes.

Two facts the kill analysis (convert.verdicts.analyses) proves verdicts with, read
from masked code:

- registrations(): the functions a driver hands to its bus, its network
  device or the module loader, and as what: a field of a struct
  initialiser (`.remove = foo_remove` in a platform_driver, pci_driver,
  usb_driver ..., `.ndo_stop` in a net_device_ops, `.stop` in an
  ieee80211_ops), module_exit()/module_init(), a devm action. The name of a
  function proves nothing: a `foo_remove()` that nothing registers is not
  a remove callback.
- completion_call(): the first call in a body that completes work a caller
  waits for (complete(), wake_up(), a subsystem's request-done call): a
  pending run of such a callback is not one a teardown may drop. Other
  calls through a pointer are ctext.pointers' reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lex import block_at

# Fields whose function runs when the device, or the driver's hold on it,
# goes away for good (any bus's driver struct names them so).
GONE_FIELDS = ("remove", "remove_new", "disconnect", "shutdown", "port_remove")
# Fields whose function takes an interface down, by the struct they are
# in; the interface may come up again through its start callback.
DOWN_FIELDS = {"net_device_ops": ("ndo_stop", "ndo_uninit"), "ieee80211_ops": ("stop",),
               "ccwgroup_driver": ("set_offline",)}
# Fields whose function brings the device or interface up: a kill there is
# the error unwind of its own set-up.
START_FIELDS = ("probe",)
START_BY_TYPE = {"net_device_ops": ("ndo_open",), "ieee80211_ops": ("start",),
                 "ccwgroup_driver": ("setup", "set_online")}

_INIT_RE = re.compile(r"\bstruct\s+(\w+)\s+(?:(?:const|__\w+)\s+)*(\w+)\s*(?:\[[^\]=]*\]\s*)?"
                      r"=\s*\{")
# .remove = foo_remove, or behind __exit_p()/__devexit_p() (the old
# kernels' wrappers, kept by out-of-tree modules: the name when MODULE)
_FIELD_RE = re.compile(r"\.\s*(\w+)\s*=\s*(?:__(?:dev)?exit_p\s*\(\s*(\w+)\s*\)"
                       r"|&?\s*(\w+))\s*(?=[,}])")
_MODULE_RE = re.compile(r"\bmodule_(exit|init)\s*\(\s*(\w+)\s*\)")
_DEVM_RE = re.compile(r"\bdevm_add_action(?:_or_reset)?\s*\([^,;]+,\s*(?:\([^)]*\)\s*)?(\w+)\s*,")


@dataclass(frozen=True)
class Registration:
    kind: str      # gone | down | start
    how: str       # "registered as .remove of tifm_ms_driver (struct tifm_driver)"


def _kind(ctype: str, fld: str) -> str:
    if fld in GONE_FIELDS:
        return "gone"
    if fld in DOWN_FIELDS.get(ctype, ()):
        return "down"
    if fld in START_FIELDS or fld in START_BY_TYPE.get(ctype, ()):
        return "start"
    return ""


def registrations(code: str) -> dict[str, Registration]:
    """function -> how masked code registers it as a teardown or start
    callback (the first registration found)."""
    out: dict[str, Registration] = {}
    for m in _INIT_RE.finditer(code):
        body = block_at(code, m.end() - 1) or ""
        for f in _FIELD_RE.finditer(body):
            kind = _kind(m.group(1), f.group(1))
            if kind:
                out.setdefault(f.group(2) or f.group(3), Registration(
                    kind, f"registered as .{f.group(1)} of {m.group(2)} (struct {m.group(1)})"))
    for m in _MODULE_RE.finditer(code):
        out.setdefault(m.group(2), Registration(
            "gone" if m.group(1) == "exit" else "start",
            f"the module's {m.group(1)} (module_{m.group(1)}())"))
    for m in _DEVM_RE.finditer(code):
        out.setdefault(m.group(1), Registration(
            "gone", "a devm action, run when the device is unbound"))
    return out


def referenced(code: str, fn: str) -> bool:
    """Whether masked code names fn other than by calling it or defining
    it: its address is taken (a function pointer, an ops field), so it may
    run from places no call graph of the group shows."""
    for m in re.finditer(r"\b" + re.escape(fn) + r"\b", code):
        after = code[m.end():m.end() + 40].lstrip()
        if not after.startswith("("):
            return True
    return False


def is_static(code: str, fn: str) -> bool:
    """Whether masked code defines fn static (no caller outside its file)."""
    return re.search(r"^static\b[^;{}()]*\b" + re.escape(fn) + r"\s*\(", code, re.M) is not None


# Calls that complete work someone waits for: a completion, a wait queue,
# a semaphore's up() (a caller's down() waits for it: hp_sdc's transactions),
# and the subsystems' request-done calls a pending run would have made.
COMPLETIONS = ("complete", "complete_all", "up", "wake_up", "wake_up_all", "wake_up_interruptible",
               "wake_up_interruptible_all", "wake_up_process", "memstick_next_req",
               "mmc_request_done", "scsi_done", "blk_mq_complete_request",
               "blk_mq_end_request", "usb_hcd_giveback_urb", "usb_gadget_giveback_request",
               "dmaengine_desc_get_callback_invoke", "dmaengine_desc_callback_invoke",
               "vchan_cookie_complete", "dma_cookie_complete", "sdio_signal_irq",
               "ata_qc_complete", "ata_qc_complete_multiple", "wake_up_bit",
               # the crypto API's request completions (s5p-sss, octeontx2, ...), and the
               # typed ones of include/crypto/ (crypto4xx's skcipher_/aead_request_complete())
               "crypto_request_complete", "skcipher_request_complete", "aead_request_complete",
               "ahash_request_complete", "akcipher_request_complete", "kpp_request_complete",
               "acomp_request_complete", "crypto_finalize_hash_request",
               "crypto_finalize_skcipher_request", "crypto_finalize_aead_request",
               "crypto_finalize_akcipher_request", "crypto_finalize_kpp_request")
_COMPLETION_RE = re.compile(r"(?:(?<!->)(?<!\.)\b(" + "|".join(COMPLETIONS) + r")|(->\s*(?:complete|done|"
                            r"scsi_done|callback)))\s*\(")


def completion_call(body: str) -> str:
    """The first call of body that completes work a caller waits for
    ("memstick_next_req()", "->done()"); "" when it makes none. A call
    through any other pointer is not read here: the kill analysis takes
    those it cannot follow from ctext.pointers."""
    m = _COMPLETION_RE.search(body)
    return (m.group(1) or re.sub(r"\s+", "", m.group(2))) + "()" if m else ""
