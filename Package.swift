// swift-tools-version: 6.2
// AUHost — the Audio Unit hosting model on Linux. Layout: docs/ARCHITECTURE.md.
//
// Targets in tiers, each depending only on the tiers above it: C shims (every name starts with C),
// Apple's APIs as ported code imports them, AUHost's internal layers, the providers and their
// composition, executables, and tests last.
import PackageDescription

// MARK: - Settings

/// C interop layers pass raw pointers whose thread contracts are documented per function rather
/// than checked by the compiler, so Swift 5 language mode is used throughout.
///
/// Real-time code is checked by the compiler (`@_noAllocation`, `@_noLocks`). Debug builds compile
/// file by file, so such a function may call only code in its own file, `@inlinable` code of
/// another module, and the standard library: render paths live in files of their own.
///
/// Warnings are errors in this package's own targets (SwiftPM drops the setting when the package
/// is someone else's dependency, so a newer compiler's new warning never breaks their build).
/// Every Swift target gets these (see the end of this file); a target lists only what it adds.
let swiftSettings: [SwiftSetting] = [.treatAllWarnings(as: .error)]
/// The C targets that include the headers: warnings are errors too; four-char literals ('aufx')
/// are the documented spelling.
let cSettings: [CSetting] = [.treatAllWarnings(as: .error), .disableWarning("four-char-constants")]

func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

/// A library opened on first use (CLazyLibraries), not linked: its headers only.
func lazyLibrary(_ name: String, apt: String) -> Target {
    .systemLibrary(name: name, providers: [.apt([apt])])
}

// MARK: - C shims: the documented headers, system libraries, and AUHost's own C

