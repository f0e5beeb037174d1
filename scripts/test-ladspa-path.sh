#!/usr/bin/env bash
# Prints a fixed LADSPA_PATH for the tests and the LADSPA sweep: one folder of links to the
# libraries of the Debian LADSPA packages the project installs (scripts/debian-packages.txt), so
# their verdict does not depend on what else is in /usr/lib/ladspa or ~/.ladspa. Rebuilt each call.
#
#   LADSPA_PATH=$(scripts/test-ladspa-path.sh) DSSI_PATH=$(scripts/test-ladspa-path.sh --dssi) swift test --filter LADSPA
#
# With --dssi it prints a DSSI_PATH instead: a folder with hexter (package hexter) and
# FluidSynth-DSSI (package fluidsynth-dssi, AVAudioUnitSampler's plug-in).
# Thread class: n/a (build tooling).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--dssi" ]; then
    out=${TEST_DSSI_DIR:-$PWD/.build/test-dssi}
    rm -rf "$out"
    mkdir -p "$out"
    for package in hexter fluidsynth-dssi; do
        dpkg -L "$package" | grep -E '^/usr/lib/dssi/[^/]+\.so$' | while read -r library; do ln -s "$library" "$out/$(basename "$library")"; done
    done
    echo "$out"
    exit 0
fi
packages=(cmt swh-plugins tap-plugins caps blop lsp-plugins-ladspa)
out=${TEST_LADSPA_DIR:-$PWD/.build/test-ladspa}
rm -rf "$out"
mkdir -p "$out"
for package in "${packages[@]}"; do
    # Libraries, and the data folders beside them (blop finds its wavetables, blop_files, on the path).
    dpkg -L "$package" | grep -E '^/usr/lib/ladspa/[^/]+$' | while read -r library; do
        ln -s "$library" "$out/$(basename "$library")"
    done
done
echo "$out"
