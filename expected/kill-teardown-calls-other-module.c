// SPDX-License-Identifier: GPL-2.0
/*
 * A crypto VF whose done tasklet calls cptlf_post_process(), a function
 * of the driver's common library module (declared here, defined in a file
 * of another kbuild module) that completes the requests: the analysis
 * cannot read it, so it takes the run to complete work a caller may wait
 * for and keeps the pending run at .remove (flush_work(), then
 * cancel_work_sync()); the library cannot queue the item again, since no
 * function of this file that queues it can be called from outside.
 */
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/pci.h>

struct cptlf_wqe {
	struct work_struct work;
	void *lfs;
};

struct cptvf {
	struct cptlf_wqe wqe;
	void __iomem *reg_base;
};

void cptlf_post_process(struct cptlf_wqe *wqe);

static void cptlf_work_handler(struct work_struct *work)
{
	cptlf_post_process(container_of(work, struct cptlf_wqe, work));
}

static irqreturn_t cptlf_done_intr_handler(int irq, void *arg)
{
	struct cptvf *cptvf = arg;

	if (readq(cptvf->reg_base))
		queue_work(system_bh_highpri_wq, &cptvf->wqe.work);
	return IRQ_HANDLED;
}

static int cptvf_probe(struct pci_dev *pdev, const struct pci_device_id *ent)
{
	struct cptvf *cptvf;

	cptvf = devm_kzalloc(&pdev->dev, sizeof(*cptvf), GFP_KERNEL);
	if (!cptvf)
		return -ENOMEM;
	INIT_WORK(&cptvf->wqe.work, cptlf_work_handler);
	pci_set_drvdata(pdev, cptvf);
	return request_irq(pci_irq_vector(pdev, 0), cptlf_done_intr_handler, 0,
			   "cptvf done", cptvf);
}

static void cptvf_remove(struct pci_dev *pdev)
{
	struct cptvf *cptvf = pci_get_drvdata(pdev);

	free_irq(pci_irq_vector(pdev, 0), cptvf);
	flush_work(&cptvf->wqe.work);
}

static struct pci_driver cptvf_pci_driver = {
	.name = "foo-cptvf2",
	.probe = cptvf_probe,
	.remove = cptvf_remove,
};
module_pci_driver(cptvf_pci_driver);
MODULE_LICENSE("GPL");
