#!/bin/sh
# Allocations inside webrtc-audio-processing per processed chunk, counted with the linker's --wrap
# over the library's static archive (Benchmarks/webrtc-alloc-check.cpp). Complements the
# VoiceProcessingRender benchmark (which counts every malloc of a unit's render cycle) with a count
# that also covers turning AGC on and off while processing. Needs g++ and
# libwebrtc-audio-processing-dev. Usage: scripts/webrtc-alloc-check.sh
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/webrtc-alloc-check.XXXXXX)
trap 'rm -rf "$WORK"' EXIT INT TERM
SHIM="$ROOT/Sources/CWebRTCProcessing"
g++ -O2 -std=c++17 -DWEBRTC_POSIX -DWEBRTC_AUDIO_PROCESSING_ONLY_BUILD -I"$SHIM/include" \
    $(pkg-config --cflags-only-I webrtc-audio-processing) \
    "$ROOT/Benchmarks/webrtc-alloc-check.cpp" "$SHIM/webrtc_processing.cpp" -o "$WORK/check" \
    -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=_Znwm,--wrap=_Znam \
    -Wl,-Bstatic -lwebrtc_audio_processing -Wl,-Bdynamic -lpthread
"$WORK/check"
