#!/usr/bin/env bats
# The layout's arrows (docs/developing.md): runtime/ and kernels/ include
# nothing from interpose/, provider/ or cli/; provider/ includes only
# runtime/, kernels/ and itself; kernels/ includes no OpenSSL header. Each
# quoted include is resolved as the compiler does (beside the file, then from
# the root, -I.), so "../x.h" and "x/y.h" spellings count alike.

setup() {
    cd "$CS_ROOT"
}

# includes DIR: one line "FILE -> TOP" per quoted include of a source under
# DIR, TOP being the top folder of the header it resolves to.
includes() {
    local f inc dir p
    while IFS= read -r f; do
        dir=$(dirname "$f")
        while IFS= read -r inc; do
            if [ -e "$dir/$inc" ]; then
                p=$(realpath -m --relative-to=. "$dir/$inc")
            else
                p=$(realpath -m --relative-to=. "$inc")
            fi
            echo "$f -> ${p%%/*}"
        done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
    done < <(find "$1" -type f \( -name '*.c' -o -name '*.h' -o -name '*.S' \) | sort)
}

@test "runtime/ includes nothing from interpose/, provider/, cli/" {
    run includes runtime
    [ "$status" -eq 0 ]
    bad=$(printf '%s\n' "$output" | grep -E ' -> (interpose|provider|cli)$' || true)
    [ -z "$bad" ] || { echo "$bad"; false; }
}

@test "kernels/ includes nothing from interpose/, provider/, cli/, runtime/, bn/" {
    run includes kernels
    [ "$status" -eq 0 ]
    bad=$(printf '%s\n' "$output" | grep -vE ' -> kernels$' || true)
    [ -z "$bad" ] || { echo "$bad"; false; }
}

@test "kernels/ includes no OpenSSL header" {
    bad=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]openssl/' kernels || true)
    [ -z "$bad" ] || { echo "$bad"; false; }
}

@test "provider/ includes only runtime/, kernels/ and itself" {
    run includes provider
    [ "$status" -eq 0 ]
    bad=$(printf '%s\n' "$output" | grep -vE ' -> (provider|runtime|kernels)$' || true)
    [ -z "$bad" ] || { echo "$bad"; false; }
}

@test "the resolver sees includes (sanity: provider/ reaches runtime/)" {
    run includes provider
    [[ "$output" == *" -> runtime"* ]]
}
