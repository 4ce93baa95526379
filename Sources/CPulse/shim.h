#ifndef MARBLE_CPULSE_SHIM_H
#define MARBLE_CPULSE_SHIM_H
#include <pulse/simple.h>
#include <pulse/error.h>
#include <pulse/sample.h>
// The asynchronous API (capture): pa_threaded_mainloop, pa_context, pa_stream, pa_operation,
// introspection and subscription.
#include <pulse/pulseaudio.h>

// Macros Swift cannot import (casts), as functions. (PA_CONTEXT_IS_GOOD and PA_STREAM_IS_GOOD are
// static inline functions in <pulse/def.h> already, and import as they are.)

/// PA_INVALID_INDEX: "no such object" in index fields (e.g. pa_source_info.monitor_of_sink).
static inline uint32_t marble_pa_invalid_index(void) { return PA_INVALID_INDEX; }

/// PA_USEC_INVALID: the largest pa_usec_t, returned by latency queries that fail.
static inline pa_usec_t marble_pa_usec_invalid(void) { return PA_USEC_INVALID; }

// Time events through the mainloop's vtable (function pointers in pa_mainloop_api), `delay`
// microseconds from now. The wall-clock deadline is converted by the mainloop to its monotonic clock
// when the event is (re)armed, so a later change of the wall clock does not move it.

/// api->time_new at now + delay; NULL on failure.
static inline pa_time_event *marble_pa_time_new(pa_mainloop_api *api, pa_usec_t delay,
                                                pa_time_event_cb_t callback, void *userdata) {
    struct timeval when;
    pa_timeval_add(pa_gettimeofday(&when), delay);
    return api->time_new(api, &when, callback, userdata);
}

/// api->time_restart: re-arms `event` at now + delay.
static inline void marble_pa_time_restart(pa_mainloop_api *api, pa_time_event *event, pa_usec_t delay) {
    struct timeval when;
    pa_timeval_add(pa_gettimeofday(&when), delay);
    api->time_restart(event, &when);
}

/// api->time_free: cancels and frees `event` (its callback will not run again).
static inline void marble_pa_time_free(pa_mainloop_api *api, pa_time_event *event) {
    api->time_free(event);
}
#endif
