#!/bin/sh
# Builds the broken LV2 fixture bundles for LV2HostTests into OUTDIR (default: a temp dir) and
# prints OUTDIR. Usage: scripts/build-lv2-fixtures.sh [OUTDIR]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
fixtures="$here/Tests/LV2HostTests/Fixtures"
out=${1:-$(mktemp -d /tmp/lv2-fixtures-XXXXXX)}
mkdir -p "$out"
cp -R "$fixtures/auhost-broken.lv2" "$out/"
cc -shared -fPIC -O1 -o "$out/auhost-broken.lv2/broken.so" "$fixtures/broken_plugins.c" -lm
cc -shared -fPIC -O1 -Wall -Werror -o "$out/auhost-broken.lv2/patch_reporter.so" "$fixtures/patch_reporter.c" -lm
cc -shared -fPIC -O1 -Wall -Werror -o "$out/auhost-broken.lv2/tempo_reporter.so" "$fixtures/tempo_reporter.c"
echo "$out"
