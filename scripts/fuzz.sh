#!/usr/bin/env bash
# Builds the fuzz driver with libFuzzer and AddressSanitizer and runs every harness of
# FuzzRegistry (Tests/Fuzz/Harnesses/FuzzRegistry.swift) for FUZZ_S seconds each, one job at a
# time (one libFuzzer process each: the machine is shared). Seeds: Tests/Fuzz/Corpus/NAME (read only); what libFuzzer adds goes to
# .build-fuzz/corpus/NAME; crashes, leaks and timeouts are written to Tests/Fuzz/Crashes/NAME/,
# where FuzzReplayTests replays them in every `make test`. Prints one summary line per harness.
#
#   scripts/fuzz.sh [HARNESS…]        FUZZ_S=60 by default; FUZZ_ARGS adds libFuzzer options
#   FUZZ_S=0 FUZZ_RUNS=1000000         a campaign counted in executions instead (no time limit)
#   FUZZ_CONFIG=release                optimised build (its own scratch .build-fuzz-release): several
#                                      times the executions a second of the debug build, same checks
#
# Thread class: n/a (build tooling).
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_S=${FUZZ_S:-60}
FUZZ_CONFIG=${FUZZ_CONFIG:-debug}
if [ "$FUZZ_CONFIG" = release ]; then default_scratch=.build-fuzz-release; else default_scratch=.build-fuzz; fi
SCRATCH=${FUZZ_SCRATCH:-$default_scratch}
swift build --scratch-path "$SCRATCH" -c "$FUZZ_CONFIG" --product auhost-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING -Xswiftc -use-ld=lld -Xcc -fsanitize=address -Xcc -fsanitize=fuzzer-no-link >&2
driver="$SCRATCH/$FUZZ_CONFIG/auhost-fuzz"
# IsolatedUnit's children: the ordinary unit host (a libFuzzer build has no main of its own to give it).
if [ -z "${AUHOST_UNIT_HOST:-}" ]; then
    swift build -c release --product auhost-unit-host >&2
    export AUHOST_UNIT_HOST="$(swift build -c release --show-bin-path)/auhost-unit-host"
fi
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then mapfile -t harnesses < <(AUHOST_FUZZ_LIST=1 "$driver"); fi
# Leaks inside libsndfile/libvorbis that a plain C caller reproduces are listed there, nothing else.
# The Swift runtime's backtracer and ASan fight over a crashing process; libFuzzer reports it.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
for name in "${harnesses[@]}"; do
    mkdir -p "$SCRATCH/corpus/$name" "Tests/Fuzz/Crashes/$name" "Tests/Fuzz/Corpus/$name"
    log="$SCRATCH/fuzz-$name.log"
    # -timeout: an input running longer than 10 s is a hang; -rss_limit_mb bounds what one input allocates.
    start=$(date +%s)
    if AUHOST_FUZZ_HARNESS="$name" "$driver" -max_total_time="$FUZZ_S" -runs="${FUZZ_RUNS:--1}" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="Tests/Fuzz/Crashes/$name/" -print_final_stats=1 ${FUZZ_ARGS:-} \
        "$SCRATCH/corpus/$name" "Tests/Fuzz/Corpus/$name" >"$log" 2>&1; then result=ok; else result=FAILED; status=1; fi
    runs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    echo "$name: $result, ${runs:-?} executions in $(($(date +%s) - start)) s (log: $log)"
done
exit $status
