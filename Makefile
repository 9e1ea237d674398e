# detasklet: convert Linux tasklet users to BH workqueues, with evidence.
#   make convert [KDIR=dir] [PATHS="drivers/dma net/mac80211"] [OUT=dir] [J=n]
#   make series [KDIR=dir] [OUT=dir] [FROM="Name <mail>"] [BASE=commit]
#   make send-check [KDIR=dir] [OUT=dir]
#   make test
#   make kunit [KDIR=dir]
#   make tasklet-free [KDIR=dir] [OUT=dir]
#   make compile-test [KDIR=dir] [OUT=dir] [ARCHES="x86_64 arm64 ..."] [J=n] [CC="ccache gcc"]
#   make coverage [KDIR=dir] [OUT=dir] [ARCHES=...]   (files some allmodconfig builds)

SHELL      := /bin/bash
CACHE      ?= $(CURDIR)/cache
REF_TAR    := /usr/src/linux-source-6.12.tar.xz
REF_TREE   := $(CACHE)/linux-source-6.12
KDIR       ?= $(REF_TREE)
OUT        ?= out
J          ?= $(shell nproc)
TIMEOUT    ?= 120
PATHS      ?=
PKGS       := coccinelle linux-source-6.12 bc flex bison libelf-dev libssl-dev
PY         := PYTHONPATH=$(CURDIR)/scripts python3

FROM       ?=
BASE       ?=
ifneq ($(FROM),)
export DETASKLET_FROM := $(FROM)
endif

.PHONY: convert test deps kunit tasklet-free reference help series send-check \
        compile-deps compile-test compile-sample coverage

help:
	@sed -n '2,9p' Makefile

# $(call install,packages): install the missing ones (as root), or say the command to run.
define install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "detasklet: missing packages:$$missing"; \
	    echo "run: sudo apt-get install$$missing"; exit 2; \
	  fi; \
	fi
endef

deps:
	$(call install,$(PKGS))

$(REF_TREE)/Makefile: | deps
	@mkdir -p $(CACHE)
	@echo "unpacking $(REF_TAR) into $(CACHE) ..."
	@tar -C $(CACHE) -xJf $(REF_TAR)
	@touch $@

reference: $(REF_TREE)/Makefile

convert: deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@$(PY) -m detasklet convert "$(KDIR)" $(PATHS) -o "$(OUT)" -j $(J) --timeout $(TIMEOUT)

# series/ again from OUT (all.patch, groups.json, report.json): no spatch.
series: $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@$(PY) -m detasklet series "$(KDIR)" -o "$(OUT)" -j $(J) $(if $(BASE),--base "$(BASE)")

send-check: $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@$(PY) -m detasklet send-check "$(KDIR)" -o "$(OUT)" -j $(J)

test: deps reference
	@$(PY) tests/cli.py
	@$(PY) tests/faults.py
	@$(PY) tests/series.py
	@$(PY) tests/run.py
	@KDIR="$(KDIR)" $(PY) tests/core.py
	@$(PY) tests/verify_units.py
	@$(MAKE) --no-print-directory compile-sample

kunit: deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@scripts/kunit.sh "$(KDIR)"

# A kernel without tasklets: OUT/all.patch (made by convert if missing), then
# the generated core removal (OUT/tasklet-free.patch), built and booted on UML
# with the workqueue-only KUnit suite (scripts/tasklet-free.sh).
tasklet-free: deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@if [ ! -f "$(OUT)/all.patch" ] || [ ! -f "$(OUT)/report.json" ]; then \
	  $(PY) -m detasklet convert "$(KDIR)" -o "$(OUT)" -j $(J) --timeout $(TIMEOUT) -q; fi
	@$(PY) -m detasklet tasklet-free "$(KDIR)" -o "$(OUT)"
	@scripts/tasklet-free.sh "$(KDIR)" "$(OUT)"

# compile-test: build what make convert changed, pristine and converted, allmodconfig.
ARCHES     ?= x86_64 arm64 arm s390 powerpc powerpc32 mips parisc
BUILD      ?= $(CURDIR)/build
PRISTINE   ?= failed
KPKGS      := gcc make libc6-dev bc flex bison libelf-dev libssl-dev patch perl python3
CROSS_x86_64  :=
CROSS_arm64   := gcc-aarch64-linux-gnu
CROSS_arm     := gcc-arm-linux-gnueabihf
CROSS_s390    := gcc-s390x-linux-gnu
CROSS_powerpc := gcc-powerpc64le-linux-gnu
CROSS_powerpc32 := gcc-powerpc-linux-gnu
CROSS_mips    := gcc-mips-linux-gnu
CROSS_parisc  := gcc-hppa-linux-gnu
CT_PKGS     = $(KPKGS) $(foreach a,$(ARCHES),$(CROSS_$(a))) $(if $(findstring ccache,$(CC)),ccache) \
              $(if $(findstring distcc,$(CC)),distcc)
CT_CC       = $(if $(filter default,$(origin CC)),,--cc "$(CC)")
SAMPLE      := tests/compile-sample.txt
SAMPLE_ARCHES := x86_64 s390

# Kernel build tools and the cross compilers for ARCHES (as root), or the command to run.
compile-deps:
	$(call install,$(CT_PKGS))

# Of every tasklet file in OUT/report.json, how many some arch's allmodconfig
# builds (Kbuild read against each .config; no compile), the others with why.
coverage: deps compile-deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@$(PY) -m detasklet coverage "$(KDIR)" -o "$(OUT)" --build-dir "$(BUILD)" --arches $(ARCHES)

compile-test: deps compile-deps $(if $(filter $(REF_TREE),$(KDIR)),reference)
	@$(PY) -m detasklet compile-test "$(KDIR)" -o "$(OUT)" --build-dir "$(BUILD)" \
	  --arches $(ARCHES) -j $(J) --pristine $(PRISTINE) $(CT_CC)

# CI: convert a fixed sample of the reference tree and compile-test every file of it
# (pristine too); any file that does not build converted fails.
compile-sample: ARCHES = $(SAMPLE_ARCHES)
compile-sample: deps compile-deps reference
	@files="$$(grep -v '^\s*#' $(SAMPLE) | awk '{print $$1}')"; \
	$(PY) -m detasklet convert "$(REF_TREE)" $$files -o "$(BUILD)/sample-out" -j $(J) -q && \
	$(PY) -m detasklet compile-test "$(REF_TREE)" -o "$(BUILD)/sample-out" \
	  --build-dir "$(BUILD)/sample" --arches $(SAMPLE_ARCHES) -j $(J) --pristine all \
	  --strict --files $$files $(CT_CC)
	@$(PY) tests/compile_selftest.py "$(REF_TREE)" "$(BUILD)/sample-out" "$(BUILD)/sample"
