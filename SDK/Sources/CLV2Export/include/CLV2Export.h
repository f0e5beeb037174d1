/*
 * CLV2Export.h — the LV2 declarations an SDK plug-in needs to be an LV2 plug-in too (taken from
 * lv2-dev's headers, not copied), and the SDK's one private extension: the Turtle generator.
 *
 * The generator is reached the way JUCE 7 reaches its own: lv2_descriptor(0)->extension_data(
 * AUHOST_LV2_TURTLE_GENERATOR_URI), so the binary exports nothing but lv2_descriptor (and the
 * Audio Unit factory it always had). SDK/Tools/auhost-lv2-turtle.c is the build step that asks.
 */
#ifndef AUHOST_CLV2_EXPORT_H
#define AUHOST_CLV2_EXPORT_H

#include <stdint.h>
#include <lv2/core/lv2.h>
#include <lv2/urid/urid.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/options/options.h>
#include <lv2/state/state.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The private extension's URI (never listed in the Turtle: only the build step asks for it). */
#define AUHOST_LV2_TURTLE_GENERATOR_URI "urn:auhost:lv2:turtle-generator"

/* [setup] Writes the bundle's Turtle (manifest.ttl, <name>.ttl, presets.ttl when the unit has
   factory presets) into bundleDir, describing the binary binaryName (a file name inside the
   bundle), with the name and version the plug-in's manifest (manifestPath, <Name>.auplugin.json)
   gives. Returns 0 on success, else writes a sentence into error (NUL-terminated, at most
   errorSize bytes) and returns non-zero. */
typedef struct AUHostLV2TurtleGenerator {
    int (*writeBundle)(const char *manifestPath, const char *bundleDir, const char *binaryName,
                       char *error, uint32_t errorSize);
} AUHostLV2TurtleGenerator;

/* [render] The body of an atom event (the bytes after its header), for Swift. */
static inline const uint8_t *auhost_lv2_event_body(const LV2_Atom_Event *event) {
    return (const uint8_t *)(event + 1);
}

#ifdef __cplusplus
}
#endif

#endif
