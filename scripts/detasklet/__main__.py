# SPDX-License-Identifier: GPL-2.0-only
"""detasklet command line (python3 -m detasklet, from scripts/): the
arguments, the logger, and one line for every error. Each subcommand is a
function of its stage's package."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Callable

from . import cache, proc, scratch
from .cli import MAX_TIMEOUT, Parser, positive, seconds, setup_logging, workers
from .errors import DetaskletError, InputError
from .progress import Heartbeat

log = logging.getLogger("detasklet")


# ---- the subcommands: arguments in, a stage's function called ----------------

def cmd_scan(a: argparse.Namespace) -> int:
    from .convert.facts.scan import scan_tree
    from .kdir import kernel_version
    kdir = Path(a.kdir).resolve()
    kernel_version(kdir)
    for s in scan_tree(kdir, a.paths):
        print(f"{s.path}\t{' '.join(s.idents)}")
    return 0


def caching(p: argparse.ArgumentParser) -> None:
    """--cache DIR / --no-cache: where results are kept between runs."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--cache", metavar="DIR", default=str(cache.DEFAULT),
                   help="keep spatch's and get_maintainer.pl's results here, keyed by "
                   "everything that produced them, and reuse them (default: %(default)s)")
    g.add_argument("--no-cache", action="store_true", help="neither reuse nor keep results")


def cache_dir(a: argparse.Namespace) -> Path | None:
    if a.no_cache:
        return None
    if not a.cache.strip():
        raise InputError("the cache folder (CACHE=, --cache) is empty: name a folder, or "
                         "NO_CACHE=1 (--no-cache) for none")
    return Path(a.cache).resolve()


def kdir_of_out(a: argparse.Namespace) -> str:
    """KDIR as given, else the tree OUT records (OUT/run.json)."""
    from .out.origin import kdir_for
    return kdir_for(a.kdir, a.out)


def cmd_convert(a: argparse.Namespace) -> int:
    from .convert import pipeline
    from . import module
    mod = module.check(a.module, Path(a.kdir).resolve(), a.decisions, a.to) \
        if a.module else None
    if not a.module and (a.decisions or a.to):
        raise InputError("DECISIONS= and TO= are for an external module: say M= too")
    return pipeline.convert(a.kdir, a.paths, a.out, workers(a.jobs), a.timeout, cache_dir(a),
                            a.target, mod)


def cmd_series(a: argparse.Namespace) -> int:
    from .series import write
    from .module import refuse_module_out
    refuse_module_out(a.out, "make series")
    return write.main(kdir_of_out(a), a.out, a.from_, a.base, workers(a.jobs), cache_dir(a))


def cmd_branches(a: argparse.Namespace) -> int:
    from .module import refuse_module_out
    refuse_module_out(a.out, "make branches")
    from .series import branches
    return branches.main(a.kdir, a.out, a.prefix)


def cmd_send_check(a: argparse.Namespace) -> int:
    from .module import refuse_module_out
    refuse_module_out(a.out, "make send-check")
    from .check import send
    return send.main(kdir_of_out(a), a.out, workers(a.jobs))


def cmd_compile_test(a: argparse.Namespace) -> int:
    from .check import compile_test
    from .module import refuse_module_out
    from .out.staging import locked
    if not a.module and (a.module_dir or a.module_vars):
        raise InputError("MDIR= and MVARS= say how to build an external module: say M= too")
    if not a.module:
        refuse_module_out(a.out, "make compile-test without M=")
    from .out.files import load_patch
    kdir, out, build, arches = compile_test.inputs(kdir_of_out(a), a.out, a.build_dir, a.arches)
    load_patch(out)         # what it builds: missing, --check fails before any install
    if a.module:
        from .check import module_build
        import shlex
        try:
            mvars = shlex.split(a.module_vars)
        except ValueError as e:
            raise InputError(f"MVARS: {e}") from None
        how = module_build.How(a.module_dir, mvars)
        how.check(module_build.check(out, Path(a.module))[0].root)
    if a.check:
        return 0
    if a.module:
        with locked(out):
            return module_build.main(out, build, a.jobs, Path(a.module), how)
    with locked(out):
        return compile_test.main(compile_test.Job(kdir, out, build, arches, a.jobs,
                                                  a.cc or None, a.files or None,
                                                  a.pristine, a.strict))


def cmd_coverage(a: argparse.Namespace) -> int:
    from .module import refuse_module_out
    refuse_module_out(a.out, "make coverage")
    from .check import compile_test, coverage
    kdir, out, build, arches = compile_test.inputs(kdir_of_out(a), a.out, a.build_dir, a.arches)
    return 0 if a.check else coverage.main(kdir, out, build, arches)


