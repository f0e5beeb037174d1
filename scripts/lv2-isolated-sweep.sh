#!/usr/bin/env bash
# Every LV2 plug-in installed on this machine (lv2ls) through `auhost render`, in process twice and
# out of process (--isolate) once, on the same 1 s stereo input: is the isolated output the same
# bytes? Not part of `make test` (whose LV2 set is fixed): a field check of issue 19.
#
#   scripts/lv2-isolated-sweep.sh [output-directory]     (default: /tmp/lv2-isolated-sweep)
#
# Verdicts (table.tsv: uri, verdict, detail; summary.txt counts them):
#   identical        isolated = in process, and in process is repeatable
#   nondeterministic two in-process renders differ already (random, uninitialised state)
#   differs          in process repeatable, isolated different: a host fault to look at
#   isolated-failed  renders in process, not out of process: a host fault to look at
#   refused          refused in process as well (an instrument without --midi, a format it lacks)
#   host-crash       auhost itself died (signal) or timed out: a host fault
# Exits 1 when any verdict is a host fault.
#
# Environment: JOBS (renders at a time, default 2), TIMEOUT (seconds per render, default 60).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/lv2-isolated-sweep}
jobs=${JOBS:-2}
timeout=${TIMEOUT:-60}
mkdir -p "$out/renders"

swift build -c release --product auhost >&2
swift build -c release --product auhost-unit-host >&2
bin="$(swift build -c release --show-bin-path)"
export AUHOST_BIN="$bin/auhost" AUHOST_UNIT_HOST="$bin/auhost-unit-host" OUT="$out" TIMEOUT="$timeout"
sox -n -r 48000 -c 2 -b 16 "$out/input.wav" synth 1 sine 220 sine 331 gain -6 >&2
lv2ls | sort > "$out/uris.txt"
echo "$(wc -l < "$out/uris.txt") plug-ins installed (lv2ls)" >&2

one() {
    uri=$1
    key=$(printf '%s' "$uri" | md5sum | cut -c1-12)
    render() {  # name, extra options
        local name=$1; shift
        timeout -k 5 "$TIMEOUT" "$AUHOST_BIN" render "$uri" -i "$OUT/input.wav" -o "$OUT/renders/$key-$name.wav" --tail 0 "$@" \
            >/dev/null 2>"$OUT/renders/$key-$name.err"
    }
    set +e
    render a; a=$?
    render b; b=$?
    render isolated --isolate; i=$?
    set -e
    if [ $a -ge 124 ] || [ $i -ge 124 ]; then verdict=host-crash; detail="exit $a in process, $i isolated"
    elif [ $a -ne 0 ]; then
        verdict=refused; detail=$(head -c 200 "$OUT/renders/$key-a.err" | tr '\n\t' '  ')
    elif [ $i -ne 0 ]; then
        verdict=isolated-failed; detail=$(head -c 300 "$OUT/renders/$key-isolated.err" | tr '\n\t' '  ')
    elif ! cmp -s "$OUT/renders/$key-a.wav" "$OUT/renders/$key-b.wav"; then verdict=nondeterministic; detail=
    elif cmp -s "$OUT/renders/$key-a.wav" "$OUT/renders/$key-isolated.wav"; then verdict=identical; detail=
    else verdict=differs; detail=$(grep -h "fault\|restart" "$OUT/renders/$key-isolated.err" | head -c 300 | tr '\n\t' '  ')
    fi
    rm -f "$OUT/renders/$key-"*.wav
    printf '%s\t%s\t%s\n' "$uri" "$verdict" "$detail"
}
export -f one
xargs -a "$out/uris.txt" -d '\n' -P "$jobs" -I{} bash -c 'one "$@"' _ {} > "$out/table.tsv"
cut -f2 "$out/table.tsv" | sort | uniq -c | sort -rn | tee "$out/summary.txt"
! grep -qP '\t(differs|isolated-failed|host-crash)\t' "$out/table.tsv"
