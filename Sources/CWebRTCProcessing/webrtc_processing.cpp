// webrtc_processing.cpp — the C face of webrtc_processing.h over webrtc::AudioProcessing (0.3).
// Kept to calls and configuration: the processing is the library's.

#include "webrtc_processing.h"

#include <atomic>
#include <new>

#include <webrtc/modules/audio_processing/include/audio_processing.h>

namespace {
/// Metrics are refreshed every this many chunks (one second).
constexpr int kMetricsInterval = 100;
}  // namespace

struct auhost_webrtc_processor {
    webrtc::AudioProcessing *apm = nullptr;
    webrtc::StreamConfig capture;
    webrtc::StreamConfig reverse;
    int chunk = 0;
    bool echo_cancellation = false;
    bool gain_control = false;
    // Requests from any thread, applied by the render thread at a chunk boundary.
    std::atomic<int> requested_gain_control{0};
    std::atomic<int> requested_delay_ms{0};
    // Published by the render thread, read by any.
    std::atomic<int> valid{0}, erle_instant{0}, erle_average{0}, erl_average{0}, rerl_average{0};
    std::atomic<int> delay_median_ms{0}, delay_std_ms{0};
    std::atomic<long long> chunks{0};
};

static void refresh_metrics(auhost_webrtc_processor *p) {
    if (!p->echo_cancellation) return;
    webrtc::EchoCancellation *aec = p->apm->echo_cancellation();
    webrtc::EchoCancellation::Metrics m;
    if (aec->GetMetrics(&m) == webrtc::AudioProcessing::kNoError) {
        p->erle_instant.store(m.echo_return_loss_enhancement.instant);
        p->erle_average.store(m.echo_return_loss_enhancement.average);
        p->erl_average.store(m.echo_return_loss.average);
        p->rerl_average.store(m.residual_echo_return_loss.average);
        p->valid.store(1);
    }
    int median = 0, std = 0;
    float poor = 0;
    if (aec->GetDelayMetrics(&median, &std, &poor) == webrtc::AudioProcessing::kNoError) {
        p->delay_median_ms.store(median);
        p->delay_std_ms.store(std);
    }
}

extern "C" {

auhost_webrtc_processor *auhost_webrtc_create(
    int sample_rate, int capture_channels, int reverse_channels, const auhost_webrtc_config *config, int *error) {
    *error = webrtc::AudioProcessing::kNoError;
    if (sample_rate < 8000 || sample_rate > 192000 || sample_rate % 100 != 0) {
        *error = webrtc::AudioProcessing::kBadSampleRateError;
        return nullptr;
    }
    if (capture_channels < 1 || capture_channels > 2 || reverse_channels < 1 || reverse_channels > 2) {
        *error = webrtc::AudioProcessing::kBadNumberChannelsError;
        return nullptr;
    }
    webrtc::Config options;
    options.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(config->extended_filter != 0));
    options.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(config->delay_agnostic != 0));
    // The experimental AGC drives an analog microphone level we do not own; use the digital one.
    options.Set<webrtc::ExperimentalAgc>(new webrtc::ExperimentalAgc(false));
    webrtc::AudioProcessing *apm = webrtc::AudioProcessing::Create(options);
    if (apm == nullptr) {
        *error = webrtc::AudioProcessing::kCreationFailedError;
        return nullptr;
    }
    auto *p = new (std::nothrow) auhost_webrtc_processor;
    if (p == nullptr) {
        delete apm;
        *error = webrtc::AudioProcessing::kCreationFailedError;
        return nullptr;
    }
    p->apm = apm;
    p->chunk = sample_rate / 100;
    p->capture = webrtc::StreamConfig(sample_rate, capture_channels);
    p->reverse = webrtc::StreamConfig(sample_rate, reverse_channels);
    p->echo_cancellation = config->echo_cancellation != 0;
    webrtc::ProcessingConfig processing = {{p->capture, p->capture, p->reverse, p->reverse}};
    int status = apm->Initialize(processing);
    webrtc::EchoCancellation *aec = apm->echo_cancellation();
    if (status == 0) status = aec->Enable(p->echo_cancellation);
    if (status == 0 && p->echo_cancellation) {
        static const webrtc::EchoCancellation::SuppressionLevel echo_levels[] = {
            webrtc::EchoCancellation::kLowSuppression, webrtc::EchoCancellation::kModerateSuppression,
            webrtc::EchoCancellation::kHighSuppression};
        int echo_level = config->echo_suppression_level;
        status = echo_level < 0 || echo_level > 2 ? webrtc::AudioProcessing::kBadParameterError
                                                  : aec->set_suppression_level(echo_levels[echo_level]);
        if (status == 0) status = aec->enable_metrics(true);
        if (status == 0) status = aec->enable_delay_logging(true);
    }
    static const webrtc::NoiseSuppression::Level levels[] = {
        webrtc::NoiseSuppression::kLow, webrtc::NoiseSuppression::kModerate, webrtc::NoiseSuppression::kHigh,
        webrtc::NoiseSuppression::kVeryHigh};
    int level = config->noise_suppression_level;
    if (status == 0 && (level < 0 || level > 3)) status = webrtc::AudioProcessing::kBadParameterError;
    if (status == 0) status = apm->noise_suppression()->set_level(levels[level < 0 || level > 3 ? 1 : level]);
    if (status == 0) status = apm->noise_suppression()->Enable(config->noise_suppression != 0);
    if (status == 0) status = apm->high_pass_filter()->Enable(config->high_pass_filter != 0);
    // Gain control is created enabled so that its state exists, then set as asked: turning it on
    // later (from the render thread) re-initializes it without allocating.
    webrtc::GainControl *agc = apm->gain_control();
    if (status == 0) status = agc->set_mode(webrtc::GainControl::kAdaptiveDigital);
    if (status == 0) status = agc->Enable(true);
    if (status == 0) status = agc->Enable(config->gain_control != 0);
    p->gain_control = config->gain_control != 0;
    p->requested_gain_control.store(p->gain_control ? 1 : 0);
    if (status != 0) {
        auhost_webrtc_destroy(p);
        *error = status;
        return nullptr;
    }
    // One silent chunk each way: the library sizes its buffers on first use.
    static_assert(192000 / 100 == 1920, "the largest chunk");
    float silence[2][1920] = {};
    const float *in[2] = {silence[0], silence[1]};
    float *out[2] = {silence[0], silence[1]};
    apm->ProcessReverseStream(in, p->reverse, p->reverse, out);
    apm->set_stream_delay_ms(0);
    apm->ProcessStream(in, p->capture, p->capture, out);
    return p;
}