def cmd_tasklet_free(a: argparse.Namespace) -> int:
    from .convert.output import tasklet_free
    return tasklet_free.main(a.kdir, a.out)


def cmd_runtime(a: argparse.Namespace) -> int:
    from .check.runtime import cli
    return cli.main(a)


def cmd_report(a: argparse.Namespace) -> int:
    from .out import summary
    print("\n".join(summary.lines(Path(a.out))))
    return 0


def cmd_leftovers(a: argparse.Namespace) -> int:
    from .check import leftovers
    return leftovers.main(Path(a.src), Path(a.build) if a.build else None,
                          Path(a.report) if a.report else None,
                          Path(a.list_out) if a.list_out else None, a.tree)


def cmd_bench(a: argparse.Namespace) -> int:
    from .check import bench
    return bench.main(a.log, Path(a.out), a.command, a.kernel, plot=not a.no_plot,
                      accel=a.accel)


# ---- the parser ---------------------------------------------------------------

EPILOG = """\
examples:
  detasklet convert ~/linux drivers/dma net/mac80211 -o out
  detasklet report -o out
  detasklet send-check -o out          # KDIR: the tree out was made from (out/run.json)
  detasklet compile-test ~/linux -o out --arches x86_64 arm64

exit codes:
  0    done (a check: everything passed)
  1    a check found a failure (send-check, compile-test)
  2    a user error: a bad argument, KDIR or OUT; one line on stderr, nothing written
  3    a bug of detasklet: one line, the traceback in a file it names
  130  stopped by Ctrl-C (SIGINT); 143 by SIGTERM, 129 by SIGHUP: every process of the
       run ended, OUT left as it was

make runs these through the Makefile (README.md); make itself exits 2 when
any of them fails."""


def parser() -> Parser:
    """The command line: the options every subcommand takes, then the
    subcommands in the order of the flow (Commands)."""
    common = Parser(add_help=False)
    common.add_argument("-q", "--quiet", dest="level", action="store_const",
                        const=logging.WARNING, default=argparse.SUPPRESS,
                        help="only warnings and errors on stderr")
    common.add_argument("-v", "--verbose", dest="level", action="store_const",
                        const=logging.DEBUG, default=argparse.SUPPRESS,
                        help="also each spatch command")
    p = Parser(prog="detasklet", parents=[common], description=(
        "Convert Linux kernel tasklet users to BH workqueues with Coccinelle. "
        "The kernel tree is only read; results go to OUT."),
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"detasklet {proc.tool_version()}")
    c = Commands(p.add_subparsers(dest="cmd", required=True, parser_class=Parser), common)
    for add in (add_convert, add_series, add_checks, add_runtime, add_readers):
        add(c)
    return p


class Commands:
    """The subcommands being added, and the options several of them take."""

    def __init__(self, sub: argparse._SubParsersAction, common: Parser) -> None:
        self.sub, self.common = sub, common

    def command(self, name: str, fn: Callable[[argparse.Namespace], int], text: str,
                kdir: str = "the kernel tree (never written)",
                from_out: bool = False) -> argparse.ArgumentParser:
        """A subcommand on a kernel tree (from_out: by default, the tree OUT
        was made from, OUT/run.json)."""
        c = self.sub.add_parser(name, parents=[self.common], help=text, description=text)
        if from_out:
            c.add_argument("kdir", nargs="?", default=None, help=kdir + "; default: the "
                           "tree OUT was made from, if it is still there at the same version")
        else:
            c.add_argument("kdir", help=kdir)
        c.set_defaults(fn=fn)
        return c

    def plain(self, name: str, text: str) -> argparse.ArgumentParser:
        """A subcommand with no kernel tree."""
        return self.sub.add_parser(name, parents=[self.common], help=text)


def out(c: argparse.ArgumentParser, what: str = "output folder") -> None:
    c.add_argument("-o", "--out", default="out", help=f"{what} (default: out)")


def jobs(c: argparse.ArgumentParser) -> None:
    c.add_argument("-j", "--jobs", type=positive, default=os.cpu_count() or 1)


def build(c: argparse.ArgumentParser, arches: str) -> None:
    from .check.arches import DEFAULT_ARCHES
    c.add_argument("--arches", nargs="*", default=[],
                   help=f"{arches}(default: {' '.join(DEFAULT_ARCHES)})")
    c.add_argument("--build-dir", default="", help="build folders (default: build/ "
                   "beside OUT)")
    c.add_argument("--check", action="store_true", help="only check the arguments and OUT")


def builds(c: Commands, name: str, fn: Callable[[argparse.Namespace], int], text: str,
           arches: str) -> argparse.ArgumentParser:
    """A subcommand that builds the tree a convert OUT was made from."""
    p = c.command(name, fn, text, "the tree OUT was converted from (never written)",
                  from_out=True)
    out(p, "a convert OUT")
    build(p, arches)
    return p


