#!/bin/bash
# Discovery at lilv speed (issue 13): medians of hyperfine runs, side by side in one run, release build.
#   list warm  : `auhost list` with a current catalog cache   vs `lv2ls`        (bar <= 1.5x)
#   list cold  : `auhost list` with no cache (it is rebuilt)   vs `lv2ls -n`     (bar <= 1.0x)
#   info warm  : `auhost info URI`                             vs `lv2info URI`  (bar <= 2x)
#   render warm: `auhost render` eg-amp, 60 s mono 48 kHz float vs `lv2proc`     (bar <= 1.0x, samples identical)
#   C program  : AudioComponentFindNext(aufx dely AUHs) + InstanceNew + Dispose  (bar <= 30 ms wall)
# The bars are defined with the large LV2 collection installed (/work/shared/lv2-large-set.txt,
# ~590 plug-ins); the script says plainly when it is absent and the figures are then not the bars'.
# Needs hyperfine (apt-get install hyperfine: a measurement tool, not a build dependency, so it is
# not in scripts/debian-packages.txt) and lilv-utils, lv2proc.
# Usage: Benchmarks/compare-discovery.sh [RUNS]   (RUNS for the fast commands, default 30)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-30}
for tool in hyperfine lv2ls lv2info lv2proc python3 cc; do
    command -v "$tool" >/dev/null || { echo "compare-discovery: $tool is not installed (apt-get install ${tool/lv2ls/lilv-utils}); nothing measured"; exit 1; }
done
(cd "$here" && swift build -c release --product auhost >/dev/null && swift build -c release --product auhost-capi >/dev/null)
bin=$(cd "$here" && swift build -c release --show-bin-path)
auhost="$bin/auhost"
work=$(mktemp -d /tmp/auhost-discovery-XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"

count=$(lv2ls | wc -l)
if [ "$count" -lt 500 ]; then
    echo "LARGE COLLECTION ABSENT: only $count LV2 plug-ins are installed (the bars assume ~590,"
    echo "/work/shared/lv2-large-set.txt). The figures below are NOT the issue-13 bars."
else
    echo "Large collection present: $count LV2 plug-ins (lv2ls), LV2_PATH=${LV2_PATH:-(lilv default)}"
fi

median() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(" ".join("%.4f" % x["median"] for x in r))' "$1"; }
ratio() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }
verdict() { python3 -c 'import sys; print("MET" if float(sys.argv[1]) <= float(sys.argv[2]) else "NOT MET")' "$1" "$2"; }
report() {  # name auhost-median reference-median reference-name bar
    local r; r=$(ratio "$2" "$3")
    printf '%-12s auhost %7.1f ms   %-16s %7.1f ms   ratio %5s   bar <= %s: %s\n' "$1" "$(python3 -c "print($2*1000)")" \
        "$4" "$(python3 -c "print($3*1000)")" "$r" "$5" "$(verdict "$r" "$5")"
}

"$auhost" list >/dev/null 2>&1  # fill the cache
hyperfine -N -w 3 -r "$runs" --export-json "$work/list.json" "$auhost list" "lv2ls" >/dev/null
read -r a b < <(median "$work/list.json"); report "list warm" "$a" "$b" "lv2ls" 1.5

# One hyperfine run, one --prepare per command: the cache is removed before every cold run.
hyperfine -N -r 7 --export-json "$work/cold.json" --prepare "rm -rf $XDG_CACHE_HOME/auhost" --prepare "true" \
    "$auhost list" "lv2ls -n" >/dev/null
read -r a b < <(median "$work/cold.json"); report "list cold" "$a" "$b" "lv2ls -n" 1.0
"$auhost" list >/dev/null 2>&1

uri=http://calf.sourceforge.net/plugins/Reverb
lv2info "$uri" >/dev/null 2>&1 || uri=http://lv2plug.in/plugins/eg-amp
hyperfine -N -w 3 -r "$runs" --export-json "$work/info.json" "$auhost info $uri" "lv2info $uri" >/dev/null
read -r a b < <(median "$work/info.json"); report "info warm" "$a" "$b" "lv2info" 2.0
echo "             (info URI: $uri)"

python3 - "$work/in.wav" <<'PY'
import math, random, struct, sys
# 60 s of mono noise plus a sine, 48 kHz, 32-bit float WAV (format 3).
rate, frames = 48000, 60 * 48000
random.seed(13)
data = bytearray()
for i in range(frames):
    data += struct.pack('<f', 0.4 * math.sin(2 * math.pi * 440 * i / rate) + 0.2 * (random.random() - 0.5))
with open(sys.argv[1], 'wb') as f:
    fmt = struct.pack('<HHIIHH', 3, 1, rate, rate * 4, 4, 32)
    f.write(b'RIFF' + struct.pack('<I', 4 + 8 + len(fmt) + 8 + len(data)) + b'WAVE')
    f.write(b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(data)) + data)
PY
amp=http://lv2plug.in/plugins/eg-amp
hyperfine -N -w 2 -r 10 --export-json "$work/render.json" \
    "$auhost render -i $work/in.wav -o $work/auhost.wav -p gain=-6 $amp" \
    "lv2proc -i $work/in.wav -o $work/lv2proc.wav -c gain:-6 $amp" >/dev/null
read -r a b < <(median "$work/render.json"); report "render warm" "$a" "$b" "lv2proc" 1.0
python3 - "$work/auhost.wav" "$work/lv2proc.wav" <<'PY'
import struct, sys
# Compare the samples as floats (lv2proc and libsndfile may write different header chunks).
def samples(path):
    b = open(path, 'rb').read(); i = 12; fmt = None
    while i < len(b):
        cid, size = b[i:i+4], int.from_bytes(b[i+4:i+8], 'little')
        if cid == b'fmt ': fmt = struct.unpack('<HHIIHH', b[i+8:i+24])
        if cid == b'data':
            d = b[i+8:i+8+size]
            if fmt[0] == 3 and fmt[5] == 32: return list(struct.unpack('<%df' % (len(d) // 4), d)), fmt
            return None, fmt
        i += 8 + size + (size & 1)
    return None, fmt
a, fa = samples(sys.argv[1]); b, fb = samples(sys.argv[2])
if a is None or b is None: print("             samples: not compared (formats %s / %s)" % (fa, fb))
else: print("             samples vs lv2proc: " + ("identical (%d frames)" % len(a) if a == b else "DIFFERENT (%d vs %d frames, first at %s)" % (len(a), len(b), next((i for i,(x,y) in enumerate(zip(a,b)) if x != y), min(len(a),len(b))))))
PY

# Linked with the release objects libauhost-capi.so is made of: that library's release build does
# not export the C API (its @_cdecl functions are internal, so -O hides them; debug builds export
# them), so linking -lauhost-capi fails there. Same code, same optimisation.
cc -O2 -std=c17 -Wall -Werror -I"$here/Sources/AudioToolbox/include" -c "$here/Benchmarks/find-delay.c" -o "$work/find-delay.o"
swiftc -o "$work/find-delay" "$work/find-delay.o" @"$bin/auhost-capi.product/Objects.LinkFileList" \
    $(pkg-config --libs lilv-0 sndfile soxr alsa) -lFoundation
"$work/find-delay" >/dev/null
hyperfine -N -w 3 -r "$runs" --export-json "$work/c.json" "$work/find-delay" >/dev/null
c=$(median "$work/c.json")
printf '%-12s %7.1f ms wall (AudioComponentFindNext delay + InstanceNew + Dispose)   bar <= 30 ms: %s\n' "C program" \
    "$(python3 -c "print($c*1000)")" "$(verdict "$c" 0.030)"
