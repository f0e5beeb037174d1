/* libjack (JACK's client library), opened with the first JACK client. */

#include "LazyLibrary.h"

#include <stdarg.h>
#include <jack/jack.h>
#include <jack/midiport.h>

/* jack_client_open is variadic: written by hand below (the failure here is not used). */
#define JACK_ENTRIES(E) \
    E(jack_client_t *, jack_client_open, \
      (const char *client_name, jack_options_t options, jack_status_t *status), \
      (client_name, options, status), NULL)

#define JACK_FUNCTIONS(F, V) \
    F(int, jack_activate, (jack_client_t *client), (client)) \
    F(int, jack_client_close, (jack_client_t *client), (client)) \
    F(int, jack_connect, \
      (jack_client_t *client, const char *source_port, const char *destination_port), \
      (client, source_port, destination_port)) \
    F(int, jack_deactivate, (jack_client_t *client), (client)) \
    F(jack_time_t, jack_frames_to_time, (const jack_client_t *client, jack_nframes_t a1), (client, a1)) \
    V(jack_free, (void *ptr), (ptr)) \
    F(jack_nframes_t, jack_get_buffer_size, (jack_client_t *a0), (a0)) \
    F(char *, jack_get_client_name, (jack_client_t *client), (client)) \
    F(const char **, jack_get_ports, \
      (jack_client_t *client, const char *port_name_pattern, const char *type_name_pattern, \
       unsigned long flags), \
      (client, port_name_pattern, type_name_pattern, flags)) \
    F(jack_nframes_t, jack_get_sample_rate, (jack_client_t *a0), (a0)) \
    F(jack_time_t, jack_get_time, (void), ()) \
    F(jack_nframes_t, jack_last_frame_time, (const jack_client_t *client), (client)) \
    V(jack_midi_clear_buffer, (void *port_buffer), (port_buffer)) \
    F(int, jack_midi_event_get, \
      (jack_midi_event_t *event, void *port_buffer, uint32_t event_index), \
      (event, port_buffer, event_index)) \
    F(jack_midi_data_t *, jack_midi_event_reserve, \
      (void *port_buffer, jack_nframes_t time, size_t data_size), \
      (port_buffer, time, data_size)) \
    F(int, jack_midi_event_write, \
      (void *port_buffer, jack_nframes_t time, const jack_midi_data_t *data, size_t data_size), \
      (port_buffer, time, data, data_size)) \
    F(uint32_t, jack_midi_get_event_count, (void *port_buffer), (port_buffer)) \
    V(jack_on_info_shutdown, \
      (jack_client_t *client, JackInfoShutdownCallback shutdown_callback, void *arg), \
      (client, shutdown_callback, arg)) \
    V(jack_on_shutdown, \
      (jack_client_t *client, JackShutdownCallback shutdown_callback, void *arg), \
      (client, shutdown_callback, arg)) \
    F(jack_port_t *, jack_port_by_name, (jack_client_t *client, const char *port_name), (client, port_name)) \
    F(int, jack_port_connected_to, (const jack_port_t *port, const char *port_name), (port, port_name)) \
    F(int, jack_port_flags, (const jack_port_t *port), (port)) \
    F(void *, jack_port_get_buffer, (jack_port_t *port, jack_nframes_t a1), (port, a1)) \
    F(const char *, jack_port_name, (const jack_port_t *port), (port)) \
    F(jack_port_t *, jack_port_register, \
      (jack_client_t *client, const char *port_name, const char *port_type, unsigned long flags, \
       unsigned long buffer_size), \
      (client, port_name, port_type, flags, buffer_size)) \
    F(int, jack_port_unregister, (jack_client_t *client, jack_port_t *port), (client, port)) \
    F(int, jack_release_timebase, (jack_client_t *client), (client)) \
    V(jack_set_error_function, (void (*func)(const char *)), (func)) \
    F(int, jack_set_freewheel, (jack_client_t *client, int onoff), (client, onoff)) \
    F(int, jack_set_freewheel_callback, \
      (jack_client_t *client, JackFreewheelCallback freewheel_callback, void *arg), \
      (client, freewheel_callback, arg)) \
    F(int, jack_set_port_registration_callback, \
      (jack_client_t *client, JackPortRegistrationCallback registration_callback, void *arg), \
      (client, registration_callback, arg)) \
    F(int, jack_set_process_callback, \
      (jack_client_t *client, JackProcessCallback process_callback, void *arg), \
      (client, process_callback, arg)) \
    F(int, jack_set_timebase_callback, \
      (jack_client_t *client, int conditional, JackTimebaseCallback timebase_callback, void *arg), \
      (client, conditional, timebase_callback, arg)) \
    F(int, jack_set_xrun_callback, \
      (jack_client_t *client, JackXRunCallback xrun_callback, void *arg), \
      (client, xrun_callback, arg)) \
    F(int, jack_transport_locate, (jack_client_t *client, jack_nframes_t frame), (client, frame)) \
    F(jack_transport_state_t, jack_transport_query, \
      (const jack_client_t *client, jack_position_t *pos), \
      (client, pos)) \
    V(jack_transport_start, (jack_client_t *client), (client)) \
    V(jack_transport_stop, (jack_client_t *client), (client))

#define LAZY_CURRENT jack_library
LAZY_LIBRARY("libjack.so.0", JACK_ENTRIES, JACK_FUNCTIONS)
#undef LAZY_CURRENT

/* Variadic: the extra argument of JackServerName is forwarded (AUHost passes no other option that
   takes one). Without libjack no server can be reached, and jack_client_open says so. */
__attribute__((visibility("hidden"))) jack_client_t *jack_client_open(
    const char *client_name, jack_options_t options, jack_status_t *status, ...) {
    jack_status_t ignored;
    if (status == NULL) status = &ignored;
    if (options & (JackLoadName | JackLoadInit)) {
        *status = (jack_status_t)(JackFailure | JackInvalidOption);
        return NULL;
    }
    if (!lazy_library_load(&jack_library)) {
        *status = (jack_status_t)(JackFailure | JackServerFailed);
        return NULL;
    }
    jack_client_t *(*open)(const char *, jack_options_t, jack_status_t *, ...) =
        LAZY_FUNCTION(jack_library, jack_client_open);
    if (!(options & JackServerName)) return open(client_name, options, status);
    va_list extra;
    va_start(extra, status);
    const char *server = va_arg(extra, const char *);
    va_end(extra);
    return open(client_name, options, status, server);
}