let cShims: [Target] = [
    /// The C headers (C hosts include <AudioToolbox/AudioToolbox.h>).
    .target(name: "CAudioToolbox", cSettings: cSettings),
    lazyLibrary("CALSA", apt: "libasound2-dev"),
    systemLibrary("CLilv", pkgConfig: "lilv-0", apt: "liblilv-dev"),
    /// suil and Xlib, for the LV2 UI host loop only (CUIHost; the host process links neither).
    systemLibrary("CSuil", pkgConfig: "suil-0", apt: "libsuil-dev"),
    /// sratom (lilv links it already): atoms as Turtle, for atoms crossing to and from LV2 UIs.
    systemLibrary("CSratom", pkgConfig: "sratom-0", apt: "libsratom-dev"),
    /// An atom as one protocol line and back, for the host and the UI child (their URID maps differ).
    .target(
        name: "CAUHostAtomText", dependencies: ["CSratom"], cSettings: cSettings, linkerSettings: [.linkedLibrary("serd-0")]),
    lazyLibrary("CSndFile", apt: "libsndfile1-dev"),
    lazyLibrary("CSoxr", apt: "libsoxr-dev"),
    lazyLibrary("CJACK", apt: "libjack-jackd2-dev"),
    lazyLibrary("CSoundTouch", apt: "libsoundtouch-dev"),
    /// The codecs behind Audio Converter and Audio File Stream Services (mpg123, FLAC, Vorbis, Opus).
    lazyLibrary("CCodecs", apt: "libmpg123-dev"),
    // webrtc's pkg-config file carries -D flags, which SwiftPM refuses with a warning; so the
    // library is linked by name, and its headers (which include each other as "webrtc/…") are
    // found through webrtc-headers, a link to Debian's include folder. It is linked, not opened on
    // first use (CLazyLibraries): webrtc::Config keys its options by the address of a static in an
    // inline template, which the library and this program share only when the library is linked.
    .systemLibrary(name: "CWebRTCAudioProcessing", providers: [.apt(["libwebrtc-audio-processing-dev"])]),
    /// webrtc-audio-processing behind a C face (C++).
    .target(
        name: "CWebRTCProcessing", dependencies: ["CWebRTCAudioProcessing"], exclude: ["webrtc-headers"],
        cxxSettings: [.headerSearchPath("webrtc-headers"), .define("WEBRTC_POSIX"), .define("WEBRTC_AUDIO_PROCESSING_ONLY_BUILD")],
        linkerSettings: [.linkedLibrary("webrtc_audio_processing"), .linkedLibrary("stdc++")]),
    /// alsa-lib, libsndfile, JACK, soxr, SoundTouch and the codecs, opened on first use: a
    /// program that touches no file or device (auhost info, a C host listing units) loads none.
    .target(name: "CLazyLibraries", dependencies: ["CAUHostFloatMode"], cSettings: cSettings),
    /// The few lock-free atomics render threads and setup threads share (the unit model needs them).
    .target(name: "CAUHostAtomics"),
    /// Futex sleep/wake and the spin hint for a graph's render workers.
    .target(name: "CAUHostWorkers"),
    /// A weak reference from the core to the composition layer.
    .target(name: "CAUHostHooks"),
    /// Clears the flush-to-zero mode libSoundTouchDll's -ffast-math sets as it loads (FloatMode.c).
    .target(name: "CAUHostFloatMode"),
    /// The NaN/inf scan of plug-in output, in C for the machine's widest vectors.
    .target(name: "CLV2SampleScan"),
    /// A folder's entries by getdents64, for the LV2 catalog's fingerprint walk.
    .target(name: "CDirectoryEntries"),
    /// dladdr: where helper programs installed beside libauhost are.
    .target(name: "CImagePath"),
    /// ladspa.h (ladspa-sdk) for Swift: the LADSPA plug-in interface.
    .target(name: "CLADSPA"),
    /// Out-of-process units' OS layer: shared block, futexes, spawn.
    .target(name: "CUnitIsolation"),
    /// The LV2 UI host loop (suil, Xlib), run by auhost-ui-host and, for UIs that need the
    /// plug-in's instance, by auhost-unit-host; never linked into a host process.
    .target(name: "CUIHost", dependencies: ["CSuil", "CAUHostAtomText"], cSettings: cSettings, linkerSettings: [.linkedLibrary("X11")]),
    /// The plug-in ABI header shared with SDK/ (its name is the SDK's, so it keeps it).
    .target(name: "AUHostPlugInABI", dependencies: ["CAudioToolbox"], path: "SDK/Sources/AUHostPlugInABI"),
]

// MARK: - Apple's APIs: what ported code imports, and the value types under the rest

let appleAPIs: [Target] = [
    /// `import AudioToolbox`: the C declarations re-exported with Apple's Swift overlay, as on Apple.
    .target(name: "AudioToolbox", dependencies: ["CAudioToolbox"]),
    /// Swift value types over the C types: FourCC, descriptions, ASBDs, buffer storage, errors, the CF bridge;
    /// where the helper programs are.
    .target(name: "AudioTypes", dependencies: ["AudioToolbox", "CImagePath"]),
    /// `import CoreMIDI`: Core MIDI's C declarations (<CoreMIDI/CoreMIDI.h>) re-exported, as on Apple.
    .target(name: "CoreMIDI", dependencies: ["CAudioToolbox"]),
]

// MARK: - Internal layers: DSP, files, devices, LV2, the unit model, the host core, graphs

