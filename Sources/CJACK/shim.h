#include <jack/jack.h>
#include <jack/midiport.h>

/* jack_client_open is variadic, which Swift cannot call: the no-extra-arguments form. */
static inline jack_client_t *auhost_jack_client_open(const char *name, jack_options_t options, jack_status_t *status) {
    return jack_client_open(name, options, status);
}

/* The same with JackServerName: the client joins the server called `server`. */
static inline jack_client_t *auhost_jack_client_open_server(const char *name, jack_options_t options, jack_status_t *status,
                                                            const char *server) {
    return jack_client_open(name, (jack_options_t)(options | JackServerName), status, server);
}
