#!/usr/bin/env bats
# The A/B harness (`cryptoshim ab`, what `make demo` runs) stops every
# process it started on every exit path: SIGINT (Ctrl-C), SIGTERM, SIGKILL of
# the harness itself, a server dying mid-run; and it names a missing tool in
# one sentence before starting anything. Each run records what it started in
# OUT/pids; after it ends, no recorded process, nothing in their sessions (an
# nginx worker) and nothing naming the run's temporary directory is left.
# About 40 s.

load "helpers/common"

setup() {
    cs_env
    cs_require
    [ "$(id -u)" -eq 0 ] || skip "tcpdump on loopback and sshd need root"
    need_cmd tcpdump
    OUT=$BATS_TEST_TMPDIR/ab
    # The harness's work directory (certificates, configs) goes under here,
    # so the servers' command lines name it.
    WORK=$BATS_TEST_TMPDIR/work
    mkdir -p "$WORK"
}

teardown() {
    # Never leave anything behind, even when a check failed: stop what is
    # left by its pid.
    local pid
    for pid in $(leftovers | awk '{print $1}'); do
        kill -KILL "$pid" 2>/dev/null || true
    done
}

# leftovers: live processes of the run (zombies excluded): a pid in OUT/pids,
# a member of one of their sessions, or a command line naming $WORK.
leftovers() {
    local pids
    pids=$(awk '{print $1}' "$OUT/pids" 2>/dev/null | paste -sd, -)
    ps -eo pid=,sid=,stat=,args= | awk -v p="$pids" -v t="$WORK" -v me=$$ '
        BEGIN { n = split(p, a, ","); for (i = 1; i <= n; i++) r[a[i]] = 1 }
        $3 ~ /^Z/ || /awk -v p=/ { next }
        ($1 in r) || ($2 in r) || index($0, t) { print }'
}

# wait_up TENTHS: waits (at most TENTHS tenths of a second) until the run in
# the background (AB_PID) has its servers and tcpdump up (3 recorded in
# OUT/pids); fails with its log if it ends first or the time runs out.
wait_up() {
    local i
    for ((i = 0; i < $1; i++)); do
        if [ -f "$OUT/pids" ] && [ "$(wc -l <"$OUT/pids")" -ge 3 ]; then
            sleep 1 # a few handshakes under way
            return 0
        fi
        kill -0 "$AB_PID" 2>/dev/null || break
        sleep 0.1
    done
    cat "$BATS_TEST_TMPDIR/ab.log"
    return 1
}

# wait_ended: waits (bounded, 30 s) for the run in the background (AB_PID) to
# end, sets AB_STATUS to its exit status and shows its log.
wait_ended() {
    local i
    for ((i = 0; i < 300; i++)); do
        kill -0 "$AB_PID" 2>/dev/null || break
        sleep 0.1
    done
    AB_STATUS=0
    wait "$AB_PID" || AB_STATUS=$?
    cat "$BATS_TEST_TMPDIR/ab.log"
}

# start_ab MODE ARGS...: starts a long harness run in the background (pid in
# AB_PID) and waits until its servers and tcpdump are up.
start_ab() {
    TMPDIR=$WORK "$CLI" ab "$@" --out "$OUT" </dev/null >"$BATS_TEST_TMPDIR/ab.log" 2>&1 3>&- &
    AB_PID=$!
    wait_up 300
}

# stop_ab SIGNAL: sends SIGNAL to the harness, waits (bounded) for it to end,
# and sets AB_STATUS.
stop_ab() {
    kill -"$1" "$AB_PID"
    wait_ended
}

# check_nothing_left: after at most 10 s, nothing of the run is left.
check_nothing_left() {
    local i
    for ((i = 0; i < 100; i++)); do
        [ -z "$(leftovers)" ] && return 0
        sleep 0.1
    done
    echo "left running:"
    leftovers
    return 1
}

@test "ab tls: SIGINT mid-run stops both s_servers and tcpdump; one line, status 130" {
    start_ab tls --cert rsa2048 -n 100000
    [ -n "$(leftovers)" ] # the check sees the running servers
    stop_ab INT
    [ "$AB_STATUS" -eq 130 ]
    grep -q 'stopped by SIGINT' "$BATS_TEST_TMPDIR/ab.log"
    ! grep -q Traceback "$BATS_TEST_TMPDIR/ab.log"
    check_nothing_left
}

