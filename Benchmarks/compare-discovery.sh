#!/bin/bash
# Discovery at lilv speed (issue 13): medians of hyperfine runs, side by side in one run, release build.
#   list warm  : `auhost list` with a current catalog cache   vs `lv2ls`        (bar <= 1.5x)
#   list cold  : `auhost list` with no LV2 cache (rebuilt)     vs `lv2ls -n`     (bar <= 1.0x)
#   info warm  : `auhost info URI`                             vs `lv2info URI`  (bar <= 2x)
#   render warm: `auhost render` eg-amp, 60 s mono 48 kHz float vs `lv2proc`     (bar <= 1.0x, samples identical)
#   render new : the same, auhost's output removed before each run (no rename over a file)
#   C program  : AudioComponentFindNext(aufx dely AUHs) + InstanceNew + Dispose  (bar <= 30 ms wall)
# The bars are defined with the large LV2 collection installed (/work/shared/lv2-large-set.txt,
# ~590 plug-ins); the script says plainly when it is absent and the figures are then not the bars'.
# Needs hyperfine (apt-get install hyperfine: a measurement tool, not a build dependency, so it is
# not in scripts/debian-packages.txt) and lilv-utils, lv2proc.
# Usage: [ROUNDS=6] Benchmarks/compare-discovery.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
for tool in hyperfine lv2ls lv2info lv2proc python3 cc; do
    command -v "$tool" >/dev/null || { echo "compare-discovery: $tool is not installed (apt-get install ${tool/lv2ls/lilv-utils}); nothing measured"; exit 1; }
done
# SCRATCH: another release build folder (e.g. .build-cli) instead of .build.
scratch=${SCRATCH:-$here/.build}
(cd "$here" && swift build -c release --scratch-path "$scratch" --product auhost >/dev/null \
    && swift build -c release --scratch-path "$scratch" --product auhost-capi >/dev/null \
    && swift build -c release --scratch-path "$scratch" --product lv2-sweep-child >/dev/null)
bin=$(cd "$here" && swift build -c release --scratch-path "$scratch" --show-bin-path)
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

# Under a fluctuating load (this machine is shared), a block of runs of one command and then a block
# of the other compares two different moments. So each pair is measured in ROUNDS short hyperfine
# runs of both commands, and the medians are taken over every run of every round. CPU time
# (user + system, hyperfine's means averaged over rounds) is shown too: it does not depend on load.
rounds=${ROUNDS:-6}
pair() {  # name bar reference-name runs-per-round prepare-for-auhost auhost-command reference-command
    local name=$1 bar=$2 refname=$3 per=$4 prepare=$5 a=$6 b=$7 r
    for r in $(seq "$rounds"); do
        if [ -n "$prepare" ]; then
            hyperfine -N -r "$per" --export-json "$work/$name-$r.json" --prepare "$prepare" --prepare true "$a" "$b" >/dev/null 2>&1
        else
            hyperfine -N -w 1 -r "$per" --export-json "$work/$name-$r.json" "$a" "$b" >/dev/null 2>&1
        fi
    done
    python3 - "$name" "$bar" "$refname" "$work"/"$name"-*.json <<'PY'
import json, statistics, sys
name, bar, refname, files = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4:]
wall, cpu = [[], []], [[], []]
for f in files:
    for i, r in enumerate(json.load(open(f))["results"]):
        wall[i] += r["times"]; cpu[i].append(r["user"] + r["system"])
a, b = statistics.median(wall[0]), statistics.median(wall[1])
ca, cb = statistics.mean(cpu[0]), statistics.mean(cpu[1])
ratio = a / b
print("%-12s auhost %8.1f ms   %-9s %8.1f ms   ratio %5.2f   bar <= %.1f: %-8s (CPU %.1f vs %.1f ms, %.2fx; %d runs each)"
      % (name, a * 1000, refname, b * 1000, ratio, bar, "MET" if ratio <= bar else "NOT MET", ca * 1000, cb * 1000, ca / cb, len(wall[0])))
PY
}

