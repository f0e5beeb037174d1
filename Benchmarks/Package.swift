// swift-tools-version: 6.1
// AUHost benchmarks (ordo-one/benchmark): `make bench` or `swift package benchmark` here.
// Allocation counts come from the MallocInterposer trait; a render cycle's goal is 0.
import PackageDescription

/// The root package's identity is its folder's name (a CI clone may use any name).
let root = Context.packageDirectory.split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "auhost"

let package = Package(
    name: "AUHostBenchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(path: "../SDK"),
    ],
    targets: [
        .executableTarget(
            name: "RenderCycle",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AudioToolbox", package: root),
            ],
            path: "Benchmarks/RenderCycle",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LV2Overhead",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AudioToolbox", package: root),
                .product(name: "LV2Units", package: root),
            ],
            path: "Benchmarks/LV2Overhead",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PlugInOverhead",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AudioToolbox", package: root),
                .product(name: "AUHostSDKInProcess", package: "sdk"),
            ],
            path: "Benchmarks/PlugInOverhead",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "GraphOverhead",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AudioToolbox", package: root),
            ],
            path: "Benchmarks/GraphOverhead",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "BuiltInUnitsRender",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AudioToolbox", package: root),
            ],
            path: "Benchmarks/BuiltInUnitsRender",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v5]
)
