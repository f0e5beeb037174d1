"""auhost against pedalboard 0.9 (from PyPI), the same work in the same run, printed side by side.

Run by Benchmarks/python/run.sh (which makes the venv). Times are the best of REPEATS runs
(perf_counter); ratios are auhost / pedalboard, so below 1.0 means auhost is faster. The machine
is shared: the script prints its load average before and after so a reader can judge.

Thread class: n/a (a benchmark script).
"""
import os
import sys
import tempfile
import threading
import time

import numpy as np

import auhost
import pedalboard

RATE = 48_000
REPEATS = int(os.environ.get("REPEATS", "5"))
SDK_GAIN = "aufx gain AUSd"


def best(fn, repeats=REPEATS):
    times = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def row(name, ours, theirs, unit="s", note=""):
    ratio = ours / theirs
    print(f"{name:<44} auhost {ours:>10.6f} {unit}   pedalboard {theirs:>10.6f} {unit}   ratio {ratio:5.2f}  {note}")
    return ratio


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def gain_60s(audio):
    board = pedalboard.Pedalboard([pedalboard.Gain(gain_db=-6.0)])
    gain = auhost.load_plugin(SDK_GAIN)
    gain.gain = float(np.float32(10 ** (-6.0 / 20)))
    board(audio[:, :512], RATE)
    gain(audio[:, :512], RATE)
    t_pb, out_pb = best(lambda: board(audio, RATE))
    t_us, out_us = best(lambda: gain(audio, RATE))
    diff = float(np.max(np.abs(out_us - out_pb)))
    assert diff <= 1e-6, f"outputs differ by {diff}"
    return row("60 s stereo 48 kHz through a gain", t_us, t_pb, note=f"max |difference| {diff:.2e}")


def calls_512(audio):
    board = pedalboard.Pedalboard([pedalboard.Gain(gain_db=-6.0)])
    gain = auhost.load_plugin(SDK_GAIN)
    gain.gain = float(np.float32(10 ** (-6.0 / 20)))
    chunk = np.ascontiguousarray(audio[:, :512])
    n = 10_000

    def ours():
        for _ in range(n):
            gain(chunk, RATE)

    def theirs():
        for _ in range(n):
            board(chunk, RATE)

    t_us, _ = best(ours, 3)
    t_pb, _ = best(theirs, 3)
    return row("10,000 calls of 512 frames (per call)", t_us / n * 1e6, t_pb / n * 1e6, unit="µs")


def read_flac(audio):
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "60s.flac")
    with auhost.io.AudioFile(path, "w", RATE, 2, bit_depth=16) as f:
        f.write(np.clip(audio, -1, 1))

    def ours():
        with auhost.io.AudioFile(path) as f:
            return f.read(f.frames)

    def theirs():
        with pedalboard.io.AudioFile(path) as f:
            return f.read(f.frames)

    t_us, a = best(ours)
    t_pb, b = best(theirs)
    assert a.shape == b.shape, (a.shape, b.shape)
    diff = float(np.max(np.abs(a - b)))
    return row("read a 60 s stereo FLAC into an array", t_us, t_pb, note=f"max |difference| {diff:.2e}")


def threads(audio):
    """Throughput of two threads (each its own chain, its own 60 s) over one thread doing both."""

    def ours_chain():
        eq = auhost.IPodEQ()
        eq.preset = "Bass Booster"
        return auhost.Pedalboard([auhost.Delay(delay_time=0.01, feedback=20.0), eq])

    def theirs_chain():
        return pedalboard.Pedalboard([pedalboard.Delay(delay_seconds=0.01, feedback=0.2), pedalboard.LowShelfFilter()])

    def speedup(make):
        chains = [make(), make()]
        for c in chains:
            c(audio[:, :512], RATE)

        def serial():
            for c in chains:
                c(audio, RATE, buffer_size=512)

        def parallel():
            workers = [threading.Thread(target=c, args=(audio, RATE), kwargs={"buffer_size": 512}) for c in chains]
            for w in workers:
                w.start()
            for w in workers:
                w.join()

        t1, _ = best(serial, 3)
        t2, _ = best(parallel, 3)
        # CPU seconds of the process for one run each way: equal when threads cost nothing extra
        # (no lock, no spinning), whatever the machine lends in wall time.
        c0 = time.process_time()
        serial()
        c1 = time.process_time()
        parallel()
        c2 = time.process_time()
        return t1 / t2, t1, t2, c1 - c0, c2 - c1

    ours, o1, o2, oc1, oc2 = speedup(ours_chain)
    theirs, p1, p2, pc1, pc2 = speedup(theirs_chain)
    print(f"{'two threads vs one (throughput ×)':<44} auhost {ours:>10.2f} ×   pedalboard {theirs:>10.2f} ×   "
          f"(wall: auhost {o1:.3f} s serial, {o2:.3f} s two threads; pedalboard {p1:.3f} s, {p2:.3f} s)")
    print(f"{'  CPU seconds, one thread / two threads':<44} auhost {oc1:.3f} / {oc2:.3f}   pedalboard {pc1:.3f} / {pc2:.3f}")
    return ours


def machine_control(audio):
    """What two threads gain on this machine right now, for work that needs no lock (NumPy
    releases the GIL in ufuncs): the ceiling the threads row can reach in the same run."""

    def work():
        x = audio[:, : 10 * RATE]
        for _ in range(10):
            x = np.sin(x)

    t1, _ = best(lambda: (work(), work()), 3)

    def two():
        workers = [threading.Thread(target=work) for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    t2, _ = best(two, 3)
    print(f"{'control: NumPy sin in two threads vs one':<44} {t1 / t2:.2f} ×  (the machine's spare parallelism now)")


def main():
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, pedalboard {pedalboard.__version__}, auhost {auhost.__version__}")
    print(f"cores {os.cpu_count()}, load average before: {load()}")
    audio = (np.random.default_rng(60).standard_normal((2, 60 * RATE)) * 0.2).astype(np.float32)
    gain_60s(audio)
    calls_512(audio)
    read_flac(audio)
    machine_control(audio)
    threads(audio)
    machine_control(audio)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
