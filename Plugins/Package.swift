// swift-tools-version: 6.1
// AUHost's own plug-ins, built against the SDK exactly as an author's would be: each is a shared
// object with a manifest (<Name>.auplugin.json) beside it. Build with ./build.sh (copies the
// manifests next to the .so files in .build/<config>, where AUHost finds them during development).
import PackageDescription

func plugIn(_ name: String) -> [Target] {
    [.target(name: name, dependencies: [.product(name: "AUHostSDK", package: "sdk")], exclude: ["\(name).auplugin.json"])]
}

let names = ["Gain", "Tremolo", "Saturator", "Chorus", "SineSynth"]

let package = Package(
    name: "AUHostPlugins",
    products: names.map { .library(name: $0, type: .dynamic, targets: [$0]) },
    dependencies: [.package(path: "../SDK")],
    targets: names.flatMap(plugIn),
    swiftLanguageModes: [.v5]
)
