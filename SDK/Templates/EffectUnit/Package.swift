// swift-tools-version: 6.1
// An AUHost plug-in: one effect unit, built as a shared object (libMyEffect.so) against the SDK.
// Copy this folder, rename MyEffect (see ../../README.md), then `make` and `make install-plugin`.
import PackageDescription

/// Where the AUHost SDK is: $AUHOST_SDK, or this template's place inside the AUHost checkout.
let sdk = Context.environment["AUHOST_SDK"] ?? "../.."

let package = Package(
    name: "MyEffect",
    products: [.library(name: "MyEffect", type: .dynamic, targets: ["MyEffect"])],
    dependencies: [.package(path: sdk)],
    targets: [
        .target(
            name: "MyEffect", dependencies: [.product(name: "AUHostSDK", package: "sdk")],
            exclude: ["MyEffect.auplugin.json"])
    ],
    swiftLanguageModes: [.v5]
)
