#!/usr/bin/env bats
# CRYPTOSHIM_STATS under hostile conditions: the file truncated while
# processes count, a full filesystem, a zero file size limit, a file planted
# by another user, unrelated files, FIFOs, a removed segment. The shim must
# never kill the process nor write a file that is not its own. A few seconds.

load "helpers/common"

setup() {
    cs_env
    cs_require
    cd "$BATS_TEST_TMPDIR"
}

# shim_rsa STATS [SECONDS]: openssl speed rsa2048 under the shim (portable
# kernel, so calls are counted as the shim's) counting into STATS.
shim_rsa() {
    env CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS="$1" LD_PRELOAD="$SHIM" \
        openssl speed -seconds "${2:-1}" rsa2048 >/dev/null 2>&1
}

@test "stats: counts from successive processes add up in one file" {
    shim_rsa s.stats
    a=$(stats_sum s.stats portable mod_exp 2048)
    shim_rsa s.stats
    b=$(stats_sum s.stats portable mod_exp 2048)
    [ "$a" -gt 0 ]
    [ "$b" -gt "$a" ]
    run "$CLI" stats s.stats
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "$(printf 'operation\tkernel\tbits\tcalls')" ]
}

@test "stats: truncating the file while a process counts does not kill it (no SIGBUS)" {
    shim_rsa s.stats 3 &
    pid=$!
    sleep 1
    : >s.stats
    truncate -s 0 s.stats
    wait "$pid" # the status of openssl itself: 135 would be SIGBUS
    # The emptied file is no longer ours: left as it is, and the reader says so.
    [ ! -s s.stats ]
    shim_rsa s.stats
    [ ! -s s.stats ]
    run "$CLI" stats s.stats
    [ "$status" -ne 0 ]
    [[ "$output" == *"not a cryptoshim stats file"* ]]
}

@test "stats: a process forked from a counting one counts into the same file" {
    env CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS=f.stats LD_PRELOAD="$SHIM" \
        openssl speed -multi 2 -seconds 1 rsa2048 >/dev/null 2>&1
    [ "$(stats_sum f.stats portable mod_exp 2048)" -gt 0 ]
}

@test "stats: an unrelated file is neither grown nor stamped" {
    printf 'precious data\n' >mine.txt
    cp mine.txt orig.txt
    shim_rsa mine.txt
    cmp mine.txt orig.txt
    : >empty.stats
    shim_rsa empty.stats
    [ ! -s empty.stats ]
    run "$CLI" stats mine.txt
    [ "$status" -ne 0 ]
    # info says why counting is off there.
    run env CRYPTOSHIM_STATS=mine.txt "$CLI" info
    [[ "$output" == *"stats note         mine.txt: not a cryptoshim stats file"* ]]
}

@test "stats: a FIFO or a directory is refused without blocking" {
    mkfifo fifo.stats
    mkdir dir.stats
    run timeout 20 env CRYPTOSHIM_STATS=fifo.stats LD_PRELOAD="$SHIM" openssl version
    [ "$status" -eq 0 ]
    run timeout 20 env CRYPTOSHIM_STATS=dir.stats LD_PRELOAD="$SHIM" openssl version
    [ "$status" -eq 0 ]
    run timeout 20 env CRYPTOSHIM_STATS=/dev/null LD_PRELOAD="$SHIM" openssl version
    [ "$status" -eq 0 ]
    run env CRYPTOSHIM_STATS=fifo.stats "$CLI" info
    [[ "$output" == *"stats note         fifo.stats: not a regular file"* ]]
}

@test "stats: a zero file size limit (sshd's sandbox) turns stats off instead of SIGXFSZ" {
    run bash -c 'ulimit -f 0; env CRYPTOSHIM_STATS=lim.stats LD_PRELOAD="$SHIM" openssl version >/dev/null'
    [ "$status" -eq 0 ]
    [ ! -e lim.stats ]
    # With the file already there, nothing is written: counting works.
    shim_rsa lim.stats
    run bash -c 'ulimit -f 0; env CRYPTOSHIM_KERNELS=portable CRYPTOSHIM_STATS=lim.stats \
        LD_PRELOAD="$SHIM" openssl speed -seconds 1 rsa1024 >/dev/null 2>&1'
    [ "$status" -eq 0 ]
    [ "$(stats_sum lim.stats portable mod_exp 1024)" -gt 0 ]
}

@test "stats: a removed shared memory segment is replaced, counting resumes" {
    shim_rsa seg.stats
    id=$(awk '{ print $4 + 0 }' seg.stats)
    ipcrm -m "$id"
    run "$CLI" stats seg.stats
    [ "$status" -ne 0 ]
    [[ "$output" == *"counters are gone"* ]]
    shim_rsa seg.stats
    [ "$(stats_sum seg.stats portable mod_exp 2048)" -gt 0 ]
}

@test "stats: the segment of a deleted stats file is removed by the next new one" {
    shim_rsa old.stats
    id=$(awk '{ print $4 + 0 }' old.stats)
    ipcs -m | awk '{ print $2 }' | grep -qx "$id"
    rm old.stats
    shim_rsa new.stats
    ! ipcs -m | awk '{ print $2 }' | grep -qx "$id"
}

# The tests below need root: they mount a filesystem or plant a file as
# another user (make test runs as root, see make deps).

@test "stats: on a full filesystem the process runs and stats are off" {
    [ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
    mkdir full
    mount -t tmpfs -o size=16k tmpfs full
    dd if=/dev/zero of=full/fill bs=4k count=64 2>/dev/null || true
    run shim_rsa full/s.stats
    umount full
    [ "$status" -eq 0 ]
}

@test "stats: root refuses a file planted by another user in a sticky directory" {
    [ "$(id -u)" -eq 0 ] || skip "needs root to act as two users"
    mkdir -m 1777 sticky
    setpriv --reuid=nobody --regid=nogroup --clear-groups \
        env CRYPTOSHIM_STATS=sticky/planted.stats LD_PRELOAD="$SHIM" openssl version >/dev/null
    [ "$(stat -c %U sticky/planted.stats)" = nobody ]
    cp sticky/planted.stats planted.orig
    shim_rsa sticky/planted.stats
    cmp sticky/planted.stats planted.orig
    run env CRYPTOSHIM_STATS=sticky/planted.stats "$CLI" info
    [[ "$output" == *"stats note         sticky/planted.stats: owned by another user"* ]]
    # Nothing was counted into the other user's segment.
    [ "$(stats_sum sticky/planted.stats)" -eq 0 ]
    # A hard link to the root's own file is refused too.
    shim_rsa own.stats
    ln own.stats sticky/link.stats
    before=$(stats_sum own.stats)
    shim_rsa sticky/link.stats
    [ "$(stats_sum own.stats)" -eq "$before" ]
}
