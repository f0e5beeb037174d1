#!/usr/bin/env bash
# Builds Tests/CHost/aq_guide_player.cpp (Apple's Audio Queue guide player, C++, callbacks on a
# run loop) with one C++ compiler against an install and plays a 16-bit stereo WAV on a "default"
# that is an ALSA file PCM; fails unless every callback ran on the run loop's thread, every packet
# was read and the device received the file's samples exactly (then only silence).
#
#   scripts/check-guide-player.sh PREFIX "CXX [FLAGS]"
#
# Thread class: n/a (build tooling).
set -euo pipefail
prefix=$1
cxx=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pc="$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs auhost)"
# shellcheck disable=SC2086
$cxx -std=c++17 -Wall -Wno-multichar Tests/CHost/aq_guide_player.cpp -o "$work/player" $pc -lpthread
python3 - "$work" <<'PY'
import struct, sys
work = sys.argv[1]
frames = 20000
data = b''.join(struct.pack('<hh', (f * 37 % 2001) - 1000, (f * 11 % 999) - 499) for f in range(frames))
header = b'RIFF' + struct.pack('<I', 36 + len(data)) + b'WAVEfmt ' + struct.pack('<IHHIIHH', 16, 1, 2, 48000, 192000, 4, 16)
open(work + '/in.wav', 'wb').write(header + b'data' + struct.pack('<I', len(data)) + data)
open(work + '/.asoundrc', 'w').write('pcm.!default { type file slave.pcm "null" file "%s/out.raw" format "raw" }\n' % work)
PY
output=$(HOME="$work" timeout 30 "$work/player" "$work/in.wav")
python3 - "$work" "$output" "$cxx" <<'PY'
import struct, sys
work, output, cxx = sys.argv[1], sys.argv[2], sys.argv[3]
values = dict(line.split(' ', 1) for line in output.splitlines())
raw = open(work + '/out.raw', 'rb').read()
played = struct.unpack('<%df' % (len(raw) // 4), raw)
expected = [v / 32768 for f in range(20000) for v in ((f * 37 % 2001) - 1000, (f * 11 % 999) - 499)]
ok = (values.get('packets') == '20000' and values.get('callbacks-elsewhere') == '0'
      and list(played[:len(expected)]) == expected and all(v == 0 for v in played[len(expected):])
      and values.get('url', '').startswith('file://'))
print('Audio Queue guide player (%s): callbacks on the run loop thread, %s packets, device = file exactly: %s'
      % (cxx, values.get('packets'), 'ok' if ok else 'FAILED'))
sys.exit(0 if ok else 1)
PY
