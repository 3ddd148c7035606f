#!/usr/bin/env bats
# Policy files and environment controls as a user (or an attacker) meets
# them: FIFOs, /dev/stdin, truncated and binary files, unknown kernels, huge
# and negative numbers, files others can write, a policy from another CPU;
# CRYPTOSHIM_CPU closing over dependent features and CRYPTOSHIM_KERNELS of
# any length. Each bad file gives one note in `cryptoshim info`, the built-in
# table, and never a hang or a crash. A few seconds.

load "helpers/common"

setup() {
    cs_env
    cs_require
    cd "$BATS_TEST_TMPDIR"
    SIG=$("$CLI" info | sed -n 's/^cpu signature *//p')
}

# note_for FILE: the policy note `cryptoshim info` prints with CRYPTOSHIM_POLICY=FILE.
note_for() {
    env CRYPTOSHIM_POLICY="$1" "$CLI" info | sed -n 's/^policy note *//p'
}

# refused FILE WORDS: info says the file is ignored, in one line naming WORDS,
# and the built-in table is in force.
refused() {
    local out
    out=$(env CRYPTOSHIM_POLICY="$1" "$CLI" info)
    echo "$out" | grep -q '^dispatch (built-in policy)'
    [ "$(echo "$out" | grep -c '^policy note')" -eq 1 ]
    echo "$out" | grep '^policy note' | grep -q -- "$2"
}

# served_by POLICY BITS: kernels counted for openssl speed rsa at BITS under
# the shim with CRYPTOSHIM_POLICY=POLICY (a real process: the constructor path).
served_by() {
    local stats=$BATS_TEST_TMPDIR/served.$RANDOM.stats
    env CRYPTOSHIM_POLICY="$1" CRYPTOSHIM_STATS="$stats" LD_PRELOAD="$SHIM" \
        openssl speed -seconds 1 "rsa$2" >/dev/null 2>&1
    stats_rows "$stats" | awk -F'\t' -v b="$2" '$1 == "mod_exp" && $3 == b { print $2 }' | sort -u
}

@test "policy: a FIFO does not block the constructor, and is refused" {
    mkfifo fifo
    run timeout 20 env CRYPTOSHIM_POLICY="$PWD/fifo" LD_PRELOAD="$SHIM" openssl version
    [ "$status" -eq 0 ]
    refused "$PWD/fifo" "not a regular file"
}

@test "policy: /dev/stdin is refused and the program's input is not eaten" {
    run sh -c "printf 'mod_exp 0 16384 portable\n' | \
        env CRYPTOSHIM_POLICY=/dev/stdin LD_PRELOAD='$SHIM' cat"
    [ "$status" -eq 0 ]
    [ "$output" = "mod_exp 0 16384 portable" ]
    refused /dev/stdin "symbolic link"
    refused /dev/null "not a regular file"
}

@test "policy: a truncated calibrated file is refused whole" {
    "$CLI" calibrate -t 0.01 -b 1024 -o full.txt 2>/dev/null
    grep -q '^end$' full.txt
    head -n -1 full.txt >cut.txt   # no `end`
    refused "$PWD/cut.txt" "truncated"
    head -c $(($(grep -b '^measured' full.txt | cut -d: -f1) + 120)) full.txt >cut2.txt # mid-line
    refused "$PWD/cut2.txt" "line"
}

@test "policy: binary garbage is refused in one line" {
    head -c 4096 /dev/urandom >garbage
    refused "$PWD/garbage" "not text"
    printf 'mod_exp 0 16384 portable\n\0\n' >nul
    refused "$PWD/nul" "line 2: not text"
}

@test "policy: an unknown kernel or operation is an error, not a skipped rule" {
    printf 'mod_exp 0 16384 portable\nmod_exp 0 16384 x86_64-nosuch\n' >p
    refused "$PWD/p" "line 2: unknown kernel"
    printf 'rsa 0 16384 portable\n' >p2
    refused "$PWD/p2" "line 1: unknown operation"
    # Nothing from the file applies: the valid first rule is not used.
    [ "$(served_by "$PWD/p" 2048)" != "portable" ]
}

@test "policy: huge and negative numbers are refused, not wrapped" {
    for n in -1 4294967297 18446744073709551617 99999999999999999999999 1e3 0x800; do
        printf 'mod_exp 0 %s portable\n' "$n" >p
        refused "$PWD/p" "bits must be"
    done
    head -c 70000 /dev/zero | tr '\0' '#' >big
    refused "$PWD/big" "larger than 65536"
}

@test "policy: a file others can write is ignored with a note" {
    printf 'mod_exp 0 16384 portable\n' >p
    chmod 666 p
    refused "$PWD/p" "writable by group or others"
    chmod 644 p
    [ -z "$(note_for "$PWD/p")" ]
    [ "$(served_by "$PWD/p" 2048)" = "portable" ]
    # Owned by another user (neither root nor the one running): refused.
    if [ "$(id -u)" -eq 0 ]; then
        d=$(mktemp -d /tmp/cs-policy-owner-XXXXXX) # reachable by the other user
        chmod 755 "$d"
        cp p "$d/q"
        chown nobody "$d/q"
        run setpriv --reuid=daemon --regid=daemon --clear-groups \
            env CRYPTOSHIM_POLICY="$d/q" "$CLI" info
        rm -rf "$d"
        [[ "$output" == *"ignored (built-in table used): owned by uid $(id -u nobody), not root or this user"* ]]
    fi
}