void auhost_webrtc_destroy(auhost_webrtc_processor *processor) {
    if (processor == nullptr) return;
    delete processor->apm;
    delete processor;
}

int auhost_webrtc_chunk_frames(const auhost_webrtc_processor *processor) { return processor->chunk; }

int auhost_webrtc_process_reverse(auhost_webrtc_processor *processor, const float *const *far_end) {
    // ProcessReverseStream writes its output only when intelligibility enhancement is on (never
    // here); the far end is not changed.
    float *const *unused = const_cast<float *const *>(far_end);
    return processor->apm->ProcessReverseStream(far_end, processor->reverse, processor->reverse, unused);
}

int auhost_webrtc_process(
    auhost_webrtc_processor *processor, const float *const *microphone, float *const *output, int reference_lag_frames) {
    webrtc::AudioProcessing *apm = processor->apm;
    bool gain = processor->requested_gain_control.load(std::memory_order_relaxed) != 0;
    if (gain != processor->gain_control) {
        apm->gain_control()->Enable(gain);
        processor->gain_control = gain;
    }
    if (processor->echo_cancellation) {
        // The reference was held back `reference_lag_frames` behind the stream: its echo comes
        // that much sooner after webrtc sees it.
        long long lag_ms = (long long)reference_lag_frames * 1000 / (processor->chunk * 100);
        long long delay = processor->requested_delay_ms.load(std::memory_order_relaxed) - lag_ms;
        apm->set_stream_delay_ms(delay < 0 ? 0 : delay > 500 ? 500 : (int)delay);
    }
    int status = apm->ProcessStream(microphone, processor->capture, processor->capture, output);
    if (status != 0 && microphone != output) {
        for (size_t c = 0; c < processor->capture.num_channels(); c++) {
            for (int i = 0; i < processor->chunk; i++) output[c][i] = microphone[c][i];
        }
    }
    long long n = processor->chunks.fetch_add(1) + 1;
    if (n % kMetricsInterval == 0) refresh_metrics(processor);
    return status;
}

void auhost_webrtc_request_gain_control(auhost_webrtc_processor *processor, int enabled) {
    processor->requested_gain_control.store(enabled ? 1 : 0);
}

void auhost_webrtc_request_delay_ms(auhost_webrtc_processor *processor, int delay_ms) {
    processor->requested_delay_ms.store(delay_ms < 0 ? 0 : delay_ms > 500 ? 500 : delay_ms);
}

void auhost_webrtc_get_metrics(const auhost_webrtc_processor *processor, auhost_webrtc_metrics *metrics) {
    metrics->valid = processor->valid.load();
    metrics->erle_instant = processor->erle_instant.load();
    metrics->erle_average = processor->erle_average.load();
    metrics->erl_average = processor->erl_average.load();
    metrics->rerl_average = processor->rerl_average.load();
    metrics->delay_median_ms = processor->delay_median_ms.load();
    metrics->delay_std_ms = processor->delay_std_ms.load();
    metrics->chunks = processor->chunks.load();
}

}  // extern "C"
