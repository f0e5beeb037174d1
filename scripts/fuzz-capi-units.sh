#!/usr/bin/env bash
# The C API harness once per built-in unit (AUHOST_CAPI_FUZZ_UNIT pins it), FUZZ_RUNS executions
# each (default 1,000,000) or FUZZ_S seconds each (default: no limit), whichever ends first, one
# after another: each unit's own properties, parameters and state get a campaign of their own,
# whatever the corpus favours. Prints one line per unit.
#   scripts/fuzz-capi-units.sh [FIRST [LAST]]       unit indices, default all
# Thread class: n/a (build tooling).
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_CONFIG=${FUZZ_CONFIG:-debug}
if [ "$FUZZ_CONFIG" = release ]; then default_scratch=.build-fuzz-release; else default_scratch=.build-fuzz; fi
SCRATCH=${FUZZ_SCRATCH:-$default_scratch}
export FUZZ_CONFIG FUZZ_SCRATCH=$SCRATCH
FUZZ_RUNS=${FUZZ_RUNS:-1000000}
FUZZ_S=${FUZZ_S:-0}
FUZZ_S=1 scripts/fuzz.sh CAPIFuzz >/dev/null || true  # builds the driver (and runs it one second)
driver="$SCRATCH/$FUZZ_CONFIG/auhost-fuzz"
count=$(AUHOST_CAPI_FUZZ_LIST_UNITS=1 AUHOST_FUZZ_HARNESS=CAPIFuzz "$driver" -runs=0 2>/dev/null | grep -c '^unit ' || true)
first=${1:-0}; last=${2:-$((count - 1))}
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
status=0
for unit in $(seq "$first" "$last"); do
    log="$SCRATCH/fuzz-CAPIFuzz-unit$unit.log"
    mkdir -p "$SCRATCH/corpus/CAPIFuzz-unit$unit" Tests/Fuzz/Crashes/CAPIFuzz
    start=$(date +%s)
    if AUHOST_CAPI_FUZZ_UNIT=$unit AUHOST_FUZZ_HARNESS=CAPIFuzz "$driver" -runs="$FUZZ_RUNS" -max_total_time="$FUZZ_S" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix=Tests/Fuzz/Crashes/CAPIFuzz/ -print_final_stats=1 \
        "$SCRATCH/corpus/CAPIFuzz-unit$unit" Tests/Fuzz/Corpus/CAPIFuzz >"$log" 2>&1; then result=ok; else result=FAILED; status=1; fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    name=$(grep -m1 '^CAPIFuzz pinned to ' "$log" | sed 's/^CAPIFuzz pinned to //')
    echo "unit $unit ($name): $result, ${runs:-?} executions in $(( $(date +%s) - start )) s (log: $log)"
done
exit $status
