#!/usr/bin/env bash
# Sweeps every installed LV2 plug-in (lv2ls) through lv2-sweep-child twice: through the Audio
# Unit API (--unit) and directly through LV2Instance; runs lv2bench for comparison when present.
# Meant for a machine with a large plug-in set installed (issue 5's "large set" bar); not part of
# `make test`, whose CI set is lv2-examples, swh-lv2 and mda-lv2.
#
#   scripts/lv2-large-sweep.sh [output-directory]     (default: /tmp/lv2-large-sweep)
#
# Environment: SCRATCH (SwiftPM scratch path, default .build-lv2sweep), JOBS (children at a time,
# default 2), TIMEOUT (seconds per plug-in, default 30), LV2_PATH (honoured by lilv and lv2ls).
# Writes unit.tsv, direct.tsv (uri, result, reason), lv2bench.out/.err and summary.txt.
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
    echo "rendered directly but not through the unit:"
    join -t $'\t' <(awk -F'\t' 'NR > 1 && $2 == "rendered" { print $1 }' "$out/direct.tsv") \
                  <(awk -F'\t' 'NR > 1 && $2 != "rendered"' "$out/unit.tsv") || true
} | tee "$out/summary.txt"
