// swift-tools-version: 6.2
// AUHost — the Audio Unit hosting model on Linux. Layout: docs/ARCHITECTURE.md.
import PackageDescription

/// C interop layers pass raw pointers whose thread contracts are documented per function rather
/// than checked by the compiler, so Swift 5 language mode is used throughout.
///
/// Real-time code is checked by the compiler (`@_noAllocation`, `@_noLocks`). Debug builds compile
/// file by file, so such a function may call only code in its own file, `@inlinable` code of
/// another module, and the standard library: render paths live in files of their own.
///
/// Warnings are errors in this package's own targets (SwiftPM drops the setting when the package
/// is someone else's dependency, so a newer compiler's new warning never breaks their build).
let swiftSettings: [SwiftSetting] = [.treatAllWarnings(as: .error)]
/// The C targets: warnings are errors too; four-char literals ('aufx') are the documented spelling.
let cSettings: [CSetting] = [.treatAllWarnings(as: .error), .disableWarning("four-char-constants")]

func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "AUHost",
    products: [
        /// `import AudioToolbox` for ported code (C API) plus every provider, linked in.
        .library(name: "AudioToolbox", targets: ["AudioToolbox", "AUHost"]),
        /// The shared library `make install` ships for C hosts (libauhost-capi.so, linked as -lauhost).
        .library(name: "auhost-capi", type: .dynamic, targets: ["AudioToolbox", "AUHost"]),
        /// The command-line tool.
        .executable(name: "auhost", targets: ["auhost"]),
        /// The child process of out-of-process units (AUHostIsolation.h); `make install` puts it in PREFIX/libexec/auhost.
        .executable(name: "auhost-unit-host", targets: ["auhost-unit-host"]),
        /// The unit model and the plug-in ABI header, compiled into every SDK plug-in (SDK/Package.swift).
        .library(name: "AUHostUnitModel", targets: ["AudioUnitBase", "AUHostPlugInABI"]),
        /// LV2 plug-ins as units, with the lilv layer under them (benchmarks compare the two).
        .library(name: "LV2Units", targets: ["LV2Units", "LV2Host"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // ---- The floor: the documented C API (headers) and system libraries.
        /// The C headers (C hosts include <AudioToolbox/AudioToolbox.h>).
        .target(name: "CAudioToolbox", cSettings: cSettings),
        /// `import AudioToolbox`: the C declarations re-exported with Apple's Swift overlay, as on Apple.
        .target(name: "AudioToolbox", dependencies: ["CAudioToolbox"], swiftSettings: swiftSettings),
        systemLibrary("CALSA", pkgConfig: "alsa", apt: "libasound2-dev"),
        systemLibrary("CLilv", pkgConfig: "lilv-0", apt: "liblilv-dev"),
        systemLibrary("CSndFile", pkgConfig: "sndfile", apt: "libsndfile1-dev"),
        systemLibrary("CSoxr", pkgConfig: "soxr", apt: "libsoxr-dev"),
        systemLibrary("CJACK", pkgConfig: "jack", apt: "libjack-jackd2-dev"),

        // ---- Swift value types over the C types, and the unit model every unit shares.
        .target(name: "AudioTypes", dependencies: ["AudioToolbox"], swiftSettings: swiftSettings),
        .target(name: "AudioUnitBase", dependencies: ["AudioTypes", "AUHostAtomics"], swiftSettings: swiftSettings),

        // ---- The host core: registry, instances, the C API implementation, the Swift API.
        .target(name: "AUHostHooks"),
        .target(name: "AUHostCore", dependencies: ["AudioUnitBase", "AUHostHooks"], swiftSettings: swiftSettings),

        // ---- Processing graphs (AUGraph).
        .target(name: "AUHostAtomics"),
        .target(name: "AUHostWorkers"),
        .target(name: "ProcessingGraph", dependencies: ["AUHostCore", "AUHostAtomics", "AUHostWorkers"], swiftSettings: swiftSettings),

        // ---- Providers.
        .target(name: "BuiltInUnits", dependencies: ["AUHostCore", "DSPKernels", "ExtAudioFile"], swiftSettings: swiftSettings),
        /// Extended Audio File Services (the C API, @_cdecl) and its Swift face, over AudioFiles.
        .target(name: "ExtAudioFile", dependencies: ["AudioTypes", "AudioFiles", "DSPKernels"], swiftSettings: swiftSettings),

        // ---- Composition: every provider registered; what `import AUHost` gives.
        .target(
            name: "AUHost",
            dependencies: [
                "AUHostCore", "ProcessingGraph", "BuiltInUnits", "ALSAIOUnit", "LV2Units", "PlugInLoader", "MusicPlayerServices",
                "VoiceProcessing", "AudioQueueServices", "AudioConverterServices", "AudioFileStreamServices",
                "UnitIsolation",
            ],
            swiftSettings: swiftSettings),
        /// Music Sequencing Services (MusicPlayer.h): sequences, Standard MIDI Files, the player.
        .target(
            name: "MusicPlayerServices", dependencies: ["AUHostCore", "ProcessingGraph", "AUHostAtomics"], swiftSettings: swiftSettings),
        /// Live MIDI from a JACK MIDI port into a running graph's instrument (kept out of the AUHost umbrella: it links libjack).
        .target(name: "JACKMIDIInput", dependencies: ["AUHost", "CJACK", "AUHostAtomics"], swiftSettings: swiftSettings),
        /// Graph files (docs/GRAPH-FILES.md) read and checked without instantiating anything.
        .target(name: "GraphFileFormat", dependencies: ["AudioTypes", "AudioFiles"], swiftSettings: swiftSettings),
        /// Audio Queue Services (AudioQueue.h): playback and recording on the ALSA I/O unit, offline render on a generic output.
        .target(
            name: "AudioQueueServices", dependencies: ["AUHostCore", "AUHostAtomics", "CSoundTouch", "AudioConverterServices"],
            swiftSettings: swiftSettings),
        systemLibrary("CSoundTouch", pkgConfig: "soundtouch", apt: "libsoundtouch-dev"),
        .executableTarget(
            name: "auhost",
            dependencies: [
                "AUHost", "CSndFile", "ExtAudioFile", "AudioFiles", "LV2Units", "GraphFileFormat", "JACKMIDIInput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], swiftSettings: swiftSettings),

        // ---- ALSA devices: PCM negotiation, sample conversion, the real-time I/O thread.
        .target(name: "ALSADevice", dependencies: ["CALSA", "AudioToolbox"], swiftSettings: swiftSettings),
        /// The ALSA I/O unit (RemoteIO / HALOutput on Linux) and its provider.
        .target(
            name: "ALSAIOUnit", dependencies: ["AUHostCore", "ALSADevice", "DSPKernels", "VoiceProcessing"], swiftSettings: swiftSettings),

        // ---- Real-time DSP kernels and the audio-file layer (independent of the unit model).
        .target(name: "DSPKernels", dependencies: ["AudioToolbox", "CSoxr"], swiftSettings: swiftSettings),
        .target(
            name: "AudioFiles", dependencies: ["AudioToolbox", "CSndFile", "DSPKernels"],
            swiftSettings: swiftSettings),

        // ---- LV2 hosting over lilv: discovery, component codes, instances, the crash-isolating sweep.
        .target(name: "LV2Host", dependencies: ["CLilv", "AudioToolbox", "LV2SampleScan"], swiftSettings: swiftSettings),
        /// The NaN/inf scan of plug-in output, in C for the machine's widest vectors.
        .target(name: "LV2SampleScan"),
        .executableTarget(
            name: "lv2-sweep-child", dependencies: ["LV2Host", "LV2Units", "AUHost"], path: "Sources/LV2SweepChild",
            swiftSettings: swiftSettings),
        /// LV2 plug-ins as units: the provider and the AUBase subclass over LV2Instance.
        .target(name: "LV2Units", dependencies: ["AUHostCore", "LV2Host"], swiftSettings: swiftSettings),

        // ---- SDK plug-ins: the ABI header shared with SDK/, and the provider that loads them.
        .target(name: "AUHostPlugInABI", dependencies: ["CAudioToolbox"], path: "SDK/Sources/AUHostPlugInABI"),
        .target(name: "PlugInLoader", dependencies: ["AUHostCore", "AUHostPlugInABI"], swiftSettings: swiftSettings),

        // ---- Audio Converter Services (AudioConverter.h) and Audio File Stream Services: PCM through ConverterKernel, codecs through their libraries.
        systemLibrary("CCodecs", pkgConfig: "libmpg123", apt: "libmpg123-dev"),
        .target(name: "AudioConverterServices", dependencies: ["AudioTypes", "DSPKernels", "CCodecs"], swiftSettings: swiftSettings),
        .target(
            name: "AudioFileStreamServices", dependencies: ["AudioTypes", "AudioConverterServices", "CCodecs"], swiftSettings: swiftSettings
        ),

        // ---- Tests.
        .target(name: "TestSupport", dependencies: ["AUHost"], path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "AudioTypesTests", dependencies: ["AudioTypes"], swiftSettings: swiftSettings),
        .target(name: "ALSATestSupport", dependencies: ["CALSA"], path: "Tests/ALSATestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "ALSADeviceTests", dependencies: ["ALSADevice", "ALSATestSupport"],
            resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(name: "DSPKernelsTests", dependencies: ["DSPKernels", "SignalTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "AudioFilesTests", dependencies: ["AudioFiles", "DSPKernels"], swiftSettings: swiftSettings),
        .testTarget(name: "AUHostCoreTests", dependencies: ["AUHost", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ALSAIOUnitTests", dependencies: ["AUHost", "TestSupport", "ALSATestSupport", "CSoxr", "VoiceTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LV2HostTests", dependencies: ["LV2Host", "lv2-sweep-child"], exclude: ["Fixtures"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LV2UnitsTests", dependencies: ["LV2Units", "AUHost", "TestSupport", "lv2-sweep-child"],
            swiftSettings: swiftSettings),
        /// The C host listing's gain unit (Tests/CHost/gain_unit.c): a minimal unit written in C to the plug-in interface.
        .target(
            name: "CGainUnit", dependencies: ["CAudioToolbox"], path: "Tests/CHost", exclude: ["host.c"], sources: ["gain_unit.c"],
            cSettings: cSettings),
        .testTarget(name: "ProcessingGraphTests", dependencies: ["AUHost", "TestSupport", "CGainUnit"], swiftSettings: swiftSettings),
        .testTarget(
            name: "BuiltInUnitsTests", dependencies: ["AUHost", "TestSupport", "ExtAudioFile", "DSPKernels", "CSoxr"],
            swiftSettings: swiftSettings),
        .testTarget(name: "ExtAudioFileTests", dependencies: ["ExtAudioFile", "AudioFiles"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PlugInLoaderTests", dependencies: ["AUHost", "PlugInLoader"], exclude: ["Fixtures"],
            swiftSettings: swiftSettings),
        .testTarget(name: "auhostTests", dependencies: ["auhost", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MusicPlayerServicesTests",
            dependencies: ["AUHost", "PlugInLoader", "TestSupport", "JACKMIDIInput", "CJACK", "ALSATestSupport", "AUHostAtomics"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "AudioQueueTests", dependencies: ["AUHost", "AudioQueueServices", "ALSATestSupport"], resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings),
        // ---- Fuzzing (docs/RELIABILITY.md): harness functions, the libFuzzer driver
        // (scripts/fuzz.sh builds it with -sanitize=fuzzer,address), and the replay of every
        // seed and crash in the ordinary test run.
        .target(
            name: "FuzzHarnesses",
            dependencies: [
                "GraphFileFormat", "ExtAudioFile", "AudioFiles", "AudioTypes", "AUHost", "AUHostAtomics", "AudioFileStreamServices",
                "AudioConverterServices", "UnitIsolation",
            ],
            path: "Tests/Fuzz/Harnesses", swiftSettings: swiftSettings),
        .executableTarget(name: "auhost-fuzz", dependencies: ["FuzzHarnesses"], path: "Tests/Fuzz/Driver", swiftSettings: swiftSettings),
        .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzHarnesses", "AUHost"], path: "Tests/Fuzz/ReplayTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "PortedAPITests", dependencies: ["AudioToolbox", "AUHost", "TestSupport"],
            swiftSettings: swiftSettings),
        /// Swift written from Apple's documents and samples exactly as on Apple's platforms: the corpus
        /// files import only AudioToolbox and Foundation (AUHost is linked for its providers, as the
        /// shipped `AudioToolbox` product links them; CorpusTests checks the imports).
        .testTarget(
            name: "AppleSwiftCorpusTests", dependencies: ["AudioToolbox", "AUHost"], path: "Tests/AppleSwiftCorpus",
            swiftSettings: swiftSettings),
        // ---- Voice processing (issue 18): webrtc-audio-processing behind a C shim, the chunking
        // kernel and the offline unit; the ALSA voice-processing unit lives in ALSAIOUnit.
        // webrtc's pkg-config file carries -D flags, which SwiftPM refuses with a warning; so the
        // library is linked by its module map, and its headers (which include each other as
        // "webrtc/…") are found through webrtc-headers, a link to Debian's include folder.
        .systemLibrary(name: "CWebRTCAudioProcessing", providers: [.apt(["libwebrtc-audio-processing-dev"])]),
        .target(
            name: "CWebRTCProcessing", dependencies: ["CWebRTCAudioProcessing"], exclude: ["webrtc-headers"],
            cxxSettings: [
                .headerSearchPath("webrtc-headers"), .define("WEBRTC_POSIX"), .define("WEBRTC_AUDIO_PROCESSING_ONLY_BUILD"),
            ],
            linkerSettings: [.linkedLibrary("webrtc_audio_processing"), .linkedLibrary("stdc++")]),
        .target(name: "VoiceProcessing", dependencies: ["AUHostCore", "AUHostAtomics", "CWebRTCProcessing"], swiftSettings: swiftSettings),
        /// Deterministic room signals for the voice-processing bars (C, optimised even in debug builds).
        .target(name: "RoomSimulation", path: "Tests/RoomSimulation", cSettings: [.unsafeFlags(["-O2"])]),
        .target(name: "VoiceTestSupport", dependencies: ["RoomSimulation"], path: "Tests/VoiceTestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "VoiceProcessingTests", dependencies: ["VoiceProcessing", "AUHost", "TestSupport", "VoiceTestSupport"],
            swiftSettings: swiftSettings),
        /// A sine fitted to measured samples (amplitude, THD+N), for the DSP and codec tests.
        .target(name: "SignalTestSupport", path: "Tests/SignalTestSupport", swiftSettings: swiftSettings),
        .target(
            name: "CodecTestSupport", dependencies: ["AudioConverterServices", "AudioToolbox", "SignalTestSupport"],
            path: "Tests/CodecTestSupport",
            swiftSettings: swiftSettings),
        .testTarget(
            name: "AudioFileStreamServicesTests",
            dependencies: [
                "AudioFileStreamServices", "AudioConverterServices", "AudioToolbox", "AudioTypes", "CCodecs", "CodecTestSupport",
            ], swiftSettings: swiftSettings),
        .testTarget(
            name: "AudioConverterServicesTests", dependencies: ["AudioConverterServices", "AudioToolbox", "CodecTestSupport"],
            swiftSettings: swiftSettings),
        // ---- Out-of-process units (issue 19): the OS layer (shared block, futexes, spawn), the
        // proxy unit and protocol, the child executable, and their tests.
        .target(name: "CUnitIsolation"),
        .target(name: "UnitIsolation", dependencies: ["AUHostCore", "CUnitIsolation"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "auhost-unit-host", dependencies: ["AUHost", "UnitIsolation", "CUnitIsolation", "LV2Units", "LV2Host", "PlugInLoader"],
            path: "Sources/UnitHostChild", swiftSettings: swiftSettings),
        .testTarget(
            name: "UnitIsolationTests",
            dependencies: ["AUHost", "UnitIsolation", "TestSupport", "auhost-unit-host", "LV2Units", "PlugInLoader"],
            exclude: ["Fixtures"], swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v5]
)
