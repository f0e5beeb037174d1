# AUHost — `make demo` runs the demo, `make test` runs every test. Both install the Debian
# packages the project needs first (scripts/debian-packages.txt; sudo when not root).
SWIFT ?= swift
PREFIX ?= /usr/local
CONFIG ?= release
VERSION := 0.1.0
SWIFT_LIB := $(abspath $(dir $(realpath $(shell command -v $(SWIFT))))/../lib/swift/linux)
BUILD_DIR := .build/$(CONFIG)
C_CHECK_DIR := .build/c-host-check

.PHONY: all deps build demo test test-swift check-c install bench clean fuzz

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

demo: deps
	$(SWIFT) run auhost demo

## test: every test, LV2 tests over a fixed LV2_PATH (the project's Debian plug-in packages and its
## fixtures only), so the verdict does not depend on what else is installed.
test: deps
	$(SWIFT) build --build-tests
	@scripts/reset-jack-state.sh
	LV2_PATH=$$(scripts/test-lv2-path.sh) $(SWIFT) test
	$(MAKE) check-c
	$(MAKE) examples

## install: headers, libauhost.so and auhost.pc under PREFIX (C hosts: cc prog.c $$(pkg-config --cflags --libs auhost)).
install: deps
	$(SWIFT) build -c $(CONFIG) --product auhost-capi
	install -d $(PREFIX)/lib/pkgconfig $(PREFIX)/include/AudioToolbox
	install -m 644 $$($(SWIFT) build -c $(CONFIG) --show-bin-path)/libauhost-capi.so $(PREFIX)/lib/
	ln -sf libauhost-capi.so $(PREFIX)/lib/libauhost.so
	install -m 644 Sources/AudioToolbox/include/AudioToolbox/*.h $(PREFIX)/include/AudioToolbox/
	sed -e 's|@PREFIX@|$(abspath $(PREFIX))|' -e 's|@SWIFT_LIB@|$(SWIFT_LIB)|' -e 's|@VERSION@|$(VERSION)|' \
		scripts/auhost.pc.in > $(PREFIX)/lib/pkgconfig/auhost.pc

## check-c: install into a scratch prefix, build the C host listing with pkg-config (gcc and clang), run it.
check-c:
	rm -rf $(C_CHECK_DIR)
	$(MAKE) --no-print-directory install PREFIX=$(C_CHECK_DIR) CONFIG=debug
	@set -e; for cc in gcc clang; do \
		command -v $$cc >/dev/null || continue; \
		$$cc -std=c17 -Wall -Werror Tests/CHost/host.c Tests/CHost/gain_unit.c -o $(C_CHECK_DIR)/host-$$cc \
			$$(PKG_CONFIG_PATH=$(C_CHECK_DIR)/lib/pkgconfig pkg-config --cflags --libs auhost); \
		echo "C host built with $$cc:"; $(C_CHECK_DIR)/host-$$cc; \
	done

## fuzz: every fuzz harness (Tests/Fuzz/Harnesses) for FUZZ_S seconds each under libFuzzer and
## AddressSanitizer (its own build in .build-fuzz); findings land in Tests/Fuzz/Crashes/NAME.
FUZZ_S ?= 60
fuzz: deps
	FUZZ_S=$(FUZZ_S) scripts/fuzz.sh

bench: deps
	Plugins/build.sh release
	cd Benchmarks && $(SWIFT) package benchmark

clean:
	$(SWIFT) package clean
	rm -rf $(C_CHECK_DIR)

## examples: build Examples/ (its own package over this one) and run every ported example against ALSA
## file PCMs or a generic output; prints one line per example: name, PASS/FAIL, what was checked.
EXAMPLES_BUILD ?= Examples/.build
.PHONY: examples
examples: deps
	$(SWIFT) build --package-path Examples --scratch-path $(EXAMPLES_BUILD)
	$(EXAMPLES_BUILD)/debug/examples-check
