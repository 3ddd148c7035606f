#!/usr/bin/env bash
# `make fuzz`: runs each fuzz target for FUZZ_SECONDS (default 60), its
# corpus growing under BUILD/corpus/NAME (seeded from tests/fuzz/corpus/NAME),
# findings under BUILD/findings/NAME (binaries from FUZZ_BIN if set: the
# campaign build). Prints the executions per target and
# exits non-zero if any target found something.
# Usage: run.sh FUZZ_BUILD NAME...
set -u
cd "$(dirname "$0")/../.."
. tests/fuzz/options.sh
dir=$1; shift
secs=${FUZZ_SECONDS:-60}
status=0
for name in "$@"; do
    corpus=$dir/corpus/$name findings=$dir/findings/$name log=$dir/logs/$name.log
    mkdir -p "$corpus" "$findings" "$(dirname "$log")"
    seeds=tests/fuzz/corpus/$name
    [ -d "$seeds" ] || seeds= # a target whose campaign has not run yet
    # shellcheck disable=SC2046
    nice -n "${FUZZ_NICE:-0}" "${FUZZ_BIN:-$dir}/$name" $(fuzz_options "$name") -max_total_time="$secs" \
        -artifact_prefix="$findings/" "$corpus" $seeds >"$log" 2>&1
    rc=$?
    runs=$(awk '/^stat::number_of_executed_units/ { print $2 }' "$log")
    if [ "$rc" -eq 0 ]; then
        echo "$name: ${runs:-?} executions in ${secs}s, no finding"
    else
        echo "$name: FINDING (exit $rc), see $log and $findings/"
        grep -E '^(DIVERGENCE|POLICY PARSER|SUMMARY)' "$log" | head -3
        status=1
    fi
done
exit $status
