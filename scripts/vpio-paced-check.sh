#!/bin/sh
# Issue 18's paced check: the voice-processing I/O unit in full duplex (Examples/Sources/
# VoicePacedDevice: noise bursts played as the far end, the processed microphone rendered every
# period) through ALSA's `jack` PCM over its own `jackd --no-realtime -d dummy -r 48000 -p PERIOD`
# (the dummy backend keeps real time), then prints the unit's xrun count, worst device-thread cycle
# as % of the period and the canceller's figures. Exit status 0 = ran and 0 xruns. Only the jackd
# this script started is stopped (by its process id).
# Usage: scripts/vpio-paced-check.sh [seconds=60] [period-frames=480] [plain]   (needs jackd2,
# libasound2-plugins; "plain" runs the same duplex through the plain ALSA I/O unit as the control)
set -eu
SECONDS_TO_RUN=${1:-60}
PERIOD=${2:-480}
MODE=${3:-voice}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=${SCRATCH:-$ROOT/.build-examples}
WORK=$(mktemp -d /tmp/vpio-paced-check.XXXXXX)
SERVER="vpio-paced-check-$$"
JACKD_PID=""
cleanup() {
    if [ -n "$JACKD_PID" ]; then kill "$JACKD_PID" 2>/dev/null || true; wait "$JACKD_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
command -v jackd >/dev/null || { echo "jackd not found: apt-get install jackd2 libasound2-plugins" >&2; exit 1; }

echo "building voice-paced-device (release, scratch path $SCRATCH)..." >&2
swift build --package-path "$ROOT/Examples" --scratch-path "$SCRATCH" -c release --product voice-paced-device >/dev/null

mkdir -p "$WORK/home"
cat > "$WORK/home/.asoundrc" <<'ASOUNDRC'
pcm.voice_jack {
    type jack
    playback_ports { 0 system:playback_1 }
    capture_ports { 0 system:capture_1 }
}
ASOUNDRC

JACK_DEFAULT_SERVER=$SERVER jackd --no-realtime -n "$SERVER" -d dummy -r 48000 -p "$PERIOD" >"$WORK/jackd.log" 2>&1 &
JACKD_PID=$!
# Wait for the server (up to 20 s: the machine may be busy).
i=0
while [ $i -lt 20 ]; do
    sleep 1
    if command -v jack_wait >/dev/null; then
        JACK_DEFAULT_SERVER=$SERVER jack_wait -c >/dev/null 2>&1 && break
    elif [ $i -ge 3 ]; then
        break
    fi
    i=$((i + 1))
done
echo "jackd dummy 48000 Hz / $PERIOD frames (pid $JACKD_PID); running ${SECONDS_TO_RUN} s" >&2
HOME="$WORK/home" JACK_DEFAULT_SERVER=$SERVER JACK_NO_START_SERVER=1 \
    "$SCRATCH/release/voice-paced-device" voice_jack "$SECONDS_TO_RUN" "$PERIOD" "$MODE"
