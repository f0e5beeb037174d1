// swift-tools-version: 6.1
// The AUHost SDK: write an Audio Unit in Swift, build it as a shared object, load it into AUHost.
// A plug-in never links the host: this package compiles the shared unit model (AudioTypes,
// AudioUnitBase) and the C ABI headers from the AUHost package into each plug-in. See README.md.
import PackageDescription

/// The AUHost package's identity is the name of the folder above this one (a clone may use any name).
let host = Context.packageDirectory.split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "auhost"

let package = Package(
    name: "AUHostSDK",
    products: [
        /// What a plug-in links: the kernel API, the unit model and the plug-in runtime.
        .library(name: "AUHostSDK", targets: ["AUHostSDK", "AUHostSDKRuntime"]),
        /// The kernel API alone, for running an SDK unit inside a host process (benchmarks, tests):
        /// the host already has the functions the runtime would forward.
        .library(name: "AUHostSDKInProcess", targets: ["AUHostSDK"]),
    ],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        /// The LV2 declarations (lv2-dev's headers) the LV2 export needs, and the Turtle generator's
        /// private extension (CLV2Export.h).
        .target(name: "CLV2Export"),
        /// Inside the plug-in: AudioUnitRender forwarded to the host's function table.
        .target(name: "AUHostSDKRuntime", dependencies: [.product(name: "AUHostUnitModel", package: host)]),
        /// Kernels, parameters, presets and the one-line export.
        .target(
            name: "AUHostSDK",
            dependencies: [.product(name: "AUHostUnitModel", package: host), "CLV2Export"],
            // Bind the plug-in's own copies of the unit model's symbols inside the plug-in, so that
            // nothing resolves to another image's copy of the same module. -z nodelete: a Swift
            // image registers its metadata with the runtime and cannot be unloaded, yet LV2 hosts
            // dlclose plug-ins (lilv does when a plug-in is freed); dlclose then leaves it in place.
            linkerSettings: [.unsafeFlags(["-Xlinker", "-Bsymbolic", "-Xlinker", "-z", "-Xlinker", "nodelete"])]
        ),
    ],
    swiftLanguageModes: [.v5]
)
