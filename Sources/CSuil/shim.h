/* suil wraps an LV2 UI of any toolkit for a host's container (its toolkit modules are loaded at run
   time, so nothing here links Gtk or Qt). Only the UI child (auhost-ui-host) uses it. */
#include <suil/suil.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <lv2/ui/ui.h>
#include <lv2/urid/urid.h>
#include <lv2/instance-access/instance-access.h>
#include <lv2/data-access/data-access.h>
