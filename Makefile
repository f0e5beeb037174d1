# AUHost — `make demo` runs the demo, `make test` runs every test. Both install the Debian
# packages the project needs first (scripts/debian-packages.txt; sudo when not root).
SWIFT ?= swift
PREFIX ?= /usr/local
CONFIG ?= release
VERSION := 0.1.0
SWIFT_LIB := $(abspath $(dir $(realpath $(shell command -v $(SWIFT))))/../lib/swift/linux)
BUILD_DIR := .build/$(CONFIG)
C_CHECK_DIR := .build/c-host-check

.PHONY: all deps build demo test test-swift check-c check-dependent check-python install bench clean sweep sweep-ladspa format format-check tsan fuzz

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

demo: deps
	$(SWIFT) run auhost demo

## test: every test, LV2 and LADSPA tests over a fixed LV2_PATH and LADSPA_PATH (the project's Debian plug-in packages and its
## fixtures only), so the verdict does not depend on what else is installed.
## A run that prints nothing for TEST_QUIET_S seconds (the longest test takes 30) is a hung test:
## scripts/watchdog.sh prints its threads' stacks and fails the run.
TEST_QUIET_S ?= 300
test: deps
	$(SWIFT) build --build-tests
	@scripts/reset-jack-state.sh
	LV2_PATH=$$(scripts/test-lv2-path.sh) LADSPA_PATH=$$(scripts/test-ladspa-path.sh) DSSI_PATH=$$(scripts/test-ladspa-path.sh --dssi) \
		scripts/watchdog.sh $(TEST_QUIET_S) $(SWIFT) test
	$(MAKE) check-c
	$(MAKE) examples
	$(MAKE) check-dependent
	$(MAKE) check-lv2-export
	$(MAKE) check-python

## tsan: the concurrency stress tests under ThreadSanitizer, in their own build folder: render
## notifies added and removed NOTIFY_CHURN_CYCLES times while the unit renders, a running graph
## gaining and losing notifies for NOTIFY_CHURN_S seconds, property sets from 4 threads at once
## (SETUP_STRESS_ITERATIONS each) on one rendering unit, the real-time event queue with four
## producers, the graph's random-change stress (serially and on two threads) and the parallel
## graph shapes (ParallelRenderTests: workers and the head's thread share memos and counters), the
## providers asked at once and lilv worlds read from two threads (LV2ConcurrentWorldsTests).
NOTIFY_CHURN_CYCLES ?= 100000
NOTIFY_CHURN_S ?= 10
SETUP_STRESS_ITERATIONS ?= 5000
tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	AUHOST_NOTIFY_CHURN_CYCLES=$(NOTIFY_CHURN_CYCLES) AUHOST_NOTIFY_CHURN_SECONDS=$(NOTIFY_CHURN_S) \
	AUHOST_SETUP_STRESS_ITERATIONS=$(SETUP_STRESS_ITERATIONS) LV2_PATH=$$(scripts/test-lv2-path.sh) $(SWIFT) test --skip-build \
		--sanitize=thread --scratch-path .build-tsan \
		--filter 'LazyLibraryConcurrencyTests|RenderNotifyChurnTests|GraphRenderNotifyChurnTests|ConcurrentSetupTests|RenderEventQueueTests|StressTests|ParallelRenderTests|RegistryTests/testConcurrent|GraphProcessRunTests/testNotificationsComingAndGoing|LV2ConcurrentWorldsTests'

