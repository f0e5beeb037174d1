#!/bin/sh
# Builds AUHost's plug-ins (this package, against ../SDK) and puts each manifest beside its shared
# object, so that AUHost finds them in Plugins/.build/<config> during development; beside them,
# in Plugins/.build/<config>/lv2, each plug-in's LV2 bundle (<Name>.lv2, SDK/Tools/make-lv2-bundle.sh).
# Usage: Plugins/build.sh [debug|release]          (default: debug)
#        Plugins/build.sh release --install DIR     (also copies .so + manifest into DIR,
#                                                    e.g. ~/.local/lib/auhost/plugins)
#        Plugins/build.sh release --install-lv2 DIR (also copies the bundles into DIR, e.g. ~/.lv2)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
config=${1:-debug}
swift build --package-path "$here" -c "$config" >&2
bin=$(swift build --package-path "$here" -c "$config" --show-bin-path)
for manifest in "$here"/Sources/*/*.auplugin.json; do
    cp "$manifest" "$bin/"
    "$here/../SDK/Tools/make-lv2-bundle.sh" "$bin" "$manifest" "$bin/lv2" >&2
done
if [ "${2:-}" = "--install-lv2" ]; then
    dest=${3:?"--install-lv2 needs a folder"}
    mkdir -p "$dest"
    for bundle in "$bin"/lv2/*.lv2; do
        rm -rf "$dest/$(basename "$bundle")"
        cp -r "$bundle" "$dest/"
    done
fi
if [ "${2:-}" = "--install" ]; then
    dest=${3:?"--install needs a folder"}
    mkdir -p "$dest"
    for manifest in "$here"/Sources/*/*.auplugin.json; do
        name=$(basename "$manifest" .auplugin.json)
        cp "$bin/lib$name.so" "$manifest" "$dest/"
    done
fi
echo "$bin"
