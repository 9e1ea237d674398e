# SPDX-License-Identifier: GPL-2.0-only
"""The published path of a legacy callback's data
(legacy_path.published_path): the data is a freshly allocated object that
holds the tasklet, and the init's function sets the tasklet's back pointer
and then publishes the object in it, so the callback reads the data as
wqe->vf->wqe_info. Each step that does not hold keeps the data field."""

import unittest

from detasklet.convert.facts.legacy_local import locals_for, note
from detasklet.ctext.lex import mask

HEAD = """struct vf_dev;
struct vf_wqe { struct tasklet_struct twork; struct vf_dev *vf; };
struct vf_wqe_info { struct vf_wqe vq_wqe[4]; };
struct vf_dev { void *wqe_info; int n; };
static void vq_work_handler(unsigned long data)
{
	struct vf_wqe_info *cwqe_info = (struct vf_wqe_info *)data;

	post(&cwqe_info->vq_wqe[0]);
}
static void post(struct vf_wqe *wqe) { }
"""
ALLOC = "\tcwqe_info = kzalloc(sizeof(*cwqe_info), GFP_KERNEL);\n\tif (!cwqe_info)\n\t\treturn -1;\n"
INIT = "\t\ttasklet_init(&cwqe_info->vq_wqe[i].twork, vq_work_handler, (u64)cwqe_info);\n"
BACK = "\t\tcwqe_info->vq_wqe[i].vf = vf;\n"
PUB = "\tvf->wqe_info = cwqe_info;\n"
FREE = """static void cleanup(struct vf_dev *vf)
{
	struct vf_wqe_info *cwqe_info = vf->wqe_info;

	kfree(cwqe_info);
	vf->wqe_info = NULL;
}
"""


def form(body: str, more: str = FREE, head: str = HEAD) -> str:
    """'mirror:<path>' when proven, else the kind ('field')."""
    code = mask(head + more + "static int init(struct vf_dev *vf)\n{\n"
                "\tstruct vf_wqe_info *cwqe_info;\n\tint i;\n\n" + body + "\treturn 0;\n}\n")
    got, _ = locals_for({"a.c": code}, {})
    c = got["vq_work_handler"]
    return c.kind + (":" + c.mirror + ":" + c.via if c.via else "") + (":" + c.hop if c.hop else "")


def loop(inner: str) -> str:
    return "\tfor (i = 0; i < vf->n; i++) {\n" + inner + "\t}\n"


class PublishedPath(unittest.TestCase):
    def test_proven(self) -> None:
        self.assertEqual(form(ALLOC + loop(INIT + BACK) + PUB), "mirror:vf->wqe_info:wqe")

    def test_published_before_the_back_pointer(self) -> None:
        self.assertEqual(form(ALLOC + loop(INIT + "\t" + PUB + BACK)), "field")

    def test_never_published(self) -> None:
        self.assertEqual(form(ALLOC + loop(INIT + BACK)), "field")

    def test_back_pointer_in_another_block(self) -> None:
        self.assertEqual(form(ALLOC + loop(INIT) + loop(BACK) + PUB), "field")

    def test_object_escapes_before(self) -> None:
        self.assertEqual(form(ALLOC + "\tregister_it(cwqe_info);\n" + loop(INIT + BACK) + PUB),
                         "field")

    def test_member_address_escapes(self) -> None:
        self.assertEqual(form(ALLOC + loop(INIT + BACK + "\t\tlist_add(&cwqe_info->vq_wqe[i].n, "
                                           "&all);\n") + PUB), "field")

    def test_not_allocated_here(self) -> None:
        self.assertEqual(form("\tcwqe_info = vf->spare;\n" + loop(INIT + BACK) + PUB), "field")

    def test_back_pointer_written_elsewhere(self) -> None:
        more = FREE + "static void move(struct vf_wqe *w, struct vf_dev *o) { w->vf = o; }\n"
        self.assertEqual(form(ALLOC + loop(INIT + BACK) + PUB, more), "field")

    def test_published_member_written_elsewhere(self) -> None:
        more = FREE + "static void swap(struct vf_dev *v, void *o) { v->wqe_info = o; }\n"
        self.assertEqual(form(ALLOC + loop(INIT + BACK) + PUB, more), "field")

    def test_cleared_before_the_free(self) -> None:
        more = FREE.replace("\tkfree(cwqe_info);\n\tvf->wqe_info = NULL;",
                            "\tvf->wqe_info = NULL;\n\tkfree(cwqe_info);")
        self.assertEqual(form(ALLOC + loop(INIT + BACK) + PUB, more), "field")

    def test_back_pointer_is_void(self) -> None:
        head = HEAD.replace("struct vf_dev *vf; };", "void *vf; };")
        self.assertEqual(form(ALLOC + loop(INIT + BACK) + PUB, head=head),
                         "mirror:vf->wqe_info:wqe:struct vf_dev *vf")

    def test_void_back_pointer_note(self) -> None:
        head = HEAD.replace("struct vf_dev *vf; };", "void *vf; };")
        code = mask(head + FREE + "static int init(struct vf_dev *vf)\n{\n"
                    "\tstruct vf_wqe_info *cwqe_info;\n\tint i;\n\n" + ALLOC
                    + loop(INIT + BACK) + PUB + "\treturn 0;\n}\n")
        c = locals_for({"a.c": code}, {})[0]["vq_work_handler"]
        self.assertIn("So 'cwqe_info' is now vf->wqe_info, with 'struct vf_dev *vf = wqe->vf;' "
                      "(the member vf is a void *) and wqe = from_work(wqe, work, twork)",
                      note(c, "vq_work_handler"))

    def test_back_pointer_is_void_and_its_name_taken(self) -> None:
        head = HEAD.replace("struct vf_dev *vf; };", "void *vf; };").replace(
            "\tpost(&cwqe_info->vq_wqe[0]);", "\tint vf = 0;\n\tpost(&cwqe_info->vq_wqe[vf]);")
        self.assertEqual(form(ALLOC + loop(INIT + BACK) + PUB, head=head), "field")

    def test_back_pointer_of_another_type(self) -> None:
        head = HEAD.replace("struct vf_dev *vf; };", "struct pf_dev *vf; };")
        self.assertEqual(form(ALLOC + loop(INIT + BACK) + PUB, head=head), "field")

    def test_vf_reassigned(self) -> None:
        self.assertEqual(form(ALLOC + loop(INIT + BACK) + "\tvf = vf->next;\n" + PUB), "field")


if __name__ == "__main__":
    unittest.main()
