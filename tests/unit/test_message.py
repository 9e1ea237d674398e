"""series.message: the mapping rows and notes follow what each site became."""

import unittest
from pathlib import Path

from detasklet.ctext import gitdiff
from detasklet.series import message

ROOT = Path(__file__).resolve().parents[2]
CASE = "disable-in-atomic-decided-sync"


def _site(rep: str) -> dict:
    return {"path": f"{CASE}.c", "line": 42, "function": "ring_tx_timeout",
            "api": "tasklet_disable_in_atomic", "item": "tx_tasklet", "replacement": rep,
            "verdict": "decided", "analysis": f"tests/{CASE}.toml", "why": "Because."}


class InAtomic(unittest.TestCase):
    def setUp(self) -> None:
        old = (ROOT / "tests" / f"{CASE}.c").read_text()
        new = (ROOT / "expected" / f"{CASE}.c").read_text()
        self.files = gitdiff.parse(gitdiff.file_diff(f"{CASE}.c", old, new))

    def _body(self, *reps: str) -> str:
        return message.body("ring", self.files, {}, sites=[_site(r) for r in reps])

    def test_sync_site_has_the_sync_row_and_note_not_the_loop_note(self) -> None:
        text = self._body("disable_work_sync")
        self.assertIn("tasklet_disable_in_atomic() -> disable_work_sync()\n", text)
        self.assertIn("becomes disable_work_sync() where the", text)
        self.assertNotIn("work_busy()", text)
        self.assertIn("ring_tx_timeout() ->\n  disable_work_sync(): Because.", text)

    def test_loop_site_keeps_the_loop_row_and_note(self) -> None:
        text = self._body("disable_work")
        self.assertIn("tasklet_disable_in_atomic() -> disable_work() and a wait on work_busy()\n",
                      text)
        self.assertIn("disable_work_sync() would not do here", text)
        self.assertNotIn("becomes disable_work_sync() where", text)

    def test_both_kinds_name_both(self) -> None:
        text = self._body("disable_work", "disable_work_sync")
        self.assertIn("disable_work_sync() would not do here", text)
        self.assertIn("becomes disable_work_sync() where", text)


if __name__ == "__main__":
    unittest.main()
