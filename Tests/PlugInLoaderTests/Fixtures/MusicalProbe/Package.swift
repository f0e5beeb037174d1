// swift-tools-version: 6.1
// A test fixture built against the SDK like any plug-in (MusicalTimeTests builds it): an effect
// whose kernel writes the musical context it reads into its output channels.
import PackageDescription

/// Where the AUHost SDK is: $AUHOST_SDK, or its place in this checkout.
let sdk = Context.environment["AUHOST_SDK"] ?? "../../../../SDK"

let package = Package(
    name: "MusicalProbe",
    products: [.library(name: "MusicalProbe", type: .dynamic, targets: ["MusicalProbe"])],
    dependencies: [.package(path: sdk)],
    targets: [
        .target(
            name: "MusicalProbe", dependencies: [.product(name: "AUHostSDK", package: "sdk")],
            exclude: ["MusicalProbe.auplugin.json"])
    ],
    swiftLanguageModes: [.v5]
)
