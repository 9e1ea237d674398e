// SPDX-License-Identifier: GPL-2.0
/* A crypto engine whose remove disables its completion tasklet before it
 * frees the IRQ and kills the tasklet, and stops the timer that also
 * schedules it only after the kill.
 */
#include <linux/interrupt.h>
#include <linux/platform_device.h>
#include <linux/timer.h>

struct artpec6_crypto {
	struct list_head pending;
	struct tasklet_struct task;
	struct timer_list timer;
	int pending_count;
};

void artpec6_crypto_complete_done(struct artpec6_crypto *ac);
void artpec6_crypto_disable_hw(struct artpec6_crypto *ac);

static void artpec6_crypto_timeout(struct timer_list *t)
{
	struct artpec6_crypto *ac = timer_container_of(ac, t, timer);

	tasklet_schedule(&ac->task);
}

static void artpec6_crypto_task(unsigned long data)
{
	struct artpec6_crypto *ac = (struct artpec6_crypto *)data;

	artpec6_crypto_complete_done(ac);
	if (ac->pending_count)
		mod_timer(&ac->timer, jiffies + msecs_to_jiffies(100));
}

static irqreturn_t artpec6_crypto_irq(int irq, void *dev_id)
{
	struct artpec6_crypto *ac = dev_id;

	tasklet_schedule(&ac->task);
	return IRQ_HANDLED;
}

static int artpec6_crypto_probe(struct platform_device *pdev)
{
	struct artpec6_crypto *ac;
	int irq = platform_get_irq(pdev, 0);

	ac = devm_kzalloc(&pdev->dev, sizeof(*ac), GFP_KERNEL);
	if (!ac)
		return -ENOMEM;
	platform_set_drvdata(pdev, ac);
	timer_setup(&ac->timer, artpec6_crypto_timeout, 0);
	tasklet_init(&ac->task, artpec6_crypto_task,
		     (unsigned long)ac);
	return devm_request_irq(&pdev->dev, irq, artpec6_crypto_irq, 0,
				"artpec6-crypto", ac);
}

static void artpec6_crypto_remove(struct platform_device *pdev)
{
	struct artpec6_crypto *ac = platform_get_drvdata(pdev);
	int irq = platform_get_irq(pdev, 0);

	tasklet_disable(&ac->task);
	devm_free_irq(&pdev->dev, irq, ac);
	tasklet_kill(&ac->task);
	timer_delete_sync(&ac->timer);

	artpec6_crypto_disable_hw(ac);
}

static struct platform_driver artpec6_crypto_driver = {
	.probe   = artpec6_crypto_probe,
	.remove = artpec6_crypto_remove,
};
module_platform_driver(artpec6_crypto_driver);