@test "policy: a file measured on another CPU is ignored with a note" {
    printf 'cpu GenuineIntel-00050650:bmi2+adx+avx2+fma+avx512ifma\nmod_exp 0 16384 portable\nend\n' >p
    [ "$SIG" != "GenuineIntel-00050650:bmi2+adx+avx2+fma+avx512ifma" ]
    refused "$PWD/p" "measured on another CPU"
    printf 'cpu %s\nmeasured 2026-12-01T06:00Z\nmod_exp 0 16384 portable\nend\n' "$SIG" >q
    run env CRYPTOSHIM_POLICY="$PWD/q" "$CLI" info
    [[ "$output" == *"policy             $PWD/q (measured 2026-12-01T06:00Z)"* ]]
    [[ "$output" == *"dispatch (file policy)"* ]]
}

@test "CRYPTOSHIM_CPU=-avx2 also disables the kernels needing AVX2 (IFMA, FMA)" {
    run env CRYPTOSHIM_CPU=-avx2 "$CLI" info
    [ "$status" -eq 0 ]
    used=$(echo "$output" | sed -n 's/^cpu used *//p')
    [[ " $used " != *" avx2 "* && " $used " != *" fma "* && " $used " != *" avx512ifma "* ]]
    echo "$output" | grep -E '^  x86_64-ifma ' | grep -q 'not usable here'
    echo "$output" | grep -E '^  x86_64-fma ' | grep -q 'not usable here'
    # A value not understood is shown, not silently dropped.
    run env CRYPTOSHIM_CPU=avx2 "$CLI" info
    [[ "$output" == *"controls note      CRYPTOSHIM_CPU: 'avx2' not understood"* ]]
}

@test "CRYPTOSHIM_KERNELS longer than 253 characters is honoured" {
    v=$(printf 'portable,%.0s' $(seq 40))x86_64-nosuch
    [ "${#v}" -gt 253 ]
    run env CRYPTOSHIM_KERNELS="$v" "$CLI" info
    echo "$output" | grep -E '^  mod_exp_consttime ' | grep -q portable
    [[ "$output" == *"'x86_64-nosuch' is no kernel of this build"* ]]
    stats=$BATS_TEST_TMPDIR/k.stats
    env CRYPTOSHIM_KERNELS="$v" CRYPTOSHIM_STATS="$stats" LD_PRELOAD="$SHIM" \
        openssl speed -seconds 1 rsa2048 >/dev/null 2>&1
    [ "$(stats_sum "$stats" portable mod_exp 2048)" -gt 0 ]
}

@test "CRYPTOSHIM_KERNELS family:name forces one family; a bare name every family having it" {
    # A big-number kernel alone leaves ML-DSA, ML-KEM and Keccak to the policy.
    run env CRYPTOSHIM_KERNELS=bn:portable "$CLI" info
    [ "$status" -eq 0 ]
    echo "$output" | grep -E '^  mod_exp_consttime ' | grep -q portable
    base=$("$CLI" info | grep -E '^  (ML-DSA-65|ML-KEM-768|Keccak) ')
    [ "$(echo "$output" | grep -E '^  (ML-DSA-65|ML-KEM-768|Keccak) ')" = "$base" ]
    # mldsa:portable forces ML-DSA only; the big numbers keep the policy's rows.
    run env CRYPTOSHIM_KERNELS=mldsa:portable "$CLI" info
    echo "$output" | grep -E '^  ML-DSA-65 ' | grep -q ' portable '
    [ "$(echo "$output" | grep -E '^  mod_exp ')" = "$("$CLI" info | grep -E '^  mod_exp ')" ]
    [[ "$output" != *"is no kernel of this build"* ]]
    # A bare portable forces every family; an unknown qualified name is reported.
    run env CRYPTOSHIM_KERNELS=portable,mlkem:nosuch "$CLI" info
    echo "$output" | grep -E '^  ML-KEM-768 ' | grep -q ' portable '
    echo "$output" | grep -E '^  Keccak ' | grep -q ' portable '
    [[ "$output" == *"'mlkem:nosuch' is no kernel of this build"* ]]
    # info lists every family with its qualifier.
    [[ "$output" == *"ML-KEM implementations (mlkem:NAME in CRYPTOSHIM_KERNELS):"* ]]
    [[ "$output" == *"Keccak implementations (keccak:NAME in CRYPTOSHIM_KERNELS):"* ]]
}

@test "info says where each group of built-in rules was measured" {
    run env CRYPTOSHIM_POLICY=builtin "$CLI" info
    [ "$status" -eq 0 ]
    if [ "$(uname -m)" = x86_64 ]; then
        [[ "$output" == *"Zen 4"* && "$output" == *"Zen 5"* && "$output" == *"model 167"* ]]
    fi
}

@test "a policy file's mldsa and mlkem rules decide those families; others keep the built-in rules" {
    sig=$("$CLI" info | sed -n 's/^cpu signature *//p')
    printf 'cpu %s\nmeasured 2026-12-07T03:00Z\nmldsa 0 100 portable\nmlkem 0 2000 libcrypto\nend\n' "$sig" >p
    chmod 600 p
    run env CRYPTOSHIM_POLICY="$PWD/p" "$CLI" info
    [ "$status" -eq 0 ]
    echo "$output" | grep -E '^  ML-DSA-87 ' | grep -q ' portable '
    echo "$output" | grep -E '^  ML-KEM-512 ' | grep -q 'not offered'
    # the big numbers and Keccak: the built-in rules (the file has none)
    [ "$(echo "$output" | grep -E '^  (mod_exp_consttime|Keccak) ')" = \
      "$(env CRYPTOSHIM_POLICY=builtin "$CLI" info | grep -E '^  (mod_exp_consttime|Keccak) ')" ]
    printf 'keccak 0 2000 libcrypto\nend\n' >q
    chmod 600 q
    run env CRYPTOSHIM_POLICY="$PWD/q" "$CLI" info
    [[ "$output" == *"line 1: Keccak has no libcrypto path"* ]]
}