"$auhost" list >/dev/null 2>&1  # fill the cache
pair "list-warm" 1.5 "lv2ls" 8 "" "$auhost list" "lv2ls"
# Cold for LV2 only (what lv2ls -n reads): the LADSPA catalog, which lilv has no counterpart for,
# stays warm. (hyperfine -N runs the preparation without a shell: find, not a glob.)
pair "list-cold" 1.0 "lv2ls -n" 1 "find $XDG_CACHE_HOME/auhost -name lv2-catalog-* -delete" "$auhost list" "lv2ls -n"
"$auhost" list >/dev/null 2>&1

uri=http://calf.sourceforge.net/plugins/Reverb
lv2info "$uri" >/dev/null 2>&1 || uri=http://lv2plug.in/plugins/eg-amp
pair "info-warm" 2.0 "lv2info" 8 "" "$auhost info $uri" "lv2info $uri"
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
pair "render-warm" 1.0 "lv2proc" 2 "" "$auhost render -i $work/in.wav -o $work/auhost.wav -p gain=-6 $amp" \
    "lv2proc -i $work/in.wav -o $work/lv2proc.wav -c gain:-6 $amp"
# The same with auhost writing a new file each time. auhost renders into a temporary file renamed
# over the target (a failed render never destroys the old output), and ext4 (auto_da_alloc)
# writes out a file that a rename puts in another's place: the two lines differ by that flush.
pair "render-new" 1.0 "lv2proc" 2 "rm -f $work/auhost.wav" "$auhost render -i $work/in.wav -o $work/auhost.wav -p gain=-6 $amp" \
    "lv2proc -i $work/in.wav -o $work/lv2proc.wav -c gain:-6 $amp"
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
# them), so linking -lauhost-capi fails there. Same code, same optimisation; the system libraries
# are those Package.swift links (the voice processor's webrtc is C++).
cc -O2 -std=c17 -Wall -Werror -I"$here/Sources/CAudioToolbox/include" -c "$here/Benchmarks/find-delay.c" -o "$work/find-delay.o"
swiftc -o "$work/find-delay" "$work/find-delay.o" @"$bin/auhost-capi.product/Objects.LinkFileList" \
    $(pkg-config --libs lilv-0 sndfile soxr alsa) -lwebrtc_audio_processing -lstdc++ -lFoundation
"$work/find-delay" >/dev/null
hyperfine -N -w 3 -r 30 --export-json "$work/c.json" "$work/find-delay" >/dev/null 2>&1
python3 - "$work/c.json" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"][0]
m = statistics.median(r["times"])
print("%-12s %8.1f ms wall median (AudioComponentFindNext delay + InstanceNew + Dispose)   bar <= 30 ms: %s (CPU %.1f ms)"
      % ("C program", m * 1000, "MET" if m <= 0.030 else "NOT MET", (r["user"] + r["system"]) * 1000))
PY

# Issue 34: the same C program with the LADSPA and DSSI libraries installed (the default paths) and
# with LADSPA_PATH and DSSI_PATH pointing nowhere: finding a built-in never reads the LADSPA catalog.
pair "C, LADSPA" 1.1 "without" 10 "" "env -u LADSPA_PATH -u DSSI_PATH $work/find-delay" "env LADSPA_PATH=$work/none DSSI_PATH=$work/none $work/find-delay"
echo "             (LADSPA libraries on the default paths: $(ls /usr/lib/ladspa /usr/local/lib/ladspa 2>/dev/null | grep -c '\.so$'))"

# Issue 21: with broken bundles first on LV2_PATH, the C program still finds the built-in delay
# (and reads no LV2 data at all), and `auhost list` lists every other unit and exits 0.
hostile="$work/hostile-lv2"
mkdir -p "$hostile"
cp -R "$here"/Tests/LV2HostTests/Fixtures/hostile/*.lv2 "$hostile/"
ln -s /usr/lib/lv2/eg-amp.lv2 "$hostile/eg-amp.lv2" 2>/dev/null || true
c_out=$(LV2_PATH="$hostile" "$work/find-delay" 2>&1) || true
list_status=0
list_lines=$(LV2_PATH="$hostile" "$auhost" list 2>/dev/null | wc -l) || list_status=$?
echo "broken bundles first on LV2_PATH: C program: $c_out; auhost list: exit $list_status, $list_lines units"
