#!/usr/bin/env bash
# `make sweep`: every LV2 plug-in installed on this machine (lv2ls), each in a child process, twice:
# through the Audio Unit API (--unit) and directly through LV2Instance; lv2bench for comparison
# when present. Not part of `make test` (whose LV2 set is fixed): its verdict is about the host.
#
#   scripts/lv2-large-sweep.sh [output-directory]     (default: /tmp/lv2-large-sweep)
#
# Writes table.tsv (uri, through the unit, directly, verdict, why), unit.tsv and direct.tsv (uri,
# result, reason), lv2bench.out/.err and summary.txt. Results: rendered, failed, crashed,
# nonFiniteOutput. Verdicts: ok; plug-in (its own fault: it fails the same way without the host's
# unit layer); host (it renders directly but not through the unit, or only the unit crashes or goes
# non-finite). Exits 1 when any verdict is "host", 0 otherwise: a plug-in's own fault is reported,
# not failed on.
#
# Environment: SCRATCH (SwiftPM scratch path, default .build-lv2sweep), JOBS (children at a time,
# default 2), TIMEOUT (seconds per plug-in, default 30), LV2_PATH (honoured by lilv and lv2ls).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/lv2-large-sweep}
scratch=${SCRATCH:-.build-lv2sweep}
jobs=${JOBS:-2}
timeout=${TIMEOUT:-30}
mkdir -p "$out"

swift build --scratch-path "$scratch" --product lv2-sweep-child >&2
child="$(swift build --scratch-path "$scratch" --show-bin-path)/lv2-sweep-child"
lv2ls | sort > "$out/uris.txt"
echo "$(wc -l < "$out/uris.txt") plug-ins installed (lv2ls)" >&2

# One plug-in in one child: prints "uri<TAB>result<TAB>reason" the way LV2Sweep reads a child
# (last stdout line RENDERED/NONFINITE/FAILED, or the signal that ended it).
sweep_one() {
    local mode=$1 uri=$2 line status
    set +e
    line=$(SWIFT_BACKTRACE=enable=no "$CHILD" $mode "$uri" "$TIMEOUT" 2>/dev/null | tail -n 1)
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -gt 128 ]; then
        local signal; signal=$(kill -l $((status - 128)) 2>/dev/null || echo $((status - 128)))
        [ "$signal" = ALRM ] && signal="ALRM (timed out)"
        printf '%s\tcrashed\tchild killed by SIG%s\n' "$uri" "$signal"
        return
    fi
    case "$line" in
        RENDERED*) printf '%s\trendered\t%s\n' "$uri" "${line#RENDERED }" ;;
        NONFINITE*) printf '%s\tnonFiniteOutput\t%s\n' "$uri" "${line#NONFINITE }" ;;
        FAILED*) printf '%s\tfailed\t%s\n' "$uri" "${line#FAILED }" ;;
        *) printf '%s\tfailed\tchild exited with status %s and no result line\n' "$uri" "$status" ;;
    esac
}
export -f sweep_one
export CHILD="$child" TIMEOUT="$timeout"

for mode in unit direct; do
    flag=$([ $mode = unit ] && echo --unit || echo "")
    echo "sweep ($mode) …" >&2
    { printf 'uri\tresult\treason\n'
      xargs -d '\n' -P "$jobs" -I{} bash -c 'sweep_one "$0" "$1"' "$flag" {} < "$out/uris.txt" | sort; } > "$out/$mode.tsv"
done

bench_ran=n/a
if command -v lv2bench > /dev/null; then
    echo "lv2bench …" >&2
    set +e; lv2bench > "$out/lv2bench.out" 2> "$out/lv2bench.err"; set -e
    # lv2bench prints "seconds uri" for each plug-in it ran.
    bench_ran=$(grep -cE '^[0-9.]+ ' "$out/lv2bench.out" || true)
fi

# Reasons grouped with plug-in-specific text (URIs, paths, numbers) folded away.
group() {
    awk -F'\t' 'NR > 1 && $2 != "rendered" { print $2 ": " $3 }' "$1" \
        | sed -E 's/<[^>]*>/<…>/g; s/\/[^ ]*\.(so|lv2|ttl)/…/g; s/\b[0-9]+(\.[0-9]+)?\b/N/g' | sort | uniq -c | sort -rn
}
{
    echo "installed (lv2ls): $(wc -l < "$out/uris.txt")"
    for mode in unit direct; do
        echo "$mode sweep: $(awk -F'\t' 'NR > 1 { n[$2]++ } END { for (k in n) printf "%s %d, ", k, n[k] }' "$out/$mode.tsv")"
        group "$out/$mode.tsv"
    done
    echo "lv2bench ran: $bench_ran"
} > "$out/summary.txt"

# One row per plug-in: both results side by side and whose fault a failure is.
join -t $'\t' <(tail -n +2 "$out/unit.tsv") <(tail -n +2 "$out/direct.tsv") | awk -F'\t' '
    BEGIN { OFS = "\t"; print "uri", "unit", "direct", "verdict", "why" }
    {
        unit = $2; direct = $4
        if (unit == "rendered") verdict = "ok"
        else if (direct == "rendered" || (unit == "crashed" && direct != "crashed")) verdict = "host"
        else verdict = "plug-in"
        why = (unit == "rendered") ? "" : $3
        if (verdict == "plug-in" && direct != "rendered") why = why " (directly: " $5 ")"
        print $1, unit, direct, verdict, why
    }' > "$out/table.tsv"
{
    echo "verdicts: $(awk -F'\t' 'NR > 1 { n[$4]++ } END { for (k in n) printf "%s %d, ", k, n[k] }' "$out/table.tsv")"
    echo "host faults (render directly, not through the unit):"
    awk -F'\t' 'NR > 1 && $4 == "host" { print "  " $1 ": " $2 ": " $5 }' "$out/table.tsv"
    echo "plug-ins' own faults:"
    awk -F'\t' 'NR > 1 && $4 == "plug-in" { print "  " $1 ": " $2 ": " $5 }' "$out/table.tsv"
} >> "$out/summary.txt"
cat "$out/summary.txt"
echo "table: $out/table.tsv"
! awk -F'\t' 'NR > 1 && $4 == "host" { found = 1 } END { exit !found }' "$out/table.tsv"
