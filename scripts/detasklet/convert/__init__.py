# SPDX-License-Identifier: GPL-2.0-only
"""make convert, in the order a run goes: one folder per stage, each with
its own map (its __init__.py) of what every module does; pipeline.py
strings the stages and its docstring is the whole flow.

    pipeline       KDIR -> facts -> verdicts -> rewrite -> target -> output -> OUT
    facts/     1-2 what the tree says, before anything is rewritten: scan,
                   groups (with driver_patches, per_vector, normalise,
                   refusals, legacy, legacy_local, legacy_data,
                   legacy_path, module_reach, unused)
    verdicts/  2   a verdict for each call that is not the same operation:
                   sites (sync, kills with queuers; proven by analyses with
                   scope, outside, balance, percpu,
                   disabled, unlock_wait; or decisions)
    rewrite/   3-4 the text rewritten, and what of it reaches the patch:
                   protocol, spatch, fixups, comments, classify
    target/    3-4 the workqueues the work queues on: policy (policies.toml),
                   thread (TARGET=thread) and reclaim
    output/    5   the patches and reports into OUT: write, rules_got, and
                   tasklet_free (with tasklet_free_text), the core removal
"""