## install: headers, libauhost.so and auhost.pc under PREFIX (C hosts: cc prog.c $$(pkg-config --cflags --libs auhost)).
## <CoreFoundation/CoreFoundation.h> is AUHost's: the toolchain's own CoreFoundation under clang
## -fblocks (auhost.pc puts the toolchain's header folder last, -idirafter), a declared subset elsewhere.
## <CoreMIDI/CoreMIDI.h> is libauhost's Core MIDI (in process; JACK MIDI is the Swift CoreMIDI product's);
## <OpenAL/al.h> and <OpenAL/alc.h> bring OpenAL Soft's headers under the Mac path (link -lopenal).
install: deps
	$(SWIFT) build -c $(CONFIG) --product auhost-capi
	install -d $(PREFIX)/lib/pkgconfig $(PREFIX)/include/AudioToolbox $(PREFIX)/include/CoreFoundation $(PREFIX)/include/CoreMIDI \
		$(PREFIX)/include/OpenAL
	install -m 644 $$($(SWIFT) build -c $(CONFIG) --show-bin-path)/libauhost-capi.so $(PREFIX)/lib/
	ln -sf libauhost-capi.so $(PREFIX)/lib/libauhost.so
	install -m 644 Sources/CAudioToolbox/include/AudioToolbox/*.h $(PREFIX)/include/AudioToolbox/
	install -m 644 Sources/CAudioToolbox/include/CoreFoundation/*.h $(PREFIX)/include/CoreFoundation/
	install -m 644 Sources/CAudioToolbox/include/CoreMIDI/*.h $(PREFIX)/include/CoreMIDI/
	install -m 644 Sources/CAudioToolbox/include/OpenAL/*.h $(PREFIX)/include/OpenAL/
	sed -e 's|@PREFIX@|$(abspath $(PREFIX))|' -e 's|@SWIFT_LIB@|$(SWIFT_LIB)|' -e 's|@VERSION@|$(VERSION)|' \
		scripts/auhost.pc.in > $(PREFIX)/lib/pkgconfig/auhost.pc

## check-c: what C users link, checked as shipped. A release install (the default CONFIG) and a
## debug one must export every function their headers declare (scripts/check-exports.sh); the C
## host listing, LADSPA listing, UI-host lookup (over a relative LV2_PATH on purpose: lilv crashes
## on one, the library must not) and the C examples are built against the release install with
## pkg-config, with gcc and clang, and run (the examples through examples-check, which checks their output); so is
## CoreFoundation's run-loop check (also clang -fblocks: the toolchain's headers) and Apple's Audio
## Queue guide player in C++ (g++, clang++, clang++ -fblocks: callbacks on its run loop).
C_EXAMPLES := io-passthrough:IOPassThrough io-mixer:IOMixer io-render-callback:IORenderCallback \
	output-render-callback:OutputRenderCallback output-mixer-eq:OutputMixerEQ input-analysis:InputAnalysis \
	offline-render:OfflineRender guide-listings:GuideListings audio-session-listing:AudioSessionListing
check-c: examples-build
	rm -rf $(C_CHECK_DIR) $(C_CHECK_DIR)-debug
	$(MAKE) --no-print-directory install PREFIX=$(C_CHECK_DIR)
	scripts/check-exports.sh $(C_CHECK_DIR)
	$(MAKE) --no-print-directory install PREFIX=$(C_CHECK_DIR)-debug CONFIG=debug
	scripts/check-exports.sh $(C_CHECK_DIR)-debug
	@set -e; pc="$$(PKG_CONFIG_PATH=$(C_CHECK_DIR)/lib/pkgconfig pkg-config --cflags --libs auhost)"; \
	ui_fixtures=$$(scripts/build-lv2-ui-fixtures.sh $(C_CHECK_DIR)/lv2-ui-fixtures); \
	for cc in gcc clang; do \
		command -v $$cc >/dev/null || continue; \
		bin=$(C_CHECK_DIR)/$$cc; mkdir -p $$bin; \
		$$cc -std=c17 -Wall -Werror Tests/CHost/host.c Tests/CHost/gain_unit.c -o $$bin/host $$pc; \
		echo "C host built with $$cc against the release install:"; $$bin/host; \
		$$cc -std=c17 -Wall -Werror Tests/CHost/cstd_headers.c -o $$bin/cstd-headers $$pc; $$bin/cstd-headers; \
		$$cc -std=c17 -Wall -Werror Tests/CHost/ladspa_listing.c -o $$bin/ladspa-listing $$pc; \
		cache=$$(mktemp -d); XDG_CACHE_HOME=$$cache LADSPA_PATH=$$(scripts/test-ladspa-path.sh) \
			DSSI_PATH=$$(scripts/test-ladspa-path.sh --dssi) $$bin/ladspa-listing "C* AmpVTS"; \
		rm -rf $$cache; \
		mkdir -p $$bin/elsewhere; \
		$$cc -std=c17 -Wall -Werror Tests/CHost/ui_host_lookup.c -o $$bin/elsewhere/ui-host-lookup $$pc; \
		LV2_PATH=$$ui_fixtures $$bin/elsewhere/ui-host-lookup; \
		$$cc -std=c17 -Wall -Werror -DCF_EXCLUDE_CSTD_HEADERS Tests/CHost/cstd_headers.c -o $$bin/cstd-excluded $$pc; $$bin/cstd-excluded; \
		$$cc -std=c17 -Wall -Werror Tests/CHost/corefoundation.c -o $$bin/corefoundation $$pc -lpthread; $$bin/corefoundation; \
		if [ $$cc = clang ]; then \
			$$cc -fblocks -std=c17 -Wall -Werror Tests/CHost/corefoundation.c -o $$bin/corefoundation-blocks $$pc -lpthread; \
			$$bin/corefoundation-blocks | grep "the toolchain's CoreFoundation.h"; \
			scripts/check-guide-player.sh $(C_CHECK_DIR) clang++; \
			scripts/check-guide-player.sh $(C_CHECK_DIR) "clang++ -fblocks"; \
		else \
			scripts/check-guide-player.sh $(C_CHECK_DIR) g++; \
		fi; \
		names=""; for pair in $(C_EXAMPLES); do \
			name=$${pair%%:*}; dir=$${pair#*:}; names="$$names $$name"; \
			$$cc -std=c17 -Wall -Werror -Wno-multichar -IExamples/Sources/ExampleSupport/include \
				Examples/Sources/$$dir/*.c Examples/Sources/ExampleSupport/ExampleSupport.c -o $$bin/$$name $$pc -lm; \
		done; \
		$$cc -std=c17 -Wall -Werror -Wno-multichar -Wno-unused-variable -IExamples/Sources/ListingProbe/include \
			Examples/Sources/SystemSoundListing/main.c Examples/Sources/ListingProbe/ListingProbe.c -o $$bin/system-sound-listing $$pc \
			-Wl,--wrap=AudioServicesDisposeSystemSoundID,--wrap=CFRunLoopStop; \
		names="$$names system-sound-listing"; \
		$$cc -std=c17 -Wall -Werror Examples/Sources/OpenALPositional/main.c -o $$bin/openal-positional $$pc -lopenal -lm; \
		names="$$names openal-positional"; \
		echo "C examples built with $$cc against the release install:"; \
		EXAMPLES_BIN=$$bin $(EXAMPLES_BUILD)/debug/examples-check $$names; \
	done

## check-dependent: what a Swift package that adds this one by URL and `from: "VERSION"` gets: a
## tagged clone of HEAD as its dependency (SwiftPM's rules for remote packages: no unsafeFlags,
## warning settings dropped), built, and its program (Tests/DependentPackage) run.
check-dependent:
	scripts/check-dependent-package.sh $(abspath .build/dependent-check)

## check-lv2-export: SDK units as LV2 plug-ins (issue 29). Plugins/ and the template (walked as
## SDK/README.md says) are built with their LV2 bundles; over a private LV2_PATH each bundle is
## validated (lv2_validate), described (lv2info), run by lv2apply, a lilv host of the tests' own,
## jalv (on a private jackd) and auhost, and compared bit for bit with the SDK build.
.PHONY: check-lv2-export
check-lv2-export: deps
	scripts/check-lv2-export.sh $(abspath .build/lv2-export-check)

## bench-lv2-export: the LV2 build of each plug-in against its SDK build, totals (lv2bench, auhost
## bench) and medians per block, side by side (Benchmarks/compare-lv2-export.sh; RESULTS.md has runs).
.PHONY: bench-lv2-export
bench-lv2-export: deps
	Benchmarks/compare-lv2-export.sh

## sweep: every LV2 plug-in installed on this machine through the unit and directly, each in a child
## process; writes a table (scripts/lv2-large-sweep.sh says where) and fails only for host faults.
sweep: deps
	scripts/lv2-large-sweep.sh $(SWEEP_DIR)
SWEEP_DIR ?= /tmp/lv2-large-sweep

## sweep-ladspa: every LADSPA plug-in of the six packages (scripts/test-ladspa-path.sh) through
## `auhost render` against applyplugin (16-bit, ±1 LSB) and the tests' float reference host
## (bit-identical); writes $(LADSPA_SWEEP_DIR)/ladspa-sweep.tsv and fails only for host faults.
sweep-ladspa: deps
	swift build --product auhost && swift build --product lv2-sweep-child && swift build --product ladspa-reference-host
	LADSPA_PATH=$$(scripts/test-ladspa-path.sh) DSSI_PATH=$$(scripts/test-ladspa-path.sh --dssi) scripts/ladspa-sweep.py --bin .build/debug --out $(LADSPA_SWEEP_DIR)
LADSPA_SWEEP_DIR ?= /tmp/ladspa-sweep

## format: swift-format (the toolchain's) over every Swift file, layout only (.swift-format: 4 spaces,
## 140 columns, no rewriting rules); format-check lists the files it would change and fails if any.
FORMAT_PATHS := Sources Tests SDK/Sources SDK/Templates Plugins/Sources Examples/Sources Benchmarks/Benchmarks Package.swift
format:
	swift format -i -r --configuration .swift-format $(FORMAT_PATHS)
format-check:
	@changed=$$(for f in $$(find $(FORMAT_PATHS) -name '*.swift' -type f -not -path '*/.build*'); do \
		swift format --configuration .swift-format "$$f" | cmp -s - "$$f" || echo "$$f"; done); \
	[ -z "$$changed" ] || { echo "swift-format would change:"; echo "$$changed"; exit 1; }

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
.PHONY: examples examples-build
examples: examples-build
	AUHOST_UNIT_HOST=$(abspath .build/debug/auhost-unit-host) $(EXAMPLES_BUILD)/debug/examples-check
