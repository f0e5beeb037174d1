#!/usr/bin/env bash
# check-lv2-export: SDK units as LV2 plug-ins (issue 29), checked as a host sees them.
#
#   scripts/check-lv2-export.sh [WORK_DIR]        (default .build/lv2-export-check; `make check-lv2-export`)
#
# Builds auhost, Plugins/ (each with its LV2 bundle) and the template as SDK/README.md walks it
# (copied, renamed Brightener, `make`, `make install-lv2` into a private folder, listed by lv2ls),
# then, over a private LV2_PATH (the generated bundles and lv2-dev's specification bundles only):
#   - lv2_validate (sord_validate against the LV2 specification's Turtle): 0 errors, 0 warnings;
#   - lv2info: the class, ranges and presets; lv2-test-host units: each control port's unit;
#   - lv2apply (1 frame per run, no features) equals `auhost render` of the SDK build (4096-frame
#     blocks, latency compensated) bit for bit, from frame LATENCY of the LV2 output;
#   - SineSynth driven by lv2-test-host (256-frame blocks) equals `auhost render --midi`;
#   - each preset lv2info lists loads through lilv and equals `auhost render --preset`;
#   - state saved with lilv_state_new_from_instance, restored into a new instance: same output;
#   - lv2:enabled at 0 passes the input unchanged (Saturator, whose latency it skips);
#   - runs of 10000 frames from a host that offers no features equal the same (Chorus);
#   - two SDK LV2 binaries (Tremolo, Chorus) run interleaved in one lilv host, each output equal
#     to its own SDK build's; auhost renders a graph holding the SDK build and the LV2 build of a
#     unit in series, equal to the graph of two SDK builds;
#   - the binaries need no LD_LIBRARY_PATH (RUNPATH has the toolchain's lib/swift/linux);
#   - auhost validate passes each LV2 build that has no latency port;
#   - jalv runs each bundle 10 s headless on a private jackd (dummy backend, -p 64);
#   - an effect declaring 1 in → 2 out gets no bundle, and the reason names the configuration.
# A negative control makes sure the comparison can fail. Prints PASS/FAIL per check; exits 1 on
# any failure. Thread class: n/a (build tooling).
set -uo pipefail
# Output is matched from here-strings, never `cmd | grep -q`: grep -q stops reading at its first
# match, and under pipefail the writer's SIGPIPE fails the match (4 in 20,000 for lv2info's Class
# line here; once it failed a CI run).
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$root/.build/lv2-export-check}
failures=0
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; failures=$((failures + 1)); }
die() { echo "FAIL  $*"; exit 1; }

rm -rf "$work"
mkdir -p "$work/tools" "$work/lv2" "$work/spec" "$work/out"
unset LD_LIBRARY_PATH

# --- Build -------------------------------------------------------------------------------------
(cd "$root" && swift build --product auhost >/dev/null) || die "auhost does not build"
auhost="$root/.build/debug/auhost"
plugins=$("$root/Plugins/build.sh" debug 2>"$work/plugins-build.log") || die "Plugins/build.sh failed (see $work/plugins-build.log)"
sndfile=$(pkg-config --cflags --libs sndfile)
lilv=$(pkg-config --cflags --libs lilv-0)
cc -std=c17 -Wall -Werror "$root/Tests/LV2Export/compare-audio.c" -o "$work/tools/compare-audio" $sndfile || die "compare-audio"
cc -std=gnu17 -Wall -Werror "$root/Tests/LV2Export/lv2-test-host.c" "$root/Tests/LV2Export/lv2-test-host-main.c" \
    -o "$work/tools/lv2-test-host" $lilv $sndfile -lm || die "lv2-test-host"
compare="$work/tools/compare-audio"
host="$work/tools/lv2-test-host"

