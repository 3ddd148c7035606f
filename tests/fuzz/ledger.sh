#!/usr/bin/env bash
# Prints the executions per target summed over the ledger in
# docs/fuzzing.md (its "## Ledger" table), and the findings.
set -u
cd "$(dirname "$0")/../.."
awk -F'|' '
    /^## Ledger/ { on = 1; next }
    on && /^## / { on = 0 }
    on && /^\|/ && !/^\| *commit/ && !/^\|---/ {
        t = $5; gsub(/[ `]/, "", t)
        n = $6; sub(/\(.*/, "", n); gsub(/[ ,]/, "", n)
        f = $7; gsub(/ /, "", f)
        if (n ~ /^[0-9]+$/) { sum[t] += n; find[t] += f }
    }
    END { for (t in sum) printf "%-20s %12d executions, %d findings\n", t, sum[t], find[t] }
' docs/fuzzing.md | sort
