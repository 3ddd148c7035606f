#!/usr/bin/env bash
# The fuzz targets' short run in `make test` (TAP): target NAME for
# FUZZ_SMOKE_SECONDS (default 8) on the tree's corpus tests/fuzz/corpus/NAME,
# new inputs going to a temporary directory (the tree is not written).
# Usage: smoke.sh FUZZ_BINARY
set -u
cd "$(dirname "$0")/../.."
. tests/fuzz/options.sh
bin=$1 name=$(basename "$1")
secs=${FUZZ_SMOKE_SECONDS:-8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..1"
corpus=tests/fuzz/corpus/$name
[ -d "$corpus" ] || corpus= # a target whose campaign has not run yet
# shellcheck disable=SC2046
"$bin" $(fuzz_options "$name") -max_total_time="$secs" -artifact_prefix="$tmp/" \
    "$tmp" $corpus >"$tmp/log" 2>&1
rc=$?
runs=$(awk '/^stat::number_of_executed_units/ { print $2 }' "$tmp/log")
if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
    echo "ok 1 - $name: $runs executions in ${secs}s from the tree's corpus, no finding"
else
    echo "not ok 1 - $name: exit $rc"
    grep -E '^(DIVERGENCE|POLICY PARSER|SUMMARY|==[0-9]+==ERROR)' "$tmp/log" | head -5 | sed 's/^/# /'
    for f in "$tmp"/crash-* "$tmp"/timeout-* "$tmp"/leak-*; do
        [ -f "$f" ] && echo "# input (hex): $(od -An -tx1 -v "$f" | tr -d ' \n' | head -c 600)"
    done
    exit 1
fi
