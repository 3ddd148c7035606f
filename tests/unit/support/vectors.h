/* The one reader of the tree's test vectors (tests/vectors), for the unit
 * tests and the drivers the bats suites run: the vectors directory, whole
 * files, hex, BoringSSL file_test's "Key = Value" blocks (OpenSSL's bnmod.txt
 * is written the same way) and Wycheproof's JSON groups and tests. No
 * OpenSSL, so the kernel tests use it under qemu too. Not for untrusted
 * input: the files are the tree's own. */
#ifndef CRYPTOSHIM_TEST_VECTORS_H
#define CRYPTOSHIM_TEST_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"

/* The vectors directory: $VECTORS, else tests/vectors (relative to the
 * repository, where the tests run). */
const char *vec_dir(void);
/* The whole file `name` (under vec_dir(), or as given when it starts with
 * '/' or "./"), NUL-terminated, length in *len when len is not NULL; NULL
 * when it cannot be read. The caller frees it. */
char *vec_read(const char *name, size_t *len);

/* Decodes hexlen hex digits into out (room for cap bytes); the number of
 * bytes, or -1 on an odd length, a non-hex digit or too little room. */
long vec_unhex(uint8_t *out, size_t cap, const char *hex, size_t hexlen);
/* hex (NULL, "" and "-" are empty) as a new buffer, length in *len; NULL
 * (and *len 0) on malformed hex. The caller frees it. */
uint8_t *vec_unhex_new(const char *hex, size_t *len);
/* Lower-case hex of len bytes into out (2 * len + 1 bytes, NUL-terminated). */
void vec_hex(char *out, const uint8_t *in, size_t len);

/* file_test blocks: "Key = Value" lines, blocks separated by blank lines,
 * '#' comments; trailing blanks and CRs are not part of a value. The text is
 * read once and cut in place. */
#define VEC_KV_MAX 32
typedef struct vec_kv {
    char *text, *next;
    unsigned lineno;                         /* lines read so far */
    unsigned line;                           /* the current block's first line */
    size_t n;                                /* the current block's pairs */
    const char *key[VEC_KV_MAX], *val[VEC_KV_MAX];
} vec_kv;

/* Opens file `name` (as vec_read); 0, or -1 when it cannot be read. */
int vec_kv_open(vec_kv *f, const char *name);
/* The next block with at least one pair: 1, or 0 at the end. */
int vec_kv_next(vec_kv *f);
/* The value of key in the current block, or NULL. */
const char *vec_kv_get(const vec_kv *f, const char *key);
void vec_kv_close(vec_kv *f);

/* Wycheproof files: {"testGroups": [{..., "tests": [{"tcId": ...}, ...]}]}.
 *   for (const json *g; (g = vec_wyc_group(&w));)
 *       for (const json *t; (t = vec_wyc_test(&w));) ... */
typedef struct vec_wyc {
    json *doc;
    const json *groups, *tests;
    size_t g, t;
} vec_wyc;

/* Opens and parses file `name` (as vec_read); 0, or -1 when it cannot be
 * read or parsed. */
int vec_wyc_open(vec_wyc *w, const char *name);
/* Back to before the first group (to walk the file again). */
void vec_wyc_rewind(vec_wyc *w);
/* The next test group, or NULL after the last. */
const json *vec_wyc_group(vec_wyc *w);
/* The next test of the current group, or NULL after its last. */
const json *vec_wyc_test(vec_wyc *w);
void vec_wyc_close(vec_wyc *w);
/* The hex string member key of obj as a new buffer (length in *len; an
 * absent member is empty); NULL on malformed hex. The caller frees it. */
uint8_t *vec_json_hex(const json *obj, const char *key, size_t *len);
/* A test's tcId, and whether its result is "valid". */
int vec_wyc_id(const json *test);
int vec_wyc_valid(const json *test);

#endif