examples-build: deps
	$(SWIFT) build --package-path Examples --scratch-path $(EXAMPLES_BUILD)
	$(SWIFT) build --product auhost-unit-host

## The Audio Queue examples (issue 16) join check-c's C examples.
C_EXAMPLES += audio-queue-play:AudioQueuePlay audio-queue-record:AudioQueueRecord
## AUHost's extensions from C (out of process: check-c finds the child the release install put in
## PREFIX/libexec/auhost; `make examples` points AUHOST_UNIT_HOST at this package's debug build).
C_EXAMPLES += isolated-parallel:IsolatedParallel

## Core MIDI from C (issue 33): virtual endpoints, packet lists, read procs and notifications.
C_EXAMPLES += core-midi-virtual:CoreMIDIVirtual

## install-helpers: the helper programs, where an installed libauhost finds them
## (PREFIX/libexec/auhost, HelperProgram); `make install` does it too. auhost-unit-host runs
## out-of-process units (issue 19, AUHostIsolation.h), auhost-ui-host shows LV2 plug-in UIs
## (issue 30, AUHostLV2UI.h), lv2-sweep-child describes LADSPA libraries (running one is describing
## it), reads a share of a cold LV2 catalog and sweeps LV2 plug-ins.
HELPERS := auhost-unit-host auhost-ui-host lv2-sweep-child
.PHONY: install-helpers
install: install-helpers
install-helpers: deps
	install -d $(PREFIX)/libexec/auhost
	for helper in $(HELPERS); do \
		$(SWIFT) build -c $(CONFIG) --product $$helper && \
		install -m 755 $$($(SWIFT) build -c $(CONFIG) --show-bin-path)/$$helper $(PREFIX)/libexec/auhost/ || exit 1; \
	done