def add_convert(c: Commands) -> None:
    """scan and convert."""
    p_scan = c.command("scan", cmd_scan, "list the files that use the tasklet API")
    p_scan.add_argument("paths", nargs="*")

    p_convert = c.command("convert", cmd_convert, "scan, rewrite, classify, write all.patch, "
                          "series/ and the reports into OUT", "kernel tree to convert (never "
                          "written)")
    p_convert.add_argument("paths", nargs="*", help="limit to these files/folders (like M=); a "
                           "header elsewhere that declares their tasklets comes with them")
    out(p_convert)
    jobs(p_convert)
    p_convert.add_argument("--timeout", type=seconds, default=120,
                           help=f"seconds per file for spatch (at most {MAX_TIMEOUT})")
    p_convert.add_argument("--target", choices=("bh", "thread"), default="bh",
                           help="bh: BH workqueues, the tasklet's softirq context (default); "
                           "thread: per-CPU process-context workqueues, each callback run "
                           "with softirqs off; a driver that cannot move stays on bh, with "
                           "the reason in the report")
    caching(p_convert)
    p_convert.add_argument("--module", metavar="DIR", default="",
                           help="an external module's folder (make M=): its files are "
                           "converted against the kernel KDIR, never written; paths are "
                           "relative to it")
    p_convert.add_argument("--decisions", metavar="DIR", default="",
                           help="the module's own decisions (default: <module>/detasklet/)")
    p_convert.add_argument("--to", default="", help="the module's maintainer(s), "
                           "comma-separated (default: its git log's main author)")


def add_series(c: Commands) -> None:
    """series and branches: OUT/series/ again, and its branches."""
    p_series = c.command("series", cmd_series, "write OUT/series/ again from OUT/all.patch, "
                         "groups.json and report.json (no spatch)",
                         "the pristine kernel tree all.patch was made from", from_out=True)
    out(p_series)
    p_series.add_argument("--from", dest="from_", help="identity for From: and Signed-off-by: "
                          "(default: DETASKLET_FROM, else git config user.name/email)")
    p_series.add_argument("--base", help="base commit for the cover letter (default: KDIR's "
                          "HEAD when it is a git checkout)")
    jobs(p_series)
    caching(p_series)

    p_branches = c.command("branches", cmd_branches, "one branch per series of OUT/series/ in "
                           "KDIR's git repository, from the series' base commit: a cover letter "
                           "commit as b4 prep keeps it, then one commit per patch; made with git "
                           "plumbing (work tree, index and HEAD untouched), and only branches "
                           "this command made before are ever moved",
                           "the git checkout OUT was made from")
    out(p_branches, "a convert OUT")
    p_branches.add_argument("--prefix", default="detasklet/",
                            help="branch names: PREFIX<series folder> (default: %(default)s)")


def add_checks(c: Commands) -> None:
    """The evidence on OUT: send-check, compile-test, coverage; and the
    core removal, tasklet-free."""
    p_send = c.command("send-check", cmd_send_check, "apply every patch of OUT/series/ alone "
                       "(git am) and run checkpatch --strict; exit 1 on any failure", from_out=True)
    out(p_send)
    jobs(p_send)

    p_compile = builds(c, "compile-test", cmd_compile_test, "build every converted file (and "
                       "the .c files including a converted header) pristine and converted, "
                       "allmodconfig", "in order of preference, x86_64 first ")
    jobs(p_compile)
    p_compile.add_argument("--cc", default="", help='CC for make, e.g. "ccache gcc" (cross: '
                           "gcc becomes <prefix>gcc)")
    p_compile.add_argument("--files", nargs="*", default=[], help="only these converted files")
    p_compile.add_argument("--pristine", choices=("failed", "all"), default="failed",
                           help="compile pristine only the objects that fail converted "
                           "(default), or all")
    p_compile.add_argument("--module", metavar="DIR", default="",
                           help="the external module (M=) OUT was converted from: build it "
                           "with make -C <prepared KDIR build> M=<copy>, pristine and "
                           "converted")
    p_compile.add_argument("--module-dir", metavar="SUB", default="",
                           help="the module's folder kbuild's M= names, relative to its "
                           "root, when not the root (a DKMS package's drivers/NAME)")
    p_compile.add_argument("--module-vars", metavar="'VAR=value ...'", default="",
                           help="make variables the module's own Makefile passes to kbuild; "
                           "{M} stands for the module copy's root")
    p_compile.add_argument("--strict", action="store_true",
                           help="also fail when a file is not built converted on any arch")

    builds(c, "coverage", cmd_coverage, "count the files of OUT/report.json (converted or "
           "not) that some arch's allmodconfig builds; list the others with why", "")

    p_free = c.command("tasklet-free", cmd_tasklet_free, "write OUT/tasklet-free.patch: the "
                       "tasklet core removed from kernel/softirq.c, include/linux/interrupt.h "
                       "and include/trace/events/irq.h, BH workqueue execution kept")
    out(p_free)