# The template, as SDK/README.md walks a new author through it (its commands, in this order).
author="$work/author"
mkdir -p "$author"
cp -r "$root/SDK/Templates/EffectUnit" "$author/Brightener"
(
    set -e
    cd "$author/Brightener"
    rm -rf .build
    mv Sources/MyEffect Sources/Brightener
    mv Sources/Brightener/MyEffect.swift Sources/Brightener/Brightener.swift
    mv Sources/Brightener/MyEffect.auplugin.json Sources/Brightener/Brightener.auplugin.json
    sed -i 's/MyEffect/Brightener/g; s/"myfx"/"brit"/; s/"Demo"/"Acme"/; s/Demo: /Acme: /' \
        Package.swift Makefile Sources/Brightener/*
    export AUHOST_SDK="$root/SDK"
    make >"$author/make.log" 2>&1
    make install-lv2 LV2_DIR="$author/lv2" >>"$author/make.log" 2>&1
) || die "the template did not build as SDK/README.md says (see $author/make.log)"
if grep -qx "urn:auhost:aufx:brit:Acme" <<<"$(LV2_PATH="$author/lv2" lv2ls)"; then
    pass "README walk: template copied, renamed, built, installed; lv2ls lists urn:auhost:aufx:brit:Acme"
else
    fail "README walk: lv2ls does not list urn:auhost:aufx:brit:Acme"
fi
brightener_bin=$(cd "$author/Brightener" && swift build --show-bin-path)

# The private LV2_PATH: copies of the generated bundles (not the build folders: the binary must
# work wherever a host loads it from) and links to lv2-dev's specification bundles.
cp -r "$plugins"/lv2/*.lv2 "$author"/lv2/*.lv2 "$work/lv2/"
dpkg -L lv2-dev | grep -E '/lv2/[^/]+\.lv2$' | while read -r bundle; do ln -s "$bundle" "$work/spec/"; done
export LV2_PATH="$work/lv2:$work/spec"
export AUHOST_PLUGIN_PATH="$plugins:$brightener_bin"

# A stereo float input: a sweep and pink noise (sox -R: the same file every run).
input="$work/in.wav"
sox -R -n -r 48000 -c 2 -e floating-point -b 32 "$input" synth 1 sine 220-1760 pinknoise gain -8 2>/dev/null ||
    die "sox could not write the input"

# name|uri|triple|latency frames|auhost -p settings|lv2 SYMBOL VALUE pairs|expected units
effects=(
    "Gain|urn:auhost:aufx:gain:AUSd|aufx gain AUSd|0|Gain=0.5|gain 0.5|gain=coef"
    "Tremolo|urn:auhost:aufx:trem:AUSd|aufx trem AUSd|0|Rate=7 Depth=80 Shape=1|rate 7 depth 80 shape 1|rate=hz depth=pc shape=none"
    "Saturator|urn:auhost:aufx:satu:AUSd|aufx satu AUSd|32|Drive=20 Output=-3 Mix=70|drive 20 output -3 mix 70|drive=db output=db mix=pc"
    "Chorus|urn:auhost:aufx:chor:AUSd|aufx chor AUSd|0|Rate=1.5 Depth=4 Mix=60|rate 1.5 depth 4 mix 60|rate=hz depth=ms delay=ms mix=pc"
    "Brightener|urn:auhost:aufx:brit:Acme|aufx brit Acme|0|Level=-6 Invert=1|level -6 invert 1|level=db invert=none"
)
synth="SineSynth|urn:auhost:aumu:sins:AUSd|aumu sins AUSd|0|Attack=20 Level=-6|attack 20 level -6|attack=ms release=ms level=db"

# --- Checks a bundle gets whatever it holds ----------------------------------------------------
check_bundle() { # name uri class units
    local name=$1 uri=$2 class=$3 units=$4 bundle="$work/lv2/$1.lv2"
    local report
    report=$(lv2_validate "$bundle"/*.ttl 2>&1 | grep -v "^Skipping file /usr/lib/lv2/core.lv2/lv2core.doap.ttl$")
    if grep -q "^Found 0 errors" <<<"$report" && ! grep -qiE "error|warn" <<<"$(grep -v "^Found 0 errors" <<<"$report")"; then
        pass "$name: lv2_validate $(echo "$report" | grep '^Found'), no warnings"
    else
        fail "$name: lv2_validate: $report"
    fi
    local info status
    info=$(lv2info "$uri" 2>&1)
    status=$?
    if grep -qE "^\s+Class:\s+$class$" <<<"$info" && grep -q "Minimum:" <<<"$info" && grep -q "Maximum:" <<<"$info"; then
        pass "$name: lv2info shows class $class and the ranges"
    else
        fail "$name: lv2info (exit $status) does not show class $class and ranges; it printed: $(head -c 3000 <<<"$info")"
    fi
    local have
    have=$("$host" units "$uri" | sed -E 's|unit=http://lv2plug.in/ns/extensions/units#|unit=|' | awk '{print $1 "=" substr($2, 6)}')
    local missing=""
    for u in $units; do grep -qx "$u" <<<"$have" || missing="$missing $u"; done
    if [ -z "$missing" ]; then pass "$name: units ($units)"; else fail "$name: units missing:$missing (have: $(echo $have))"; fi
    if grep -q "RUNPATH.*lib/swift/linux" <<<"$(readelf -d "$bundle"/lib*.so)" && ! grep -q "not found" <<<"$(ldd "$bundle"/lib*.so)"; then
        pass "$name: binary finds its Swift runtime without LD_LIBRARY_PATH (RUNPATH: $(readelf -d "$bundle"/lib*.so | sed -n 's/.*runpath: \[\(.*\)\]/\1/p'))"
    else
        fail "$name: the binary's Swift runtime is not found without LD_LIBRARY_PATH"
    fi
}

lv2_controls() { # "sym val sym val" → -c sym val …
    local out=() a=($1)
    for ((i = 0; i < ${#a[@]}; i += 2)); do out+=(-c "${a[i]}" "${a[i + 1]}"); done
    echo "${out[@]}"
}
host_values() { # "sym val sym val" → sym=val …
    local out=() a=($1)
    for ((i = 0; i < ${#a[@]}; i += 2)); do out+=("${a[i]}=${a[i + 1]}"); done
    echo "${out[@]}"
}
auhost_params() { # "A=1 B=2" → -p A=1 -p B=2
    local out=()
    for p in $1; do out+=(-p "$p"); done
    echo "${out[@]}"
}

# --- Effects -----------------------------------------------------------------------------------
for entry in "${effects[@]}"; do
    IFS='|' read -r name uri triple latency params controls units <<<"$entry"
    out="$work/out/$name"
    check_bundle "$name" "$uri" Plugin "$units"
    # lv2apply: one frame per run, no features at all.
    if lv2apply -i "$input" -o "$out-lv2apply.wav" $(lv2_controls "$controls") "$uri" >"$out-lv2apply.log" 2>&1 &&
        "$auhost" render -i "$input" -o "$out-auhost.wav" "$triple" $(auhost_params "$params") --tail 0 >"$out-auhost.log" 2>&1; then
        if r=$("$compare" "$out-lv2apply.wav" "$out-auhost.wav" "$latency" 2>&1); then
            pass "$name: lv2apply = auhost render (SDK build): $r"
        else
            fail "$name: lv2apply differs from auhost render: $r"
        fi
    else
        fail "$name: lv2apply or auhost render failed ($(tail -n 2 "$out-lv2apply.log" "$out-auhost.log" | tr '\n' ' '))"
    fi
    # State through lilv: saved from one instance, restored into another.
    if r=$("$host" state "$uri" "$input" "$out-state-saved.wav" "$out-state-restored.wav" $(host_values "$controls") 2>&1) &&
        c=$("$compare" "$out-state-saved.wav" "$out-state-restored.wav" 2>&1); then
        pass "$name: $r; $c"
    else
        fail "$name: state: $r ${c:-}"
    fi
    # Presets: every one lv2info lists loads through lilv and equals the SDK build's factory preset.
    mapfile -t presets < <(sed -n 's/^<\([^>]*#preset[0-9]*\)>$/\1/p' "$work/lv2/$name.lv2/manifest.ttl")
    listed=$(lv2info "$uri" | sed -n '/Presets:/,/Port 0:/p' | sed 's/^[[:space:]]*//')
    for preset in "${presets[@]}"; do
        label=$(grep -A4 "<$preset>" "$work/lv2/$name.lv2/manifest.ttl" | sed -n 's/.*rdfs:label "\(.*\)".*/\1/p')
        if ! grep -qx "$label" <<<"$listed"; then fail "$name: preset $label is not listed by lv2info"; continue; fi
        if "$host" render "$uri" "$input" "$out-preset.wav" --preset "$preset" >/dev/null 2>&1 &&
            "$auhost" render -i "$input" -o "$out-preset-auhost.wav" "$triple" --preset "$label" --tail 0 >/dev/null 2>&1 &&
            r=$("$compare" "$out-preset.wav" "$out-preset-auhost.wav" "$latency" 2>&1); then
            pass "$name: preset \"$label\" listed by lv2info, loaded through lilv = auhost render --preset: $r"
        else
            fail "$name: preset \"$label\": ${r:-a render failed}"
        fi
    done
    # auhost's validator (auval's checks) on the LV2 build, through auhost's LV2 provider (its
    # latency output now has the range its Turtle declares, so Saturator is checked too).
    if "$auhost" validate "$uri" >"$out-validate.log" 2>&1; then
        pass "$name: auhost validate passes the LV2 build ($(grep -c '  PASS' "$out-validate.log") checks)"
    else
        fail "$name: auhost validate: $(grep '  FAIL' "$out-validate.log" | head -n 2 | tr '\n' ' ')"
    fi
    # auhost with both builds in one process: SDK → LV2 in series equals SDK → SDK.
    json_params=$(echo "$params" | sed -E 's/([^ =]+)=([^ ]+)/"\1": \2/g; s/ "/, "/g')
    for second in "$uri" "$triple"; do
        tag=$([ "$second" = "$uri" ] && echo lv2 || echo sdk)
        cat >"$out-graph-$tag.json" <<EOF
{"sampleRate": 48000, "channels": 2, "block": 512, "threads": 0,
 "nodes": [{"name": "input", "unit": "$triple", "parameters": {$json_params}},
           {"name": "second", "unit": "$second", "parameters": {$json_params}}],
 "connections": [{"from": "input", "to": "second"}, {"from": "second", "to": "output"}],
 "output": {"file": "unused.wav"}}
EOF
        "$auhost" render -i "$input" -o "$out-graph-$tag.wav" --graph "$out-graph-$tag.json" --tail 0 >"$out-graph-$tag.log" 2>&1 ||
            fail "$name: auhost render --graph ($tag) failed: $(tail -n 1 "$out-graph-$tag.log")"
    done
    # Both graphs compensate both builds' latency (an LV2 unit knows its latency port's value from
    # AudioUnitInitialize on), so the outputs are aligned.
    if r=$("$compare" "$out-graph-lv2.wav" "$out-graph-sdk.wav" 2>&1); then
        pass "$name: auhost with the SDK and the LV2 build side by side = two SDK builds: $r"
    else
        fail "$name: auhost side by side: $r"
    fi
done

# Negative controls: the same comparison tells other settings apart, so the passes above can fail.
# solo-trem.wav is Tremolo at its defaults (rendered below for the two-plug-in check).
negative() { # label a b
    if "$compare" "$2" "$3" >/dev/null 2>&1; then fail "negative control: $1 compared equal"; else pass "negative control: $1 differ"; fi
}

# Two SDK LV2 binaries in one lilv host process, run block by block in turn.
if "$host" pair urn:auhost:aufx:trem:AUSd urn:auhost:aufx:chor:AUSd "$input" "$work/out/pair-trem.wav" "$work/out/pair-chor.wav" \
    >"$work/out/pair.log" 2>&1 &&
    "$auhost" render -i "$input" -o "$work/out/solo-trem.wav" "aufx trem AUSd" --tail 0 >/dev/null 2>&1 &&
    "$auhost" render -i "$input" -o "$work/out/solo-chor.wav" "aufx chor AUSd" --tail 0 >/dev/null 2>&1 &&
    a=$("$compare" "$work/out/pair-trem.wav" "$work/out/solo-trem.wav" 2>&1) &&
    b=$("$compare" "$work/out/pair-chor.wav" "$work/out/solo-chor.wav" 2>&1); then
    pass "Tremolo and Chorus LV2 binaries side by side in one process: each equals its SDK build ($a; $b)"
else
    fail "two LV2 binaries side by side: $(cat "$work/out/pair.log") ${a:-} ${b:-}"
fi
# lv2:enabled at 0 is BypassEffect: the input passes unchanged (not delayed by the latency).
if lv2apply -i "$input" -o "$work/out/Saturator-bypassed.wav" -c enabled 0 -c drive 40 urn:auhost:aufx:satu:AUSd \
    >"$work/out/Saturator-bypassed.log" 2>&1 && r=$("$compare" "$work/out/Saturator-bypassed.wav" "$input" 2>&1); then
    pass "Saturator: enabled 0 (bypass) passes the input unchanged: $r"
else
    fail "Saturator: bypass: ${r:-$(cat "$work/out/Saturator-bypassed.log")}"
fi

# A host that offers nothing and runs 10000 frames at once: the plug-in, told no block length,
# renders in slices of its default maximum (4096) and must not notice.
if "$host" render urn:auhost:aufx:chor:AUSd "$input" "$work/out/Chorus-bare.wav" --bare --block 10000 rate=1.5 depth=4 mix=60 \
    >"$work/out/Chorus-bare.log" 2>&1 && r=$("$compare" "$work/out/Chorus-bare.wav" "$work/out/Chorus-auhost.wav" 2>&1); then
    pass "Chorus: 10000-frame runs with no features (sliced inside) = auhost render: $r"
else
    fail "Chorus: 10000-frame runs with no features: ${r:-$(cat "$work/out/Chorus-bare.log")}"
fi
negative "Tremolo through lv2apply at rate 7 / depth 80 / triangle and the SDK build at its defaults" \
    "$work/out/Tremolo-lv2apply.wav" "$work/out/solo-trem.wav"
negative "Tremolo's state restored into a new instance and a new instance at its defaults" \
    "$work/out/Tremolo-state-restored.wav" "$work/out/solo-trem.wav"

# --- The instrument ----------------------------------------------------------------------------
IFS='|' read -r name uri triple latency params controls units <<<"$synth"
check_bundle "$name" "$uri" "Instrument Plugin" "$units"
if "$auhost" validate "$uri" >"$work/out/$name-validate.log" 2>&1; then
    pass "$name: auhost validate passes the LV2 build ($(grep -c '  PASS' "$work/out/$name-validate.log") checks)"
else
    fail "$name: auhost validate: $(grep '  FAIL' "$work/out/$name-validate.log" | head -n 2 | tr '\n' ' ')"
fi
"$root/Tests/LV2Export/make-notes.py" "$work/out" || fail "make-notes.py"
if "$auhost" render --midi "$work/out/notes.mid" "$triple" -o "$work/out/synth-auhost.wav" --tail 1 $(auhost_params "$params") \
    >"$work/out/synth-auhost.log" 2>&1 &&
    frames=$(soxi -s "$work/out/synth-auhost.wav" 2>/dev/null) &&
    "$host" midi "$uri" "$work/out/notes.txt" "$work/out/synth-lv2.wav" "$frames" $(host_values "$controls") >"$work/out/synth-lv2.log" 2>&1 &&
    r=$("$compare" "$work/out/synth-lv2.wav" "$work/out/synth-auhost.wav" 2>&1); then
    pass "$name: MIDI through lilv ($(cat "$work/out/synth-lv2.log")) = auhost render --midi: $r"
else
    fail "$name: MIDI: ${r:-a render failed} $(tail -n 1 "$work/out/synth-auhost.log" "$work/out/synth-lv2.log" 2>/dev/null | tr '\n' ' ')"
fi

# --- jalv, headless, on a private JACK server ---------------------------------------------------
"$root/scripts/reset-jack-state.sh"
server="auhost-lv2-export-$$"
jackd -n "$server" -r -d dummy -r 48000 -p 64 >"$work/jackd.log" 2>&1 &
jackd_pid=$!
trap 'kill "$jackd_pid" 2>/dev/null; wait "$jackd_pid" 2>/dev/null' EXIT
export JACK_DEFAULT_SERVER="$server"
for i in $(seq 50); do jack_lsp >/dev/null 2>&1 && break; sleep 0.1; done
for entry in "${effects[@]}" "$synth"; do
    IFS='|' read -r name uri _ <<<"$entry"
    # jalv's console reads commands from standard input and quits at its end: keep it open.
    sleep 13 | timeout 10 jalv "$uri" >"$work/out/$name-jalv.log" 2>&1 &
    jalv_job=$!
    sleep 5
    ports=$(jack_lsp 2>/dev/null | grep -c "^$name:") # jalv names its client after doap:name
    wait "$jalv_job"
    status=$? # 124: still running when timeout stopped it after 10 s
    if [ "$status" -eq 124 ] && grep -q "^Block length: *64 frames" "$work/out/$name-jalv.log" && [ "$ports" -gt 0 ] &&
        ! grep -qiE "error|fail|crash" "$work/out/$name-jalv.log"; then
        pass "$name: jalv ran 10 s on jackd's dummy backend (64-frame periods), $ports JACK ports"
    else
        fail "$name: jalv (status $status): $(tail -n 3 "$work/out/$name-jalv.log" | tr '\n' ' ') ($ports JACK ports)"
    fi
done

# Last, since it rebuilds the template: an effect declaring 1 in → 2 out has no N → N port
# layout (the SDK's kernels process as many channels out as in); its bundle is refused, naming it.
(
    cd "$author/Brightener"
    export AUHOST_SDK="$root/SDK"
    sed -i 's|public enum Param: AudioUnitParameterID { case level, invert }|&\n    public static var channelCapabilities: [AUChannelInfo] { [AUChannelInfo(inChannels: 1, outChannels: 2)] }|' \
        Sources/Brightener/Brightener.swift
    make >"$author/one-to-two.log" 2>&1
)
if [ $? -ne 0 ] && grep -q "first channel configuration (1 → 2) has no N in = N out" "$author/one-to-two.log"; then
    pass "an effect declaring 1 → 2: the bundle is refused, naming the configuration"
else
    fail "an effect declaring 1 → 2: expected the bundle to be refused with the configuration named (see $author/one-to-two.log)"
fi

echo
if [ "$failures" -eq 0 ]; then echo "check-lv2-export: every check passed"; else echo "check-lv2-export: $failures failed"; fi
[ "$failures" -eq 0 ]
