"""A folder of audio files through a chain of units, fanned out with Ray tasks — or serially.

    python ray_folder.py IN_DIR OUT_DIR [--serial] [--address auto]

The chain is described as data (unit name, parameters, preset) so each task builds its own
plug-ins: units are C objects and do not travel between processes; descriptions do. Each file is
rendered whole (reset=True, block 8192), so the result of a file does not depend on which worker
renders it or in which order: Ray's output is bit-identical to the serial one (the tests check).

On a real cluster: install this package (pip install ./Python) and the same LV2 plug-ins on every
node, start Ray there (`ray start --head` on one node, `ray start --address HEAD:6379` on the
others), put the folders on storage every node sees, and run this script with `--address auto`
from a node of the cluster. The LV2_PATH and AUHOST_PLUGIN_PATH of the driver are handed to the
workers (runtime_env), so set them to paths that exist on every node.

Thread class: n/a (a script; each task is one process's setup thread).
"""
import argparse
import os
import sys
from pathlib import Path

#: The chain every file goes through: (unit, {parameter: value}, preset or None).
CHAIN = [
    ("aufx dely AUHs", {"delay_time": 0.05, "wet_dry_mix": 30.0}, None),
    ("aufx ipeq AUHs", {}, "Bass Booster"),
]
EXTENSIONS = {".wav", ".flac", ".aif", ".aiff", ".caf", ".ogg"}


def build_chain(chain):
    """A Pedalboard from a description. Thread class: setup."""
    import auhost

    plugins = []
    for unit, parameters, preset in chain:
        plugin = auhost.load_plugin(unit)
        if preset is not None:
            plugin.preset = preset
        for name, value in parameters.items():
            setattr(plugin, name, value)
        plugins.append(plugin)
    return auhost.Pedalboard(plugins, threads=1)


def render_file(source, target, chain):
    """Renders one file through the chain into a float32 WAV; returns the target. Thread class: setup."""
    import auhost

    with auhost.io.AudioFile(str(source)) as f:
        audio, rate = f.read(), f.samplerate
    out = build_chain(chain)(audio, rate)
    with auhost.io.AudioFile(str(target), "w", rate, out.shape[0] if out.ndim == 2 else 1) as f:
        f.write(out)
    return str(target)


def inputs(folder):
    return sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in EXTENSIONS)


def run_serial(in_dir, out_dir, chain=CHAIN):
    """Every file in turn, in this process."""
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    return [render_file(p, Path(out_dir) / (p.stem + ".wav"), chain) for p in inputs(in_dir)]


def run_ray(in_dir, out_dir, chain=CHAIN, address=None, num_cpus=None):
    """Every file as a Ray task; starts a local cluster when no address is given."""
    import ray

    env = {k: os.environ[k] for k in ("LV2_PATH", "AUHOST_PLUGIN_PATH") if k in os.environ}
    runtime_env = {"env_vars": env}
    if __name__ != "__main__":  # imported: workers import this file too (a script's functions travel by value)
        runtime_env["py_modules"] = [sys.modules[__name__]]
    ray.init(address=address, num_cpus=num_cpus, runtime_env=runtime_env, ignore_reinit_error=True,
             include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(num_cpus=1)(render_file)
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        return ray.get([task.remote(str(p), str(Path(out_dir) / (p.stem + ".wav")), chain) for p in inputs(in_dir)])
    finally:
        ray.shutdown()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("in_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--serial", action="store_true", help="render in this process, no Ray")
    parser.add_argument("--address", default=None, help="a running cluster (auto, or HOST:PORT); default: a local one")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local cluster")
    args = parser.parse_args(argv)
    done = run_serial(args.in_dir, args.out_dir) if args.serial else run_ray(args.in_dir, args.out_dir, address=args.address,
                                                                             num_cpus=args.num_cpus)
    print(f"rendered {len(done)} files into {args.out_dir}")


if __name__ == "__main__":
    sys.exit(main())