## sweep-ui: every UI of the installed LV2 plug-ins opened under a private Xvfb through `auhost ui`
## (scripts/lv2-ui-sweep.sh): a table of UI kind x drew / blank / unsupported / failed / crashed / hung
## in .build/ui-sweep/summary.md, a PNG per UI that drew.
.PHONY: sweep-ui
sweep-ui: deps
	$(SWIFT) build --product auhost
	$(SWIFT) build --product auhost-ui-host
	scripts/lv2-ui-sweep.sh

## bench-graph-floor: 32 C gain units wired by hand (direct calls, AudioUnitRender) and in an
## AUGraph against a hand-written loop, side by side (Benchmarks/graph-floor.c, issue 35), built
## with gcc -O3 against the release install as C users link it.
.PHONY: bench-graph-floor
bench-graph-floor: deps
	rm -rf .build/bench-graph-floor
	$(MAKE) --no-print-directory install PREFIX=.build/bench-graph-floor
	gcc -std=c17 -O3 -Wall -Wno-multichar -Wno-unused-parameter Benchmarks/graph-floor.c -o .build/bench-graph-floor/graph-floor \
		$$(PKG_CONFIG_PATH=.build/bench-graph-floor/lib/pkgconfig pkg-config --cflags --libs auhost)
	.build/bench-graph-floor/graph-floor