let layers: [Target] = [
    /// Real-time DSP kernels (independent of the unit model).
    .target(name: "DSPKernels", dependencies: ["AudioTypes", "CSoxr", "CSoundTouch", "CLazyLibraries", "CAUHostFloatMode"]),
    /// Audio files through libsndfile.
    .target(name: "AudioFiles", dependencies: ["AudioToolbox", "CSndFile", "CLazyLibraries", "DSPKernels"]),
    /// ALSA devices: PCM negotiation, sample conversion, the real-time I/O thread.
    .target(name: "ALSADevice", dependencies: ["CALSA", "CLazyLibraries", "AudioToolbox"]),
    /// LV2 hosting over lilv: discovery, component codes, instances.
    .target(
        name: "LV2Host",
        dependencies: [
            "CLilv", "AudioToolbox", "AudioTypes", "CLV2SampleScan", "CDirectoryEntries", "CAUHostFloatMode", "CAUHostAtomText",
        ]),
    /// LADSPA hosting: discovery in a child, the catalog cache (codes as LV2's), instances.
    .target(name: "LADSPAHost", dependencies: ["CLADSPA", "AudioToolbox", "LV2Host", "CAUHostFloatMode"]),
    /// The unit model every unit shares (AUBase, AUEffectBase, the plug-in ABI face).
    .target(name: "AudioUnitBase", dependencies: ["AudioTypes", "CAUHostAtomics"]),
    /// Registry, instances, the C API implementation, the Swift API.
    .target(name: "AUHostCore", dependencies: ["AudioUnitBase", "CAUHostHooks"]),
    /// Processing graphs (AUGraph).
    .target(name: "ProcessingGraph", dependencies: ["AUHostCore", "CAUHostAtomics", "CAUHostWorkers"]),
    /// Graph files (docs/GRAPH-FILES.md) read and checked without instantiating anything.
    .target(name: "GraphFileFormat", dependencies: ["AudioTypes", "AudioFiles"]),
]

// MARK: - Providers and services, and their composition

