#!/usr/bin/env bash
# Prints a fixed LV2_PATH for the test suite: one folder of links to the bundles of the Debian LV2
# packages the project installs (scripts/debian-packages.txt), so the suite's verdict does not
# depend on what else is installed in /usr/lib/lv2 or ~/.lv2. The folder is rebuilt each call.
#
#   LV2_PATH=$(scripts/test-lv2-path.sh) swift test
#
# Thread class: n/a (build tooling).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(lv2-dev lv2-examples swh-lv2 mda-lv2 zam-plugins)
out=${TEST_LV2_DIR:-$PWD/.build/test-lv2}
rm -rf "$out"
mkdir -p "$out"
for package in "${packages[@]}"; do
    dpkg -L "$package" | grep -E '/lv2/[^/]+\.lv2$' | while read -r bundle; do
        ln -s "$bundle" "$out/$(basename "$bundle")"
    done
done
echo "$out"
