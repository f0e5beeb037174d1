# What the paced checks share (sourced by scripts/paced-device-check.sh, parallel-paced-check.sh,
# vpio-paced-check.sh): a scratch folder with a HOME for the .asoundrc, a jackd server of their own
# over the dummy backend (which keeps real time), an optional busy loop, and a clean-up that stops
# only what the script started. Thread class: n/a (build and test tooling).

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=${SCRATCH:-$ROOT/.build-examples}
JACKD_PID=""
BUSY_PID=""

# paced_begin NAME: the scratch folder ($WORK, with $WORK/home), the server name ($SERVER), the trap.
paced_begin() {
    WORK=$(mktemp -d "/tmp/$1.XXXXXX")
    SERVER="$1-$$"
    mkdir -p "$WORK/home"
    trap paced_cleanup EXIT INT TERM
    command -v jackd >/dev/null || { echo "jackd not found: apt-get install jackd2 libasound2-plugins" >&2; exit 1; }
}

paced_cleanup() {
    if [ -n "$BUSY_PID" ]; then kill "$BUSY_PID" 2>/dev/null || true; wait "$BUSY_PID" 2>/dev/null || true; fi
    if [ -n "$JACKD_PID" ]; then kill "$JACKD_PID" 2>/dev/null || true; wait "$JACKD_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}

# paced_build PRODUCT: the Examples program, release.
paced_build() {
    echo "building $1 (release, scratch path $SCRATCH)..." >&2
    swift build --package-path "$ROOT/Examples" --scratch-path "$SCRATCH" -c release --product "$1" >/dev/null
}

# paced_start_jackd PERIOD: starts the server and waits for it (up to 20 s: the machine may be busy).
paced_start_jackd() {
    JACK_DEFAULT_SERVER=$SERVER jackd --no-realtime -n "$SERVER" -d dummy -r 48000 -p "$1" >"$WORK/jackd.log" 2>&1 &
    JACKD_PID=$!
    i=0
    while [ $i -lt 20 ]; do
        sleep 1
        if command -v jack_wait >/dev/null; then
            JACK_DEFAULT_SERVER=$SERVER jack_wait -c >/dev/null 2>&1 && break
        elif [ $i -ge 2 ]; then
            break
        fi
        i=$((i + 1))
    done
}

# paced_busy: a `yes > /dev/null` loop on the other core until the script ends.
paced_busy() {
    yes > /dev/null &
    BUSY_PID=$!
}
