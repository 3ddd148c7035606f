#include "vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *vec_dir(void)
{
    const char *v = getenv("VECTORS");
    return v && *v ? v : "tests/vectors";
}

char *vec_read(const char *name, size_t *len)
{
    char path[4096];
    if (name[0] == '/' || !strncmp(name, "./", 2))
        snprintf(path, sizeof path, "%s", name);
    else
        snprintf(path, sizeof path, "%s/%s", vec_dir(), name);
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            cap = (cap + 65536) * 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long vec_unhex(uint8_t *out, size_t cap, const char *hex, size_t hexlen)
{
    if (hexlen % 2 || hexlen / 2 > cap)
        return -1;
    for (size_t i = 0; i < hexlen / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(hexlen / 2);
}

uint8_t *vec_unhex_new(const char *hex, size_t *len)
{
    size_t hl = hex && strcmp(hex, "-") ? strlen(hex) : 0;
    *len = 0;
    uint8_t *out = malloc(hl / 2 + 1);
    long n = out ? vec_unhex(out, hl / 2 + 1, hex, hl) : -1;
    if (n < 0) {
        free(out);
        return NULL;
    }
    *len = (size_t)n;
    return out;
}

void vec_hex(char *out, const uint8_t *in, size_t len)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = d[in[i] >> 4];
        out[2 * i + 1] = d[in[i] & 15];
    }
    out[2 * len] = 0;
}

int vec_kv_open(vec_kv *f, const char *name)
{
    memset(f, 0, sizeof *f);
    f->text = f->next = vec_read(name, NULL);
    return f->text ? 0 : -1;
}

/* Cuts the next line off f->next (NUL-terminated, trailing blanks and CR
 * dropped); NULL at the end of the text. */
static char *next_line(vec_kv *f)
{
    char *s = f->next;
    if (!s || !*s)
        return NULL;
    char *nl = strchr(s, '\n');
    f->next = nl ? nl + 1 : s + strlen(s);
    if (nl)
        *nl = 0;
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
    f->lineno++;
    return s;
}

int vec_kv_next(vec_kv *f)
{
    char *s;
    f->n = 0;
    while ((s = next_line(f))) {
        if (!*s) {
            if (f->n)
                return 1;
            continue;
        }
        char *eq = strstr(s, " = ");
        if (s[0] == '#' || !eq || f->n == VEC_KV_MAX)
            continue;
        *eq = 0;
        if (!f->n)
            f->line = f->lineno;
        f->key[f->n] = s;
        f->val[f->n++] = eq + 3;
    }
    return f->n > 0;
}

const char *vec_kv_get(const vec_kv *f, const char *key)
{
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->key[i], key))
            return f->val[i];
    return NULL;
}

void vec_kv_close(vec_kv *f)
{
    free(f->text);
    memset(f, 0, sizeof *f);
}

int vec_wyc_open(vec_wyc *w, const char *name)
{
    memset(w, 0, sizeof *w);
    char *text = vec_read(name, NULL);
    if (!text)
        return -1;
    w->doc = json_parse(text);
    free(text);
    if (!w->doc)
        return -1;
    w->groups = json_get(w->doc, "testGroups");
    return 0;
}

void vec_wyc_rewind(vec_wyc *w)
{
    w->g = w->t = 0;
    w->tests = NULL;
}

const json *vec_wyc_group(vec_wyc *w)
{
    if (!w->groups || w->groups->type != JSON_ARR || w->g >= w->groups->n) {
        w->tests = NULL;
        return NULL;
    }
    const json *g = w->groups->items[w->g++];
    w->tests = json_get(g, "tests");
    w->t = 0;
    return g;
}

const json *vec_wyc_test(vec_wyc *w)
{
    if (!w->tests || w->tests->type != JSON_ARR || w->t >= w->tests->n)
        return NULL;
    return w->tests->items[w->t++];
}

void vec_wyc_close(vec_wyc *w)
{
    json_free(w->doc);
    memset(w, 0, sizeof *w);
}

uint8_t *vec_json_hex(const json *obj, const char *key, size_t *len)
{
    return vec_unhex_new(json_get_str(obj, key), len);
}

int vec_wyc_id(const json *test)
{
    const json *id = json_get(test, "tcId");
    return id && id->type == JSON_NUM ? (int)id->num : -1;
}

int vec_wyc_valid(const json *test)
{
    const char *r = json_get_str(test, "result");
    return r && !strcmp(r, "valid");
}
