#!/bin/sh
# Makes the LV2 bundle of a built SDK plug-in: <OUT>/<Name>.lv2/ with the binary, manifest.ttl,
# <Name>.ttl and presets.ttl (when the unit has factory presets), the Turtle written by asking the
# binary itself (auhost-lv2-turtle, compiled here on first use into the build folder).
# Usage: SDK/Tools/make-lv2-bundle.sh BUILD_DIR MANIFEST.auplugin.json OUT_DIR
#   BUILD_DIR  where `swift build` put lib<Name>.so (swift build --show-bin-path)
#   OUT_DIR    the folder that receives <Name>.lv2 (an LV2_PATH entry; ~/.lv2 installs it)
# Prints the bundle's path. The binary keeps the RUNPATH SwiftPM gives it (the toolchain's
# lib/swift/linux, then $ORIGIN): see SDK/README.md, "LV2", for why.
set -eu
tools=$(cd "$(dirname "$0")" && pwd)
bin=${1:?"needs the build folder"}
manifest=${2:?"needs the plug-in's manifest"}
out=${3:?"needs the folder for the bundle"}
name=$(basename "$manifest" .auplugin.json)
[ -f "$bin/lib$name.so" ] || { echo "make-lv2-bundle: $bin/lib$name.so is missing; build the plug-in first" >&2; exit 1; }
generator="$bin/auhost-lv2-turtle"
if [ ! -x "$generator" ] || [ "$tools/auhost-lv2-turtle.c" -nt "$generator" ]; then
    ${CC:-cc} -std=c17 -Wall -Werror -I"$tools/../Sources/CLV2Export/include" "$tools/auhost-lv2-turtle.c" \
        -o "$generator" -ldl
fi
bundle="$out/$name.lv2"
staged="$out/.$name.lv2.partial"
rm -rf "$staged"
mkdir -p "$staged"
cp "$bin/lib$name.so" "$staged/"
"$generator" "$staged/lib$name.so" "$manifest" "$staged"
rm -rf "$bundle"
mv "$staged" "$bundle"
echo "$bundle"
