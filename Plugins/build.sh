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
# Copies file or bundle $1 into folder $2 under a temporary name, then renames it into place: a
# host reading the folder meanwhile (an out-of-process unit restarting, say) finds the old file
# or the new one, never half of one, and a process with the old library mapped keeps it intact
# (cp onto it would rewrite it in place).
place() {
    name=$(basename "$1")
    rm -rf "$2/.$name.new"
    cp -r "$1" "$2/.$name.new"
    if [ -d "$2/$name" ]; then rm -rf "$2/$name"; fi
    mv -f "$2/.$name.new" "$2/$name"
}
config=${1:-debug}
swift build --package-path "$here" -c "$config" >&2
bin=$(swift build --package-path "$here" -c "$config" --show-bin-path)
for manifest in "$here"/Sources/*/*.auplugin.json; do
    place "$manifest" "$bin"
    "$here/../SDK/Tools/make-lv2-bundle.sh" "$bin" "$manifest" "$bin/lv2" >&2
done
if [ "${2:-}" = "--install-lv2" ]; then
    dest=${3:?"--install-lv2 needs a folder"}
    mkdir -p "$dest"
    for bundle in "$bin"/lv2/*.lv2; do place "$bundle" "$dest"; done
fi
if [ "${2:-}" = "--install" ]; then
    dest=${3:?"--install needs a folder"}
    mkdir -p "$dest"
    for manifest in "$here"/Sources/*/*.auplugin.json; do
        name=$(basename "$manifest" .auplugin.json)
        place "$bin/lib$name.so" "$dest"
        place "$manifest" "$dest"
    done
fi
echo "$bin"
