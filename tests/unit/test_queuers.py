# SPDX-License-Identifier: GPL-2.0-only
"""convert.verdicts.queuers: an interrupt handler that queues the item is
ended before the kill only by the end call that matches how it was
requested (free_irq() for request_irq(), devm_free_irq() for
devm_request_irq(), disable_irq() for either), and its words list only
those."""

import unittest

from detasklet.convert.verdicts import analyses, queuers
from detasklet.ctext.lex import mask

DRIVER = """\
struct foo {
\tstruct tasklet_struct bh;
\tint irq;
};

static void foo_bh(struct tasklet_struct *t)
{
}

static irqreturn_t foo_irq(int irq, void *data)
{
\tstruct foo *f = data;

\ttasklet_schedule(&f->bh);
\treturn IRQ_HANDLED;
}

static int foo_probe(struct platform_device *pdev, struct foo *f)
{
\ttasklet_setup(&f->bh, foo_bh);
\treturn REQUEST(&pdev->dev, f->irq, foo_irq, 0, "foo", f);
}

static void foo_remove(struct platform_device *pdev, struct foo *f)
{
\tEND
\ttasklet_kill(&f->bh);
}
"""


def _others(request: str, end: str) -> list[queuers.Queuer]:
    code = DRIVER.replace("REQUEST(&pdev->dev, ", request).replace("END", end)
    line = next(i for i, ln in enumerate(code.splitlines(), 1) if "tasklet_kill" in ln)
    return queuers.others("bh", "foo.c", "foo_remove", line,
                          analyses.facts_of({"foo.c": mask(code)}))


class IrqEnds(unittest.TestCase):
    def test_a_devm_irq_ended_by_devm_free_irq(self) -> None:
        got = _others("devm_request_irq(&pdev->dev, ", "devm_free_irq(&pdev->dev, f->irq, f);")
        self.assertEqual([(q.fn, q.ended, q.at_kill) for q in got],
                         [("foo_irq", "devm_free_irq()", False)])

    def test_a_devm_irq_not_ended_lists_only_its_own_ends(self) -> None:
        got = _others("devm_request_irq(&pdev->dev, ", "f->irq = 0;")
        self.assertEqual([q.how for q in got],
                         ["it is registered by devm_request_irq() and no devm_free_irq() or "
                          "disable_irq() comes before the kill"])

    def test_a_request_irq_is_not_ended_by_devm_free_irq(self) -> None:
        got = _others("request_irq(", "devm_free_irq(&pdev->dev, f->irq, f);")
        self.assertEqual([(q.fn, q.at_kill) for q in got], [("foo_irq", True)])
        self.assertEqual(got[0].how, "it is registered by request_irq() and no free_irq() or "
                         "disable_irq() comes before the kill")

    def test_a_request_irq_ended_by_free_irq_or_disable_irq(self) -> None:
        for end in ("free_irq(f->irq, f);", "disable_irq(f->irq);"):
            got = _others("request_irq(", end)
            self.assertEqual([(q.fn, q.at_kill) for q in got], [("foo_irq", False)], end)


if __name__ == "__main__":
    unittest.main()
