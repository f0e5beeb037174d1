/* auhost-ui-host: one LV2 UI in a process of its own, so that a UI that crashes ends only this
   process (auhost_ui_host.h; the protocol is in Sources/CUIHost/ui_host_child.h). The host
   spawns it with the socket as standard input and output (or a pipe each way):
     auhost-ui-host PLUGIN_URI UI_URI UI_TYPE_URI BUNDLE_PATH BINARY_PATH PARENT_XID TITLE [symbol=index ...]
   and AUHOST_UI_REQUESTS naming the patch parameters it answers ui:requestValue for.
   Thread: the process's one thread. */
#include "auhost_ui_host.h"

#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    /* The protocol keeps its own descriptor; standard output goes to stderr, since UIs print to it. */
    int output = dup(STDOUT_FILENO);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    return auhost_ui_host_run(STDIN_FILENO, output, argv + 1, argc - 1, NULL, getenv("AUHOST_UI_REQUESTS"), NULL);
}
