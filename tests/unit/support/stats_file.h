/* Clean-up of CRYPTOSHIM_STATS files made by the differential tests. */
#ifndef CS_TEST_STATS_FILE_H
#define CS_TEST_STATS_FILE_H

#include <stdio.h>
#include <sys/shm.h>
#include <unistd.h>

#include "runtime/stats.h"

/* Removes the shared segment the stats file at path names, then the file. */
static inline void remove_stats(const char *path)
{
    FILE *f = fopen(path, "r");
    int id;
    if (f && fscanf(f, CS_STATS_FILE_TAG "%d", &id) == 1)
        shmctl(id, IPC_RMID, NULL);
    if (f)
        fclose(f);
    unlink(path);
}

#endif
