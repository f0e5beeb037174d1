/*
 * auhost-lv2-turtle — the build step that turns a built SDK plug-in into an LV2 bundle's Turtle,
 * as DPF's lv2_ttl_generator does: it opens the binary, asks lv2_descriptor(0) for the SDK's
 * private generator extension (CLV2Export.h) and lets the unit describe itself.
 *
 *   auhost-lv2-turtle PLUGIN.so MANIFEST.auplugin.json BUNDLE_DIR
 *
 * writes BUNDLE_DIR/manifest.ttl, <Name>.ttl and presets.ttl (when the unit has factory presets)
 * for a binary named like PLUGIN.so inside BUNDLE_DIR. Exit status 0 on success, 1 with a
 * sentence on standard error otherwise. Thread class: n/a (a build tool).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "CLV2Export.h"

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s PLUGIN.so MANIFEST.auplugin.json BUNDLE_DIR\n", argv[0]);
        return 1;
    }
    void *image = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (image == NULL) {
        fprintf(stderr, "auhost-lv2-turtle: cannot load %s: %s\n", argv[1], dlerror());
        return 1;
    }
    LV2_Descriptor_Function entry = (LV2_Descriptor_Function)dlsym(image, "lv2_descriptor");
    if (entry == NULL) {
        fprintf(stderr,
                "auhost-lv2-turtle: %s exports no lv2_descriptor; add the exportLV2 line beside the "
                "unit's factory (SDK/README.md, \"LV2\")\n", argv[1]);
        return 1;
    }
    const LV2_Descriptor *descriptor = entry(0);
    const AUHostLV2TurtleGenerator *generator =
        descriptor ? (const AUHostLV2TurtleGenerator *)descriptor->extension_data(AUHOST_LV2_TURTLE_GENERATOR_URI) : NULL;
    if (generator == NULL || generator->writeBundle == NULL) {
        fprintf(stderr, "auhost-lv2-turtle: %s is not an AUHost SDK plug-in (no Turtle generator)\n", argv[1]);
        return 1;
    }
    const char *slash = strrchr(argv[1], '/');
    char error[512] = "";
    if (generator->writeBundle(argv[2], argv[3], slash ? slash + 1 : argv[1], error, sizeof error) != 0) {
        fprintf(stderr, "auhost-lv2-turtle: %s\n", error);
        return 1;
    }
    return 0;
}
