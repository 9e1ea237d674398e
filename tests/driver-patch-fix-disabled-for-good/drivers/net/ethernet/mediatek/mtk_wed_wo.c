// SPDX-License-Identifier: GPL-2.0
/* A message unit whose deinit disables its IRQ tasklet for good, with no
 * kill: a run still pending stays queued, never to run.
 */
#include <linux/interrupt.h>
#include <linux/device.h>

struct mtk_wed_wo {
	struct device *dev;
	struct {
		struct tasklet_struct irq_tasklet;
		int irq;
		u32 irq_mask;
	} mmio;
};

void mtk_wed_wo_set_isr(struct mtk_wed_wo *wo, u32 mask);
u32 mtk_wed_wo_get_isr(struct mtk_wed_wo *wo);
void mtk_wed_wo_rx_run_queue(struct mtk_wed_wo *wo);
void mtk_wed_wo_queues_free(struct mtk_wed_wo *wo);

static irqreturn_t mtk_wed_wo_irq_handler(int irq, void *data)
{
	struct mtk_wed_wo *wo = data;

	mtk_wed_wo_set_isr(wo, 0);
	tasklet_schedule(&wo->mmio.irq_tasklet);
	return IRQ_HANDLED;
}

static void mtk_wed_wo_irq_tasklet(struct tasklet_struct *t)
{
	struct mtk_wed_wo *wo = from_tasklet(wo, t, mmio.irq_tasklet);

	mtk_wed_wo_set_isr(wo, 0);
	if (mtk_wed_wo_get_isr(wo) & wo->mmio.irq_mask) {
		mtk_wed_wo_rx_run_queue(wo);
		tasklet_schedule(&wo->mmio.irq_tasklet);
	}
	mtk_wed_wo_set_isr(wo, wo->mmio.irq_mask);
}

int mtk_wed_wo_hardware_init(struct mtk_wed_wo *wo)
{
	tasklet_setup(&wo->mmio.irq_tasklet, mtk_wed_wo_irq_tasklet);
	return devm_request_irq(wo->dev, wo->mmio.irq, mtk_wed_wo_irq_handler,
				IRQF_TRIGGER_HIGH, KBUILD_MODNAME, wo);
}

void mtk_wed_wo_hw_deinit(struct mtk_wed_wo *wo)
{
	/* disable interrupts */
	mtk_wed_wo_set_isr(wo, 0);

	tasklet_disable(&wo->mmio.irq_tasklet);

	disable_irq(wo->mmio.irq);
	devm_free_irq(wo->dev, wo->mmio.irq, wo);

	mtk_wed_wo_queues_free(wo);
}
