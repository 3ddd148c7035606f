/* Counters in a System V shared memory segment named by the CRYPTOSHIM_STATS
 * file (why, and why no SIGBUS path exists: stats.h). The constructor opens
 * the file, checks it, attaches the segment and closes the file; counting is
 * atomic operations on the attached memory only. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

static cs_stats_segment *stats_map;
static char stats_err[160];

const char *cs_stats_error(void) { return stats_err; }

/* Records why stats are off; returns -1. */
static int fail(const char *path, const char *why)
{
    snprintf(stats_err, sizeof stats_err, "CRYPTOSHIM_STATS %.80s: %s", path, why);
    return -1;
}

/* The file's header for a segment id and token (CS_STATS_FILE_LEN bytes). */
static void format_header(char *buf, int shmid, const uint64_t token[2])
{
    snprintf(buf, CS_STATS_FILE_LEN + 1, CS_STATS_FILE_TAG "%010d token %016llx%016llx\n", shmid,
             (unsigned long long)token[0], (unsigned long long)token[1]);
}

/* Parses a header from the first bytes of a file: 1 ours (id and token set),
 * 0 not ours. */
static int parse_header(const char *buf, size_t len, int *shmid, uint64_t token[2])
{
    char tmp[CS_STATS_FILE_LEN + 1];
    unsigned long long t0, t1;
    int id, end = 0;
    if (len != CS_STATS_FILE_LEN || memcmp(buf, CS_STATS_FILE_TAG, sizeof CS_STATS_FILE_TAG - 1))
        return 0;
    memcpy(tmp, buf, len);
    tmp[len] = 0;
    if (sscanf(tmp + sizeof CS_STATS_FILE_TAG - 1, "%10d token %16llx%16llx\n%n", &id, &t0, &t1,
               &end) != 3 || end != (int)(len - (sizeof CS_STATS_FILE_TAG - 1)) || id < 0)
        return 0;
    *shmid = id;
    token[0] = t0;
    token[1] = t1;
    return 1;
}

/* Reads a file's header through fd: 1 ours, 0 not ours (or unreadable). */
static int read_header(int fd, int *shmid, uint64_t token[2])
{
    char buf[CS_STATS_FILE_LEN + 1];
    ssize_t n = pread(fd, buf, sizeof buf, 0);
    return n > 0 && parse_header(buf, (size_t)n, shmid, token);
}

/* Takes an exclusive lock on fd, waiting at most about a second (the holder
 * only reads or rewrites a 73-byte header). */
static int lock_briefly(int fd)
{
    for (int i = 0; i < 200; i++) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return 0;
        if (errno != EWOULDBLOCK && errno != EINTR)
            return -1;
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    return -1;
}

/* The permission bits of an IPC_STAT mode. qemu-user (seen with
 * qemu-s390x 7.2) stores the host's 16-bit mode in the first half of
 * s390x's 32-bit field, so the guest reads it 16 bits up (0600 as
 * 0140000000) and a second process refused the first one's segment. A
 * kernel never sets bits above 15 (permissions and SHM_* flags sit below),
 * so a value with only high bits is that shift, undone here. */
static unsigned ipc_perm_bits(unsigned long mode)
{
    return (unsigned)((mode & 0xffff) ? mode : mode >> 16) & 0777;
}

/* Attaches segment shmid if it is ours (owner and creator the effective
 * user, mode 0600, our size, magic and token); NULL otherwise. */
static cs_stats_segment *attach(int shmid, const uint64_t token[2])
{
    struct shmid_ds ds;
    uid_t me = geteuid();
    if (shmctl(shmid, IPC_STAT, &ds) < 0 || ds.shm_perm.uid != me || ds.shm_perm.cuid != me ||
        ipc_perm_bits(ds.shm_perm.mode) != 0600 || ds.shm_segsz != sizeof(cs_stats_segment))
        return NULL;
    void *p = shmat(shmid, NULL, 0);
    if (p == (void *)-1)
        return NULL;
    cs_stats_segment *s = p;
    if (__atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) != CS_STATS_MAGIC ||
        s->token[0] != token[0] || s->token[1] != token[1]) {
        shmdt(p);
        return NULL;
    }
    return s;
}

