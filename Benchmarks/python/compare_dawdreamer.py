"""auhost against DawDreamer 0.9 (PyPI) on LV2 plug-ins both can load on this machine: same
input, same block (512), outputs compared, best-of times side by side (ratio auhost/DawDreamer).

Run by Benchmarks/python/run.sh after compare_pedalboard.py; LV2_PATH names the plug-ins (run.sh
uses the test set). Thread class: n/a (a benchmark script).
"""
import os
import time

import numpy as np

import auhost
import dawdreamer

RATE, BLOCK, SECONDS = 48_000, 512, 60
REPEATS = int(os.environ.get("REPEATS", "5"))

# (URI, {parameter index: value in the plug-in's own range}, channels)
CASES = [
    ("http://lv2plug.in/plugins/eg-amp", {}, 1),  # at its default gain: see parameter_check()
    ("http://plugin.org.uk/swh-plugins/sc4", {}, 2),
    ("http://drobilla.net/plugins/mda/Delay", {}, 2),
]


def best(fn):
    times, result = [], None
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def dawdreamer_render(uri, settings, audio):
    engine = dawdreamer.RenderEngine(RATE, BLOCK)
    source = engine.make_playback_processor("in", audio)
    plugin = engine.make_plugin_processor("fx", uri)
    described = plugin.get_parameters_description()
    for index, value in settings.items():
        low, high = float(described[index]["min"]), float(described[index]["max"])
        plugin.set_parameter(index, (value - low) / (high - low))  # DawDreamer takes 0…1
    engine.load_graph([(source, []), (plugin, ["in"])])

    def run():
        engine.render(SECONDS)
        return engine.get_audio()

    return run


def auhost_render(uri, settings, audio):
    plugin = auhost.load_plugin(uri)
    ids = {p.id: p.python_name for p in plugin.parameters.values()}
    for index, value in settings.items():
        setattr(plugin, ids[index], value)
    return lambda: plugin(audio, RATE, buffer_size=BLOCK)


def parameter_check():
    """Whether DawDreamer's set_parameter reaches an LV2 control port: eg-amp at -6 dB."""
    audio = (np.random.default_rng(3).standard_normal((1, RATE)) * 0.2).astype(np.float32)
    out = dawdreamer_render("http://lv2plug.in/plugins/eg-amp", {0: -6.0}, audio)()
    ours = auhost.load_plugin("http://lv2plug.in/plugins/eg-amp", gain=-6.0)(audio, RATE, buffer_size=BLOCK)
    middle = slice(BLOCK, RATE - BLOCK)
    print(f"eg-amp at -6 dB: output / input = {np.median(out[0, middle] / audio[0, middle]):.4f} in DawDreamer, "
          f"{np.median(ours[0, middle] / audio[0, middle]):.4f} in auhost (10^(-6/20) = {10 ** (-6 / 20):.4f})")


def main():
    print(f"DawDreamer {getattr(dawdreamer, '__version__', '?')}, auhost {auhost.__version__}, "
          f"{SECONDS} s at {RATE} Hz, block {BLOCK}, load average {os.getloadavg()[0]:.2f}")
    rng = np.random.default_rng(9)
    for uri, settings, channels in CASES:
        audio = (rng.standard_normal((channels, SECONDS * RATE)) * 0.2).astype(np.float32)
        try:
            theirs_run = dawdreamer_render(uri, settings, audio)
        except Exception as error:  # DawDreamer cannot load every LV2 plug-in
            print(f"{uri:<52} DawDreamer could not load it: {error}")
            continue
        # Outputs are compared on each host's first render of a fresh instance: sc4 and mda Delay
        # keep state across LV2's deactivate/activate (their activate should clear it), so any
        # later render of either host starts from what the one before left.
        out_dd = theirs_run()
        t_dd, _ = best(theirs_run)
        ours = auhost_render(uri, settings, audio)
        out_us = ours()
        t_us, _ = best(ours)
        n = min(out_dd.shape[1], out_us.shape[1])
        k = min(out_dd.shape[0], out_us.shape[0])
        diff = float(np.max(np.abs(out_dd[:k, :n] - out_us[:k, :n])))
        same = "identical" if diff == 0 else f"max |difference| {diff:.2e}"
        print(f"{uri:<52} auhost {t_us:8.4f} s  DawDreamer {t_dd:8.4f} s  ratio {t_us / t_dd:5.2f}  {same}"
              f"  (shapes {out_us.shape} / {out_dd.shape})")


if __name__ == "__main__":
    main()
    parameter_check()
