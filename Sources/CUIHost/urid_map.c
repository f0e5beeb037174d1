/* urid:map and urid:unmap for the UI: a growing table of URIs (the UI thread is the only caller),
   or the plug-in's own map for a UI in the plug-in's process. */
#include "ui_host_child.h"

#include <stdlib.h>
#include <string.h>

static char **uris;
static uint32_t count, capacity;

static LV2_URID map(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    for (uint32_t i = 0; i < count; i++)
        if (!strcmp(uris[i], uri)) return i + 1;
    if (count == capacity) {
        uint32_t grown = capacity ? capacity * 2 : 64;
        char **bigger = realloc(uris, grown * sizeof *uris);
        if (!bigger) return 0;
        uris = bigger;
        capacity = grown;
    }
    uris[count] = strdup(uri);
    return uris[count] ? ++count : 0;
}

static const char *unmap(LV2_URID_Unmap_Handle handle, LV2_URID urid) {
    (void)handle;
    return urid >= 1 && urid <= count ? uris[urid - 1] : NULL;
}

static LV2_URID_Map map_feature = {NULL, map};
static LV2_URID_Unmap unmap_feature = {NULL, unmap};

static LV2_URID_Map *plugin_map;
static LV2_URID_Unmap *plugin_unmap;

void urid_map_use(LV2_URID_Map *map, LV2_URID_Unmap *unmap) {
    plugin_map = map && unmap ? map : NULL;
    plugin_unmap = map && unmap ? unmap : NULL;
}

LV2_URID_Map *urid_map_feature(void) { return plugin_map ? plugin_map : &map_feature; }
LV2_URID_Unmap *urid_unmap_feature(void) { return plugin_unmap ? plugin_unmap : &unmap_feature; }
