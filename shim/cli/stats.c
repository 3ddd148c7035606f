/* `cryptoshim stats PATH`: the counters of a CRYPTOSHIM_STATS file. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../stats.h"
#include "cli.h"

int cli_stats(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: cryptoshim stats PATH\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        perror(argv[1]);
        return 1;
    }
    if (st.st_size < (off_t)sizeof(cs_stats_file)) {
        fprintf(stderr, "%s: not a cryptoshim stats file\n", argv[1]);
        close(fd);
        return 1;
    }
    const cs_stats_file *f = mmap(NULL, sizeof *f, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (f == MAP_FAILED || f->magic != CS_STATS_MAGIC) {
        fprintf(stderr, "%s: not a cryptoshim stats file\n", argv[1]);
        return 1;
    }
    printf("operation\tkernel\tbits\tcalls\n");
    for (unsigned i = 0; i < CS_STATS_SLOTS; i++) {
        const cs_stats_slot *s = &f->slot[i];
        if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE))
            continue;
        printf("%.*s\t%.*s\t%u\t%llu\n", CS_STATS_NAME, s->op, CS_STATS_NAME, s->kernel,
               s->bits, (unsigned long long)__atomic_load_n(&s->calls, __ATOMIC_RELAXED));
    }
    /* Status notes (routes taken) after the counter rows, as comment lines. */
    for (unsigned i = 0; i < CS_STATS_NOTES; i++) {
        const cs_stats_note_slot *n = &f->note[i];
        if (__atomic_load_n(&n->ready, __ATOMIC_ACQUIRE))
            printf("# %.*s: %.*s\n", CS_STATS_NOTE_KEY, n->name, CS_STATS_NOTE_VALUE, n->value);
    }
    if (f->dropped)
        fprintf(stderr, "cryptoshim stats: %llu calls found no free counter\n",
                (unsigned long long)f->dropped);
    return 0;
}
