# detasklet: convert Linux tasklet users to BH workqueues, with evidence.
# make help lists the targets: each is the "## target ...: text" line above it.

SHELL      := /bin/bash
# The variables below come from the command line or from this file, never
# from the environment: an exported PREFIX, CC, TARGET or OUT means
# something else to the rest of a developer's shell.
FROM_CMDLINE := CACHE NO_CACHE KVER KDIR OUT J TIMEOUT PATHS TARGET CPUS FROM BASE WORK PREFIX \
                ARCHES BUILD PRISTINE CC RULE MODE M DECISIONS TO MDIR MVARS
$(foreach v,$(FROM_CMDLINE),$(if $(filter environment,$(origin $(v))),$(eval undefine $(v))))
CACHE      ?= $(CURDIR)/cache
# spatch's and get_maintainer.pl's results, kept between runs (NO_CACHE=1: none)
CACHE_ARG   = $(if $(NO_CACHE),--no-cache,--cache $(call q,$(CACHE)/results))
# The reference trees: Debian's linux-source-<KVER> unpacked into CACHE.
# 7.3 (Debian 13 backports, fetched by scripts/apt-install.sh) is the default;
# 6.12 is the LTS tree, still supported and tested.
KVER       ?= 7.3
KVERS      := 7.3 6.12
REF_TREE    = $(CACHE)/linux-source-$(KVER)
KDIR       ?= $(REF_TREE)
# A KVER with no reference tree is refused before anything is installed or unpacked.
ifeq ($(filter $(KVER),$(KVERS))$(filter-out file,$(origin KDIR)),)
$(error KVER=$(KVER) is not a reference tree: choose one of $(KVERS), or KDIR=<a tree of Linux 6.9 or later>)
endif
OUT        ?= out
J          ?= $(shell nproc)
TIMEOUT    ?= 120
PATHS      ?=
# bh: BH workqueues (the tasklet's context); thread: process context (convert.thread)
TARGET     ?= bh
PKGS       := coccinelle bc flex bison libelf-dev libssl-dev
BENCH_PKGS := qemu-system-x86 gnuplot-nox
# b4, for the check that b4 prep reads what make branches writes; mypy, the type check;
# venv, setuptools, wheel: the README's pip install -e . (tests/readme.py)
TEST_PKGS  := b4 mypy python3-venv python3-setuptools python3-wheel
CPUS       ?= 2
# DETASKLET_MAKE=1: the tool's errors name the make variables (J=, not -j)
PY         := DETASKLET_MAKE=1 PYTHONPATH=$(CURDIR)/scripts python3
# $(call q,text): text as one shell word (KDIR or OUT may hold spaces or quotes).
q = '$(subst ','\'',$(1))'

FROM       ?=
BASE       ?=

