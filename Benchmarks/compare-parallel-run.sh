#!/usr/bin/env bash
# Parallel rendering in the field (issue 35): `auhost run` of a graph file with two branches of two
# SDK Saturators mixed at the head, whole process, serial (--threads 0) against two threads
# (--threads 2), ROUNDS interleaved pairs; then `auhost bench --graph` block medians for both.
# Prints the medians and their ratio; outputs are compared (they must be bit-identical).
#   Benchmarks/compare-parallel-run.sh [AUHOST]    (default: the release build; ROUNDS=21, SECONDS_OF_AUDIO=10)
# Needs the SDK plug-ins built (Plugins/build.sh release). Run on a quiet machine; say what else ran.
# Between rounds Benchmarks/parallel-capacity.c measures how much of two cores the machine gives
# (a VM's neighbour can take one for seconds): a speed-up measured while the machine gave less
# than two is read as such.
set -euo pipefail
cd "$(dirname "$0")/.."
auhost=${1:-.build/release/auhost}
rounds=${ROUNDS:-21}
seconds=${SECONDS_OF_AUDIO:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export AUHOST_PLUGIN_PATH=${AUHOST_PLUGIN_PATH:-$PWD/Plugins/.build/release}

python3 - "$work/in.wav" "$seconds" <<'EOF'
import math, struct, sys, wave
path, seconds = sys.argv[1], float(sys.argv[2])
rate = 48000
with wave.open(path, "wb") as w:
    w.setnchannels(2); w.setsampwidth(2); w.setframerate(rate)
    frames = int(rate * seconds)
    w.writeframes(b"".join(struct.pack("<hh", int(12000 * math.sin(2 * math.pi * 220 * n / rate)),
                                       int(12000 * math.sin(2 * math.pi * 330 * n / rate))) for n in range(frames)))
EOF

cat >"$work/graph.json" <<EOF
{
  "sampleRate": 48000, "channels": 2, "block": 512, "input": "in.wav",
  "nodes": [
    {"name": "input", "unit": "aufc conv appl"},
    {"name": "a1", "unit": "aufx satu AUSd"}, {"name": "a2", "unit": "aufx satu AUSd"},
    {"name": "b1", "unit": "aufx satu AUSd"}, {"name": "b2", "unit": "aufx satu AUSd"},
    {"name": "mix", "unit": "aumx mcmx appl"}
  ],
  "connections": [
    {"from": "input", "to": "a1"}, {"from": "a1", "to": "a2"}, {"from": "a2", "to": "mix:0"},
    {"from": "input", "to": "b1"}, {"from": "b1", "to": "b2"}, {"from": "b2", "to": "mix:1"},
    {"from": "mix", "to": "output"}
  ],
  "output": {"file": "out.wav"}
}
EOF

cc -O2 -pthread -std=c17 -Wall -Werror Benchmarks/parallel-capacity.c -o "$work/capacity"
"$auhost" run "$work/graph.json" --threads 0 >/dev/null 2>&1  # warm the caches
python3 - "$auhost" "$work" "$rounds" <<'EOF'
import hashlib, statistics, subprocess, sys, time
auhost, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
times = {0: [], 2: []}
capacity = []
digests = {}
for r in range(rounds):
    for threads in ((0, 2) if r % 2 == 0 else (2, 0)):
        start = time.perf_counter()
        subprocess.run([auhost, "run", f"{work}/graph.json", "--threads", str(threads)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[threads].append(time.perf_counter() - start)
        digests.setdefault(threads, hashlib.sha256(open(f"{work}/out.wav", "rb").read()).hexdigest())
    capacity.append(float(subprocess.run([f"{work}/capacity"], check=True, capture_output=True, text=True).stdout))
serial, parallel = statistics.median(times[0]), statistics.median(times[2])
print(f"auhost run, whole process, {rounds} interleaved pairs: serial median {serial*1000:.1f} ms (min {min(times[0])*1000:.1f}),"
      f" 2 threads {parallel*1000:.1f} ms (min {min(times[2])*1000:.1f}): speed-up {serial/parallel:.2f}x (minima {min(times[0])/min(times[2]):.2f}x)")
print(f"the machine's two-core capacity between rounds: median {statistics.median(capacity):.2f}, min {min(capacity):.2f}")
print("outputs identical:", digests[0] == digests[2])
EOF
for threads in 0 2; do
    echo "auhost bench --graph --threads $threads:"
    "$auhost" bench --graph "$work/graph.json" --threads "$threads" 2>&1 | grep -i -E "median|block|p50" | head -4
done
