# SPDX-License-Identifier: GPL-2.0-only
"""Stage 2 of make convert: a verdict for each call whose replacement is not
the same operation (enable, kill, disable, unlock_wait...).

    sites           the verdicts of a group's sites, in passes (plan()), and its
                    text with their markers
      sync            the verdict of a kill, disable or unlock_wait no decision covers
      analyses        the named analyses that prove a site exact
        scope           a static function is its file's; the words for a helper's callers
      kills           the replacement of a tasklet_kill() site, and why
        queuers         the other functions that queue an item at its kill, and where from
      outside         whether code outside the group can queue an item (an unread call)
      balance         an enable some path of its function reaches without the disable
      percpu          the CPU of a per-CPU item, for its enable's re-queue
      disabled        an item declared disabled and enabled once at init, before any queue
      unlock_wait     tasklet_unlock_wait() as flush_work(), where the difference cannot matter
      decisions       decisions/*.toml, a person's verdict for the others
"""
