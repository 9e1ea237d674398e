# detasklet: convert Linux tasklet users to BH workqueues, with evidence.
#   make convert [KDIR=dir] [PATHS="drivers/dma net/mac80211"] [OUT=dir] [J=n]
#   make series [KDIR=dir] [OUT=dir] [FROM="Name <mail>"] [BASE=commit]
#   make send-check [KDIR=dir] [OUT=dir]
#   make test
#   make kunit [KDIR=dir]
#   make tasklet-free [KDIR=dir] [OUT=dir]

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

.PHONY: convert test deps kunit tasklet-free reference help series send-check

help:
	@sed -n '2,8p' Makefile

# Install what is missing (as root), or say the command to run.
deps:
	@missing=""; for p in $(PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "detasklet: missing packages:$$missing"; \
	    echo "run: sudo apt-get install$$missing"; exit 2; \
	  fi; \
	fi

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