## bench-parallel-run: issue 35's field case, `auhost run` of two branches of two SDK Saturators,
## serial against two threads, whole process and block medians (Benchmarks/compare-parallel-run.sh).
.PHONY: bench-parallel-run
bench-parallel-run: deps
	$(SWIFT) build -c release --product auhost
	Plugins/build.sh release
	Benchmarks/compare-parallel-run.sh

## bench-isolated: the IsolatedUnit benchmark (round trip at 64 frames, a reverb isolated vs in
## process), with the child from this package's release build and the test LV2_PATH.
.PHONY: bench-isolated
bench-isolated: deps
	$(SWIFT) build -c release --product auhost-unit-host
	cd Benchmarks && LV2_PATH=$$(../scripts/test-lv2-path.sh) $(SWIFT) package benchmark --target IsolatedUnit

## check-python: the Python door (issue 28; docs/PYTHON.md). A fresh venv in .build/python-venv gets
## one `pip install ./Python` (its build step runs swift build -c release for the library and the
## unit-host child and ships both in the package) plus numpy, pytest, hypothesis, mido and ray; pytest then
## runs Python/tests over the test LV2_PATH with the broken-plug-in fixtures, the SDK plug-ins, and the
## release CLI whose output the package must equal bit for bit, and the Ray example on a local 2-CPU
## cluster against the serial run. PYTHON picks the interpreter.
PYTHON ?= /usr/bin/python3
PY_VENV := .build/python-venv
check-python: deps
	rm -rf $(PY_VENV)
	$(PYTHON) -m venv $(PY_VENV)
	$(PY_VENV)/bin/pip install -q ./Python numpy pytest hypothesis mido ray
	$(SWIFT) build -c release --product auhost
	@set -e; plugins=$$(Plugins/build.sh release | tail -1); \
	fixtures=$$(scripts/build-lv2-fixtures.sh $(abspath .build/python-lv2-fixtures)); \
	lv2=$$(scripts/test-lv2-path.sh); \
	cd Python && LV2_PATH=$$lv2 AUHOST_PYTHON_FIXTURES=$$fixtures AUHOST_PLUGIN_PATH=$$plugins \
		AUHOST_CLI=$(abspath .build/release/auhost) ../$(PY_VENV)/bin/python -m pytest -q -p no:cacheprovider tests
