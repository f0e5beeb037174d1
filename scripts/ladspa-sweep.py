#!/usr/bin/env python3
"""Every LADSPA plug-in on LADSPA_PATH through `auhost render`, against two references:

1. applyplugin (ladspa-sdk) at its 16-bit output: equal within 1 LSB;
2. ladspa-reference-host (Tests/LADSPAReferenceHost, the tests' own float host): bit-identical.

Both get the same input (0.5 s, deterministic: a sine per channel plus LCG noise), the same block
(2048 frames, applyplugin's), and the same control values: the defaults the unit computes
(`lv2-sweep-child --ladspa-defaults`). The reference runs the last block whole, padded with
silence, as `auhost render` does: some plug-ins round a frame differently in a shorter cycle
(vector loops and their scalar remainders under -ffast-math). A plug-in is run twice through the
reference host first (the second run in another second when its library calls time(): blop's
random seeds rand() with it); when the two runs differ it is not deterministic and only its length
is compared. A plug-in that differs from a reference is run by `ladspa-reference-host --bounds`,
which tells whether its output depends on memory it was not given (past its input buffers, what
its output buffers held, what it allocated and never set, an output sharing its input's buffer as
applyplugin runs every plug-in): then the hosts' memory layouts decide, and it is the plug-in's.

Writes a tab-separated table (label, library, result, whose fault, detail) to OUT/ladspa-sweep.tsv
and a summary on stdout. Exits 1 when any plug-in failed through auhost while a reference ran it
(a host fault). Thread class: n/a (test tooling).

  scripts/ladspa-sweep.py --bin .build/debug --out /tmp/ladspa-sweep [--labels a,b,c]
"""
import argparse, json, math, os, re, struct, subprocess, sys, time

RATE, BLOCK, FRAMES = 44100, 2048, 22050


def signal(channels):
    """Deterministic test input in [-0.6, 0.6]: a sine per channel plus LCG noise."""
    state = 12345
    data = []
    for i in range(FRAMES):
        frame = []
        for c in range(channels):
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            noise = (state / 0x7FFFFFFF - 0.5) * 0.1
            frame.append(0.5 * math.sin(2 * math.pi * 220 * (c + 1) * i / RATE) + noise)
        data.append(frame)
    return data


def write_wav(path, frames, channels, float32):
    if float32:
        body = struct.pack("<%df" % (len(frames) * channels), *[x for f in frames for x in f])
        fmt = struct.pack("<HHIIHH", 3, channels, RATE, RATE * channels * 4, channels * 4, 32)
    else:
        ints = [max(-32768, min(32767, int(round(x * 32768)))) for f in frames for x in f]
        body = struct.pack("<%dh" % len(ints), *ints)
        fmt = struct.pack("<HHIIHH", 1, channels, RATE, RATE * channels * 2, channels * 2, 16)
    with open(path, "wb") as out:
        out.write(b"RIFF" + struct.pack("<I", 4 + 8 + len(fmt) + 8 + len(body)) + b"WAVE")
        out.write(b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(body)) + body)


