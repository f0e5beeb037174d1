// swift-tools-version: 6.2
// The Core Audio hosting patterns and listings of the seed documents, ported and runnable
// (README.md says which seed section each ports). Built against the AUHost package as a user
// would: through its `AudioToolbox` product. `make examples` builds this package and runs
// `examples-check`, which runs every example against ALSA's file plugin or a generic output
// and checks its output against an expectation computed from the input and documented gains.
import PackageDescription

let audioToolbox: Target.Dependency = .product(name: "AudioToolbox", package: "AUHost")
/// Warnings are errors, as in the package the examples are built on.
let cFlags: [CSetting] = [.enableWarning("all"), .treatAllWarnings(as: .error), .disableWarning("four-char-constants")]
let swiftFlags: [SwiftSetting] = [.treatAllWarnings(as: .error)]

/// A C example (the seed's code is C): one directory under Sources/, built as one program.
func cExample(_ name: String, _ directory: String) -> Target {
    .executableTarget(name: name, dependencies: [audioToolbox, "ExampleSupport"], path: "Sources/\(directory)", cSettings: cFlags)
}

/// A Swift example (the seed's code is Objective-C): written as on Apple's platforms.
func swiftExample(_ name: String, _ directory: String) -> Target {
    .executableTarget(name: name, dependencies: [audioToolbox], path: "Sources/\(directory)", swiftSettings: swiftFlags)
}

/// A paced-device program (run by a scripts/*-paced-check.sh): shares PacedSupport.
func pacedExample(_ name: String, _ directory: String) -> Target {
    .executableTarget(name: name, dependencies: [audioToolbox, "PacedSupport"], path: "Sources/\(directory)", swiftSettings: swiftFlags)
}

let package = Package(
    name: "AUHostExamples",
    dependencies: [.package(name: "AUHost", path: "..")],
    targets: [
        .target(name: "ExampleSupport", dependencies: [audioToolbox], path: "Sources/ExampleSupport", cSettings: cFlags),
        cExample("io-passthrough", "IOPassThrough"),
        cExample("io-mixer", "IOMixer"),
        cExample("io-render-callback", "IORenderCallback"),
        cExample("output-render-callback", "OutputRenderCallback"),
        cExample("output-mixer-eq", "OutputMixerEQ"),
        cExample("input-analysis", "InputAnalysis"),
        cExample("offline-render", "OfflineRender"),
        cExample("guide-listings", "GuideListings"),
        swiftExample("remoteio-blog", "RemoteIOBlog"),
        swiftExample("capture-to-audio-unit", "CaptureToAudioUnit"),
        /// Issue 7's paced bar: an 8-unit graph on the ALSA `jack` PCM (scripts/paced-device-check.sh).
        .target(name: "PacedSupport", dependencies: [audioToolbox], path: "Sources/PacedSupport", swiftSettings: swiftFlags),
        pacedExample("paced-device", "PacedDevice"),
        /// Issue 18's paced bar: the voice-processing I/O unit in full duplex (scripts/vpio-paced-check.sh).
        pacedExample("voice-paced-device", "VoicePacedDevice"),
        /// Issue 15's paced bar: an 8-branch graph on two render threads (scripts/parallel-paced-check.sh).
        pacedExample("parallel-paced-device", "ParallelPacedDevice"),
        /// Seed 002's Audio Queue listings, the guide's play (three buffers) and record patterns.
        cExample("audio-queue-play", "AudioQueuePlay"),
        cExample("audio-queue-record", "AudioQueueRecord"),
        swiftExample("audio-queue-swift", "AudioQueueSwift"),
        /// Seed 002's listing 2-17 (System Sound Services) exactly as written; ListingProbe counts its
        /// completion's calls through the linker's --wrap, and `error` (set, never read) is not a warning.
        .target(name: "ListingProbe", dependencies: [audioToolbox], path: "Sources/ListingProbe", cSettings: cFlags),
        .executableTarget(
            name: "system-sound-listing", dependencies: [audioToolbox, "ListingProbe"], path: "Sources/SystemSoundListing",
            cSettings: cFlags + [.disableWarning("unused-variable")],
            linkerSettings: [.unsafeFlags(["-Xlinker", "--wrap=AudioServicesDisposeSystemSoundID", "-Xlinker", "--wrap=CFRunLoopStop"])]),
        /// Seed 002's listing 2-10 (is audio input available?) in the program it needs.
        cExample("audio-session-listing", "AudioSessionListing"),
        /// AUHost's extensions from C: a unit out of process, a graph on two threads.
        cExample("isolated-parallel", "IsolatedParallel"),
        /// Core MIDI from C (issue 33): virtual endpoints, packet lists, read procs, notifications on the run loop.
        cExample("core-midi-virtual", "CoreMIDIVirtual"),
        /// OpenAL as Mac code includes it (<OpenAL/al.h>), built against OpenAL Soft: a positioned source.
        .executableTarget(
            name: "openal-positional", dependencies: [audioToolbox], path: "Sources/OpenALPositional", cSettings: cFlags,
            linkerSettings: [.linkedLibrary("openal"), .linkedLibrary("m")]),
        /// Runs every example in a scratch HOME with an asoundrc of file PCMs and checks its output.
        .executableTarget(name: "examples-check", path: "Sources/ExamplesCheck", swiftSettings: swiftFlags),
    ],
    swiftLanguageModes: [.v5]
)
