#!/usr/bin/env bash
# JACK keeps its server registry in /dev/shm; a server killed on purpose (the device-disappears
# tests do that) leaves its entry behind, and after eight of them no server can start ("Too many
# servers already active"). When no jackd is running, nothing there is in use: clear it.
set -u
if ! pgrep -x jackd >/dev/null 2>&1; then
    rm -rf /dev/shm/jack-* /dev/shm/jack_* 2>/dev/null || true
fi
