#!/bin/sh
# Builds the LV2 UI fixture bundle for LV2UITests into OUTDIR (default: a temp dir) and prints
# OUTDIR: a gain plug-in with a plain X11 UI, an X11 UI that segfaults when clicked, the same bar
# as a Gtk2 UI, a Gtk3 UI (declared only) that the host cannot show, and a level set only through
# atoms with two X11 UIs (ui_fixture_atom.c). Thread class: n/a (build tooling).
# Usage: scripts/build-lv2-ui-fixtures.sh [OUTDIR]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
fixtures="$here/Tests/LV2UITests/Fixtures"
out=${1:-$(mktemp -d /tmp/lv2-ui-fixtures-XXXXXX)}
mkdir -p "$out"
cp -R "$fixtures/auhost-ui.lv2" "$out/"
cc -shared -fPIC -O1 -Wall -Werror -o "$out/auhost-ui.lv2/ui_fixture_plugin.so" "$fixtures/ui_fixture_plugin.c"
cc -shared -fPIC -O1 -Wall -Werror -o "$out/auhost-ui.lv2/ui_fixture_x11.so" "$fixtures/ui_fixture_x11.c" -lX11
cc -shared -fPIC -O1 -Wall -Werror -o "$out/auhost-ui.lv2/ui_fixture_atom.so" "$fixtures/ui_fixture_atom.c" -lX11
cc -shared -fPIC -O1 -Wall -Werror -o "$out/auhost-ui.lv2/ui_fixture_gtk.so" "$fixtures/ui_fixture_gtk.c" \
    -Wno-deprecated-declarations $(pkg-config --cflags --libs gtk+-2.0) # Gtk2's own headers use what GLib deprecated
echo "$out"
