#!/bin/sh
# Paced check of the ALSADevice real-time stream: plays a 440 Hz sine for a few seconds through
# ALSA's `jack` PCM over `jackd --no-realtime -d dummy -r 48000 -p 64` (the dummy backend keeps
# real time, so xruns and render-time headroom are real) and prints the stream's xrun count,
# worst render time (as a fraction of a period) and SCHED_FIFO status.
# Usage: scripts/alsa-paced-check.sh [seconds] [period-frames]   (needs jackd2; see debian-packages.txt)
set -eu
SECONDS_TO_PLAY=${1:-4}
PERIOD=${2:-64}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/alsa-paced-check.XXXXXX)
SERVER="alsa-paced-check-$$"
JACKD_PID=""
cleanup() {
    if [ -n "$JACKD_PID" ]; then kill "$JACKD_PID" 2>/dev/null || true; wait "$JACKD_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
command -v jackd >/dev/null || { echo "jackd not found: apt-get install jackd2" >&2; exit 1; }

# A throw-away package holding only the ALSADevice module (linked, not copied) and this check.
mkdir -p "$WORK/pkg/Sources/check" "$WORK/home"
for target in AudioToolbox CALSA ALSADevice; do ln -s "$ROOT/Sources/$target" "$WORK/pkg/Sources/$target"; done
cat > "$WORK/pkg/Package.swift" <<'EOF'
// swift-tools-version: 6.1
import PackageDescription
let package = Package(name: "AlsaPacedCheck", targets: [
    .target(name: "AudioToolbox", cSettings: [.unsafeFlags(["-Wno-four-char-constants"])]),
    .systemLibrary(name: "CALSA", pkgConfig: "alsa"),
    .target(name: "ALSADevice", dependencies: ["CALSA", "AudioToolbox"]),
    .executableTarget(name: "check", dependencies: ["ALSADevice", "AudioToolbox"]),
], swiftLanguageModes: [.v5])
EOF
cat > "$WORK/pkg/Sources/check/main.swift" <<'EOF'
import ALSADevice
import AudioToolbox
import Foundation

struct Sine { var phase: Float; var step: Float }
let renderSine: PCMRenderFunction = { context, _, frames, list in
    let sine = context!.assumingMemoryBound(to: Sine.self)
    let channels = Int(list.pointee.mNumberBuffers)
    for i in 0..<Int(frames) {
        let value = 0.25 * sinf(sine.pointee.phase)
        for channel in 0..<channels {
            SampleConversion.buffer(list, channel).pointee.mData!.assumingMemoryBound(to: Float.self)[i] = value
        }
        sine.pointee.phase += sine.pointee.step
        if sine.pointee.phase > 2 * .pi { sine.pointee.phase -= 2 * .pi }
    }
    return 0
}

let seconds = Double(CommandLine.arguments[1])!
let period = Int(CommandLine.arguments[2])!
do {
    let device = try PCMDevice(name: "paced_jack", direction: .playback)
    let granted = try device.configure(PCMRequest(sampleRate: 48_000, channels: 2, format: .float32LE,
                                                  periodFrames: period, periodCount: 2))
    let sine = UnsafeMutablePointer<Sine>.allocate(capacity: 1)
    sine.initialize(to: Sine(phase: 0, step: 2 * .pi * 440 / Float(granted.sampleRate)))
    let stream = try PCMStream(playback: device, render: renderSine, context: UnsafeMutableRawPointer(sine), onStopped: { error in
        print("stopped by itself: \(error)")
    })
    let started = Date()
    try stream.start()
    Thread.sleep(forTimeInterval: seconds)
    stream.stop()
    let elapsed = Date().timeIntervalSince(started)
    print("device: paced_jack (jack over jackd -d dummy), granted \(granted.sampleRate) Hz, period \(granted.periodFrames) × \(granted.periodCount), buffer \(granted.bufferFrames)")
    print("scheduling: \(stream.schedulingWarning ?? "SCHED_FIFO granted")")
    print(String(format: "frames: %d in %.2f s wall (%.3f × real time)", stream.framesProcessed, elapsed,
                 Double(stream.framesProcessed) / Double(granted.sampleRate) / elapsed))
    print("xruns: \(stream.xrunCount)")
    print(String(format: "worst render: %.1f µs = %.4f of a %.0f µs period", Double(stream.worstRenderNanoseconds) / 1000,
                 stream.worstRenderFraction, Double(granted.periodFrames) / Double(granted.sampleRate) * 1e6))
    if let failure = stream.failure { print("failure: \(failure)"); exit(1) }
} catch {
    print("error: \(error)")
    exit(1)
}
EOF
cat > "$WORK/home/.asoundrc" <<'EOF'
pcm.paced_jack {
    type jack
    playback_ports { 0 system:playback_1  1 system:playback_2 }
}
EOF

echo "building the check (scratch path $ROOT/.build-alsa-paced)..." >&2
swift build --package-path "$WORK/pkg" --scratch-path "$ROOT/.build-alsa-paced" -c release >/dev/null

JACK_DEFAULT_SERVER=$SERVER jackd --no-realtime -n "$SERVER" -d dummy -r 48000 -p "$PERIOD" >"$WORK/jackd.log" 2>&1 &
JACKD_PID=$!
sleep 2
HOME="$WORK/home" JACK_DEFAULT_SERVER=$SERVER JACK_NO_START_SERVER=1 \
    "$ROOT/.build-alsa-paced/release/check" "$SECONDS_TO_PLAY" "$PERIOD"
