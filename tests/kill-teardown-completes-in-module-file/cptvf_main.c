// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include "cptvf.h"

static void vq_work_handler(unsigned long data)
{
	struct cptvf_wqe *wqe = (struct cptvf_wqe *)data;

	cptvf_post_process(wqe);
}

static irqreturn_t cptvf_done_intr_handler(int irq, void *arg)
{
	struct cptvf *cptvf = arg;

	if (readl(cptvf->reg_base))
		tasklet_hi_schedule(&cptvf->wqe.twork);
	return IRQ_HANDLED;
}

static int cptvf_probe(struct pci_dev *pdev, const struct pci_device_id *ent)
{
	struct cptvf *cptvf;
	int err;

	cptvf = devm_kzalloc(&pdev->dev, sizeof(*cptvf), GFP_KERNEL);
	if (!cptvf)
		return -ENOMEM;
	cptvf->pdev = pdev;
	cptvf->wqe.cptvf = cptvf;
	tasklet_init(&cptvf->wqe.twork, vq_work_handler, (unsigned long)&cptvf->wqe);
	err = request_irq(pci_irq_vector(pdev, 0), cptvf_done_intr_handler, 0,
			  "cptvf done", cptvf);
	if (err)
		return err;
	pci_set_drvdata(pdev, cptvf);
	return cptvf_register_algs();
}

static void cptvf_remove(struct pci_dev *pdev)
{
	struct cptvf *cptvf = pci_get_drvdata(pdev);

	cptvf_unregister_algs();
	free_irq(pci_irq_vector(pdev, 0), cptvf);
	tasklet_kill(&cptvf->wqe.twork);
}

static const struct pci_device_id cptvf_id_table[] = {
	{ PCI_VDEVICE(CAVIUM, 0xa0fe) },
	{ }
};

static struct pci_driver cptvf_pci_driver = {
	.name = "foo-cptvf",
	.id_table = cptvf_id_table,
	.probe = cptvf_probe,
	.remove = cptvf_remove,
};
module_pci_driver(cptvf_pci_driver);
MODULE_LICENSE("GPL");
