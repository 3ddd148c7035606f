#!/usr/bin/env bats
# A libcrypto opened late with RTLD_LOCAL (outside the global scope): the
# shim still serves its calls, finding the real functions through the link
# map without loading or searching anything. A second or two.

load "helpers/common"

setup() {
    cs_env
    cs_require
    need_cmd cc
    PROG=$BATS_TEST_TMPDIR/dlopen_local
    cc -O2 -o "$PROG" "$BATS_TEST_DIRNAME/helpers/dlopen_local.c" -ldl
}

@test "RTLD_LOCAL libcrypto: same answer, served by the forced kernel" {
    want=$("$PROG")
    [ -n "$want" ]
    local stats=$BATS_TEST_TMPDIR/local.stats
    got=$(CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$stats" LD_PRELOAD="$SHIM" "$PROG")
    [ "$got" = "$want" ]
    [ "$(stats_sum "$stats" portable mod_exp 1024)" -eq 1 ]
}

@test "RTLD_LOCAL libcrypto: resolving it makes no file system access" {
    need_cmd strace
    strace -f -e trace=openat,open,stat,newfstatat -o "$BATS_TEST_TMPDIR/trace" \
        env CRYPTOSHIM_KERNELS=portable LD_PRELOAD="$SHIM" "$PROG" >/dev/null
    # Only the program's own loading: nothing after libcrypto is mapped.
    ! sed -n '/libcrypto.so.3", O_RDONLY|O_CLOEXEC) = [0-9]/,$p' "$BATS_TEST_TMPDIR/trace" |
        tail -n +2 | grep -E 'libcrypto|ENOENT'
}

@test "a program without OpenSSL: the shim adds no file access beyond loading itself" {
    need_cmd strace
    strace -f -e trace=openat,open,stat,newfstatat,access -o "$BATS_TEST_TMPDIR/plain" \
        env -i /bin/true
    strace -f -e trace=openat,open,stat,newfstatat,access -o "$BATS_TEST_TMPDIR/shim" \
        env -i LD_PRELOAD="$SHIM" /bin/true
    ! grep -E 'libcrypto' "$BATS_TEST_TMPDIR/shim"
    [ "$(grep -c . "$BATS_TEST_TMPDIR/shim")" -le $(($(grep -c . "$BATS_TEST_TMPDIR/plain") + 8)) ]
}