# Kernel habits this Makefile does not share (yet): one line each, exit 2.
habit = $(if $(filter command line,$(origin $(1))),$(error $(1)=$($(1)): $(2)))
$(if $(filter-out convert compile-test compile-deps,$(or $(MAKECMDGOALS),help)),$(call habit,M,an out-of-tree module is taken by make convert and make compile-test only (parts of one tree: KDIR=<tree> PATHS="drivers/dma ...")))
$(call habit,O,the results go to OUT=<dir> (and compile-test's builds to BUILD=<dir>))
$(call habit,V,no V= here: the tool's own -v prints each spatch command (PYTHONPATH=scripts python3 -m detasklet convert -v ...))
$(call habit,W,no W= here: compile-test builds pristine and converted with the kernel's default warnings)
$(if $(shell [[ $(call q,$(J)) =~ ^[1-9][0-9]*$$ ]] && echo ok),,$(error J=$(J): the number of parallel jobs, a whole number of at least 1))
$(if $(shell [[ $(call q,$(TIMEOUT)) =~ ^[1-9][0-9]*$$ ]] && echo ok),,$(error TIMEOUT=$(TIMEOUT): seconds per file for spatch, a whole number of at least 1))
$(if $(filter-out 1,$(words $(TARGET)))$(filter-out bh thread,$(TARGET)),$(error TARGET=$(TARGET): bh or thread))
ifneq ($(FROM),)
export DETASKLET_FROM := $(FROM)
endif

.PHONY: test-fast convert test deps kunit kunit-smp kunit-breaks bench bench-deps tasklet-free tasklet-free-tree reference references help series branches send-check rerun-bench \
        compile-deps compile-test compile-sample coverage report apt-forget runtime runtime-bench coccicheck

## help: this list
help:
	@sed -n 's/^## /  make /p' Makefile

# $(call install,packages): install the missing ones (as root), or say the command to run.
install = @scripts/apt-install.sh --cache $(call q,$(CACHE)) $(1)

deps:
	$(call install,$(PKGS))

# A reference tree, unpacked with the tarball's own times (the patches'
# Date: is the release's, the same for everyone). The tarball is /usr/src's
# when linux-source-X.Y is installed, else fetched into CACHE/apt with an apt
# configuration of our own (scripts/apt-install.sh: /etc/apt is not touched).
$(CACHE)/linux-source-%/Makefile:
	@mkdir -p $(CACHE)
	@tarball=$$(scripts/apt-install.sh --cache $(call q,$(CACHE)) --source $*) && \
	  echo "unpacking $$tarball into $(CACHE) ..." && \
	  rm -rf $(CACHE)/linux-source-$*.unpacking && mkdir $(CACHE)/linux-source-$*.unpacking && \
	  tar -C $(CACHE)/linux-source-$*.unpacking -xJf "$$tarball" && \
	  mv $(CACHE)/linux-source-$*.unpacking/linux-source-$* $(CACHE)/ && \
	  rmdir $(CACHE)/linux-source-$*.unpacking

## apt-forget: remove the trixie-backports source and pin an earlier detasklet wrote into /etc/apt (only if unchanged; as root)
apt-forget:
	@scripts/apt-install.sh --forget-old

reference: $(REF_TREE)/Makefile
references: $(foreach v,$(KVERS),$(CACHE)/linux-source-$(v)/Makefile)

# M=dir: an external module, converted against KDIR (the module is only read);
# DECISIONS=dir its own decisions (default dir/detasklet/), TO= its maintainer.
MODULE_ARGS = $(if $(M),--module $(call q,$(M)))
# compile-test M=: MDIR=sub the folder kbuild's M= names (a DKMS package's drivers/x),
# MVARS="VAR=value ..." the variables the module's own Makefile passes ({M}: its copy)
BUILD_MODULE_ARGS = $(MODULE_ARGS) $(if $(MDIR),--module-dir $(call q,$(MDIR))) \
              $(if $(MVARS),--module-vars $(call q,$(MVARS)))
CONVERT_MODULE_ARGS = $(MODULE_ARGS) $(if $(DECISIONS),--decisions $(call q,$(DECISIONS))) \
              $(if $(TO),--to $(call q,$(TO)))

## convert [KVER=7.3|6.12 | KDIR=dir] [M=module [DECISIONS=dir] [TO=addr]] [PATHS="drivers/dma net/mac80211"] [OUT=dir] [TARGET=bh|thread] [J=n] [TIMEOUT=s]: OUT from KDIR
convert: deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@$(PY) -m detasklet convert $(call q,$(KDIR)) $(PATHS) -o $(call q,$(OUT)) -j $(J) --timeout $(TIMEOUT) --target $(call q,$(TARGET)) $(CACHE_ARG) $(CONVERT_MODULE_ARGS)

# The KDIR of a target that reads an OUT (series, send-check, compile-test,
# coverage): KDIR= or KVER= from the command line, else the tree OUT was
# made from (OUT/run.json; refused in one line when it is gone or changed).
KDIR_GIVEN  = $(filter command line,$(origin KDIR) $(origin KVER))
OUT_KDIR    = $(if $(KDIR_GIVEN),$(call q,$(KDIR)))
OUT_REF     = $(if $(KDIR_GIVEN),$(if $(filter $(REF_TREE),$(KDIR)),reference))

## series [KDIR=dir] [OUT=dir] [FROM="Name <mail>"] [BASE=commit]: OUT/series/ again, no spatch
series: $(OUT_REF)
	@$(PY) -m detasklet series $(OUT_KDIR) -o $(call q,$(OUT)) -j $(J) $(if $(BASE),--base $(call q,$(BASE))) $(CACHE_ARG)

## coccicheck RULE=30-setup [MODE=report|patch] [KDIR=dir] [PATHS="drivers/dma ..."]: one rule of cocci/ alone, by the kernel's own make coccicheck
# Run from BUILD/coccicheck with the tree's Makefile (-f) and absolute M=
# folders: the kernel's make then writes into the current folder, never KDIR.
RULE       ?=
MODE       ?= report
RULE_FILE   = $(CURDIR)/cocci/$(basename $(notdir $(RULE))).cocci
coccicheck: $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@[ -n $(call q,$(RULE)) ] && [ -f $(call q,$(RULE_FILE)) ] || \
	  { echo "detasklet: RULE=$(RULE): one of $$(cd cocci && ls *.cocci | sed 's/\.cocci$$//' | tr '\n' ' ')" >&2; exit 2; }
	@mkdir -p $(call q,$(BUILD)/coccicheck)
	@kdir=$$(realpath $(call q,$(KDIR))) && cd $(call q,$(BUILD)/coccicheck) && \
	  for d in $(or $(PATHS),.); do \
	    env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -f "$$kdir/Makefile" coccicheck \
	      COCCI=$(call q,$(RULE_FILE)) MODE=$(call q,$(MODE)) M="$$kdir/$$d" J=$(J) \
	      SPFLAGS="--macro-file $(CURDIR)/cocci/parsing-hints.h" || exit; \
	  done

## report [OUT=dir]: the figures of OUT (counts, reasons, patches, builds)
report:
	@$(PY) -m detasklet report -o $(call q,$(OUT))

## rerun-bench [KDIR=dir] [WORK=dir]: a cold run, the same run again, one file changed; timed
rerun-bench: deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@scripts/rerun-bench.sh $(call q,$(KDIR)) $(call q,$(or $(WORK),$(CURDIR)/build/rerun-bench-$(notdir $(KDIR))))

## branches KDIR=git-checkout [OUT=dir] [PREFIX=detasklet/]: one branch per series in KDIR's repository (b4 prep reads them)
branches:
	@$(PY) -m detasklet branches $(call q,$(KDIR)) -o $(call q,$(OUT)) --prefix $(call q,$(or $(PREFIX),detasklet/))

## send-check [KDIR=dir] [OUT=dir]: each patch alone with git am and checkpatch --strict
send-check: $(OUT_REF)
	@$(PY) -m detasklet send-check $(OUT_KDIR) -o $(call q,$(OUT)) -j $(J)

## test: every test below, the distcc farm test, then compile-sample on each reference tree (and 7.3 with TARGET=thread)
test: test-fast
	$(call install,distcc)
	@$(PY) tests/distcc.py
	@$(MAKE) --no-print-directory $(foreach v,$(KVERS),compile-sample-$(v))
	@$(MAKE) --no-print-directory compile-sample-$(firstword $(KVERS)) TARGET=thread

## test-fast: the command line, the README, OUT safety, faults, branches, golden cases, unit tests (no compile)
test-fast: deps references
	$(call install,$(TEST_PKGS))
	$(call install,busybox-static gcc libc6-dev)
	@$(PY) tests/run.py tests/cli.py tests/readme.py tests/safety.py tests/faults.py tests/branches.py \
	  tests/golden.py tests/modules.py tests/decisions.py tests/runtime.py tests/units.py types

## kunit [KDIR=dir]: the contract suite, tasklet and work item side by side, on UML
kunit: deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@scripts/kunit.sh $(call q,$(KDIR))

## kunit-smp [KDIR=dir] [CPUS=2]: the contract suite on QEMU x86_64 with CPUS CPUs (cross-CPU cases run)
kunit-smp: deps bench-deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@scripts/kunit.sh $(call q,$(KDIR)) --arch x86_64 --cpus $(CPUS)

## kunit-breaks [KDIR=dir]: every break switch (tests/kunit/breaks.txt) must fail exactly its case
kunit-breaks: deps bench-deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@scripts/kunit-breaks.sh $(call q,$(KDIR))

## bench [KDIR=dir] [OUT=dir]: tasklet vs BH work latency, cost, FIFO wake-up; UML and QEMU (docs/bench.md)
bench: deps bench-deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@scripts/bench.sh $(call q,$(KDIR)) $(call q,$(OUT))

# QEMU for the x86_64 runs, gnuplot for latency.png (as root), or the command to run.
bench-deps:
	$(call install,$(BENCH_PKGS))

## tasklet-free [KDIR=dir] [OUT=dir]: a kernel without tasklets, built and booted on UML
# A kernel without tasklets: OUT/all.patch (made by convert if missing), then
# the generated core removal (OUT/tasklet-free.patch), built and booted on UML
# with the workqueue-only KUnit suite (scripts/tasklet-free.sh).
tasklet-free: deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@if [ ! -f $(call q,$(OUT))/all.patch ] || [ ! -f $(call q,$(OUT))/report.json ]; then \
	  $(PY) -m detasklet convert $(call q,$(KDIR)) -o $(call q,$(OUT)) -j $(J) --timeout $(TIMEOUT) -q; fi
	@$(PY) -m detasklet tasklet-free $(call q,$(KDIR)) -o $(call q,$(OUT))
	@scripts/tasklet-free.sh $(call q,$(KDIR)) $(call q,$(OUT))

## tasklet-free-tree [KDIR=dir] [OUT=dir]: every patch and the core removal applied to a linked copy of KDIR; fails if any .c/.h/.rs file names the API (code, comments, strings) or a Documentation/ file its functions (no build)
tasklet-free-tree: deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@$(PY) -m detasklet tasklet-free $(call q,$(KDIR)) -o $(call q,$(OUT))
	@TF_TREE_ONLY=1 scripts/tasklet-free.sh $(call q,$(KDIR)) $(call q,$(OUT))

## runtime [KVER=7.3|6.12 | KDIR=dir] [OUT=dir] [WORKLOADS="hwsim ifb"] [J=n] [CC="ccache gcc"]: pristine and converted kernel booted in QEMU, workloads on both (docs/runtime.md)
# The tools of the guest's initramfs come from these Debian packages.
RT_PKGS    := busybox-static hostapd wpasupplicant iperf3 iw iproute2 wpan-tools ppp kbd \
              gcc make libc6-dev bc flex bison libelf-dev libssl-dev patch
WORKLOADS  ?=
runtime: deps bench-deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	$(call install,$(RT_PKGS) $(if $(findstring ccache,$(CC)),ccache))
	@if [ ! -f $(call q,$(OUT))/all.patch ] || [ ! -f $(call q,$(OUT))/report.json ]; then \
	  $(PY) -m detasklet convert $(call q,$(KDIR)) -o $(call q,$(OUT)) -j $(J) --timeout $(TIMEOUT) -q; fi
	@$(PY) -m detasklet tasklet-free $(call q,$(KDIR)) -o $(call q,$(OUT))
	@$(PY) -m detasklet runtime $(call q,$(KDIR)) -o $(call q,$(OUT)) -j $(J) \
	  --build-dir $(call q,$(BUILD)) $(if $(WORKLOADS),--workloads $(WORKLOADS)) $(CT_CC)

## runtime-bench [ROUNDS=3] [KVER=7.3|6.12 | KDIR=dir] [OUT=dir] [WORKLOADS=...]: the links' throughput and ping p99, pristine vs converted, ROUNDS rounds interleaved; OUT/bench/runtime-bench.json (docs/runtime.md)
ROUNDS     ?= 3
RT_BENCH_WL := hwsim ncm smc megaraid
runtime-bench: deps bench-deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	$(call install,$(RT_PKGS) $(if $(findstring ccache,$(CC)),ccache))
	@if [ ! -f $(call q,$(OUT))/all.patch ] || [ ! -f $(call q,$(OUT))/report.json ]; then \
	  $(PY) -m detasklet convert $(call q,$(KDIR)) -o $(call q,$(OUT)) -j $(J) --timeout $(TIMEOUT) -q; fi
	@$(PY) -m detasklet tasklet-free $(call q,$(KDIR)) -o $(call q,$(OUT))
	@$(PY) -m detasklet runtime $(call q,$(KDIR)) -o $(call q,$(OUT)) -j $(J) --rounds $(ROUNDS) \
	  --build-dir $(call q,$(BUILD)) --workloads $(or $(WORKLOADS),$(RT_BENCH_WL)) $(CT_CC)

# compile-test: build what make convert changed, pristine and converted, allmodconfig.
ARCHES     ?= $(shell $(PY) -m detasklet.check.arches names)
BUILD      ?= $(CURDIR)/build
PRISTINE   ?= failed
KPKGS      := gcc make libc6-dev bc flex bison libelf-dev libssl-dev patch perl python3
# the cross compilers: check/arches.py's table, the one place it is written
CT_PKGS     = $(KPKGS) $(shell $(PY) -m detasklet.check.arches packages $(ARCHES)) $(if $(findstring ccache,$(CC)),ccache) \
              $(if $(findstring distcc,$(CC)),distcc)
CT_CC       = $(if $(filter command line,$(origin CC)),--cc "$(CC)")
SAMPLE_ARCHES := x86_64 s390

# Kernel build tools and the cross compilers for ARCHES (as root), or the command to run.
compile-deps:
	$(call install,$(CT_PKGS))

## coverage [KDIR=dir] [OUT=dir] [ARCHES=...]: files some allmodconfig builds (no compile)
# Of every tasklet file in OUT/report.json, how many some arch's allmodconfig
# builds (Kbuild read against each .config; no compile), the others with why.
# Each checks its input first (--check): nothing is installed for a missing OUT.
coverage: deps $(OUT_REF)
	@$(PY) -m detasklet coverage $(OUT_KDIR) -o $(call q,$(OUT)) --build-dir $(call q,$(BUILD)) \
	  --arches $(ARCHES) --check
	@$(MAKE) --no-print-directory compile-deps
	@$(PY) -m detasklet coverage $(OUT_KDIR) -o $(call q,$(OUT)) --build-dir $(call q,$(BUILD)) \
	  --arches $(ARCHES)

## compile-test [KDIR=dir] [M=module [MDIR=sub] [MVARS="V=x"]] [OUT=dir] [ARCHES=...] [J=n] [CC="ccache gcc"] [PRISTINE=failed|all]
compile-test: deps $(OUT_REF)
	@$(PY) -m detasklet compile-test $(OUT_KDIR) -o $(call q,$(OUT)) --build-dir $(call q,$(BUILD)) \
	  --arches $(ARCHES) --check $(BUILD_MODULE_ARGS)
	@$(MAKE) --no-print-directory compile-deps $(if $(M),ARCHES=x86_64)
	@$(PY) -m detasklet compile-test $(OUT_KDIR) -o $(call q,$(OUT)) --build-dir $(call q,$(BUILD)) \
	  --arches $(ARCHES) -j $(J) --pristine $(PRISTINE) $(CT_CC) $(BUILD_MODULE_ARGS)

# CI: convert a fixed sample of each reference tree (tests/compile-sample-<KVER>.txt)
# and compile-test every file of it (pristine too); any file that does not
# build converted fails, and the self-test breaks one file on purpose.
# TARGET=thread converts the sample for process context (same build folders).
SAMPLE_OUT = $(BUILD)/sample-$*$(if $(filter thread,$(TARGET)),-thread)-out
compile-sample: compile-sample-$(KVER)
compile-sample-%: ARCHES = $(SAMPLE_ARCHES)
compile-sample-%: deps compile-deps $(CACHE)/linux-source-%/Makefile
	@tree=$(CACHE)/linux-source-$*; \
	files="$$(grep -v '^\s*#' tests/compile-sample-$*.txt | awk '{print $$1}')"; \
	$(PY) -m detasklet convert "$$tree" $$files -o "$(SAMPLE_OUT)" -j $(J) -q --target $(TARGET) && \
	$(PY) -m detasklet compile-test "$$tree" -o "$(SAMPLE_OUT)" \
	  --build-dir "$(BUILD)/sample-$*" --arches $(SAMPLE_ARCHES) -j $(J) --pristine all \
	  --strict --files $$files $(CT_CC)
	@$(PY) tests/compile_selftest.py "$(CACHE)/linux-source-$*" "$(SAMPLE_OUT)" \
	  "$(BUILD)/sample-$*"
