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
. "$(dirname "$0")/lib/paced-jack.sh"
paced_begin vpio-paced-check
paced_build voice-paced-device

cat > "$WORK/home/.asoundrc" <<'ASOUNDRC'
pcm.voice_jack {
    type jack
    playback_ports { 0 system:playback_1 }
    capture_ports { 0 system:capture_1 }
}
ASOUNDRC

paced_start_jackd "$PERIOD"
echo "jackd dummy 48000 Hz / $PERIOD frames (pid $JACKD_PID); running ${SECONDS_TO_RUN} s" >&2
HOME="$WORK/home" JACK_DEFAULT_SERVER=$SERVER JACK_NO_START_SERVER=1 \
    "$SCRATCH/release/voice-paced-device" voice_jack "$SECONDS_TO_RUN" "$PERIOD" "$MODE"