/* The mount namespace and root directory this process resolves paths in. */
static void where(uint64_t *mntns, uint64_t *rdev, uint64_t *rino)
{
    struct stat st;
    *mntns = stat("/proc/self/ns/mnt", &st) == 0 ? (uint64_t)st.st_ino : 0;
    *rdev = *rino = 0;
    if (stat("/", &st) == 0)
        *rdev = st.st_dev, *rino = st.st_ino;
}

/* Creates and attaches a fresh segment for the file at abs_path (may be
 * empty). */
static cs_stats_segment *new_segment(const char *abs_path, int *shmid, uint64_t token[2])
{
    if (getrandom(token, 2 * sizeof token[0], GRND_NONBLOCK) != 2 * sizeof token[0]) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        token[0] = ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec;
        token[1] = ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&ts;
    }
    int id = shmget(IPC_PRIVATE, sizeof(cs_stats_segment), IPC_CREAT | IPC_EXCL | 0600);
    if (id < 0)
        return NULL;
    void *p = shmat(id, NULL, 0);
    if (p == (void *)-1) {
        shmctl(id, IPC_RMID, NULL);
        return NULL;
    }
    cs_stats_segment *s = p; /* zero-filled by the kernel */
    s->size = sizeof *s;
    s->token[0] = token[0];
    s->token[1] = token[1];
    where(&s->mntns_ino, &s->root_dev, &s->root_ino);
    if (strlen(abs_path) < sizeof s->path)
        memcpy(s->path, abs_path, strlen(abs_path) + 1);
    __atomic_store_n(&s->magic, CS_STATS_MAGIC, __ATOMIC_RELEASE);
    *shmid = id;
    return s;
}

/* Whether this process may write a header: under RLIMIT_FSIZE below its
 * size (sshd's sandboxed children run with 0) a write() raises SIGXFSZ,
 * which kills by default. */
static int may_write(void)
{
    struct rlimit rl;
    return getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
           rl.rlim_cur >= CS_STATS_FILE_LEN;
}

/* Detaches and removes a segment this process created and will not use. */
static void drop_segment(cs_stats_segment *s, int shmid)
{
    shmdt(s);
    shmctl(shmid, IPC_RMID, NULL);
}

/* Whether an unattached segment of ours is orphaned: its file, seen from the
 * same mount namespace and root, is gone or names another segment. */
