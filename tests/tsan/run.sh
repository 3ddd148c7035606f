#!/usr/bin/env bash
# ThreadSanitizer run of tests/tsan/first_call.c (TAP): the TSan-built shim
# (build/tsan/libcryptoshim-tsan.so) preloaded into the TSan-built driver, stats
# on, once with a kernel forced (CRYPTOSHIM_KERNELS) and once under a policy
# file (CRYPTOSHIM_POLICY). Any ThreadSanitizer report fails (exit 66).
# Usage: run.sh TSAN_BUILD_DIR
set -u
dir=$(cd "${1:-build/tsan}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' 'mod_exp 256 8192 portable' 'mod_exp_consttime 256 8192 x86_64-adx' \
    'mod_exp_consttime_x2 256 8192 libcrypto' 'mod_exp2 256 8192 portable' >"$tmp/policy"
chmod 600 "$tmp/policy"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
echo "1..4"
n=0 status=0
for mode in kernel policy; do
    env=(LD_PRELOAD="$dir/libcryptoshim-tsan.so" CRYPTOSHIM_STATS="$tmp/$mode.stats")
    if [ $mode = kernel ]; then
        env+=(CRYPTOSHIM_KERNELS=portable)
    else
        env+=(CRYPTOSHIM_POLICY="$tmp/policy")
    fi
    env "${env[@]}" "$dir/tests/tsan_first_call" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    # The driver's own two results, renumbered.
    while read -r line; do
        case $line in
            "ok "*|"not ok "*)
                n=$((n + 1))
                echo "$line ($mode)" | sed -E "s/^(not )?ok [0-9]+/\\1ok $n/"
                ;;
        esac
    done <"$tmp/out"
    if [ "$rc" -ne 0 ]; then
        echo "# $mode: exit $rc"
        grep -E 'WARNING: ThreadSanitizer|SUMMARY|^    #[0-3] ' "$tmp/err" | head -20 | sed 's/^/# /'
        status=1
    fi
done
[ "$n" -eq 4 ] || { echo "not ok $((n + 1)) - driver reported $n of 4 results"; status=1; }
exit $status
