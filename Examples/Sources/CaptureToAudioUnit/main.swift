// AVCaptureToAudioUnit (seed 003) on Linux. Usage: capture-to-audio-unit PCM FRAMES DELAY-SECONDS OUT.wav
import AudioToolbox
import AUHost
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 5, let frames = Int(arguments[2]), let delayTime = Float32(arguments[3]) else {
    print("usage: capture-to-audio-unit PCM FRAMES DELAY-SECONDS OUT.wav")
    exit(2)
}
// CAStreamBasicDescription::SetAUCanonical(2, false) with the rate set separately (listing 1).
let canonical = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 2)
let controller = CaptureSessionController(format: canonical, maximumFrames: 4096)
do {
    try controller.setUp(device: arguments[1], delayTime: delayTime, outputPath: arguments[4])
    try controller.record(frames: frames)
    print("written \(controller.framesWritten.pointee)")
} catch {
    print("error: \(error)")
    exit(1)
}
