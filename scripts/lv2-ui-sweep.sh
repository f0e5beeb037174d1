#!/usr/bin/env bash
# Opens every UI of every installed LV2 plug-in that declares one (issue 30), each through
# `auhost ui` on a private Xvfb, and tabulates UI kind x outcome:
#   drew        opened, and its window was not uniform 2 s later (within 5 s of the start)
#   blank       opened, but its window was one colour
#   unsupported a kind the child cannot show (suil has no module for an X11 or Gtk2 host: Gtk3)
#   needs-instance  requires instance-access/data-access and was refused (auhost ui shows such a UI
#               beside the plug-in, the unit out of process: this is left for a failure to do so)
#   failed      the UI (or its unit) did not load: the reason is the plug-in's or suil's
#   crashed     the UI's process died; auhost (the host) reported it and exited normally
#   hung        auhost did not finish within 30 s (killed)
# Not part of `make test`: it depends on what is installed. Usage:
#   scripts/lv2-ui-sweep.sh [OUTDIR]     (default .build/ui-sweep; needs a built .build/debug/auhost)
#   SWEEP_FILTER=REGEX limits it to plug-in URIs matching REGEX.
# Writes OUTDIR/results.tsv, OUTDIR/summary.md and a PNG per UI that drew.
# Thread class: n/a (tooling).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/ui-sweep}
auhost=${AUHOST:-.build/debug/auhost}
mkdir -p "$out/shots"
exec 3< <(Xvfb -displayfd 1 -screen 0 1920x1200x24 -nolisten tcp 2>/dev/null & echo "pid $!")
read -r _ xvfb_pid <&3
read -r number <&3
export DISPLAY=":$number"
trap 'kill $xvfb_pid 2>/dev/null' EXIT

results="$out/results.tsv"
printf 'plugin\tui\tkind\toutcome\tseconds\treason\n' > "$results"
for plugin in $(lv2ls | grep -E -- "${SWEEP_FILTER:-.}"); do
    listing=$("$auhost" ui --list "$plugin" 2>/dev/null) || continue
    grep -qE '^[0-9]+ ' <<<"$listing" || continue
    while read -r index kind rest; do
        ui=${rest##* }
        shot="$out/shots/$(tr -c 'A-Za-z0-9' _ <<<"$ui").ppm"
        rm -f "$shot"
        start=$(date +%s.%N)
        log=$(timeout -k 5 30 "$auhost" ui "$plugin" --ui "$index" --seconds 2 --screenshot "$shot" 2>&1)
        status=$?
        seconds=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $start }")
        reason=$(grep -m1 '^Error:' <<<"$log" | cut -c8- | tr '\t\n' '  ' | cut -c1-300)
        if [ $status -eq 124 ] || [ $status -eq 137 ]; then outcome=hung
        elif grep -q -- '-66805' <<<"$reason"; then outcome=crashed
        elif grep -q -- '-66801' <<<"$reason"; then outcome=unsupported
        elif grep -q -- '-66806' <<<"$reason"; then outcome=needs-instance
        elif [ $status -ne 0 ]; then outcome=failed
        elif [ -s "$shot" ] && [ "$(convert "$shot" -format '%k' info: 2>/dev/null)" -gt 1 ]; then
            outcome=drew
            convert "$shot" "${shot%.ppm}.png" && rm -f "$shot"
        else outcome=blank
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$plugin" "$ui" "${kind%% *}" "$outcome" "$seconds" "$reason" >> "$results"
        echo "$outcome $seconds s $ui"
    done <<<"$listing"
done

# Kind x outcome, as a Markdown table.
awk -F'\t' 'NR > 1 { kinds[$3] = 1; outcomes[$4] = 1; count[$3 "\t" $4]++; total[$3]++ }
END {
    n = split("drew blank unsupported needs-instance failed crashed hung", order, " ")
    printf "| UI kind |"; for (i = 1; i <= n; i++) printf " %s |", order[i]; printf " total |\n"
    printf "|---|"; for (i = 1; i <= n; i++) printf "---|"; printf "---|\n"
    for (k in kinds) {
        printf "| %s |", k
        for (i = 1; i <= n; i++) printf " %d |", count[k "\t" order[i]]
        printf " %d |\n", total[k]
    }
}' "$results" | tee "$out/summary.md"
