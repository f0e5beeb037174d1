#!/bin/sh
# Allocations inside SoundTouch on the calls the render thread makes (Benchmarks/soundtouch-alloc-check.c):
# setting changes and processing counted apart, after SoundTouchStretch's warm-up, for slices of
# FRAMES frames of CHANNELS channels. Complements BuiltInUnitsRender (one fixed setting) with
# settings that change while rendering. Needs gcc and libsoundtouch-dev.
# Usage: scripts/soundtouch-alloc-check.sh [FRAMES [CHANNELS]]
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/soundtouch-alloc-check.XXXXXX)
trap 'rm -rf "$WORK"' EXIT INT TERM
gcc -O2 -Wall "$ROOT/Benchmarks/soundtouch-alloc-check.c" -o "$WORK/check" -lSoundTouchDll -lm
"$WORK/check" "$@"
