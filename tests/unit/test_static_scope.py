# SPDX-License-Identifier: GPL-2.0-only
"""convert.verdicts.scope: a static function belongs to its file. Two .c
files of a group (or of its kbuild modules) that each define a static
function of one name (liquidio's lio_main.c and lio_vf_main.c, each with
its own octeon_destroy_resources()) have two functions: a call in one file
is not a call of the other's, and a site in the one read second is judged
on its own file's function and callers."""

import unittest

from detasklet.convert.verdicts import analyses, sites
from detasklet.ctext.lex import mask

PF = """\
static void destroy(struct pf *p)
{
\tp->n = 0;
}

void pf_teardown(struct pf *p)
{
\tdestroy(p);
}
"""

VF = """\
struct vf { struct tasklet_struct bh; };

static void vf_bh(struct tasklet_struct *t)
{
\tstruct vf *v = from_tasklet(v, t, bh);
}

static void destroy(struct vf *v)
{
\ttasklet_kill(&v->bh);
}

static int vf_probe(struct platform_device *pdev)
{
\tstruct vf *v = platform_get_drvdata(pdev);

\ttasklet_setup(&v->bh, vf_bh);
\treturn 0;
}

static void vf_remove(struct platform_device *pdev)
{
\tdestroy(platform_get_drvdata(pdev));
}

static struct platform_driver vf_driver = {
\t.probe = vf_probe,
\t.remove = vf_remove,
};
"""


class StaticScope(unittest.TestCase):
    def test_a_call_of_another_files_static_name_is_not_its_call(self) -> None:
        f = analyses.facts_of({"pf.c": mask(PF), "vf.c": mask(VF)})
        self.assertEqual(f.homes["destroy"], "pf.c")
        self.assertEqual(f.callers["destroy"], {"pf_teardown"})
        self.assertNotIn("destroy", f.callees["vf_remove"])

    def test_a_non_static_function_is_called_from_any_file(self) -> None:
        f = analyses.facts_of({"pf.c": mask(PF.replace("static void destroy", "void destroy")),
                               "vf.c": mask(VF.replace("\tdestroy(platform", "\tpf_teardown("
                                                       "platform"))})
        self.assertEqual(f.callers["pf_teardown"], {"vf_remove"})

    def test_a_site_in_the_second_files_function_reads_that_function(self) -> None:
        p = sites.plan({"pf.c": mask(PF), "vf.c": mask(VF)}, [], set())
        self.assertEqual(p.refusals, {})
        s = next(s for s in p.sites if s.api == "tasklet_kill")
        self.assertEqual((s.path, s.function, s.replacement, s.verdict, s.analysis),
                         ("vf.c", "destroy", "cancel_work_sync", "exact", "teardown"))
        self.assertTrue(s.why.startswith(
            "destroy() is called only from vf_remove(), registered as .remove of vf_driver "
            "(struct platform_driver), when the device is unbound."), s.why)
        self.assertNotIn("pf_teardown", s.why)


if __name__ == "__main__":
    unittest.main()