static int orphaned(int shmid)
{
    void *p = shmat(shmid, NULL, SHM_RDONLY);
    if (p == (void *)-1)
        return 0;
    const cs_stats_segment *s = p;
    uint64_t ns, rdev, rino;
    where(&ns, &rdev, &rino);
    int gone = 0;
    if (s->magic == CS_STATS_MAGIC && s->size == sizeof *s && s->path[0] == '/' && ns &&
        s->mntns_ino == ns && s->root_dev == rdev && s->root_ino == rino &&
        memchr(s->path, 0, sizeof s->path)) {
        /* Look before opening: a device put in its place is not opened. */
        struct stat st;
        int fd = -1, id;
        uint64_t token[2];
        if (lstat(s->path, &st) < 0)
            gone = errno == ENOENT || errno == ENOTDIR;
        else if (!S_ISREG(st.st_mode))
            gone = 1; /* no longer a file that can name it */
        else if ((fd = open(s->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) >= 0) {
            gone = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                   (!read_header(fd, &id, token) || id != shmid || token[0] != s->token[0] ||
                    token[1] != s->token[1]);
            close(fd);
        }
    }
    shmdt(p);
    return gone;
}

/* Removes this user's stats segments that no process has attached and no
 * file names any more (test suites create many short-lived files). Runs only
 * when a segment is created. Reads /proc/sysvipc/shm; does nothing without it. */
static void sweep(int keep)
{
    int fd = open("/proc/sysvipc/shm", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[8192];
    size_t have = 0;
    int first = 1;
    for (;;) {
        ssize_t n = read(fd, buf + have, sizeof buf - 1 - have);
        if (n <= 0)
            break;
        have += (size_t)n;
        buf[have] = 0;
        char *line = buf, *nl;
        while ((nl = strchr(line, '\n'))) {
            *nl = 0;
            int key, id;
            unsigned mode, uid, gid, cuid;
            unsigned long long size, nattch;
            int cpid, lpid;
            if (!first && sscanf(line, "%d %d %o %llu %d %d %llu %u %u %u", &key, &id, &mode, &size,
                                 &cpid, &lpid, &nattch, &uid, &gid, &cuid) == 10 &&
                id != keep && key == 0 && size == sizeof(cs_stats_segment) && nattch == 0 &&
                uid == geteuid() && cuid == geteuid() && (mode & 0777) == 0600 && orphaned(id))
                shmctl(id, IPC_RMID, NULL);
            first = 0;
            line = nl + 1;
        }
        have = (size_t)(buf + have - line);
        memmove(buf, line, have);
        if (have == sizeof buf - 1)
            have = 0; /* a line longer than the buffer: skip it */
    }
    close(fd);
}

/* Absolute form of path (cwd-relative made absolute; not canonicalised), or
 * "" when it does not fit. */
static void absolute(const char *path, char *out, size_t cap)
{
    out[0] = 0;
    if (path[0] == '/') {
        if (strlen(path) < cap)
            memcpy(out, path, strlen(path) + 1);
        return;
    }
    if (!getcwd(out, cap))
        out[0] = 0;
    else if (strlen(out) + 1 + strlen(path) >= cap)
        out[0] = 0;
    else {
        strcat(out, "/");
        strcat(out, path);
    }
}

/* Creates the file whole: header in a temporary file beside it, then link().
 * Returns 0 (attached), EEXIST if another process created it first, or -1. */
static int create_file(const char *path, const char *abs_path)
{
    int shmid;
    uint64_t token[2];
    char tmp[4096 + 40], header[CS_STATS_FILE_LEN + 1];
    if (!may_write())
        return fail(path, "absent, and the file size limit forbids creating it");
    cs_stats_segment *s = new_segment(abs_path, &shmid, token);
    if (!s)
        return fail(path, "cannot create a shared memory segment");
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.%016llx.tmp", path, (unsigned long long)token[0]) >=
        sizeof tmp) {
        drop_segment(s, shmid);
        return fail(path, "path too long");
    }
    format_header(header, shmid, token);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int ok = fd >= 0 && write(fd, header, CS_STATS_FILE_LEN) == CS_STATS_FILE_LEN;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    int linked = ok && link(tmp, path) == 0;
    int err = errno;
    if (fd >= 0)
        unlink(tmp);
    if (!linked) {
        drop_segment(s, shmid);
        if (ok && err == EEXIST)
            return EEXIST;
        return fail(path, "cannot create the file");
    }
    stats_map = s;
    sweep(shmid);
    return 0;
}

/* Why an open file may not be used as a stats file (NULL: it may). */
static const char *refusal(int fd)
{
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
        return "not a regular file";
    if (st.st_uid != geteuid())
        return "owned by another user";
    if (st.st_nlink != 1)
        return "has more than one link";
    if (st.st_mode & 022)
        return "writable by group or others";
    return NULL;
}

int cs_stats_check(const char *path, char *why, size_t cap)
{
    struct stat lst;
    if (lstat(path, &lst) == 0 && !S_ISREG(lst.st_mode))
        return snprintf(why, cap, "%s",
                        S_ISLNK(lst.st_mode) ? "is a symbolic link" : "not a regular file"),
               0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), shmid;
    uint64_t token[2];
    const char *bad = NULL;
    if (fd < 0) {
        if (errno == ENOENT)
            return snprintf(why, cap, "absent: the first process creates it"), 1;
        return snprintf(why, cap, "%s", errno == ELOOP ? "is a symbolic link" : strerror(errno)), 0;
    }
    if (!(bad = refusal(fd)) && !read_header(fd, &shmid, token))
        bad = "not a cryptoshim stats file (left untouched)";
    close(fd);
    if (bad)
        return snprintf(why, cap, "%s", bad), 0;
    snprintf(why, cap, "counting in shared memory segment %d", shmid);
    return 1;
}

