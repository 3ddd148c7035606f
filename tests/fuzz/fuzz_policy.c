/* Fuzz target for the policy-file parser (cs_policy_parse_text, behind
 * cs_policy_parse and the loader): any bytes must parse without a memory
 * error; a refusal must say where ("line N: ..."); accepted rules must be
 * well formed (terminated strings, min_bits <= max_bits, count within the
 * limit); and the accepted file printed back (rules, `cpu`, `measured`,
 * `end`) must parse to the same rules and metadata. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/policy.h"
#include "runtime/dispatch.h"

#define MAX_RULES 64

/* Stops the run with what went wrong (a finding). */
static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "POLICY PARSER: %s\n", what);
        abort();
    }
}

/* Appends printf-style text to out (cap bytes, *len used). */
#define PUT(out, cap, len, ...)                                                               \
    do {                                                                                      \
        int w_ = snprintf((out) + *(len), (cap) - *(len), __VA_ARGS__);                       \
        check(w_ > 0 && (size_t)w_ < (cap) - *(len), "printed policy too long");              \
        *(len) += (size_t)w_;                                                                 \
    } while (0)

/* Policy text for n rules and their metadata, in the file format. */
static size_t print_policy(char *out, size_t cap, const cs_policy_rule *r, int n,
                           const cs_policy_meta *meta)
{
    size_t len = 0;
    if (meta->cpu[0])
        PUT(out, cap, &len, "cpu %s\n", meta->cpu);
    if (meta->measured[0])
        PUT(out, cap, &len, "measured %s\n", meta->measured);
    for (int i = 0; i < n; i++) {
        char without[96] = "", copy[sizeof r[i].without];
        memcpy(copy, r[i].without, sizeof copy);
        char *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            strcat(without, *without ? ",!" : "!");
            strcat(without, t);
        }
        PUT(out, cap, &len, "%s %u %u %s %s\n", r[i].op, r[i].min_bits, r[i].max_bits,
            r[i].kernel, without);
    }
    if (meta->ended)
        PUT(out, cap, &len, "end\n");
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > CS_POLICY_MAX_BYTES)
        return 0;
    static cs_policy_rule rules[MAX_RULES], again[MAX_RULES];
    cs_policy_meta meta, meta2;
    char err[160] = "", err2[160] = "";
    unsigned max = size ? 1 + data[0] % MAX_RULES : MAX_RULES;
    /* An exact-size copy, so reading past the length is caught. */
    char *text = malloc(size ? size : 1);
    memcpy(text, data, size);
    int n = cs_policy_parse_text(text, size, rules, max, &meta, err, sizeof err);
    free(text);
    check(n >= -1 && n <= (int)max, "rule count out of range");
    if (n < 0) {
        check(!strncmp(err, "line ", 5), "a refusal without its line");
        return 0;
    }
    check(memchr(meta.cpu, 0, sizeof meta.cpu) && memchr(meta.measured, 0, sizeof meta.measured),
          "metadata not a string");
    for (int i = 0; i < n; i++) {
        check(memchr(rules[i].op, 0, sizeof rules[i].op) && *rules[i].op, "op not a string");
        check(memchr(rules[i].kernel, 0, sizeof rules[i].kernel) && *rules[i].kernel,
              "kernel not a string");
        check(memchr(rules[i].without, 0, sizeof rules[i].without) != NULL,
              "without not a string");
        check(rules[i].min_bits <= rules[i].max_bits, "min_bits above max_bits");
        check(rules[i].max_bits <= CS_POLICY_MAX_BITS, "max_bits above the limit");
    }
    static char printed[MAX_RULES * 200 + 512];
    size_t plen = print_policy(printed, sizeof printed, rules, n, &meta);
    int m = cs_policy_parse_text(printed, plen, again, MAX_RULES, &meta2, err2, sizeof err2);
    if (m != n)
        fprintf(stderr, "reparse: %d rules (%s), first parse %d\n%s", m, err2, n, printed);
    check(m == n, "printed policy parses to a different count");
    check(!strcmp(meta.cpu, meta2.cpu) && !strcmp(meta.measured, meta2.measured) &&
              meta.ended == meta2.ended,
          "printed policy parses to different metadata");
    for (int i = 0; i < n; i++)
        check(!strcmp(rules[i].op, again[i].op) && !strcmp(rules[i].kernel, again[i].kernel) &&
                  !strcmp(rules[i].without, again[i].without) &&
                  rules[i].min_bits == again[i].min_bits &&
                  rules[i].max_bits == again[i].max_bits,
              "printed policy parses differently");
    return 0;
}