def add_runtime(c: Commands) -> None:
    """runtime: the pristine and the converted kernel under QEMU."""
    p_rt = c.command("runtime", cmd_runtime, "build the pristine and the converted (all.patch "
                     "and tasklet-free.patch) kernel, boot each under QEMU and run the "
                     "workloads (docs/runtime.md); results in OUT/runtime/",
                     "the tree OUT was converted from (never written)")
    out(p_rt, "a convert OUT with tasklet-free.patch")
    jobs(p_rt)
    p_rt.add_argument("--build-dir", default="build", help="build folders (default: build)")
    p_rt.add_argument("--cc", default="", help='CC for make, e.g. "ccache gcc"')
    p_rt.add_argument("--workloads", nargs="*", default=[], help="only these (default: all)")
    p_rt.add_argument("--kernels", nargs="*", default=["pristine", "converted"],
                      choices=("pristine", "converted"))
    p_rt.add_argument("--timeout", type=positive, default=1800,
                      help="seconds per boot (default: %(default)s)")
    p_rt.add_argument("--from-logs", action="store_true", help="no build, no boot: "
                      "runtime.json and the table again from OUT/runtime/<kernel>.log")
    p_rt.add_argument("--rounds", type=int, default=0, help="the benchmark: N rounds of "
                      "both kernels, interleaved; OUT/bench/runtime-bench.json")


def add_readers(c: Commands) -> None:
    """The commands that read what others wrote: report, leftovers, bench."""
    p_report = c.plain("report", "the figures of a convert "
                       "OUT: counts, reasons, patches, builds")
    out(p_report, "a convert OUT")
    p_report.set_defaults(fn=cmd_report)

    p_left = c.plain("leftovers", "list what still names the "
                     "tasklet API in a patched tree, and in what a build of it "
                     "compiled; exit 1 if a compiled file does")
    p_left.add_argument("src", help="a patched kernel tree")
    p_left.add_argument("--build", help="a kbuild O= folder of src")
    p_left.add_argument("--report", help="convert's report.json")
    p_left.add_argument("--list-out", help="write the converted files compiled there")
    p_left.add_argument("--tree", action="store_true", help="exit 1 if any file of the tree "
                        "(or of Documentation/) still names the API, compiled or not")
    p_left.set_defaults(fn=cmd_leftovers)

    p_bench = c.plain("bench", "read the detasklet_bench "
                      "KUnit output of make bench into bench.json, a table and "
                      "latency.png (ratios to the tasklet of the same boot)")
    p_bench.add_argument("--log", action="append", default=[], metavar="WHERE=PATH",
                         help="kunit.py's test.log of one run (um=..., x86_64=...)")
    p_bench.add_argument("-o", "--out", required=True, help="the folder (OUT/bench)")
    p_bench.add_argument("--command", default="make bench", help="what reproduces it")
    p_bench.add_argument("--kernel", default="?", help="the kernel version")
    p_bench.add_argument("--accel", default="", choices=("tcg", "kvm"),
                         help="what QEMU ran on (quoted by the cover letters; default: "
                         "not known)")
    p_bench.add_argument("--no-plot", action="store_true", help="no latency.png")
    p_bench.set_defaults(fn=cmd_bench)


def main(argv: list[str] | None = None) -> int:
    setup_logging(logging.INFO)
    a = parser().parse_args(argv)
    log.setLevel(getattr(a, "level", logging.INFO))

    proc.handle_signals()
    proc.own_descendants()
    scratch.clean_stale()
    try:
        with Heartbeat():       # on a terminal, never silent for more than a few seconds
            return a.fn(a)
    except DetaskletError as e:
        log.error(str(e))
        return 2
    except KeyboardInterrupt:      # SIGINT before the handlers were installed
        proc.finish(signal.SIGINT)
    except BrokenPipeError:        # the reader of stdout went away (| head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as e:         # a bug of the tool: one line, the traceback in a file
        fd, name = tempfile.mkstemp(prefix="detasklet-traceback-", suffix=".log")
        with os.fdopen(fd, "w") as f:
            f.write(f"detasklet {proc.tool_version()}: {' '.join(sys.argv)}\n")
            traceback.print_exc(file=f)
        log.critical(f"{type(e).__name__}: {str(e)[:200]} (traceback in {name})")
        return 3


if __name__ == "__main__":
    sys.exit(main())
