# Helpers for tests/versions: one table of the OpenSSL versions the shim is
# tested under (issue 12) and how to run a program on each.
#   11  Debian 11's 1.1.1   (make openssl11)
#   30  the system's 3.0    (Debian 12)
#   35  Debian 13's 3.5     (make openssl35)
#   36  sid's 3.6           (make openssl36; DT_SYMBOLIC)
#   40  experimental's 4.0  (make openssl40; libcrypto.so.4, OPENSSL_4.0.0)
# Load after ../bats/helpers/common.

VERSIONS="11 30 35 36 40"

# version_use VER: for a test: sets V_TREE (the unpacked tree, empty for 3.0),
# V_RUN (the command prefix that runs a program on VER's libraries, an array),
# V_OSSL (VER's openssl binary, to run after V_RUN) and V_DRIVER (the modexp differential driver
# linked for VER). Skips the test when VER's tree is absent, with the message
# the fetch left when the archive no longer carries its packages.
version_use() {
    local ver=$1
    V_TREE= V_RUN=() V_OSSL=/usr/bin/openssl V_DRIVER=$CS_BUILD/tests/versions/modexp_api
    if [ "$ver" != 30 ]; then
        V_TREE=$CS_BUILD/openssl$ver
        if [ ! -x "$V_TREE/bin/run" ]; then
            [ -f "$V_TREE/.missing" ] && skip "$(cat "$V_TREE/.missing")"
            skip "build/openssl$ver absent (make openssl$ver)"
        fi
        V_RUN=("$V_TREE/bin/run")
        V_OSSL=$V_TREE/root/usr/bin/openssl
    fi
    case $ver in
        11) V_DRIVER=$CS_BUILD/tests/versions/modexp_api11 ;;
        40) V_DRIVER=$CS_BUILD/tests/versions/modexp_api40 ;;
    esac
    [ -x "$V_DRIVER" ] || skip "$V_DRIVER not built (make tests-build)"
    export V_TREE V_OSSL V_DRIVER
}

# version_name VER: "1.1.1", "3.0", ... for messages.
version_name() {
    case $1 in 11) echo 1.1.1 ;; *) echo "${1:0:1}.${1:1:1}" ;; esac
}

# usable_kernels: the big-number kernels `cryptoshim info` lists as usable here.
usable_kernels() {
    "$CLI" info | awk '/^big-number kernels:/ { on = 1; next }
        on && /^[^ ]/ { on = 0 }
        on && NF >= 3 && $NF == "usable" && $(NF - 1) != "not" { print $1 }'
}

# kernel_rows FILE: every stats counter row of a kernel of the shim (not
# libcrypto; not the "# key: value" notes).
kernel_rows() {
    stats_rows "$1" | awk -F'\t' 'NF == 4 && $1 !~ /^#/ && $2 != "libcrypto"'
}

# stock CMD...: runs CMD on the version's libraries without the shim.
stock() {
    env -u LD_PRELOAD "${V_RUN[@]}" "$@"
}

# shimmed ENV... -- CMD...: runs CMD on the version's libraries with the shim
# preloaded and ENV (NAME=VALUE words) set.
shimmed() {
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env "${envs[@]}" LD_PRELOAD="$SHIM" "${V_RUN[@]}" "$@"
}
