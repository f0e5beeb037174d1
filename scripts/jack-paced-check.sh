#!/bin/sh
# Paced check of the JACK I/O unit (issue 31's bar): plays SECONDS of a 44.1 kHz sine through two
# LV2 plug-ins (eg-amp twice, a graph file) with `auhost play --jack` on
# `jackd --no-realtime -d dummy -r 48000 -p 64` (the dummy backend keeps real time) and prints
# the xruns the unit counted, beside the xruns the same server logs over the same time with no
# client at all (its dummy driver missing its own timer; on this project's 2-core VM about 1.5 a
# second, realtime or not). The bar is 0 xruns over 60 s on a quiet machine: say what else ran.
# Usage: scripts/jack-paced-check.sh [seconds]   (release build of auhost; needs jackd2 and sox)
set -eu
SECONDS_TO_PLAY=${1:-60}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
AUHOST=${AUHOST:-$ROOT/.build/release/auhost}
WORK=$(mktemp -d /tmp/jack-paced-check.XXXXXX)
SERVER="jack-paced-check"
JACKD_PID=""
cleanup() {
    if [ -n "$JACKD_PID" ]; then kill -INT "$JACKD_PID" 2>/dev/null || true; wait "$JACKD_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
[ -x "$AUHOST" ] || (cd "$ROOT" && swift build -c release --product auhost >/dev/null)
sox -n -r 44100 -c 1 -b 16 "$WORK/tone.wav" synth "$SECONDS_TO_PLAY" sine 440 vol 0.3
cat > "$WORK/two-plugins.json" <<JSON
{"channels": 1, "block": 64,
 "nodes": [{"name": "a", "unit": "http://lv2plug.in/plugins/eg-amp", "parameters": {"0": -6}},
           {"name": "b", "unit": "http://lv2plug.in/plugins/eg-amp", "parameters": {"0": 3}}],
 "connections": [{"from": "a", "to": "b"}, {"from": "b", "to": "output"}],
 "output": {"device": "jack"}}
JSON
jackd --no-realtime -n "$SERVER" -d dummy -r 48000 -p 64 >"$WORK/jackd.log" 2>&1 &
JACKD_PID=$!
export JACK_DEFAULT_SERVER="$SERVER" JACK_NO_START_SERVER=1
i=0
until jack_lsp >/dev/null 2>&1; do i=$((i + 1)); [ $i -lt 100 ] || { echo "jackd did not start" >&2; exit 1; }; sleep 0.1; done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
sleep "$SECONDS_TO_PLAY"
echo "jackd with no client for $SECONDS_TO_PLAY s: $(grep -c XRun "$WORK/jackd.log" || true) xruns logged"
: >"$WORK/jackd.log"
"$AUHOST" play "$WORK/tone.wav" --graph "$WORK/two-plugins.json" --jack
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); jackd's own xrun lines: $(grep -c XRun "$WORK/jackd.log" || true)"
