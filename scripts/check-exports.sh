#!/usr/bin/env bash
# Checks that every function the installed headers (AudioToolbox, CoreMIDI) declare is a defined dynamic symbol of the
# shipped library (CoreFoundation functions: of the toolchain's libFoundation, which auhost.pc
# links). Prints each missing function and fails when any is missing.
#
#   scripts/check-exports.sh PREFIX        (an install made by `make install PREFIX=...`)
#
# Thread class: n/a (build tooling).
set -euo pipefail
prefix=$1
headers="$prefix/include/AudioToolbox"
library="$prefix/lib/libauhost-capi.so"
foundation="$(pkg-config --variable=swiftlibdir "$prefix/lib/pkgconfig/auhost.pc")/libFoundation.so"
clang=${CLANG:-clang}

# Functions declared (not defined inline) in the installed headers, from clang's AST.
declared=$(mktemp)
defined=$(mktemp)
trap 'rm -f "$declared" "$defined"' EXIT
printf '#include <AudioToolbox/AudioToolbox.h>\n#include <CoreMIDI/CoreMIDI.h>\n' \
  | "$clang" -x c -std=c17 -fsyntax-only -Xclang -ast-dump=json -I "$prefix/include" - \
  | python3 -c '
import json, sys
root = json.load(sys.stdin)
names, file = set(), ""
for node in root.get("inner", []):
    loc = node.get("loc", {})
    file = loc.get("file", file)          # clang names the file only when it changes
    if node.get("kind") != "FunctionDecl" or not ("/AudioToolbox/" in file or "/CoreMIDI/" in file):
        continue
    if node.get("storageClass") == "static" or node.get("inline") or node.get("isImplicit"):
        continue
    names.add(node["name"])
print("\n".join(sorted(names)))' > "$declared"

{ nm -D --defined-only "$library"; nm -D --defined-only "$foundation"; } | awk '$2 ~ /^[TW]$/ {print $3}' | sort -u > "$defined"
missing=$(comm -23 "$declared" "$defined")
echo "exported-symbol check ($library): $(wc -l < "$declared") functions declared, $(echo -n "$missing" | grep -c . || true) missing"
if [ -n "$missing" ]; then
    echo "$missing" | sed 's/^/  missing: /'
    exit 1
fi
