#!/bin/sh
# Issue 15's paced check: the 8-branch graph of Examples/Sources/ParallelPacedDevice, rendered on
# THREADS threads (the ALSA device thread and THREADS - 1 workers), plays through the ALSA `jack`
# PCM over `jackd --no-realtime -d dummy -r 48000 -p PERIOD` (the dummy backend keeps real time)
# on a jackd server of its own, then prints the ALSA I/O unit's xrun count and worst render time
# as % of the period. BUSY=1 also keeps a `yes > /dev/null` loop running (the bar is on a quiet
# machine: with two cores and two render threads, the loop takes a core the worker needs).
# Exit status 0 = ran and 0 xruns. It stops only the jackd and loop it started.
# Usage: scripts/parallel-paced-check.sh [seconds=60] [period-frames=64] [threads=2]
#        (needs jackd2, libasound2-plugins)
set -eu
SECONDS_TO_PLAY=${1:-60}
PERIOD=${2:-64}
THREADS=${3:-2}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=${SCRATCH:-$ROOT/.build-examples}
WORK=$(mktemp -d /tmp/parallel-paced-check.XXXXXX)
SERVER="parallel-paced-check-$$"
JACKD_PID=""
BUSY_PID=""
cleanup() {
    if [ -n "$BUSY_PID" ]; then kill "$BUSY_PID" 2>/dev/null || true; wait "$BUSY_PID" 2>/dev/null || true; fi
    if [ -n "$JACKD_PID" ]; then kill "$JACKD_PID" 2>/dev/null || true; wait "$JACKD_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
command -v jackd >/dev/null || { echo "jackd not found: apt-get install jackd2 libasound2-plugins" >&2; exit 1; }

echo "building parallel-paced-device (release, scratch path $SCRATCH)..." >&2
swift build --package-path "$ROOT/Examples" --scratch-path "$SCRATCH" -c release --product parallel-paced-device >/dev/null

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
if [ "${BUSY:-0}" = 1 ]; then
    yes > /dev/null &
    BUSY_PID=$!
fi
echo "jackd '$SERVER' dummy 48000 Hz / $PERIOD frames (pid $JACKD_PID)${BUSY_PID:+; a core busy with yes (pid $BUSY_PID)}; $THREADS render threads; playing ${SECONDS_TO_PLAY} s" >&2
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
HOME="$WORK/home" JACK_DEFAULT_SERVER=$SERVER JACK_NO_START_SERVER=1 \
    "$SCRATCH/release/parallel-paced-device" paced_jack "$SECONDS_TO_PLAY" "$PERIOD" "$THREADS" &
PLAYER_PID=$!
# The worker threads copy the device thread's scheduling: list the process's real-time threads.
sleep 2
echo "SCHED_FIFO threads of the player: $(ps -L -o cls=,rtprio= -p "$PLAYER_PID" 2>/dev/null | awk '$1 == "FF" { n++; p = $2 } END { printf "%d (priority %s)", n, p }')" >&2
wait "$PLAYER_PID"
