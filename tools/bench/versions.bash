# Sourced by the benchmark scripts that run `openssl speed` under several
# OpenSSL versions (bench-matrix.sh, bench-versions.sh), from the top of the
# tree: BUILD, lib (the shim's library), the build check and the openssl
# command of a version.
BUILD=${BUILD:-build}
lib=$(cd "$BUILD" && pwd)/libcryptoshim.so

# need_builds NAME "VERSIONS": exits 1 with a message in NAME's name unless
# the shim's library and each version's openssl are built (30: the system's).
need_builds() {
    local v
    [ -f "$lib" ] || { echo "$1: $lib not built (make)" >&2; exit 1; }
    for v in $2; do
        [ "$v" = 30 ] || [ -x "$BUILD/openssl$v/bin/openssl" ] ||
            { echo "$1: $BUILD/openssl$v missing (make openssl$v)" >&2; exit 1; }
    done
}

# ossl VER: the openssl command of version VER.
ossl() {
    if [ "$1" = 30 ]; then echo openssl; else echo "$BUILD/openssl$1/bin/openssl"; fi
}

# side_env SIDE CONFIG...: sets the array `env` to the command prefix of one
# side: stock (the shim's variables removed), or the shim configuration named
# SIDE among the CONFIGs (NAME=ENV[,ENV...], as the scripts' -c takes them).
side_env() {
    local side=$1 c extra
    shift
    env=(env -u LD_PRELOAD -u CRYPTOSHIM_KERNELS -u CRYPTOSHIM_POLICY)
    [ "$side" != stock ] || return 0
    for c in "$@"; do
        [ "${c%%=*}" = "$side" ] || continue
        [ -n "${c#*=}" ] && IFS=, read -r -a extra <<<"${c#*=}" && env+=("${extra[@]}")
    done
    env+=("LD_PRELOAD=$lib")
}
