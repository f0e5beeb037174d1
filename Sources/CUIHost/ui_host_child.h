/* The LV2 UI host loop's parts (auhost_ui_host.h), driven over a socket by the host
   (LV2PluginUI in LV2Units): in `auhost-ui-host`, a process of its own, a UI that crashes takes
   only that process down; in `auhost-unit-host` (a UI needing the plug-in's instance), the unit's.

   Protocol, one line each way per message (numbers in C locale):
     host -> child   p INDEX VALUE        a control port's value (port_event, float protocol)
                     a INDEX ATOM         an event the plug-in wrote on atom output INDEX
                                          (port_event, atom:eventTransfer)
                     show | hide          the window (or the UI's show interface)
                     size W H             resize the top-level window
                     shot PATH            write the window's pixels to PATH as a PPM
                     quit                 close the UI and exit 0 (so does end of input)
     child -> host   window XID W H       the UI's widget is up (sent once, before ready)
                     ready                initial values may follow from the host
                     p INDEX VALUE        the UI wrote a control port
                     a INDEX ATOM         the UI wrote an atom to port INDEX (atom:eventTransfer;
                                          atom:atomTransfer is refused, as jalv does)
                     t INDEX 1|0          ui:touch: a gesture on the port began / ended
                     r KEY [TYPE]         ui:requestValue: the UI asks for a value of patch
                                          parameter KEY (a URI; TYPE a URI, or none) — only
                                          for a KEY in $AUHOST_UI_REQUESTS (space-separated
                                          URIs the host answers for; unset: unsupported)
                     shot ok | shot failed   the answer to shot
                     closed               the user closed the window (exit 0 follows)
                     error KIND TEXT      could not open; KIND is one of no-display,
                                          unsupported, load-failed (exit 2 follows)
   ATOM is the atom as Turtle on one line (CAUHostAtomText: sratom, line breaks and backslashes
   escaped): URIDs cross as URIs, since the child's map (urid_map.c) is not the host's. Atoms
   over 64 KiB are dropped by the sender; a line either side cannot read is ignored. Lines from
   the host are at most 1 MiB long; a longer one is dropped.
   Thread: the one thread running auhost_ui_host_run (X11 and the UI run on it). */
#ifndef UI_HOST_CHILD_H
#define UI_HOST_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <X11/Xlib.h>
#include <lv2/ui/ui.h>
#include <lv2/urid/urid.h>

/* Messages to the host, written to the protocol socket (never stdout: UIs print there). */
void protocol_open(int fd);
void protocol_send(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* urid:map / urid:unmap for the UI: a table of the UI's own (URIDs never cross to the host), or
   the plug-in's map when urid_map_use gave one (a UI in the plug-in's process; NULL: the table). */
LV2_URID_Map *urid_map_feature(void);
LV2_URID_Unmap *urid_unmap_feature(void);
void urid_map_use(LV2_URID_Map *map, LV2_URID_Unmap *unmap);

/* Port symbols as `symbol=index` arguments, for ui:portMap (kept, not copied: they outlive the UI). */
void port_symbols_set(char *const *arguments, int count);
uint32_t port_symbols_index(const char *symbol);

/* Writes `window`'s pixels to `path` as a binary PPM; false if it is not viewable or not written. */
bool screenshot_write(Display *display, Window window, const char *path);

/* A Gtk2 window holding a Gtk (or suil-wrapped Qt5) UI's widget; Gtk2 is dlopened by
   gtk_window_load, which answers NULL or why it cannot. gtk_window_open puts `widget` in a
   top-level titled `title`, or in `parent` when it is not 0, and answers the window's XID and
   size; gtk_window_iterate runs Gtk's pending events and answers false once the window was closed;
   gtk_window_close destroys the window (after the UI was freed). */
const char *gtk_window_load(void);
Window gtk_window_open(Window parent, const char *title, void *widget, unsigned *width, unsigned *height);
bool gtk_window_iterate(void);
void gtk_window_close(void);
void gtk_window_show(bool visible);
void gtk_window_resize(int width, int height);

/* An external UI (kx:Widget), loaded and instantiated by the child itself (suil does not know
   the kind) with `features` and the external-UI host feature; shown at once. external_ui_open
   answers NULL with the reason in `error`; external_ui_run runs the UI's own loop once and
   answers false once the user closed it; external_ui_find_window finds the top-level it made
   (one not among `before`, viewable), or 0. */
typedef struct ExternalUI ExternalUI;
ExternalUI *external_ui_open(const char *plugin_uri, const char *ui_uri, const char *bundle, const char *binary,
                             const char *title, LV2UI_Write_Function write, const LV2_Feature *const *features,
                             char *error, size_t error_size);
void external_ui_port_event(ExternalUI *ui, uint32_t port, uint32_t size, uint32_t protocol, const void *buffer);
void external_ui_show(ExternalUI *ui, bool visible);
bool external_ui_run(ExternalUI *ui);
void external_ui_close(ExternalUI *ui);
Window external_ui_find_window(Display *display, const Window *before, unsigned before_count);

#endif