let providers: [Target] = [
    /// Extended Audio File Services (the C API, @_cdecl) and its Swift face, over AudioFiles.
    .target(name: "ExtAudioFile", dependencies: ["AudioTypes", "AudioFiles", "DSPKernels"]),
    /// AUHost's own units.
    .target(name: "BuiltInUnits", dependencies: ["AUHostCore", "DSPKernels", "ExtAudioFile"]),
    /// Voice processing: the chunking kernel over webrtc and the offline unit.
    .target(name: "VoiceProcessing", dependencies: ["AUHostCore", "CAUHostAtomics", "CWebRTCProcessing"]),
    /// The ALSA I/O unit (RemoteIO / HALOutput on Linux) and its provider.
    .target(name: "ALSAIOUnit", dependencies: ["AUHostCore", "ALSADevice", "DSPKernels", "VoiceProcessing"]),
    /// The JACK I/O unit (a JACK client as a graph's head: ports, transport, freewheel) and its provider
    /// (kept out of the AUHost umbrella so that libauhost, Python and dependent packages need no libjack).
    .target(name: "JACKIOUnit", dependencies: ["AUHostCore", "CJACK", "CLazyLibraries", "CAUHostAtomics"]),
    /// LV2 plug-ins as units: the provider and the AUBase subclass over LV2Instance.
    .target(name: "LV2Units", dependencies: ["AUHostCore", "LV2Host"]),
    /// LADSPA plug-ins as units: the provider and the AUBase subclass over LADSPAInstance.
    .target(name: "LADSPAUnits", dependencies: ["AUHostCore", "LADSPAHost", "CLADSPA", "CLV2SampleScan"]),
    /// SDK plug-ins: listed from manifests, opened with dlopen on instantiation.
    .target(name: "PlugInLoader", dependencies: ["AUHostCore", "AUHostPlugInABI", "CAUHostFloatMode"]),
    /// Units out of process: the proxy unit and its protocol.
    .target(name: "UnitIsolation", dependencies: ["AUHostCore", "CUnitIsolation", "CLV2SampleScan"]),
    /// Music Sequencing Services (MusicPlayer.h): sequences, Standard MIDI Files, the player.
    .target(name: "MusicPlayerServices", dependencies: ["AUHostCore", "ProcessingGraph", "CAUHostAtomics", "CoreMIDIServices"]),
    /// Audio Converter Services (AudioConverter.h): PCM through ConverterKernel, codecs through their libraries.
    .target(name: "AudioConverterServices", dependencies: ["AudioTypes", "DSPKernels", "CCodecs", "CLazyLibraries"]),
    /// Audio File Stream Services (AudioFileStream.h).
    .target(name: "AudioFileStreamServices", dependencies: ["AudioTypes", "AudioConverterServices", "CCodecs", "CLazyLibraries"]),
    /// Audio Queue Services (AudioQueue.h): playback and recording on the ALSA I/O unit, offline render on a generic output.
    .target(
        name: "AudioQueueServices",
        dependencies: ["AUHostCore", "CAUHostAtomics", "DSPKernels", "CAUHostFloatMode", "AudioConverterServices"]),
    /// System Sound Services (AudioServices.h): short sounds mixed onto one shared ALSA output.
    .target(name: "SystemSoundServices", dependencies: ["AUHostCore", "AudioTypes", "ExtAudioFile"]),
    /// Audio Format Services (AudioFormat.h): format facts (FormatInfo from cookies, names) and channel layouts.
    .target(name: "AudioFormatServices", dependencies: ["AudioTypes"]),
    /// Audio Session Services (AudioSession.h): the session over the ALSA PCM "default".
    .target(name: "AudioSessionServices", dependencies: ["AudioTypes", "CALSA", "CLazyLibraries"]),
    /// Core MIDI (MIDIServices.h): clients, ports, virtual endpoints in process, the backend interface.
    .target(name: "CoreMIDIServices", dependencies: ["CoreMIDI", "AudioTypes", "AUHostCore", "CAUHostHooks", "CAUHostAtomics"]),
    /// Core MIDI over JACK MIDI (links libjack, so kept out of libauhost; the CoreMIDI product links it).
    .target(name: "CoreMIDIJACK", dependencies: ["CoreMIDIServices", "CJACK", "CLazyLibraries", "CAUHostAtomics"]),
    /// Composition: every provider registered; what `import AUHost` gives.
    .target(
        name: "AUHost",
        dependencies: [
            "AUHostCore", "ProcessingGraph", "BuiltInUnits", "ALSAIOUnit", "LV2Units", "LADSPAUnits", "PlugInLoader",
            "MusicPlayerServices", "VoiceProcessing", "AudioQueueServices", "AudioConverterServices", "AudioFileStreamServices",
            "UnitIsolation", "SystemSoundServices", "AudioFormatServices", "AudioSessionServices", "CoreMIDIServices",
        ]),
    /// `import AVFAudio`: AVAudioEngine and the classes around it, as Swift classes over AUGraph and units.
    .target(name: "AVFAudio", dependencies: ["AudioToolbox", "AUHost", "LV2Units", "LADSPAUnits", "AudioSessionServices", "JACKIOUnit"]),
    /// `import AVFoundation` for audio: re-exports AVFAudio, as Apple's AVFoundation does.
    .target(name: "AVFoundation", dependencies: ["AVFAudio"]),
    /// Live MIDI from a JACK MIDI port into a running graph's instrument (kept out of the AUHost umbrella: it links libjack).
    .target(name: "JACKMIDIInput", dependencies: ["AUHost", "CJACK", "CLazyLibraries", "CAUHostAtomics"]),
]

// MARK: - Executables