int cs_stats_open(const char *path)
{
    char abs_path[CS_STATS_PATH_MAX];
    stats_err[0] = 0;
    absolute(path, abs_path, sizeof abs_path);
    for (int attempt = 0; attempt < 3; attempt++) {
        /* Look before opening: opening a device can have effects of its own. */
        struct stat lst;
        if (lstat(path, &lst) == 0 && !S_ISREG(lst.st_mode))
            return fail(path, S_ISLNK(lst.st_mode) ? "is a symbolic link" : "not a regular file");
        int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT) {
            int r = create_file(path, abs_path);
            if (r == EEXIST)
                continue; /* lost a creation race: open the winner's file */
            return r;
        }
        if (fd < 0)
            return fail(path, errno == ELOOP ? "is a symbolic link" : strerror(errno));
        const char *why = refusal(fd);
        int shmid;
        uint64_t token[2];
        if (!why && lock_briefly(fd) < 0)
            why = "locked by another process";
        if (!why && !read_header(fd, &shmid, token))
            why = "not a cryptoshim stats file (left untouched)";
        if (why) {
            close(fd);
            return fail(path, why);
        }
        cs_stats_segment *s = attach(shmid, token);
        if (!s) {
            /* Ours, but its segment is gone (a restart, ipcrm): name a new one,
             * in place and under the lock, so every process agrees. */
            char header[CS_STATS_FILE_LEN + 1];
            s = may_write() ? new_segment(abs_path, &shmid, token) : NULL;
            if (s) {
                format_header(header, shmid, token);
                if (pwrite(fd, header, CS_STATS_FILE_LEN, 0) != CS_STATS_FILE_LEN) {
                    drop_segment(s, shmid);
                    s = NULL;
                } else
                    sweep(shmid);
            }
        }
        close(fd); /* also releases the lock */
        if (!s)
            return fail(path, "cannot attach its shared memory segment");
        stats_map = s;
        return 0;
    }
    return fail(path, "created and removed by others meanwhile");
}

/* FNV-1a over the three fields; never 0 (0 marks a free slot). */
static uint64_t slot_key(const char *op, const char *kernel, unsigned bits)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char *s = op; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
    h = (h ^ 0xff) * 0x100000001b3ULL;
    for (const char *s = kernel; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
    for (int i = 0; i < 4; i++)
        h = (h ^ ((bits >> (8 * i)) & 0xff)) * 0x100000001b3ULL;
    return h ? h : 1;
}

static void copy_text(char *dst, size_t size, const char *src)
{
    size_t i = 0;
    for (; i + 1 < size && src[i]; i++)
        dst[i] = src[i];
    dst[i] = 0;
}

/* Adds one to the counter for key in table (n slots), claiming a free slot
 * within `probes` of its home; 0 if none was found. */
