#!/bin/bash
# Side by side on this machine (issue 8 bars), one run each, wall times by `date +%s.%N`:
#  1. `auhost render` applying eg-amp (gain -6 dB) to a 60 s mono 48 kHz float WAV: samples
#     bit-identical to lv2apply's, wall time against lv2apply and lv2proc (bar: ≤ 1.0× lv2proc).
#  2. `auhost list` against `lv2ls` over the same installed plug-ins (bar: ≤ 1.5×).
# Usage: Benchmarks/compare-lv2.sh [AUHOST_BINARY]   (default: a release build, made if missing)
# lv2proc comes from Debian's lv2proc package; without it that ratio is skipped and said so.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
auhost=${1:-}
if [ -z "$auhost" ]; then
    (cd "$here" && swift build -c release --scratch-path .build-cli --product auhost >/dev/null)
    auhost="$here/.build-cli/release/auhost"
fi
work=$(mktemp -d /tmp/auhost-compare-XXXXXX)
trap 'rm -rf "$work"' EXIT
uri=http://lv2plug.in/plugins/eg-amp

python3 - "$work/in.wav" <<'PY'
import math, random, struct, sys
# 60 s of mono noise plus a sine, 48 kHz, 32-bit float WAV (format 3).
rate, frames = 48000, 60 * 48000
random.seed(8)
data = bytearray()
for i in range(frames):
    data += struct.pack('<f', 0.4 * math.sin(2 * math.pi * 440 * i / rate) + 0.2 * (random.random() - 0.5))
with open(sys.argv[1], 'wb') as f:
    fmt = struct.pack('<HHIIHH', 3, 1, rate, rate * 4, 4, 32)
    f.write(b'RIFF' + struct.pack('<I', 4 + 8 + len(fmt) + 8 + len(data)) + b'WAVE')
    f.write(b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(data)) + data)
PY

now() { date +%s.%N; }
wall() { local t0 t1; t0=$(now); "$@" >/dev/null 2>&1; t1=$(now); echo "$t1 - $t0" | bc -l; }

t_auhost=$(wall "$auhost" render -i "$work/in.wav" -o "$work/auhost.wav" -p gain=-6 "$uri")
t_apply=$(wall lv2apply -i "$work/in.wav" -o "$work/lv2apply.wav" -c gain -6 "$uri")
identical=$(python3 - "$work/auhost.wav" "$work/lv2apply.wav" <<'PY'
import subprocess, sys
# Compare the samples (the data chunks), not the headers: libsndfile's PEAK chunk holds a time stamp.
def data(path):
    b = open(path, 'rb').read()
    i = 12
    while i < len(b):
        cid, size = b[i:i+4], int.from_bytes(b[i+4:i+8], 'little')
        if cid == b'data': return b[i+8:i+8+size]
        i += 8 + size + (size & 1)
    return None
a, b = data(sys.argv[1]), data(sys.argv[2])
print("bit-identical" if a is not None and a == b else f"DIFFERENT ({len(a or b'')} vs {len(b or b'')} bytes)")
PY
)
printf 'render eg-amp, 60 s mono 48 kHz float: auhost %.3f s, lv2apply %.3f s (auhost/lv2apply %.3f); output vs lv2apply: %s\n' \
    "$t_auhost" "$t_apply" "$(echo "$t_auhost / $t_apply" | bc -l)" "$identical"
if command -v lv2proc >/dev/null; then
    t_proc=$(wall lv2proc -i "$work/in.wav" -o "$work/lv2proc.wav" -c gain:-6 "$uri")
    printf 'render eg-amp: lv2proc %.3f s; auhost/lv2proc %.3f (bar: <= 1.0)\n' "$t_proc" "$(echo "$t_auhost / $t_proc" | bc -l)"
else
    echo "render eg-amp: lv2proc is not installed (apt-get install lv2proc); auhost/lv2proc not measured"
fi

t_list=$(wall "$auhost" list)
t_ls=$(wall lv2ls)
printf 'list: auhost %.3f s (%d units), lv2ls %.3f s (%d plug-ins); auhost/lv2ls %.3f (bar: <= 1.5)\n' \
    "$t_list" "$("$auhost" list | wc -l)" "$t_ls" "$(lv2ls | wc -l)" "$(echo "$t_list / $t_ls" | bc -l)"
[ "$identical" = bit-identical ]
