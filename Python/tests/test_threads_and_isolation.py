"""Processing releases the GIL (two threads with their own chains are both correct and overlap),
and an isolated plug-in that crashes raises an exception while the interpreter lives."""
import multiprocessing
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import auhost
from conftest import EG_AMP


def _chain():
    delay = auhost.Delay(delay_time=0.01, feedback=20.0)
    eq = auhost.IPodEQ()
    eq.preset = "Bass Booster"
    return auhost.Pedalboard([delay, eq])


def test_two_threads_with_their_own_chains_are_both_correct():
    rng = np.random.default_rng(7)
    inputs = [(rng.standard_normal((2, 96_000)) * 0.2).astype(np.float32) for _ in range(2)]
    expected = [_chain()(x, 48000, buffer_size=64) for x in inputs]
    results = [None, None]

    def work(i):
        board = _chain()
        for _ in range(3):
            results[i] = board(inputs[i], 48000, buffer_size=64)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, expected):
        assert np.array_equal(got, want)


def test_the_gil_is_released_while_rendering():
    """A pure-Python counter keeps running while another thread renders."""
    board = _chain()
    audio = np.zeros((2, 48000 * 20), np.float32)
    done = threading.Event()
    ticks = 0

    def render():
        board(audio, 48000, buffer_size=32)
        done.set()

    worker = threading.Thread(target=render)
    start = time.perf_counter()
    worker.start()
    while not done.is_set():
        ticks += 1
    worker.join()
    elapsed = time.perf_counter() - start
    assert elapsed > 0.05, "the render was long enough to measure"
    # Holding the GIL would leave the counter only the interpreter's switch slices (5 ms each).
    assert ticks > 10_000, f"{ticks} ticks in {elapsed:.3f} s"


def test_an_isolated_plugin_renders_the_same_as_in_process(noise):
    local = auhost.load_plugin(EG_AMP, gain=-6.0)
    isolated = auhost.load_plugin(EG_AMP, isolated=True, gain=-6.0)
    assert isolated._unit.isolated
    assert np.array_equal(isolated(noise[:1], 48000), local(noise[:1], 48000))


def test_an_isolated_plugins_latency_is_compensated_too():
    impulse = np.zeros((2, 4800), np.float32)
    impulse[:, 100] = 0.5
    local = auhost.load_plugin("http://plugin.org.uk/swh-plugins/fastLookaheadLimiter")
    isolated = auhost.load_plugin("http://plugin.org.uk/swh-plugins/fastLookaheadLimiter", isolated=True)
    out = isolated(impulse, 48000)
    assert int(np.argmax(np.abs(out[0]))) == 100
    assert np.array_equal(out, local(impulse, 48000))
    assert isolated.latency_seconds == local.latency_seconds > 0


def test_an_isolated_crashing_plugin_raises_and_the_interpreter_lives():
    crasher = auhost.load_plugin("urn:auhost:fixture:crash-run", isolated=True)
    with pytest.raises(auhost.PluginCrashed, match="signal 11"):
        crasher(np.full((1, 4096), 0.1, np.float32), 48000, buffer_size=512)
    # Restarted for the next call, which crashes again: still an exception, still alive.
    with pytest.raises(auhost.PluginCrashed):
        crasher(np.full((1, 4096), 0.1, np.float32), 48000, buffer_size=512)
    amp = auhost.load_plugin(EG_AMP, gain=0.0)
    assert amp(np.ones(8, np.float32), 48000).tolist() == [1.0] * 8


def test_the_same_crash_in_process_kills_the_interpreter():
    """What isolation prevents: the fixture really crashes (so the test above can fail)."""
    code = ("import auhost, numpy as np\n"
            "p = auhost.load_plugin('urn:auhost:fixture:crash-run')\n"
            "p(np.full((1, 512), 0.1, np.float32), 48000)\n"
            "print('alive')\n")
    # Without Swift's backtracer the signal ends the process as the kernel delivers it.
    environment = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120, env=environment)
    assert b"alive" not in result.stdout
    assert result.returncode == -11, result.returncode


def test_an_isolated_plugin_in_a_board_renders_the_same_as_in_process(noise):
    local = auhost.Pedalboard([auhost.load_plugin(EG_AMP, gain=-6.0), auhost.Delay(delay_time=0.01)])
    isolated = auhost.Pedalboard([auhost.load_plugin(EG_AMP, isolated=True, gain=-6.0), auhost.Delay(delay_time=0.01)])
    assert np.array_equal(isolated(noise[:1], 48000), local(noise[:1], 48000))


def test_a_crashing_isolated_node_raises_and_the_board_renders_again():
    crasher = auhost.load_plugin("urn:auhost:fixture:crash-run", isolated=True)
    board = auhost.Mix([crasher, auhost.load_plugin(EG_AMP)])
    with pytest.raises(auhost.PluginCrashed, match="signal 11"):
        board(np.full((1, 4096), 0.1, np.float32), 48000, buffer_size=512)
    board.remove(crasher)
    assert board(np.ones((1, 8), np.float32), 48000).tolist() == [[1.0] * 8]


def _render_isolated_amp(audio):
    return auhost.load_plugin(EG_AMP, isolated=True, gain=-6.0)(audio, 48000)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # Python 3.12 warns of fork() in a threaded process
def test_a_forked_worker_runs_isolated_plugins_too(noise):
    """multiprocessing's "fork" start method (Linux's default before Python 3.14) copies the process
    without the thread that starts plug-in processes: a worker's isolated plug-in must still start."""
    expected = auhost.load_plugin(EG_AMP, isolated=True, gain=-6.0)(noise[:1], 48000)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        got = pool.apply_async(_render_isolated_amp, (noise[:1],)).get(timeout=60)
    assert np.array_equal(got, expected)
