#!/bin/sh
# Issue 7's paced-device check: the 8-unit graph of Examples/Sources/PacedDevice plays through the
# ALSA `jack` PCM over `jackd --no-realtime -d dummy -r 48000 -p PERIOD` (the dummy backend keeps
# real time) while a `yes > /dev/null` loop keeps the other core busy, then prints the ALSA I/O
# unit's xrun count and worst render time as % of the period. Exit status 0 = ran and 0 xruns.
# Usage: scripts/paced-device-check.sh [seconds=60] [period-frames=64]   (needs jackd2, libasound2-plugins)
set -eu
SECONDS_TO_PLAY=${1:-60}
PERIOD=${2:-64}
. "$(dirname "$0")/lib/paced-jack.sh"
paced_begin paced-device-check
paced_build paced-device

cat > "$WORK/home/.asoundrc" <<'ASOUNDRC'
pcm.paced_jack {
    type jack
    playback_ports { 0 system:playback_1  1 system:playback_2 }
}
ASOUNDRC

paced_start_jackd "$PERIOD"
paced_busy
echo "jackd dummy 48000 Hz / $PERIOD frames (pid $JACKD_PID); other core busy with yes (pid $BUSY_PID); playing ${SECONDS_TO_PLAY} s" >&2
HOME="$WORK/home" JACK_DEFAULT_SERVER=$SERVER JACK_NO_START_SERVER=1 \
    "$SCRATCH/release/paced-device" paced_jack "$SECONDS_TO_PLAY" "$PERIOD"
