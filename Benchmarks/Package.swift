// swift-tools-version: 6.1
// AUHost benchmarks (ordo-one/benchmark): `make bench` or `swift package benchmark` here.
// Allocation counts come from the MallocInterposer trait; a render cycle's goal is 0.
import PackageDescription

/// The root package's identity is its folder's name (a CI clone may use any name).
let root = Context.packageDirectory.split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "auhost"

/// A benchmark executable in Benchmarks/NAME, on the benchmark package and the host's products.
func benchmark(_ name: String, _ extra: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "Benchmark", package: "benchmark"),
            .product(name: "AudioToolbox", package: root),
        ] + extra,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "AUHostBenchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(path: "../SDK"),
    ],
    targets: [
        benchmark("RenderCycle"),
        benchmark("LV2Overhead", [.product(name: "LV2Units", package: root)]),
        benchmark("PlugInOverhead", [.product(name: "AUHostSDKInProcess", package: "sdk")]),
        benchmark("GraphOverhead"),
        benchmark("BuiltInUnitsRender"),
        benchmark("VoiceProcessingRender"),
        benchmark("AudioQueueRender"),
        benchmark("ParallelGraph"),
        benchmark("IsolatedUnit", [.product(name: "LV2Units", package: root)]),
        benchmark("AVAudioEngineRender", [.product(name: "AVFAudio", package: root)]),
    ],
    swiftLanguageModes: [.v5]
)