static int bump(cs_stats_slot *table, unsigned n, unsigned probes, uint64_t key, const char *op,
                const char *kernel, unsigned bits)
{
    for (unsigned i = 0; i < probes; i++) {
        cs_stats_slot *s = &table[(key + i) % n];
        uint64_t cur = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
        if (cur == 0) {
            uint64_t expect = 0;
            if (__atomic_compare_exchange_n(&s->key, &expect, key, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
                copy_text(s->op, CS_STATS_NAME, op);
                copy_text(s->kernel, CS_STATS_NAME, kernel);
                s->bits = bits;
                __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
                cur = key;
            } else {
                cur = expect;
            }
        }
        if (cur == key) {
            __atomic_fetch_add(&s->calls, 1, __ATOMIC_RELAXED);
            return 1;
        }
    }
    return 0;
}

void cs_stats_count(const char *op, const char *kernel, unsigned bits)
{
    cs_stats_segment *f = stats_map;
    if (!f)
        return;
    if (bump(f->slot, CS_STATS_SLOTS, 64, slot_key(op, kernel, bits), op, kernel, bits))
        return;
    /* Exact table crowded: count under the power-of-two class holding bits,
     * so a call is never lost (a few dozen classes per op and kernel). */
    unsigned cls = 1;
    while (cls < bits && cls < 0x80000000u)
        cls <<= 1;
    if (bits > cls)
        cls = 0xffffffffu;
    if (bump(f->overflow, CS_STATS_OVERFLOW, CS_STATS_OVERFLOW,
             slot_key(op, kernel, cls) ^ 0x5a5a5a5a5a5a5a5aULL, op, kernel, cls))
        return;
    __atomic_fetch_add(&f->lost, 1, __ATOMIC_RELAXED);
}

void cs_stats_note(const char *key, const char *value)
{
    cs_stats_segment *f = stats_map;
    if (!f)
        return;
    uint64_t h = slot_key(key, "", 0);
    for (unsigned i = 0; i < CS_STATS_NOTES; i++) {
        cs_stats_note_slot *s = &f->note[(h + i) % CS_STATS_NOTES];
        uint64_t expect = 0;
        if (__atomic_compare_exchange_n(&s->key, &expect, h, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            copy_text(s->name, sizeof s->name, key);
            __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
            expect = h;
        }
        if (expect == h) {
            copy_text(s->value, sizeof s->value, value);
            return;
        }
    }
}

/* Byte-swaps a counter table read from a shim of the other byte order. */
static void swap_slots(cs_stats_slot *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        t[i].key = __builtin_bswap64(t[i].key);
        t[i].calls = __builtin_bswap64(t[i].calls);
        t[i].bits = __builtin_bswap32(t[i].bits);
        t[i].ready = __builtin_bswap32(t[i].ready);
    }
}

int cs_stats_read(const char *path, cs_stats_segment *out, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), shmid;
    err[0] = 0;
    uint64_t token[2];
    struct stat st;
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int ours = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read_header(fd, &shmid, token);
    close(fd);
    if (!ours) {
        snprintf(err, errlen, "%s: not a cryptoshim stats file", path);
        return -1;
    }
    struct shmid_ds ds;
    void *p = (void *)-1;
    int stat_ok = shmctl(shmid, IPC_STAT, &ds) == 0;
    if (!stat_ok && errno == EACCES) {
        snprintf(err, errlen, "%s: its counters belong to another user", path);
        return -1;
    }
    if (stat_ok && ds.shm_segsz == sizeof *out && (geteuid() == 0 || ds.shm_perm.uid == geteuid()))
        p = shmat(shmid, NULL, SHM_RDONLY);
    if (p == (void *)-1) {
        snprintf(err, errlen,
                 "%s: its counters are gone (shared memory segment %d removed, e.g. by a restart)",
                 path, shmid);
        return -1;
    }
    memcpy(out, p, sizeof *out);
    shmdt(p);
    if (out->magic == __builtin_bswap32(CS_STATS_MAGIC)) {
        out->magic = CS_STATS_MAGIC;
        out->token[0] = __builtin_bswap64(out->token[0]);
        out->token[1] = __builtin_bswap64(out->token[1]);
        out->lost = __builtin_bswap64(out->lost);
        swap_slots(out->slot, CS_STATS_SLOTS);
        swap_slots(out->overflow, CS_STATS_OVERFLOW);
        for (unsigned i = 0; i < CS_STATS_NOTES; i++)
            out->note[i].ready = __builtin_bswap32(out->note[i].ready);
    }
    if (out->magic != CS_STATS_MAGIC || out->token[0] != token[0] || out->token[1] != token[1]) {
        snprintf(err, errlen, "%s: names shared memory segment %d, which is not its own", path,
                 shmid);
        return -1;
    }
    return 0;
}
