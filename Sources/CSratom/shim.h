/* sratom (atoms to and from Turtle), which lilv already links: how atoms cross between the host
   and the LV2 UI child, whose URID maps differ (CAUHostAtomText). */
#include <sratom/sratom.h>
