/*
 * webrtc_processing.h — a C face over webrtc-audio-processing 0.3 (a C++ library), so that Swift
 * can drive it: echo cancellation against a far-end reference, noise suppression, automatic gain
 * control and a high-pass filter, on 10 ms chunks of deinterleaved floats in [-1, 1].
 *
 * Thread classes (CLAP style):
 *   [setup]  creating, destroying; nothing else may run on the instance meanwhile.
 *   [render] process_reverse, process; one thread at a time (the one rendering). They do not
 *            allocate once the first chunk has been processed at the configured format (the
 *            library takes its own mutex, uncontended, since only the render thread calls in).
 *   [any]    request_* and the metrics getter: they touch only atomics the render thread reads
 *            or writes at chunk boundaries.
 */
#ifndef AUHOST_WEBRTC_PROCESSING_H
#define AUHOST_WEBRTC_PROCESSING_H

#ifdef __cplusplus
extern "C" {
#endif

/** One processor: an AudioProcessing instance configured for one rate and channel layout. */
typedef struct auhost_webrtc_processor auhost_webrtc_processor;

/** What runs. Each field is 0 (off) or 1 (on). */
typedef struct {
    int echo_cancellation;
    int noise_suppression;
    int gain_control;
    int high_pass_filter;
    /** The AEC's 128 ms filter (48 ms otherwise), robust to unreliable delays. */
    int extended_filter;
    /** The AEC estimates the far-end/microphone delay itself instead of trusting the reported one. */
    int delay_agnostic;
    /** The AEC's residual echo suppression (its non-linear processor): 0 low, 1 moderate, 2 high. */
    int echo_suppression_level;
    /** Noise suppression's aggressiveness: 0 low, 1 moderate, 2 high, 3 very high. */
    int noise_suppression_level;
} auhost_webrtc_config;

/** Echo metrics in dB (webrtc's own estimates), and the AEC's delay estimate in ms. */
typedef struct {
    /** Nonzero once the AEC has produced metrics (they need about a second of far-end signal). */
    int valid;
    /** ERLE = 10 log10(P_echo / P_out): instant and long-term average. */
    int erle_instant;
    int erle_average;
    /** ERL = 10 log10(P_far / P_echo), long-term average. */
    int erl_average;
    /** RERL = ERL + ERLE, long-term average. */
    int rerl_average;
    /** The AEC's delay estimate (median and standard deviation, ms) over the last second. */
    int delay_median_ms;
    int delay_std_ms;
    /** Number of 10 ms chunks processed. */
    long long chunks;
} auhost_webrtc_metrics;

/**
 * Creates a processor for `sample_rate` Hz (a multiple of 100: chunks are rate/100 frames),
 * `capture_channels` microphone channels (1 or 2) and `reverse_channels` far-end channels (1 or
 * 2), and processes one silent chunk so that every buffer the library grows on first use exists
 * before the render thread calls in. Returns NULL with *error set to webrtc's error code (negative)
 * on failure. [setup]
 */
auhost_webrtc_processor *auhost_webrtc_create(
    int sample_rate, int capture_channels, int reverse_channels, const auhost_webrtc_config *config, int *error);

/** Destroys the processor. [setup] */
void auhost_webrtc_destroy(auhost_webrtc_processor *processor);

/** The chunk size in frames (sample rate / 100). [any] */
int auhost_webrtc_chunk_frames(const auhost_webrtc_processor *processor);

/**
 * Feeds one chunk of the far-end signal (what is played), `reverse_channels` pointers of
 * chunk_frames floats each. Call it before `auhost_webrtc_process` for the microphone chunk
 * recorded while (or after) it played. Returns 0 or webrtc's error code. [render]
 */
int auhost_webrtc_process_reverse(auhost_webrtc_processor *processor, const float *const *far_end);

/**
 * Processes one chunk of the microphone signal (`capture_channels` pointers of chunk_frames
 * floats) into `output` (same shape; may be the same memory as `microphone`). Applies pending
 * requests (gain control, delay) first and refreshes the metrics once a second. The delay told
 * to the AEC is the requested one less `reference_lag_frames` (how far the caller holds the
 * far end back behind the stream the requested delay counts in). Returns 0 or webrtc's error
 * code (the output is then a copy of the input). [render]
 */
int auhost_webrtc_process(
    auhost_webrtc_processor *processor, const float *const *microphone, float *const *output, int reference_lag_frames);

/** Asks the render thread to turn gain control on or off at the next chunk. [any] */
void auhost_webrtc_request_gain_control(auhost_webrtc_processor *processor, int enabled);

/**
 * Sets the delay reported to the AEC with every chunk: the time from a far-end chunk being passed
 * to process_reverse until its echo reaches `process` (webrtc's set_stream_delay_ms; clamped to
 * 0…500). [any]
 */
void auhost_webrtc_request_delay_ms(auhost_webrtc_processor *processor, int delay_ms);

/** Copies the latest metrics (refreshed by the render thread once a second). [any] */
void auhost_webrtc_get_metrics(const auhost_webrtc_processor *processor, auhost_webrtc_metrics *metrics);

#ifdef __cplusplus
}
#endif

#endif
