#!/usr/bin/env bash
# `make fuzz-campaign TARGET=NAME SECONDS=N`: a resumable fuzz campaign.
# Runs the campaign build of NAME at nice 19 for N seconds of fuzzing from
# the tree's corpus tests/fuzz/corpus/NAME, merges what it found back into
# that corpus minimised (libFuzzer's merge), and appends one row (commit,
# date, CPU, target, executions, findings) to the ledger in docs/fuzzing.md.
#
# Benchmarks run under the file lock /tmp/cryptoshim-bench.lock, and
# fuzzing must not run beside one: while the lock is held the fuzzer is
# stopped (SIGSTOP) and continued (SIGCONT) when it is free; paused time
# does not count. libFuzzer's per-input timeout runs on the wall clock, so
# a pause longer than PAUSE_MAX seconds ends the fuzzer cleanly (SIGINT,
# delivered before the alarm) and a new one starts when the lock is free.
# SIGINT/SIGTERM stop the campaign: the fuzzer ends cleanly, the merge and
# the ledger row cover what ran.
# RUNS (optional, 0: no limit) ends the campaign once that many inputs
# have run, sooner than SECONDS.
# A Python driver tests/fuzz/NAME.py (fuzz_pcap.py) runs the same way,
# paused alike, for SECONDS of CPU with a seed from the clock; it has no
# corpus to merge (RUNS does not apply).
# Usage: campaign.sh BIN_DIR NAME SECONDS [RUNS]
# The whole script is one compound command, read before it runs: editing or
# checking out this file during a campaign cannot change what it does.
{
set -u
cd "$(dirname "$0")/../.."
. tests/fuzz/options.sh
bindir=$1 name=$2 budget=$3 runs=${4:-0}
bin=$bindir/$name
corpus=tests/fuzz/corpus/$name
work=$bindir/campaign/$name
findings=$work/findings
lock=${FUZZ_BENCH_LOCK:-/tmp/cryptoshim-bench.lock} # another path only for testing this script
ledger=docs/fuzzing.md
PAUSE_MAX=${PAUSE_MAX:-90} # under fuzz_options' -timeout=120

driver=tests/fuzz/$name.py
[ -f "$driver" ] || [ -x "$bin" ] || { echo "campaign: no $bin (make fuzz-campaign-build)" >&2; exit 2; }
mkdir -p "$corpus" "$findings" "$work"
rm -rf "$work/new" "$work/merged"
mkdir -p "$work/new" "$work/merged"
stamp=$work/started
: >"$stamp"

# The code fuzzed: the commit at the start (and whether the tree differs).
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- . ':!docs/fuzzing.md' ':!tests/fuzz/corpus' || commit="$commit+changes"

stop=0 pauses=0 paused_s=0
trap 'stop=1' INT TERM

# Whether a benchmark holds the lock now.
bench_running() { ! flock -n "$lock" true 2>/dev/null; }

# Signal to the process group of the job started by start_job.
signal_job() { kill "-$1" -- "-$job" 2>/dev/null; }

# Starts "$@" at nice 19 in a process group of its own (so that a pause
# reaches libFuzzer's merge child too); its pid in $job.
start_job() {
    nice -n 19 setsid "$@" &
    job=$!
}

# Waits for the job while keeping it off the CPU during benchmarks. With
# a time budget (seconds, 0: none) it is interrupted once it has run that
# long, not counting pauses. Sets $ran (seconds run) and $rc.
watch_job() {
    local limit=$1 paused=0 t0 now
    ran=0
    t0=$(date +%s)
    while kill -0 "$job" 2>/dev/null; do
        if [ "$stop" = 1 ]; then
            signal_job INT; signal_job CONT
            break
        fi
        if bench_running; then
            if [ "$paused" = 0 ]; then
                signal_job STOP
                now=$(date +%s); ran=$((ran + now - t0)); paused=$now
                pauses=$((pauses + 1))
            elif [ $(($(date +%s) - paused)) -ge "$PAUSE_MAX" ] && [ "$limit" != 0 ]; then
                signal_job INT; signal_job CONT # the INT is handled first
                break
            fi
        elif [ "$paused" != 0 ]; then
            signal_job CONT
            t0=$(date +%s) paused_s=$((paused_s + t0 - paused)) paused=0
        fi
        if [ "$limit" != 0 ] && [ "$paused" = 0 ] && [ $((ran + $(date +%s) - t0)) -ge "$limit" ]; then
            signal_job INT
            break
        fi
        sleep 1
    done
    if [ "$paused" = 0 ]; then
        ran=$((ran + $(date +%s) - t0))
    else
        paused_s=$((paused_s + $(date +%s) - paused))
    fi
    # a trapped signal ends wait early: wait again until the job is reaped
    wait "$job"
    rc=$?
    while kill -0 "$job" 2>/dev/null; do
        wait "$job"
        rc=$?
    done
}

# Fuzzing in segments (a new one after each long pause) until the budget
# is spent, the campaign is stopped or a segment finds something.
execs=0 spent=0 seg=0 found=0
if [ -f "$driver" ]; then
    while bench_running && [ "$stop" = 0 ]; do sleep 1; done
    seg=1 log=$work/fuzz-1.log
    start_job python3 "$driver" "$budget" "$(date +%s)" "$findings" >"$log" 2>&1
    watch_job 0
    spent=$ran
    execs=$(sed -n 's/^ok 1 - [a-z_]*: \([0-9]*\) .*/\1/p; s/^not ok 1 - [a-z_]*: input \([0-9]*\) .*/\1/p' "$log")
    execs=${execs:-0}
    [ "$rc" = 0 ] || [ "$stop" = 1 ] || found=1
    budget=0 # no libFuzzer segments
fi
while [ "$stop" = 0 ] && [ "$spent" -lt "$budget" ] && [ "$found" = 0 ] &&
    { [ "$runs" = 0 ] || [ "$execs" -lt "$runs" ]; }; do
    while bench_running && [ "$stop" = 0 ]; do sleep 1; done
    [ "$stop" = 1 ] && break
    seg=$((seg + 1))
    log=$work/fuzz-$seg.log
    # shellcheck disable=SC2046
    start_job "$bin" $(fuzz_options "$name") -artifact_prefix="$findings/" \
        -runs=$([ "$runs" = 0 ] && echo -1 || echo $((runs - execs))) \
        "$work/new" "$corpus" >"$log" 2>&1
    watch_job $((budget - spent))
    spent=$((spent + ran))
    n=$(awk '/^stat::number_of_executed_units/ { print $2 }' "$log")
    execs=$((execs + ${n:-0}))
    # 0: ran out, 72: interrupted (libFuzzer's -interrupted_exitcode)
    [ "$rc" = 0 ] || [ "$rc" = 72 ] || found=1
done
# slow-unit-* files are not findings (an input slow on a loaded machine)
nfind=$(find "$findings" -type f -newer "$stamp" \( -name 'crash-*' -o -name 'timeout-*' \
    -o -name 'leak-*' -o -name 'oom-*' \) | wc -l)
[ "$found" = 1 ] && [ "$nfind" = 0 ] && nfind=1

# Merge: the corpus and the new inputs into a fresh minimised corpus,
# replacing the tree's corpus: a greedy smallest set of inputs with all
# their features (-set_cover_merge, -merge's minimisation done better),
# or, if that is still over MAX_FILES inputs, with all their edges
# (-use_counters=0: hit counts no longer count). It runs after a stop
# too; a second SIGINT/SIGTERM abandons it.
MAX_FILES=${MAX_FILES:-300}
merge_into() {
    rm -rf "$work/merged" && mkdir -p "$work/merged"
    while bench_running && [ "$stop" = 0 ]; do sleep 1; done
    # shellcheck disable=SC2046
    start_job "$bin" $(fuzz_options "$name") -timeout=3600 -set_cover_merge=1 "$@" \
        -artifact_prefix="$findings/" "$work/merged" "$corpus" "$work/new" \
        >"$work/merge.log" 2>&1
    watch_job 0
    [ "$rc" = 0 ] && [ "$stop" = 0 ] && [ -n "$(ls -A "$work/merged")" ]
}
merged=0 stopped=$stop stop=0
# SECONDS=0: no fuzzing, the tree's corpus minimised again.
if [ ! -f "$driver" ] && { [ -n "$(ls -A "$work/new")" ] || [ "$budget" = 0 ]; } && merge_into; then
    if [ "$(find "$work/merged" -type f | wc -l)" -le "$MAX_FILES" ] || merge_into -use_counters=0; then
        find "$corpus" -maxdepth 1 -type f -delete
        cp "$work/merged"/* "$corpus/"
        merged=1
    fi
fi
files=$(find "$corpus" -maxdepth 1 -type f | wc -l)

# The ledger row, inserted after the last row of the table under
# "## Ledger" (none when nothing ran).
cpu=$(awk -F': ' '/^model name/ { m = $2 } /^cpu family/ { f = $2 } /^model\t/ { n = $2 }
                  END { printf "%s (family %s model %s)", m, f, n; exit }' /proc/cpuinfo)
when=$(date -u '+%Y-%m-%d %H:%M')
grouped=$(echo "$execs" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
row="| $commit | $when | $cpu | \`$name\` | $grouped ($spent s) | $nfind |"
awk -v row="$row" '
    { lines[NR] = $0 }
    /^## Ledger/ { in_ledger = 1 }
    in_ledger && /^\|/ { last = NR }
    in_ledger && /^## / && !/^## Ledger/ { in_ledger = 0 }
    END {
        for (i = 1; i <= NR; i++) {
            print lines[i]
            if (i == last) print row
        }
        if (!last) { print ""; print "## Ledger"; print row }
    }' "$ledger" >"$work/ledger.md"
[ "$seg" = 0 ] || cat "$work/ledger.md" >"$ledger"

echo "$name: $execs executions in $spent s ($seg segment(s), $pauses pause(s) for benchmarks," \
    "$paused_s s), $nfind finding(s);" \
    "corpus $files files$([ "$merged" = 1 ] || echo ", not merged")"
if [ "$nfind" != 0 ]; then
    echo "findings under $findings/ (log: $work/fuzz-$seg.log):"
    grep -hE '^(DIVERGENCE|POLICY PARSER|MLDSA|SUMMARY|==[0-9]+==ERROR|not ok|# )' \
        "$work"/fuzz-*.log | head -8
    exit 1
fi
[ "$stopped" = 1 ] && exit 130
exit 0
}