def read_wav(path):
    """(channels, format tag, bits, samples interleaved) of a PCM16 or float32 WAV (plain or extensible)."""
    raw = open(path, "rb").read()
    pos, fmt, data = 12, None, None
    while pos + 8 <= len(raw):
        cid, size = raw[pos:pos + 4], struct.unpack("<I", raw[pos + 4:pos + 8])[0]
        body = raw[pos + 8:pos + 8 + size]
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
            if fmt[0] == 0xFFFE:
                fmt = (struct.unpack("<H", body[24:26])[0],) + fmt[1:]
        elif cid == b"data":
            data = body
        pos += 8 + size + (size & 1)
    tag, channels, bits = fmt[0], fmt[1], fmt[5]
    if tag == 3 and bits == 32:
        return channels, struct.unpack("<%df" % (len(data) // 4), data)
    if tag == 1 and bits == 16:
        return channels, struct.unpack("<%dh" % (len(data) // 2), data)
    raise ValueError("unexpected WAV format %r in %s" % (fmt, path))


def run(args, env=None, timeout=120):
    try:
        p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -999, "", "timed out after %d s" % timeout


def padded(frames, channels):
    """The frames followed by silence up to a whole number of blocks, as `auhost render` pulls them."""
    return frames + [[0.0] * channels] * (-len(frames) % BLOCK)


def write_raw(path, frames):
    with open(path, "wb") as raw:
        raw.write(struct.pack("<%df" % sum(len(f) for f in frames), *[x for f in frames for x in f]))


def read_raw(path, count):
    data = open(path, "rb").read()
    return struct.unpack("<%df" % (len(data) // 4), data)[:count]


def reads_the_clock(library):
    """Whether the library imports time() (and so may seed from the wall clock)."""
    code, out, _ = run(["nm", "-D", "--undefined-only", library])
    return code == 0 and re.search(r"\btime(@|$)", out, re.M) is not None


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1][:200] if lines else ""


def sweep_one(p, opt, env, work):
    label, library = p["label"], p["library"]
    code, out, err = run([opt.child, "--ladspa-defaults", str(RATE), library, label], env)
    if code != 0:
        return "skipped", "plug-in", "describing it failed in the child: " + last_line(out + err)
    info = {}
    controls = []
    for line in out.splitlines():
        f = line.split()
        if f[0] == "control":
            controls.append((f[1], f[2]))
        else:
            info[f[0]] = f[1:]
    ins, outs = int(info["audio"][0]), int(info["audio"][1])
    if outs == 0:
        return "not-comparable", "-", "no audio output (an analyser): nothing to compare"
    channels = max(ins, 1)
    frames = signal(channels)
    base = os.path.join(work, label.replace("/", "_"))
    in16, inf = base + ".in16.wav", base + ".inf.wav"
    write_wav(in16, frames, channels, False)
    write_wav(inf, frames, channels, True)
    write_raw(base + ".in.raw", padded(frames, channels))
    # What `auhost render` reads from the 16-bit file: the samples / 32768, exactly.
    write_raw(base + ".in16.raw", padded([[max(-32768, min(32767, int(round(x * 32768)))) / 32768 for x in f] for f in frames], channels))
    values = [v for _, v in controls]
    params = [a for port, v in controls for a in ("-p", "%s=%s" % (port, v))]

    # The float reference, twice: a plug-in that differs from itself is not deterministic. It
    # flushes subnormals as `auhost` does on its main thread (AUHostCommand.swift).
    env = dict(env, LADSPA_REFERENCE_FLUSH_SUBNORMALS="1")

    def reference(raw_in, raw_out):
        code, out, err = run([opt.reference, library, label, str(RATE), str(BLOCK), raw_in, raw_out] + values, env)
        return None if code == 0 else "the reference host cannot run it: " + last_line(out + err)

    def memory_dependence():
        """What `ladspa-reference-host --bounds` finds the output depends on, as a phrase, or None."""
        code, out, _ = run([opt.reference, "--bounds", library, label, str(RATE), str(BLOCK), base + ".in.raw"] + values, env)
        found = [line.split()[0] for line in out.splitlines() if line.endswith(" yes")] if code == 0 else []
        return ", ".join(found) if found else None

    refs = []
    for k in range(2):
        if k == 1 and reads_the_clock(library):
            time.sleep(1.05 - time.time() % 1)
        failure = reference(base + ".in.raw", base + ".ref%d.raw" % k)
        if failure:
            return "skipped", "plug-in", failure
        refs.append(read_raw(base + ".ref%d.raw" % k, FRAMES * outs))
    deterministic = refs[0] == refs[1]
    ref = refs[0]
    ref_finite = all(math.isfinite(x) for x in ref)

    if ins == 0:
        return "not-comparable", "-", "generator: `auhost render` applies a unit to a file; compared by LADSPAUnitsTests instead"
    code, out, err = run([opt.auhost, "render", "-i", inf, "-o", base + ".auf.wav", "--block", str(BLOCK), "--tail", "0", p["triple"]] + params, env)
    if code != 0:
        if not ref_finite:
            return "plug-in-nonfinite", "plug-in", "its output holds NaN/inf (the reference host's too); auhost silenced it: " + last_line(err)
        return "FAILED", "host", "auhost render failed: " + last_line(err + out)
    found = re.search(r"latency (\d+) frames compensated", out)
    latency = int(found.group(1)) if found else 0
    _, au = read_wav(base + ".auf.wav")
    shift = latency * outs
    compare_au, compare_ref = au[: len(au) - shift], ref[shift:]
    if not deterministic:
        verdict = ("random", "plug-in", "not deterministic (two reference runs differ); lengths %s" %
                   ("equal" if len(au) == len(ref) else "DIFFER"))
    elif list(compare_au) == list(compare_ref):
        verdict = ("identical", "-", "bit-identical to the float reference" + (" after %d frames of latency compensation" % latency if latency else ""))
    else:
        worst = max((abs(a - b) for a, b in zip(compare_au, compare_ref)), default=0)
        memory = memory_dependence()
        if memory:
            return ("plugin-reads-memory", "plug-in",
                    "differs from the float reference (max |diff| %.3g): its output depends on how the host lays out memory (%s, "
                    "ladspa-reference-host --bounds)" % (worst, memory))
        return "FAILED", "host", "differs from the float reference (max |diff| %.3g, latency %d)" % (worst, latency)

    # applyplugin, at its 16-bit output.
    code, out, err = run(["applyplugin", in16, base + ".app16.wav", library, label] + values, env)
    if code != 0:
        return verdict[0], verdict[1], verdict[2] + "; applyplugin cannot run it: " + last_line(err + out)
    code, out, err = run([opt.auhost, "render", "-i", in16, "-o", base + ".au16.wav", "--block", str(BLOCK), "--tail", "0", p["triple"]] + params, env)
    if code != 0:
        return "FAILED", "host", "auhost render (16-bit) failed: " + last_line(err + out)
    _, app = read_wav(base + ".app16.wav")
    _, au16 = read_wav(base + ".au16.wav")
    if not deterministic:
        return verdict
    # The plug-in's own float output on the 16-bit input. applyplugin converts without clipping:
    # +1.0 wraps to -32768, so samples where that output reaches ±1 are left out (and counted).
    failure = reference(base + ".in16.raw", base + ".ref16.raw")
    if failure:
        return "FAILED", "host", failure + " (on the 16-bit input)"
    a, b, r = au16[: len(au16) - shift], app[shift:], read_raw(base + ".ref16.raw", FRAMES * outs)[shift:]
    kept = [k for k in range(min(len(a), len(b), len(r))) if -1.0 <= r[k] < 32767 / 32768]
    clipped = len(a) - len(kept)
    worst = max((abs(a[k] - b[k]) for k in kept), default=0)
    note = " (%d samples at ±1 left out: applyplugin wraps them)" % clipped if clipped else ""
    if worst <= 1 and len(a) == len(b):
        return verdict[0], verdict[1], verdict[2] + "; applyplugin 16-bit: within %d LSB%s" % (worst, note)
    # Does applyplugin agree with the reference host? Both run the plug-in directly.
    quantized = [max(-32768, min(32767, int(round(r[k] * 32768)))) for k in kept]
    apart = max((abs(q - b[k]) for q, k in zip(quantized, kept)), default=0)
    if apart > 1:
        memory = memory_dependence()
        why = "how the host lays out memory: " + memory if memory else "more than its inputs and controls"
        return ("plugin-differs", "plug-in",
                "bit-identical to the float reference, but applyplugin and the reference host disagree by up to %d LSB "
                "running it directly (its output depends on %s)%s" % (apart, why, note))
    memory = memory_dependence()
    if memory:
        return ("plugin-reads-memory", "plug-in",
                "differs from applyplugin's 16-bit output by up to %d LSB: its output depends on how the host lays out memory (%s, "
                "ladspa-reference-host --bounds)%s" % (worst, memory, note))
    return "FAILED", "host", "differs from applyplugin's 16-bit output by up to %d LSB (%d vs %d samples)%s" % (worst, len(a), len(b), note)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=".build/debug")
    ap.add_argument("--out", default="/tmp/ladspa-sweep")
    ap.add_argument("--labels", default="")
    opt = ap.parse_args()
    opt.auhost = os.path.join(opt.bin, "auhost")
    opt.child = os.path.join(opt.bin, "lv2-sweep-child")
    opt.reference = os.path.join(opt.bin, "ladspa-reference-host")
    os.makedirs(opt.out, exist_ok=True)
    work = os.path.join(opt.out, "work")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ)
    env.setdefault("XDG_CACHE_HOME", os.path.join(opt.out, "cache"))
    code, out, err = run([opt.auhost, "list", "--json"], env)
    if code != 0:
        sys.exit("auhost list failed: " + err)
    plugins = []
    for row in json.loads(out):
        if row["origin"].startswith("ladspa "):
            # The triple names the unit unambiguously (a label may also be another unit's name:
            # swh's LADSPA "gate" and LV2 "Gate").
            triple = " ".join([row["type"], row["subtype"], row["manufacturer"]])
            plugins.append({"label": row["label"], "library": row["origin"].split(" ", 3)[3], "triple": triple})
    wanted = [l for l in opt.labels.split(",") if l]
    if wanted:
        missing = set(wanted) - {p["label"] for p in plugins}
        if missing:
            sys.exit("not on LADSPA_PATH: " + ", ".join(sorted(missing)))
        plugins = [p for p in plugins if p["label"] in wanted]
    rows, counts = [], {}
    for p in plugins:
        result, fault, detail = sweep_one(p, opt, env, work)
        counts[result] = counts.get(result, 0) + 1
        rows.append("\t".join([p["label"], p["library"], result, fault, detail]))
        print("%-28s %-16s %s" % (p["label"], result, detail), flush=True)
    with open(os.path.join(opt.out, "ladspa-sweep.tsv"), "w") as table:
        table.write("label\tlibrary\tresult\tfault\tdetail\n" + "\n".join(rows) + "\n")
    print("summary: %d plug-ins: %s" % (len(plugins), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    sys.exit(1 if counts.get("FAILED") else 0)


if __name__ == "__main__":
    main()
