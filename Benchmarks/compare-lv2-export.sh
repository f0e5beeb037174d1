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
# more than lv2bench's one loop). The two run back to back as a pair, RUNS pairs (default 9) with the order
# alternating, and the bar is judged on the median of the pairs' ratios: this VM's CPU speed moves
# between minutes by up to 1.5x on both sides at once, which a pair cancels and a best-of does not. All three feed silence, as
# lv2bench does (`auhost bench --silence`): a kernel such as the Saturator's costs what its input
# makes it cost. lv2bench connects separate input and output buffers (the LV2 side copies the input
# onto the output, then processes in place); auhost pulls the input into the output buffers through
# a render callback. The load and the busiest
# processes are printed first, for the record. Thread class: n/a (a benchmark script).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-9}
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
samples="$scratch/samples"
: >"$samples"
for entry in "Gain|urn:auhost:aufx:gain:AUSd|aufx gain AUSd" "Tremolo|urn:auhost:aufx:trem:AUSd|aufx trem AUSd" \
    "Saturator|urn:auhost:aufx:satu:AUSd|aufx satu AUSd" "Chorus|urn:auhost:aufx:chor:AUSd|aufx chor AUSd"; do
    IFS='|' read -r name uri triple <<<"$entry"
    for run in $(seq "$runs"); do
        lv2_total() { lv2bench -b 512 -n "$frames" "$uri" | awk -v u="$uri" '$NF == u && NF == 2 {print $1}'; }
        au_report() { "$auhost" bench "$triple" --silence --block 512 --frames "$frames"; }
        # Alternate which side runs first, so that neither always inherits the other's warm state.
        if [ $((run % 2)) = 1 ]; then t=$(lv2_total); report=$(au_report); else report=$(au_report); t=$(lv2_total); fi
        a=$(echo "$report" | sed -n 's/^timed run: \([0-9.]*\) s.*/\1/p')
        am=$(echo "$report" | sed -n 's/^time per block: min [0-9.]* µs, median \([0-9.]*\) µs.*/\1/p')
        lm=$("$host" bench "$uri" "$blocks" --block 512 | sed -n 's/^time per block: min [0-9.]* µs, median \([0-9.]*\) µs.*/\1/p')
        echo "$name $t $a $lm $am" >>"$samples"
    done
done
python3 - "$samples" "$runs" "$frames" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
runs, frames = sys.argv[2], sys.argv[3]
print(f"\n{'unit':<10} | {'lv2bench/auhost totals, run by run':<44} | {'median':>7} {'min/min':>7} | {'per-block medians':>17}")
for name in dict.fromkeys(r[0] for r in rows):
    mine = [[float(x) for x in r[1:]] for r in rows if r[0] == name]
    pairs = [lv2 / au for lv2, au, _, _ in mine]
    block = statistics.median(lm / am for _, _, lm, am in mine)
    best = min(r[0] for r in mine) / min(r[1] for r in mine)
    spread = " ".join(f"{x:.3f}" for x in pairs)
    print(f"{name:<10} | {spread:<44} | {statistics.median(pairs):6.3f}x {best:6.3f}x | {block:16.3f}x")
print(f"\n{frames} frames in 512-frame blocks, {runs} pairs of runs a unit, the order alternating (bar: ≤ 1.05).")
print("Totals: lv2bench's run loop against auhost bench's blocks summed, silence in; a pair runs back to back,")
print("so its ratio compares the two at one CPU speed (this VM's moves between minutes). median: of the pairs'")
print("ratios; min/min: the best total of each side. Per block: lv2-test-host (Tests/LV2Export, silence in")
print("separate buffers as lv2bench) against auhost bench, the median of the pairs' ratios of medians.")
PY
