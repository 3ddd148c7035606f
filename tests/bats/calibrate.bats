#!/usr/bin/env bats
# `cryptoshim calibrate` writes a policy file the shim accepts, and
# `calibrate --install --prefix DIR` installs it root-owned. Only the
# 1024-bit class is measured, with a tiny budget: the decisions themselves
# are not checked (timing never decides a test), only the file's form, its
# ownership and the refusal of bad arguments. A few seconds.

setup() {
    CLI=$CS_BUILD/cryptoshim
    [ -x "$CLI" ] || skip "cryptoshim not built"
    cd "$BATS_TEST_TMPDIR"
}

@test "calibrate writes a policy file that the shim loads" {
    run "$CLI" calibrate -t 0.05 -b 1024 -o policy.txt
    [ "$status" -eq 0 ]
    [ -s policy.txt ]
    # Progress on stderr, one line per case, and the total time.
    [[ "$output" == *"calibrate: [ 1/12]"* ]]
    [[ "$output" == *"calibrate: [12/12]"*"c25519 implementations"* ]]
    [[ "$output" == *"calibrate: measured in"* ]]
    # Every big-number rule line: op min max kernel @family, and each op ends with a
    # catch-all; the other families' rules (the shim's implementations measured
    # against each other) carry no family; the header names the CPU and the time,
    # and `end` closes the file.
    bad=$(grep -v '^#' policy.txt | sed 's/#.*//' |
        awk 'NF && $1 != "cpu" && $1 != "measured" && $1 != "end" &&
             (($1 ~ /^(mldsa|mlkem|keccak|c25519)$/ ? NF != 4 : (NF != 5 || $5 !~ /^@/)) || $2 > $3)' |
        wc -l)
    [ "$bad" -eq 0 ]
    for fam in mldsa mlkem c25519; do grep -qE "^$fam 0 65535 " policy.txt; done
    grep -q '^mod_exp 8193 16384 libcrypto @3.0' policy.txt
    grep -q '^mod_exp_consttime 8193 16384 libcrypto' policy.txt
    grep -q '^mod_exp2 8193 16384 libcrypto' policy.txt
    sig=$("$CLI" info | sed -n 's/^cpu signature *//p')
    grep -qx "cpu $sig" policy.txt
    grep -qE '^measured [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}Z$' policy.txt
    [ "$(tail -n 1 policy.txt)" = "end" ]
    run env CRYPTOSHIM_POLICY="$PWD/policy.txt" "$CLI" info
    [ "$status" -eq 0 ]
    [[ "$output" == *"file policy"* ]]
    [[ "$output" != *"policy note"* ]]
}

@test "calibrate rejects bad arguments with one line and writes nothing" {
    for args in "-x" "-t -1" "-t 0" "-t 1e999" "-t nan" "-t 99999999999999999999" "-t 5s" \
        "-b 1000" "-b 99999999999999999999" "-b 1024,,2048" "-b -1024" "-b 1024x" "-o" \
        "--prefix /tmp" "--install -o x.txt" "--install --prefix relative"; do
        run "$CLI" calibrate $args -o out.txt
        [ "$status" -eq 2 ] || { echo "status $status for: $args"; return 1; }
        [ "$(echo "$output" | grep -c 'cryptoshim calibrate:')" -eq 1 ] ||
            { echo "for: $args: $output"; return 1; }
        [ ! -e out.txt ]
        [ ! -e x.txt ]
    done
}

@test "calibrate --install --prefix to a missing directory fails at once, before measuring" {
    run "$CLI" calibrate --install --prefix "$PWD/absent"
    if [ "$(id -u)" -ne 0 ]; then
        [ "$status" -eq 1 ] && [[ "$output" == *"must run as root"* ]]
        return
    fi
    [ "$status" -eq 2 ]
    [ "$(echo "$output" | grep -c 'cryptoshim calibrate:')" -eq 1 ]
    [[ "$output" == *"not an existing directory; nothing measured"* ]]
    [[ "$output" != *"calibrate: ["* ]] # no progress line: nothing was measured
    [ ! -e absent ]
}

@test "calibrate --install --prefix DIR writes DIR/etc/cryptoshim/policy, root-owned 0644" {
    if [ "$(id -u)" -ne 0 ]; then
        run "$CLI" calibrate --install --prefix "$PWD/root" -t 0.01 -b 1024
        [ "$status" -eq 1 ]
        [[ "$output" == *"must run as root"* ]]
        return
    fi
    mkdir -m 755 root
    run "$CLI" calibrate --install --prefix "$PWD/root" -t 0.01 -b 1024
    [ "$status" -eq 0 ]
    [[ "$output" == *"installed $PWD/root/etc/cryptoshim/policy (root, 0644)"* ]]
    f=root/etc/cryptoshim/policy
    [ "$(stat -c '%u:%g %a' "$f")" = "0:0 644" ]
    [ "$(stat -c '%u %a' root/etc/cryptoshim)" = "0 755" ]
    [ "$(tail -n 1 "$f")" = "end" ]
    ! ls root/etc/cryptoshim | grep -v '^policy$' # no temporary file left
    run env CRYPTOSHIM_POLICY="$PWD/$f" "$CLI" info
    [[ "$output" == *"dispatch (file policy)"* ]]
    [[ "$output" == *"(measured 20"* ]]
    # Not as another user: the shim would not trust their file.
    run setpriv --reuid=nobody --regid=nogroup --clear-groups \
        "$CLI" calibrate --install --prefix "$PWD/root" -t 0.01 -b 1024
    [ "$status" -eq 1 ]
    [[ "$output" == *"must run as root"* ]]
    # A directory others can write is refused, not used.
    mkdir -p open/etc
    chmod 777 open/etc
    run "$CLI" calibrate --install --prefix "$PWD/open" -t 0.01 -b 1024
    [ "$status" -eq 1 ]
    [[ "$output" == *"not a root-owned directory closed to others"* ]]
}
