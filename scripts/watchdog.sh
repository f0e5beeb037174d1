#!/usr/bin/env bash
# watchdog.sh QUIET_SECONDS COMMAND...: runs COMMAND; when it prints nothing for QUIET_SECONDS
# (XCTest prints a line as each test starts and ends, and no test takes a minute), prints every
# thread's stack of each of its processes (gdb) and kills them, so a hung test fails the run in
# minutes with the place it hangs instead of running into CI's time limit without a word.
# Exit status: COMMAND's, or 124 after a hang.
# Thread class: n/a (build tooling).
set -uo pipefail
quiet=$1
shift
log=$(mktemp)

# Job control puts COMMAND in a process group of its own, so the whole tree (swift test, the test
# bundle, jackd, children) is found and killed. SIGINT at its default action whatever this script
# inherited (a background job of a shell without job control starts with it ignored), or the
# tests that interrupt a child of theirs with SIGINT would wait for it forever.
set -m
env --default-signal=INT "$@" > >(tee -a "$log") 2> >(tee -a "$log" >&2) &
group=$!
# Whatever ends this script ends COMMAND's group too (job control keeps it out of this one's).
trap 'kill -TERM -- -"$group" 2>/dev/null; rm -f "$log"' EXIT
trap 'exit 130' INT TERM

# COMMAND's process group and every descendant of its leader, whatever group they moved to.
tree_of() {
  ps -eo pid=,ppid=,pgid= | awk -v root="$1" '
    { parent[$1] = $2; group[$1] = $3 }
    END {
      for (pid in parent) {
        for (p = pid; p != "" && p != 0 && p != 1; p = parent[p]) if (p == root || group[pid] == root) { print pid; break }
      }
    }'
}

size=-1
idle=0
while kill -0 "$group" 2>/dev/null; do
  sleep 5
  now=$(stat -c %s "$log")
  if [ "$now" != "$size" ]; then size=$now idle=0; else idle=$((idle + 5)); fi
  [ "$idle" -lt "$quiet" ] && continue
  echo "watchdog: no output for $quiet s from: $*; the stacks of its processes follow" >&2
  processes=$(tree_of "$group")
  for pid in $processes; do
    echo "=== process $pid: $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | cut -c1-200)" >&2
    timeout 120 gdb -batch -nx -p "$pid" -ex 'thread apply all bt 40' 2>&1 | grep -E '^(Thread|#)' >&2
  done
  kill -KILL -- -"$group" 2>/dev/null
  # `swift test` starts the test bundle in a process group of its own: killing the group alone
  # left it spinning for 20 minutes after a hang was reported.
  for pid in $processes; do kill -KILL "$pid" 2>/dev/null; done
  wait "$group" 2>/dev/null
  exit 124
done
wait "$group"
