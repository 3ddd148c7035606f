#!/usr/bin/env bats
# `make deps` (scripts/deps.sh), the set-up step of `make demo` and `make
# test`: with nothing missing it is silent; not as root it names the missing
# packages and prints the one apt-get line, exits 1, and changes nothing; the
# package list itself is well formed. Installing is not exercised here (it
# would change the machine); `make test` on a fresh machine does that.
# A few seconds.

load "helpers/common"

setup() {
    cs_env
    # A copy of the script and a list that the unprivileged user can read
    # (the bats temporary folder and the checkout may not be).
    D=$(mktemp -d /tmp/cryptoshim-deps-XXXXXX)
    mkdir "$D/scripts"
    cp "$CS_ROOT/scripts/deps.sh" "$D/scripts/"
    LIST=$D/packages.txt
    : >"$LIST"
    chmod -R a+rX "$D"
    DEPS=$D/scripts/deps.sh
}

teardown() {
    rm -rf "$D"
}

# as_nobody CMD...: runs CMD as an unprivileged user (or directly when not root).
as_nobody() {
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
    else
        "$@"
    fi
}

@test "the package list is well formed: one package name per line, comments" {
    local names
    names=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$CS_ROOT/mk/debian-packages.txt" | grep -v '^$')
    [ -n "$names" ]
    # No line holds two names (a missing newline would hide a package).
    ! sed -e 's/#.*//' "$CS_ROOT/mk/debian-packages.txt" | grep -Eq '[^[:space:]]+[[:space:]]+[^[:space:]]+'
    local p
    for p in $names; do
        [[ $p =~ ^[a-z0-9][a-z0-9.+-]+$ ]] || { echo "bad package name: $p"; return 1; }
    done
}

@test "nothing missing: silent, status 0" {
    printf '# comment\ncoreutils\n\nbash  # trailing comment\n' >"$LIST"
    run as_nobody "$DEPS" "$LIST"
    echo "$output"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "not root and packages missing: names them, prints the one apt-get line, status 1" {
    printf 'coreutils\ncryptoshim-no-such-package-a\ncryptoshim-no-such-package-b\n' >"$LIST"
    chmod 0644 "$LIST"
    [ ! -e /usr/sbin/policy-rc.d ] && local had_rcd= || local had_rcd=1
    run as_nobody "$DEPS" "$LIST"
    echo "$output"
    [ "$status" -eq 1 ]
    echo "$output" | grep -q 'missing: cryptoshim-no-such-package-a cryptoshim-no-such-package-b\.'
    [ "$(echo "$output" | grep -c 'apt-get install')" -eq 1 ]
    echo "$output" | grep -Eq '^ +sudo apt-get install --no-install-recommends cryptoshim-no-such-package-a cryptoshim-no-such-package-b$'
    ! echo "$output" | grep -q coreutils
    # No policy-rc.d was written (nothing was installed).
    [ -n "$had_rcd" ] || [ ! -e /usr/sbin/policy-rc.d ]
}

@test "a missing package list is one sentence, status 1" {
    run as_nobody "$DEPS" "$LIST.nonexistent"
    echo "$output"
    [ "$status" -eq 1 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ $output == "make deps: the package list "*" is missing." ]]
}
