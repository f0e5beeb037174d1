/* ui:portMap: the plug-in's port symbols, passed by the host as `symbol=index` arguments. */
#include "ui_host_child.h"

#include <lv2/ui/ui.h>
#include <stdlib.h>
#include <string.h>

static char *const *pairs;
static int pair_count;

void port_symbols_set(char *const *arguments, int count) {
    pairs = arguments;
    pair_count = count;
}

uint32_t port_symbols_index(const char *symbol) {
    size_t length = strlen(symbol);
    for (int i = 0; i < pair_count; i++)
        if (!strncmp(pairs[i], symbol, length) && pairs[i][length] == '=') return (uint32_t)strtoul(pairs[i] + length + 1, NULL, 10);
    return LV2UI_INVALID_PORT_INDEX;
}
