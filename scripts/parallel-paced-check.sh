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
. "$(dirname "$0")/lib/paced-jack.sh"
paced_begin parallel-paced-check
paced_build parallel-paced-device

cat > "$WORK/home/.asoundrc" <<'ASOUNDRC'
pcm.paced_jack {
    type jack
    playback_ports { 0 system:playback_1  1 system:playback_2 }
}
ASOUNDRC

paced_start_jackd "$PERIOD"
if [ "${BUSY:-0}" = 1 ]; then paced_busy; fi
echo "jackd '$SERVER' dummy 48000 Hz / $PERIOD frames (pid $JACKD_PID)${BUSY_PID:+; a core busy with yes (pid $BUSY_PID)}; $THREADS render threads; playing ${SECONDS_TO_PLAY} s" >&2
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
HOME="$WORK/home" JACK_DEFAULT_SERVER=$SERVER JACK_NO_START_SERVER=1 \
    "$SCRATCH/release/parallel-paced-device" paced_jack "$SECONDS_TO_PLAY" "$PERIOD" "$THREADS" &
PLAYER_PID=$!
# The worker threads copy the device thread's scheduling: list the process's real-time threads.
sleep 2
echo "SCHED_FIFO threads of the player: $(ps -L -o cls=,rtprio= -p "$PLAYER_PID" 2>/dev/null | awk '$1 == "FF" { n++; p = $2 } END { printf "%d (priority %s)", n, p }')" >&2
wait "$PLAYER_PID"
