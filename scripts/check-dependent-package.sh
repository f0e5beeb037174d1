#!/usr/bin/env bash
# Builds and runs a package that depends on this one the way the README invites users to: by
# URL and version (a tagged clone of HEAD, by file URL), so SwiftPM applies its rules for remote
# dependencies (no unsafeFlags; warning settings dropped). Thread class: n/a (build tooling).
#   scripts/check-dependent-package.sh [SCRATCH]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d /tmp/auhost-dependent.XXXXXX)}
version=$(sed -n 's/^VERSION := //p' "$here/Makefile")
rm -rf "$work/auhost.git" "$work/app"
git clone -q --no-hardlinks "$here" "$work/auhost.git"
git -C "$work/auhost.git" tag -f "$version" HEAD >/dev/null
mkdir -p "$work/app"
cp -R "$here/Tests/DependentPackage/Sources" "$work/app/"
cat >"$work/app/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "DependentCheck",
    dependencies: [.package(url: "file://$work/auhost.git", from: "$version")],
    targets: [.executableTarget(name: "dependent-check", dependencies: [.product(name: "AudioToolbox", package: "auhost")])],
    swiftLanguageModes: [.v5])
MANIFEST
cd "$work/app"
# The dependency's warnings are shown (SwiftPM drops its warnings-as-errors setting here).
swift build >build.log 2>&1 || { tail -30 build.log; exit 1; }
grep -E "warning:|error:" build.log | sort -u || true
tail -1 build.log
swift run --skip-build dependent-check
