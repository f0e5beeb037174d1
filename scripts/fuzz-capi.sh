#!/bin/sh
# Fuzzes the C API harnesses (Tests/Fuzz/Harnesses: CAPIFuzz, RenderNotifyFuzz) with libFuzzer
# under AddressSanitizer, apart from the main build: a throw-away driver package in
# .build-fuzz-capi links the harness sources against the AUHost package and defines
# LLVMFuzzerTestOneInput. Corpus growth stays in .build-fuzz-capi/corpus/<harness> (libFuzzer's log
# in .build-fuzz-capi/logs/<harness>/fuzz-0.log); crashes go
# to Tests/Fuzz/Crashes/<harness>/ (keep them: the replay test runs them).
#
#   scripts/fuzz-capi.sh CAPIFuzz 60        # one harness for 60 s
#   scripts/fuzz-capi.sh all 60             # each harness for 60 s
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
harness=${1:-all}
seconds=${2:-60}
work="$root/.build-fuzz-capi"
driver="$work/driver"
mkdir -p "$driver/Sources/capi-fuzz" "$driver/Sources/notify-fuzz"
ln -sfn "$root/Tests/Fuzz/Harnesses" "$driver/Sources/FuzzHarnesses"
cat > "$driver/Package.swift" <<PKG
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "CAPIFuzzDriver",
    dependencies: [.package(path: "$root")],
    targets: [
        .target(name: "FuzzHarnesses", dependencies: [.product(name: "AudioToolbox", package: "$(basename "$root" | tr 'A-Z' 'a-z')")]),
        .executableTarget(name: "capi-fuzz", dependencies: ["FuzzHarnesses"]),
        .executableTarget(name: "notify-fuzz", dependencies: ["FuzzHarnesses"]),
    ],
    swiftLanguageModes: [.v5]
)
PKG
for pair in capi-fuzz:CAPIFuzz notify-fuzz:RenderNotifyFuzz; do
    target=${pair%%:*}; type=${pair##*:}
    cat > "$driver/Sources/$target/main.swift" <<SWIFT
import FuzzHarnesses
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    $type.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, { fuzzOneInput(\$0, \$1) }))
SWIFT
done
(cd "$driver" && swift build --scratch-path "$work/build" --sanitize=address -Xswiftc -sanitize=fuzzer)
LV2_PATH=$("$root/scripts/test-lv2-path.sh"); export LV2_PATH
run() {
    name=$1; binary=$2
    mkdir -p "$work/corpus/$name" "$root/Tests/Fuzz/Crashes/$name"
    cp -n "$root/Tests/Fuzz/Corpus/$name/"* "$work/corpus/$name/" 2>/dev/null || true
    mkdir -p "$work/logs/$name"
    (cd "$work/logs/$name" && "$work/build/debug/$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -jobs=1 \
        -artifact_prefix="$root/Tests/Fuzz/Crashes/$name/" "$work/corpus/$name")
}
case $harness in
    CAPIFuzz) run CAPIFuzz capi-fuzz ;;
    RenderNotifyFuzz) run RenderNotifyFuzz notify-fuzz ;;
    all) run CAPIFuzz capi-fuzz; run RenderNotifyFuzz notify-fuzz ;;
    *) echo "usage: $0 CAPIFuzz|RenderNotifyFuzz|all [seconds]" >&2; exit 2 ;;
esac
