#!/bin/sh
# Issues 18 and 26's offline and file-PCM figures: runs the voice-processing bar tests (the
# simulated room through the kernel, the offline unit and the ALSA duplex file PCMs; bypass
# bit-identity; block sizes and device periods; double talk per suppression level) and prints the
# figures they measure (ERLE per far-end-only segment, near-end correlation, webrtc's own metrics). Exit status: the tests'. The allocation bar is `make bench` (VoiceProcessingRender),
# the paced bar scripts/vpio-paced-check.sh.
# Usage: scripts/voice-processing-figures.sh
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LOG=$(mktemp /tmp/voice-processing-figures.XXXXXX)
trap 'rm -f "$LOG"' EXIT INT TERM
cd "$ROOT"
status=0
swift test --filter 'VoiceProcessingKernelTests|VoiceProcessingOfflineUnitTests|VoiceProcessingIOTests|VoiceProcessingIOPeriodTests|VoiceBlockSizeTests|VoiceDevicePatternTests|VoiceDoubleTalkTests' >"$LOG" 2>&1 || status=$?
grep -E 'ERLE|correlation|double talk|Executed .* tests' "$LOG" | grep -v '^Test Suite' | sort -u
exit $status