let executables: [Target] = [
    /// The command-line tool.
    .executableTarget(
        name: "auhost",
        dependencies: [
            "AUHost", "CSndFile", "ExtAudioFile", "AudioFiles", "LV2Units", "LADSPAUnits", "GraphFileFormat", "JACKMIDIInput", "JACKIOUnit",
            "DSPKernels",
            "LV2Host", "CAUHostFloatMode",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    /// The child process of out-of-process units.
    .executableTarget(
        name: "auhost-unit-host",
        dependencies: [
            "AUHost", "UnitIsolation", "CUnitIsolation", "CAUHostFloatMode", "LV2Units", "LV2Host", "LADSPAUnits", "LADSPAHost",
            "PlugInLoader", "CUIHost",
        ],
        path: "Sources/UnitHostChild"),
    /// The child process that shows one LV2 plug-in UI through suil (AUHostLV2UI.h), in C.
    .executableTarget(name: "auhost-ui-host", dependencies: ["CUIHost"], path: "Sources/UIHostChild", cSettings: cSettings),
    /// The crash-isolating child of the LV2 sweep.
    .executableTarget(
        name: "lv2-sweep-child", dependencies: ["LV2Host", "LV2Units", "LADSPAHost", "AUHost"], path: "Sources/LV2SweepChild"),
]

// MARK: - Tests: support targets, fuzzing, then the test targets

let testSupport: [Target] = [
    .target(name: "TestSupport", dependencies: ["AUHost", "CJACK", "CAUHostAtomics", "ALSATestSupport"], path: "Tests/TestSupport"),
    .target(name: "ALSATestSupport", dependencies: ["CALSA", "CLazyLibraries"], path: "Tests/ALSATestSupport"),
    /// A sine fitted to measured samples (amplitude, THD+N), and a test of this binary run in a child
    /// process, for the DSP and codec tests.
    .target(name: "SignalTestSupport", path: "Tests/SignalTestSupport"),
    .target(
        name: "CodecTestSupport", dependencies: ["AudioConverterServices", "AudioToolbox", "SignalTestSupport"],
        path: "Tests/CodecTestSupport"),
    /// Deterministic room signals for the voice-processing bars (C, optimised even in debug builds:
    /// a test-only target, never part of a product, so its unsafe flag never reaches a dependent).
    .target(name: "RoomSimulation", path: "Tests/RoomSimulation", cSettings: [.unsafeFlags(["-O2"])]),
    .target(name: "VoiceTestSupport", dependencies: ["RoomSimulation"], path: "Tests/VoiceTestSupport"),
    /// The C host listing's gain unit (Tests/CHost/gain_unit.c): a minimal unit written in C to the plug-in interface.
    .target(
        name: "CGainUnit", dependencies: ["CAudioToolbox"], path: "Tests/CHost", exclude: ["host.c", "cstd_headers.c"],
        sources: ["gain_unit.c", "tempo_probe_unit.c"], cSettings: cSettings),
    // Fuzzing (docs/RELIABILITY.md): harness functions, the libFuzzer driver (scripts/fuzz.sh builds
    // it with -sanitize=fuzzer,address), and the replay of every seed and crash in the test run.
    .target(
        name: "FuzzHarnesses",
        dependencies: [
            "GraphFileFormat", "ExtAudioFile", "AudioFiles", "AudioTypes", "AUHost", "CAUHostAtomics", "AudioFileStreamServices",
            "AudioConverterServices", "UnitIsolation", "LV2Host", "LV2Units", "LADSPAHost", "MusicPlayerServices", "CUIHost",
        ],
        path: "Tests/Fuzz/Harnesses"),
    /// The LADSPA tests' float reference host: dlopen, instantiate, run; nothing else (C).
    .executableTarget(name: "ladspa-reference-host", path: "Tests/LADSPAReferenceHost", linkerSettings: [.linkedLibrary("dl")]),
    .executableTarget(name: "auhost-fuzz", dependencies: ["FuzzHarnesses"], path: "Tests/Fuzz/Driver"),
]

let tests: [Target] = [
    .testTarget(name: "AudioTypesTests", dependencies: ["AudioTypes"]),
    .testTarget(name: "DSPKernelsTests", dependencies: ["DSPKernels", "SignalTestSupport"]),
    .testTarget(name: "AudioFilesTests", dependencies: ["AudioFiles", "DSPKernels"]),
    .testTarget(name: "ALSADeviceTests", dependencies: ["ALSADevice", "ALSATestSupport"], resources: [.copy("Fixtures")]),
    .testTarget(name: "LV2HostTests", dependencies: ["LV2Host", "lv2-sweep-child"], exclude: ["Fixtures"]),
    .testTarget(name: "AUHostCoreTests", dependencies: ["AUHost", "TestSupport"]),
    .testTarget(name: "ProcessingGraphTests", dependencies: ["AUHost", "TestSupport", "CGainUnit"]),
    .testTarget(name: "ExtAudioFileTests", dependencies: ["ExtAudioFile", "AudioFiles"]),
    .testTarget(name: "BuiltInUnitsTests", dependencies: ["AUHost", "TestSupport", "ExtAudioFile", "DSPKernels", "CSoxr"]),
    .testTarget(name: "VoiceProcessingTests", dependencies: ["VoiceProcessing", "AUHost", "TestSupport", "VoiceTestSupport"]),
    .testTarget(
        name: "ALSAIOUnitTests", dependencies: ["AUHost", "TestSupport", "ALSATestSupport", "CSoxr", "VoiceTestSupport"],
        resources: [.copy("Fixtures")]),
    .testTarget(
        name: "LADSPAUnitsTests",
        dependencies: [
            "LADSPAUnits", "LADSPAHost", "CLADSPA", "AUHost", "lv2-sweep-child", "auhost", "auhost-unit-host", "ladspa-reference-host",
        ]),
    .testTarget(name: "LV2UnitsTests", dependencies: ["LV2Units", "AUHost", "TestSupport", "CAUHostFloatMode", "lv2-sweep-child"]),
    .testTarget(
        name: "LV2UITests",
        dependencies: ["LV2Units", "LV2Host", "TestSupport", "ALSATestSupport", "auhost-ui-host", "auhost", "auhost-unit-host"],
        exclude: ["Fixtures"]),
    .testTarget(name: "PlugInLoaderTests", dependencies: ["AUHost", "PlugInLoader", "LV2Units", "LV2Host"], exclude: ["Fixtures"]),
    .testTarget(
        name: "UnitIsolationTests",
        dependencies: ["AUHost", "UnitIsolation", "TestSupport", "auhost-unit-host", "LV2Units", "PlugInLoader"],
        exclude: ["Fixtures"]),
    .testTarget(
        name: "MusicPlayerServicesTests",
        dependencies: [
            "AUHost", "PlugInLoader", "TestSupport", "JACKMIDIInput", "CJACK", "ALSATestSupport", "CAUHostAtomics", "CGainUnit",
        ],
        resources: [.copy("Fixtures")]),
    .testTarget(
        name: "JACKIOUnitTests", dependencies: ["AUHost", "JACKIOUnit", "CJACK", "CAUHostAtomics", "ALSATestSupport", "TestSupport"]),
    .testTarget(
        name: "AudioQueueTests", dependencies: ["AUHost", "AudioQueueServices", "ALSATestSupport"], resources: [.copy("Fixtures")]),
    .testTarget(
        name: "AudioSessionServicesTests",
        dependencies: ["AUHost", "AudioSessionServices", "ALSATestSupport", "AudioToolbox", "AudioTypes"]),
    .testTarget(
        name: "CoreMIDITests",
        dependencies: [
            "CoreMIDI", "CoreMIDIServices", "CoreMIDIJACK", "AUHost", "TestSupport", "CJACK", "ALSATestSupport", "CAUHostAtomics",
        ]),
    .testTarget(name: "AudioFormatServicesTests", dependencies: ["AUHost", "AudioFormatServices", "AudioToolbox", "AudioTypes"]),
    .testTarget(
        name: "SystemSoundServicesTests", dependencies: ["AUHost", "SystemSoundServices", "ALSATestSupport", "AudioTypes"],
        resources: [.copy("Fixtures")]),
    .testTarget(
        name: "AudioFileStreamServicesTests",
        dependencies: [
            "AudioFileStreamServices", "AudioConverterServices", "AudioFormatServices", "AudioToolbox", "AudioTypes", "CCodecs",
            "CodecTestSupport",
        ]),
    .testTarget(name: "AudioConverterServicesTests", dependencies: ["AudioConverterServices", "AudioToolbox", "CodecTestSupport"]),
    .testTarget(name: "PortedAPITests", dependencies: ["AudioToolbox", "AUHost", "TestSupport"]),
    /// Swift written from Apple's documents and samples exactly as on Apple's platforms: the corpus
    /// files import only AudioToolbox and Foundation (AUHost is linked for its providers, as the
    /// shipped `AudioToolbox` product links them; CorpusTests checks the imports).
    .testTarget(name: "AppleSwiftCorpusTests", dependencies: ["AudioToolbox", "AUHost"], path: "Tests/AppleSwiftCorpus"),
    /// Swift written after Apple's AVFAudio documentation (the corpus files import only AVFAudio and
    /// Foundation; AVFAudioCorpusTests checks the imports and the samples).
    .testTarget(name: "AVFAudioTests", dependencies: ["AVFAudio", "CALSA", "TestSupport", "ALSATestSupport"]),
    .testTarget(name: "AVFAudioCorpusTests", dependencies: ["AVFAudio", "AVFoundation"], path: "Tests/AVFAudioCorpus"),
    .testTarget(name: "FuzzReplayTests", dependencies: ["FuzzHarnesses", "AUHost"], path: "Tests/Fuzz/ReplayTests"),
    .testTarget(name: "auhostTests", dependencies: ["auhost", "TestSupport", "ALSATestSupport"]),
]

// MARK: - The package

let package = Package(
    name: "AUHost",
    products: [
        /// `import AudioToolbox` for ported code (C API) plus every provider, linked in.
        .library(name: "AudioToolbox", targets: ["AudioToolbox", "AUHost"]),
        /// `import CoreMIDI`: Core MIDI with its JACK MIDI backend (links libjack).
        .library(name: "CoreMIDI", targets: ["CoreMIDI", "CoreMIDIServices", "CoreMIDIJACK"]),
        /// `import AVFAudio` (and `import AVFoundation` for audio): AVAudioEngine and its classes.
        .library(name: "AVFAudio", targets: ["AVFAudio", "AVFoundation"]),
        /// The shared library `make install` ships for C hosts (libauhost-capi.so, linked as -lauhost).
        .library(name: "auhost-capi", type: .dynamic, targets: ["AudioToolbox", "AUHost"]),
        /// The command-line tool.
        .executable(name: "auhost", targets: ["auhost"]),
        /// The child process of out-of-process units (AUHostIsolation.h); `make install` puts it in PREFIX/libexec/auhost.
        .executable(name: "auhost-unit-host", targets: ["auhost-unit-host"]),
        /// The child process that shows LV2 plug-in UIs (AUHostLV2UI.h); installed beside auhost-unit-host.
        .executable(name: "auhost-ui-host", targets: ["auhost-ui-host"]),
        /// The unit model and the plug-in ABI header, compiled into every SDK plug-in (SDK/Package.swift).
        .library(name: "AUHostUnitModel", targets: ["AudioUnitBase", "AUHostPlugInABI"]),
        /// LV2 plug-ins as units, with the lilv layer under them (benchmarks compare the two).
        .library(name: "LV2Units", targets: ["LV2Units", "LV2Host"]),
        /// The JACK I/O unit for Swift programs (links libjack; `JACKProvider.installOnce()` registers it).
        .library(name: "JACKIOUnit", targets: ["JACKIOUnit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: cShims + appleAPIs + layers + providers + executables + testSupport + tests,
    swiftLanguageModes: [.v5]
)

// Every Swift target takes the package's Swift settings (C shims and C test targets have no Swift).
for target in appleAPIs + layers + providers + executables + testSupport + tests
where !["RoomSimulation", "CGainUnit", "auhost-ui-host"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
