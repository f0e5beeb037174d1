#!/bin/sh
# Issue 7's paced-device check: the 8-unit graph of Examples/Sources/PacedDevice plays through the
# ALSA `jack` PCM over `jackd --no-realtime -d dummy -r 48000 -p PERIOD` (the dummy backend keeps
# real time) while a `yes > /dev/null` loop keeps the other core busy, then prints the ALSA I/O
# unit's xrun count and worst render time as % of the period. Exit status 0 = ran and 0 xruns.
# Usage: scripts/paced-device-check.sh [seconds=60] [period-frames=64]   (needs jackd2, libasound2-plugins)
set -eu
SECONDS_TO_PLAY=${1:-60}
PERIOD=${2:-64}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=${SCRATCH:-$ROOT/.build-examples}
WORK=$(mktemp -d /tmp/paced-device-check.XXXXXX)
SERVER="paced-device-check-$$"
JACKD_PID=""
BUSY_PID=""
cleanup() {
    if [ -n "$BUSY_PID" ]; then kill "$BUSY_PID" 2>/dev/null || true; wait "$BUSY_PID" 2>/dev/null || true; fi
    if [ -n "$JACKD_PID" ]; then kill "$JACKD_PID" 2>/dev/null || true; wait "$JACKD_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
command -v jackd >/dev/null || { echo "jackd not found: apt-get install jackd2 libasound2-plugins" >&2; exit 1; }

echo "building paced-device (release, scratch path $SCRATCH)..." >&2
swift build --package-path "$ROOT/Examples" --scratch-path "$SCRATCH" -c release --product paced-device >/dev/null

mkdir -p "$WORK/home"
cat > "$WORK/home/.asoundrc" <<'ASOUNDRC'
pcm.paced_jack {
    type jack
    playback_ports { 0 system:playback_1  1 system:playback_2 }
}
ASOUNDRC

JACK_DEFAULT_SERVER=$SERVER jackd --no-realtime -n "$SERVER" -d dummy -r 48000 -p "$PERIOD" >"$WORK/jackd.log" 2>&1 &
JACKD_PID=$!
sleep 2
yes > /dev/null &
BUSY_PID=$!
echo "jackd dummy 48000 Hz / $PERIOD frames (pid $JACKD_PID); other core busy with yes (pid $BUSY_PID); playing ${SECONDS_TO_PLAY} s" >&2
HOME="$WORK/home" JACK_DEFAULT_SERVER=$SERVER JACK_NO_START_SERVER=1 \
    "$SCRATCH/release/paced-device" paced_jack "$SECONDS_TO_PLAY" "$PERIOD"
