#!/bin/sh
# Builds AUHost's plug-ins (this package, against ../SDK) and puts each manifest beside its shared
# object, so that AUHost finds them in Plugins/.build/<config> during development.
# Usage: Plugins/build.sh [debug|release]          (default: debug)
#        Plugins/build.sh release --install DIR     (also copies .so + manifest into DIR,
#                                                    e.g. ~/.local/lib/auhost/plugins)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
config=${1:-debug}
swift build --package-path "$here" -c "$config" >&2
bin=$(swift build --package-path "$here" -c "$config" --show-bin-path)
for manifest in "$here"/Sources/*/*.auplugin.json; do
    cp "$manifest" "$bin/"
done
if [ "${2:-}" = "--install" ]; then
    dest=${3:?"--install needs a folder"}
    mkdir -p "$dest"
    for manifest in "$here"/Sources/*/*.auplugin.json; do
        name=$(basename "$manifest" .auplugin.json)
        cp "$bin/lib$name.so" "$manifest" "$dest/"
    done
fi
echo "$bin"