@test "ab tls: SIGTERM mid-run stops both s_servers and tcpdump; status 143" {
    start_ab tls --cert rsa2048 -n 100000
    stop_ab TERM
    [ "$AB_STATUS" -eq 143 ]
    ! grep -q Traceback "$BATS_TEST_TMPDIR/ab.log"
    check_nothing_left
}

@test "ab nginx: SIGTERM mid-run stops both masters, their workers and tcpdump" {
    [ -x /usr/sbin/nginx ] || skip "nginx not installed"
    start_ab nginx --cert rsa2048 -n 100000
    [ "$(leftovers | grep -c 'nginx: worker')" -ge 2 ]
    stop_ab TERM
    [ "$AB_STATUS" -eq 143 ]
    check_nothing_left
}

@test "ab ssh: SIGINT mid-run stops both sshds and tcpdump" {
    [ -x /usr/sbin/sshd ] || skip "openssh-server not installed"
    need_cmd ssh ssh-keygen
    start_ab ssh --hostkey 2048 --kex group14 -n 100000
    stop_ab INT
    [ "$AB_STATUS" -eq 130 ]
    check_nothing_left
}

@test "ab tls: SIGKILL of the harness: its servers and tcpdump still go (parent-death signal)" {
    start_ab tls --cert rsa2048 -n 100000
    stop_ab KILL
    [ "$AB_STATUS" -eq 137 ]
    check_nothing_left
}

@test "ab tls: a server dying mid-run is an error (status 2, one line); the rest is stopped" {
    start_ab tls --cert rsa2048 -n 100000
    local b
    b=$(awk 'NR == 2 { print $1 }' "$OUT/pids") # A, B, tcpdump: in that order
    kill -KILL "$b"
    wait_ended
    [ "$AB_STATUS" -eq 2 ]
    [ "$(grep -c '^cryptoshim ab: ' "$BATS_TEST_TMPDIR/ab.log")" -eq 2 ] # start line, error line
    ! grep -q Traceback "$BATS_TEST_TMPDIR/ab.log"
    check_nothing_left
}

@test "ab: a missing tool is named in one sentence and nothing starts" {
    run "$CLI" ab tls --cert rsa2048 -n 4 --tcpdump /nonexistent/tcpdump --out "$OUT"
    echo "$output"
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ $output == "cryptoshim ab: not installed: tcpdump (Debian package tcpdump"*")." ]]
    [ ! -e "$OUT/pids" ]
    run "$CLI" ab nginx --nginx /nonexistent/nginx --tcpdump /nonexistent/tcpdump -n 4 --out "$OUT"
    echo "$output"
    [ "$status" -eq 2 ]
    [ "${#lines[@]}" -eq 1 ]
    [[ $output == *"nginx (Debian package nginx)"*"tcpdump (Debian package tcpdump"* ]]
    run "$CLI" ab ssh --sshd /nonexistent/sshd -n 4 --no-capture --out "$OUT"
    echo "$output"
    [ "$status" -eq 2 ]
    [[ $output == "cryptoshim ab: not installed: sshd (Debian package openssh-server)." ]]
}

# start_demo [PREFIX]: starts ab/demo.sh in the background (pid in
# AB_PID; PREFIX such as setsid runs it in its own process group, as a
# terminal's foreground job) and waits until its first A/B run's servers and tcpdump are up.
start_demo() {
    local d=$BATS_TEST_TMPDIR/demo
    TMPDIR=$WORK BUILD=$CS_BUILD ${1:-} bash "$CS_ROOT/ab/demo.sh" "$d" \
        </dev/null >"$BATS_TEST_TMPDIR/ab.log" 2>&1 3>&- &
    AB_PID=$!
    OUT=$d/tls-rsa3072
    wait_up 600
}

@test "demo: SIGTERM to the demo script stops the running A/B run's servers; status 143" {
    start_demo
    stop_ab TERM
    [ "$AB_STATUS" -eq 143 ]
    grep -q 'demo: stopped by SIGTERM' "$BATS_TEST_TMPDIR/ab.log"
    check_nothing_left
}

@test "demo: Ctrl-C (SIGINT to its whole process group) stops everything; status 130" {
    # A background job of a script starts with SIGINT ignored; a terminal's
    # foreground job does not.
    start_demo "setsid env --default-signal=INT"
    kill -INT -- "-$AB_PID"
    wait_ended
    [ "$AB_STATUS" -eq 130 ]
    ! grep -q Traceback "$BATS_TEST_TMPDIR/ab.log"
    check_nothing_left
}
