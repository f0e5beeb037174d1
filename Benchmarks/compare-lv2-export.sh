#!/bin/bash
# The LV2 build of each SDK plug-in against its SDK build, side by side in one run (issue 29's
# last bar: lv2bench time ≤ 1.05× the SDK build's kernel time in `auhost bench`).
#
#   Benchmarks/compare-lv2-export.sh [AUHOST_BINARY]   (default: a release build, made if missing)
#
# Both render FRAMES frames (default 4800000: 100 s at 48 kHz, long enough that a shared machine's
# hiccups average out) in 512-frame blocks from the release plug-ins (Plugins/build.sh release):
# `lv2bench -b 512 -n FRAMES URI` prints its run loop's total time; `auhost bench TRIPLE --block 512
# --frames FRAMES` prints the whole timed run as % of real time, i.e. its total. The two are run in turn, RUNS times each, and the best of each is kept
# (the machine is shared: the minimum is the least disturbed). lv2bench feeds separate input and
# output buffers (the LV2 side copies the input onto the output, then processes in place); auhost
# pulls the input into the output buffers through a render callback. The load and the busiest
# processes are printed first, for the record. Thread class: n/a (a benchmark script).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
frames=${FRAMES:-4800000}
seconds=$(echo "$frames / 48000" | bc -l)
auhost=${1:-}
if [ -z "$auhost" ]; then
    (cd "$here" && swift build -c release --scratch-path .build-cli --product auhost >/dev/null)
    auhost="$here/.build-cli/release/auhost"
fi
bin=$("$here/Plugins/build.sh" release 2>/dev/null)
lv2=$(mktemp -d /tmp/auhost-lv2-export-bench-XXXXXX)
trap 'rm -rf "$lv2"' EXIT
cp -r "$bin"/lv2/*.lv2 "$lv2/"
export LV2_PATH="$lv2" AUHOST_PLUGIN_PATH="$bin"

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); busiest processes:"
ps -eo pcpu,comm --sort=-pcpu | sed -n '2,6p' | sed 's/^/    /'
printf '\n%-10s %14s %14s %8s\n' unit "lv2bench (s)" "auhost (s)" "ratio"
for entry in "Gain|urn:auhost:aufx:gain:AUSd|aufx gain AUSd" "Tremolo|urn:auhost:aufx:trem:AUSd|aufx trem AUSd" \
    "Saturator|urn:auhost:aufx:satu:AUSd|aufx satu AUSd" "Chorus|urn:auhost:aufx:chor:AUSd|aufx chor AUSd"; do
    IFS='|' read -r name uri triple <<<"$entry"
    best_lv2="" best_au=""
    for _ in $(seq "$runs"); do
        t=$(lv2bench -b 512 -n "$frames" "$uri" | awk -v u="$uri" '$NF == u && NF == 2 {print $1}')
        p=$("$auhost" bench "$triple" --block 512 --frames "$frames" | sed -n 's/^% of real time: \([0-9.]*\) %.*/\1/p')
        a=$(echo "$p * $seconds / 100" | bc -l) # % of real time → seconds
        best_lv2=$(echo "$t ${best_lv2:-$t}" | awk '{print ($1 < $2) ? $1 : $2}')
        best_au=$(echo "$a ${best_au:-$a}" | awk '{print ($1 < $2) ? $1 : $2}')
    done
    printf '%-10s %14.6f %14.6f %7.3fx\n' "$name" "$best_lv2" "$best_au" "$(echo "$best_lv2 / $best_au" | bc -l)"
done
echo
echo "$frames frames in 512-frame blocks; ratio = lv2bench / auhost bench, best of $runs each (bar: ≤ 1.05)"
