/* Fuzz target for the policy-file parser (cs_policy_parse): any text must
 * parse without a memory error; accepted rules must be well formed (strings
 * terminated, min_bits <= max_bits, count within the limit); and printing
 * the accepted rules back as policy text must parse to the same rules. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim/dispatch.h"

#define MAX_RULES 64

/* Stops the run with what went wrong (a finding). */
static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "POLICY PARSER: %s\n", what);
        abort();
    }
}

/* Policy text for n rules, in the file format. */
static size_t print_rules(char *out, size_t cap, const cs_policy_rule *r, int n)
{
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        char without[96] = "";
        char copy[sizeof r[i].without];
        memcpy(copy, r[i].without, sizeof copy);
        char *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            strcat(without, *without ? ",!" : "!");
            strcat(without, t);
        }
        int w = snprintf(out + len, cap - len, "%s %u %u %s %s\n", r[i].op, r[i].min_bits,
                         r[i].max_bits, r[i].kernel, without);
        check(w > 0 && (size_t)w < cap - len, "printed rules too long");
        len += (size_t)w;
    }
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0; /* the reader hands the parser a NUL-terminated buffer */
    static cs_policy_rule rules[MAX_RULES], again[MAX_RULES];
    unsigned max = size ? 1 + data[0] % MAX_RULES : MAX_RULES;
    int n = cs_policy_parse(text, rules, max);
    free(text);
    check(n >= -1 && n <= (int)max, "rule count out of range");
    for (int i = 0; i < n; i++) {
        check(memchr(rules[i].op, 0, sizeof rules[i].op) && *rules[i].op, "op not a string");
        check(memchr(rules[i].kernel, 0, sizeof rules[i].kernel) && *rules[i].kernel,
              "kernel not a string");
        check(memchr(rules[i].without, 0, sizeof rules[i].without) != NULL,
              "without not a string");
        check(rules[i].min_bits <= rules[i].max_bits, "min_bits above max_bits");
    }
    if (n > 0) {
        static char printed[MAX_RULES * 160];
        print_rules(printed, sizeof printed, rules, n);
        int m = cs_policy_parse(printed, again, MAX_RULES);
        check(m == n, "printed rules parse to a different count");
        for (int i = 0; i < n; i++)
            check(!strcmp(rules[i].op, again[i].op) && !strcmp(rules[i].kernel, again[i].kernel) &&
                      !strcmp(rules[i].without, again[i].without) &&
                      rules[i].min_bits == again[i].min_bits &&
                      rules[i].max_bits == again[i].max_bits,
                  "printed rules parse differently");
    }
    return 0;
}
