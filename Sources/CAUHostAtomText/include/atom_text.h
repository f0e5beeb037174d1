/* An LV2 atom as one line of text and back: Turtle (sratom) with its line breaks and backslashes
   escaped, so that the URIDs inside are spelled as URIs and each side reads them back with its
   own map. The host (LV2Host) and the UI child (auhost-ui-host) both use it.
   Thread: any, one call at a time per map (sratom itself keeps no state between calls). */
#ifndef AUHOST_ATOM_TEXT_H
#define AUHOST_ATOM_TEXT_H

#include <stdint.h>
#include <lv2/atom/atom.h>
#include <lv2/urid/urid.h>

/* The largest atom (header and body) that crosses either way; larger ones are dropped. */
#define AUHOST_ATOM_TEXT_MAX_ATOM 65536u
/* The longest line auhost_atom_from_line reads (Turtle spells a number in up to ~4x its bytes). */
#define AUHOST_ATOM_TEXT_MAX_LINE (1024u * 1024u)

/* `atom` (whose body follows it) as an escaped line without a line break, malloc'd; NULL when
   it is larger than AUHOST_ATOM_TEXT_MAX_ATOM or cannot be written. */
char *auhost_atom_to_line(LV2_URID_Map *map, LV2_URID_Unmap *unmap, const LV2_Atom *atom);

/* The atom an escaped line describes, mapped with `map`, malloc'd (header and body); NULL for a
   line that is not one (garbage, too long, or an atom larger than AUHOST_ATOM_TEXT_MAX_ATOM). */
LV2_Atom *auhost_atom_from_line(LV2_URID_Map *map, const char *line);

/* free() for what the two functions return (Swift cannot call free on a C allocation portably). */
void auhost_atom_text_free(void *pointer);

#endif
