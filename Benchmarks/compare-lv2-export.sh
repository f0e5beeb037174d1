#!/bin/bash
# The LV2 build of each SDK plug-in against its SDK build, side by side in one run (issue 29's
# last bar: lv2bench time ≤ 1.05× the SDK build's kernel time in `auhost bench`), as totals and as
# medians per block (lv2-test-host bench against auhost bench).
#
#   Benchmarks/compare-lv2-export.sh [AUHOST_BINARY]   (default: a release build, made if missing)
#
# Both render FRAMES frames (default 4800000: 100 s at 48 kHz, long enough that a shared machine's
# hiccups average out) in 512-frame blocks from the release plug-ins (Plugins/build.sh release):
# `lv2bench -b 512 -n FRAMES URI` prints its run loop's total time; `auhost bench TRIPLE --block 512
# --frames FRAMES` its "timed run" (each block timed, the times summed: two clock reads per block
# more than lv2bench's one loop). The two are run in turn, RUNS times each, and the best of each is
# kept (the machine is shared: the minimum is the least disturbed). All three feed silence, as
# lv2bench does (`auhost bench --silence`): a kernel such as the Saturator's costs what its input
# makes it cost. lv2bench connects separate input and output buffers (the LV2 side copies the input
# onto the output, then processes in place); auhost pulls the input into the output buffers through
# a render callback. The load and the busiest
# processes are printed first, for the record. Thread class: n/a (a benchmark script).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
frames=${FRAMES:-4800000}
auhost=${1:-}
if [ -z "$auhost" ]; then
    (cd "$here" && swift build -c release --scratch-path .build-cli --product auhost >/dev/null)
    auhost="$here/.build-cli/release/auhost"
fi
bin=$("$here/Plugins/build.sh" release 2>/dev/null)
scratch=$(mktemp -d /tmp/auhost-lv2-export-bench-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
lv2="$scratch/lv2"
mkdir -p "$lv2"
cp -r "$bin"/lv2/*.lv2 "$lv2/"
export LV2_PATH="$lv2" AUHOST_PLUGIN_PATH="$bin"

host="$scratch/lv2-test-host"
cc -std=gnu17 -O2 "$here/Tests/LV2Export/lv2-test-host.c" "$here/Tests/LV2Export/lv2-test-host-main.c" -o "$host" \
    $(pkg-config --cflags --libs lilv-0 sndfile) -lm
blocks=$((frames / 512))

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); busiest processes:"
ps -eo pcpu,comm --sort=-pcpu | sed -n '2,6p' | sed 's/^/    /'
printf '\n%-10s | %10s %10s %7s | %17s %17s %7s\n' "" "lv2bench" "auhost" "" "LV2 per block" "SDK per block" ""
printf '%-10s | %10s %10s %7s | %17s %17s %7s\n' unit "total s" "total s" ratio "median (min) µs" "median (min) µs" ratio
for entry in "Gain|urn:auhost:aufx:gain:AUSd|aufx gain AUSd" "Tremolo|urn:auhost:aufx:trem:AUSd|aufx trem AUSd" \
    "Saturator|urn:auhost:aufx:satu:AUSd|aufx satu AUSd" "Chorus|urn:auhost:aufx:chor:AUSd|aufx chor AUSd"; do
    IFS='|' read -r name uri triple <<<"$entry"
    best() { echo "$1 ${2:-$1}" | awk '{print ($1 < $2) ? $1 : $2}'; }
    lv2_total="" au_total="" lv2_median="" au_median="" lv2_min="" au_min=""
    for _ in $(seq "$runs"); do
        t=$(lv2bench -b 512 -n "$frames" "$uri" | awk -v u="$uri" '$NF == u && NF == 2 {print $1}')
        report=$("$auhost" bench "$triple" --silence --block 512 --frames "$frames")
        a=$(echo "$report" | sed -n 's/^timed run: \([0-9.]*\) s.*/\1/p')
        read -r am amin < <(echo "$report" | sed -n 's/^time per block: min \([0-9.]*\) µs, median \([0-9.]*\) µs.*/\2 \1/p')
        read -r lm lmin < <("$host" bench "$uri" "$blocks" --block 512 | sed -n 's/^time per block: min \([0-9.]*\) µs, median \([0-9.]*\) µs.*/\2 \1/p')
        lv2_total=$(best "$t" "$lv2_total"); au_total=$(best "$a" "$au_total")
        lv2_median=$(best "$lm" "$lv2_median"); au_median=$(best "$am" "$au_median")
        lv2_min=$(best "$lmin" "$lv2_min"); au_min=$(best "$amin" "$au_min")
    done
    printf '%-10s | %10.6f %10.6f %6.3fx | %8.2f (%6.2f) %8.2f (%6.2f) %6.3fx\n' "$name" "$lv2_total" "$au_total" \
        "$(echo "$lv2_total / $au_total" | bc -l)" "$lv2_median" "$lv2_min" "$au_median" "$au_min" "$(echo "$lv2_median / $au_median" | bc -l)"
done
echo
echo "$frames frames in 512-frame blocks, best of $runs runs each (bar: ≤ 1.05)."
echo "Totals: lv2bench's run loop against auhost bench's blocks summed, silence in. Per block: lv2-test-host"
echo "(Tests/LV2Export, silence in separate input and output buffers as lv2bench) against auhost bench, each"
echo "run timed alone; the ratio is of the medians, which a shared machine's preemptions move least."
