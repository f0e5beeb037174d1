/* See include/atom_text.h. The subject and predicate name the one statement a line holds. */
#include "atom_text.h"

#include <sratom/sratom.h>
#include <stdlib.h>
#include <string.h>

#define SUBJECT "urn:auhost:ui"
#define PREDICATE "urn:auhost:ui#atom"
/* atom:Path values are written relative to this, so absolute paths stay absolute. */
#define BASE "file:///"

char *auhost_atom_to_line(LV2_URID_Map *map, LV2_URID_Unmap *unmap, const LV2_Atom *atom) {
    if (!atom || atom->size > AUHOST_ATOM_TEXT_MAX_ATOM - sizeof(LV2_Atom)) return NULL;
    Sratom *sratom = sratom_new(map);
    if (!sratom) return NULL;
    SerdNode subject = serd_node_from_string(SERD_URI, (const uint8_t *)SUBJECT);
    SerdNode predicate = serd_node_from_string(SERD_URI, (const uint8_t *)PREDICATE);
    char *turtle = sratom_to_turtle(sratom, unmap, BASE, &subject, &predicate, atom->type, atom->size, atom + 1);
    sratom_free(sratom);
    if (!turtle) return NULL;
    size_t length = strlen(turtle), extra = 0;
    for (size_t i = 0; i < length; i++) extra += turtle[i] == '\n' || turtle[i] == '\r' || turtle[i] == '\\';
    char *line = malloc(length + extra + 1);
    if (line) {
        char *w = line;
        for (size_t i = 0; i < length; i++) {
            char c = turtle[i];
            if (c == '\n' || c == '\r' || c == '\\') {
                *w++ = '\\';
                *w++ = c == '\n' ? 'n' : c == '\r' ? 'r' : '\\';
            } else {
                *w++ = c;
            }
        }
        *w = 0;
    }
    free(turtle);
    return line;
}

LV2_Atom *auhost_atom_from_line(LV2_URID_Map *map, const char *line) {
    if (!line) return NULL;
    size_t length = strnlen(line, AUHOST_ATOM_TEXT_MAX_LINE + 1);
    if (length == 0 || length > AUHOST_ATOM_TEXT_MAX_LINE) return NULL;
    char *turtle = malloc(length + 1);
    if (!turtle) return NULL;
    char *w = turtle;
    for (size_t i = 0; i < length; i++) {
        if (line[i] != '\\') {
            *w++ = line[i];
            continue;
        }
        char next = line[++i];
        if (next == 'n') *w++ = '\n';
        else if (next == 'r') *w++ = '\r';
        else if (next == '\\') *w++ = '\\';
        else {
            free(turtle); /* an escape no sender writes: not a line of ours */
            return NULL;
        }
    }
    *w = 0;
    LV2_Atom *atom = NULL;
    Sratom *sratom = sratom_new(map);
    if (sratom) {
        SerdNode subject = serd_node_from_string(SERD_URI, (const uint8_t *)SUBJECT);
        SerdNode predicate = serd_node_from_string(SERD_URI, (const uint8_t *)PREDICATE);
        atom = sratom_from_turtle(sratom, BASE, &subject, &predicate, turtle);
        sratom_free(sratom);
    }
    free(turtle);
    if (atom && atom->size > AUHOST_ATOM_TEXT_MAX_ATOM - sizeof(LV2_Atom)) {
        free(atom);
        atom = NULL;
    }
    return atom;
}

void auhost_atom_text_free(void *pointer) { free(pointer); }
