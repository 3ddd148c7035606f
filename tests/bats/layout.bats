#!/usr/bin/env bats
# The layout's arrows (docs/developing.md, "Layout"): runtime/ and kernels/
# include nothing from interpose/, provider/ or cli/; provider/ includes only
# runtime/, kernels/ and itself; bn/ nothing from interpose/, provider/,
# cli/; kernels/ includes no OpenSSL header, and one family's ISA folder is
# its own (shared pieces live at kernels/*.h); nothing shipped (cli/
# included) includes tools/ or tests/; BIGNUM <-> limbs work is bn/'s
# (interpose/ keeps only the hooks). Each quoted include is resolved as the
# compiler does (beside the file, then from the root, -I.), so "../x.h" and
# "x/y.h" spellings count alike.
# What is installed (mk/*.mk, debian/rules) comes from a room of its own
# (the A/B harness: ab/), never from tools/.

setup() {
    cd "$CS_ROOT"
}

# resolved DIR: one line "FILE -> PATH" per quoted include of a source under
# DIR, PATH being the header it resolves to (relative to the root).
resolved() {
    local f inc dir p
    while IFS= read -r f; do
        dir=$(dirname "$f")
        while IFS= read -r inc; do
            if [ -e "$dir/$inc" ]; then
                p=$(realpath -m --relative-to=. "$dir/$inc")
            else
                p=$(realpath -m --relative-to=. "$inc")
            fi
            echo "$f -> $p"
        done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
    done < <(find "$1" -type f \( -name '*.c' -o -name '*.h' -o -name '*.S' \) | sort)
}

# includes DIR: the same lines with PATH cut to its top folder.
includes() {
    resolved "$1" | sed 's#\( -> [^/]*\)/.*#\1#'
}

# never DIR TOPS: fails, naming them, on includes of DIR that reach a top
# folder matching the ERE TOPS.
never() {
    local bad
    bad=$(includes "$1" | grep -E " -> ($2)\$" || true)
    [ -z "$bad" ] || { echo "$bad"; false; }
}

# only DIR TOPS: fails on includes of DIR that reach any other top folder.
only() {
    local bad
    bad=$(includes "$1" | grep -vE " -> ($2)\$" || true)
    [ -z "$bad" ] || { echo "$bad"; false; }
}

@test "runtime/ includes nothing from interpose/, provider/, cli/" {
    never runtime 'interpose|provider|cli'
}

@test "kernels/ includes nothing from interpose/, provider/, cli/, runtime/, bn/" {
    only kernels kernels
}

@test "kernels/ includes no OpenSSL header" {
    bad=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]openssl/' kernels || true)
    [ -z "$bad" ] || { echo "$bad"; false; }
}

@test "provider/ includes only runtime/, kernels/ and itself" {
    only provider 'provider|runtime|kernels'
}

@test "the resolver sees includes (sanity: provider/ reaches runtime/)" {
    run includes provider
    [[ "$output" == *" -> runtime"* ]]
}

@test "bn/ includes nothing from interpose/, provider/, cli/" {
    never bn 'interpose|provider|cli'
}

@test "nothing shipped includes tools/ or tests/ (the CLI's timer is runtime/timer.h)" {
    local d
    for d in interpose bn provider runtime kernels cli ab; do
        never "$d" 'tools|tests'
    done
}

@test "a kernel family's ISA folder is included only by that family (shared pieces: kernels/*.h)" {
    run resolved kernels
    [ "$status" -eq 0 ]
    bad=$(printf '%s\n' "$output" | awk '
        { split($1, f, "/"); split($3, h, "/") }
        h[1] == "kernels" && length(h) > 3 && h[2] != f[2] { print }')
    [ -z "$bad" ] || { echo "$bad"; false; }
}

@test "BIGNUM <-> limbs and CRT work only in bn/ (interpose/ keeps the hooks)" {
    bad=$(grep -rnE 'cs_limbs_(from|to)_le_bytes|cs_bn_crt_recombine|cs_mont_cache_get' \
        interpose provider runtime || true)
    [ -z "$bad" ] || { echo "$bad"; false; }
}

@test "what is installed comes from its own room, never from tools/ (the lab)" {
    bad=$(grep -nE '^[[:space:]]*install .*tools/' mk/*.mk debian/rules || true)
    [ -z "$bad" ] || { echo "$bad"; false; }
    [ -f ab/ab.py ] && [ -f ab/ab_tls_client.c ]
}
