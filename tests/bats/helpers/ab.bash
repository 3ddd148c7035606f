# Helpers for the A/B harness suites: run `cryptoshim ab` briefly and check
# its outputs. Timing never decides pass or fail: exit status 0 (faster or no
# difference) and 1 (slower) are both accepted, 2 (error) is not.

# ab_run OUTDIR ARGS...: runs `cryptoshim ab ARGS --out OUTDIR`.
ab_run() {
    local out=$1; shift
    run timeout --kill-after=10 300 "$CLI" ab "$@" --out "$out"
    echo "$output"
    [ "$status" -eq 0 ] || [ "$status" -eq 1 ]
}

# ab_check OUTDIR N: the report, CSV, and plots exist; N client samples and
# N server-side (wire) samples per side; a verdict is stated.
ab_check() {
    local out=$1 n=$2 side metric count
    [ -s "$out/report.md" ]
    [ -s "$out/samples.csv" ]
    [ -s "$out/plot.png" ]
    [ -s "$out/plot.svg" ]
    grep -q '^\*\*Verdict\*\*' "$out/report.md"
    grep -q 'B/A ratio of medians' "$out/report.md"
    head -1 "$out/samples.csv" | grep -qx 'side,block,index,metric,microseconds'
    for side in A B; do
        for metric in client server; do
            count=$(grep -c "^$side,[0-9]*,[0-9]*,$metric," "$out/samples.csv")
            echo "$side $metric samples: $count"
            [ "$count" -eq "$n" ]
        done
    done
    [ "$(head -c 4 "$out/plot.png" | od -An -c | tr -d ' ')" = '211PNG' ]
    grep -q '<svg' "$out/plot.svg"
}
