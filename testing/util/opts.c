/*
 * opts.c -- the command-line parser of the testers and benchmarks (opts.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "util.h"

/* The usage line, the options and their help, the closing text. */
void opts_usage(FILE *f, const char *argv0, const opt_t *opts, const opts_program_t *prog)
{
    fprintf(f, "usage: %s %s\n", argv0, prog && prog->synopsis ? prog->synopsis : "[options]");
    for (const opt_t *o = opts; o->name; ++o) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        const char *h = o->help ? o->help : "";
        int first = 1;
        do { /* one usage line per "\n" of the help text */
            const char *nl = strchr(h, '\n');
            const int len = nl ? (int)(nl - h) : (int)strlen(h);
            fprintf(f, "  %-22s %.*s\n", first ? head : "", len, h);
            first = 0;
            h = nl ? nl + 1 : NULL;
        } while (h);
    }
    fprintf(f, "  %-22s %s\n", "-h, --help", "print this help and exit");
    if (prog && prog->about)
        fprintf(f, "%s\n", prog->about);
}

void opts_fail(const char *argv0, const opt_t *opts, const opts_program_t *prog,
               const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", argv0);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    opts_usage(stderr, argv0, opts, prog);
    exit(prog ? prog->bad_status : 2);
}

void opts_free_list(testing_list_t *list)
{
    free(list->v);
    list->v = NULL;
    list->count = 0;
}

/* Index of word w in the '|'-separated list, or -1. */
static int choice_index(const char *list, const char *w)
{
    const size_t wl = strlen(w);
    int k = 0;
    for (const char *p = list; p; ++k) {
        const char *bar = strchr(p, '|');
        const size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == wl && strncmp(p, w, len) == 0)
            return k;
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

/* A number, all of text, at least the option's minimum. */
static int parse_number(const opt_t *o, const char *text, double *out)
{
    char *end;
    errno = 0;
    const double v = o->kind == OPT_DOUBLE ? strtod(text, &end) : (double)strtoll(text, &end, 10);
    if (end == text || *end != '\0' || errno || (o->kind == OPT_DOUBLE && isnan(v)))
        return -1;
    if (o->has_min && v < o->min)
        return -1;
    *out = v;
    return 0;
}

/* Stores text as the value of o; 0, or -1 when it is not a valid value. */
static int store(const opt_t *o, const char *text)
{
    double num = 0;
    switch (o->kind) {
    case OPT_INT:
        if (parse_number(o, text, &num) || num < -2147483648.0 || num > 2147483647.0)
            return -1;
        *(int *)o->value = (int)strtol(text, NULL, 10);
        return 0;
    case OPT_INT64:
        if (parse_number(o, text, &num))
            return -1;
        *(int64_t *)o->value = (int64_t)strtoll(text, NULL, 10);
        return 0;
    case OPT_UINT64: {
        char *end;
        errno = 0;
        const unsigned long long v = strtoull(text, &end, 10);
        if (end == text || *end != '\0' || errno || text[0] == '-')
            return -1;
        *(uint64_t *)o->value = (uint64_t)v;
        return 0;
    }
    case OPT_DOUBLE:
        if (parse_number(o, text, &num))
            return -1;
        *(double *)o->value = num;
        return 0;
    case OPT_STRING:
        *(const char **)o->value = text;
        return 0;
    case OPT_CHAR:
        if (text[0] == '\0' || text[1] != '\0' || !strchr(o->choices, text[0]))
            return -1;
        *(char *)o->value = text[0];
        return 0;
    case OPT_CHARS:
        if (!testing_is_subset(text, o->choices))
            return -1;
        *(const char **)o->value = text;
        return 0;
    case OPT_CHOICE: {
        const int k = choice_index(o->choices, text);
        if (k < 0)
            return -1;
        *(int *)o->value = o->values ? o->values[k] : k;
        return 0;
    }
    case OPT_LIST: {
        testing_list_t *l = o->value, fresh;
        if (testing_parse_list(text, o->doubling, &fresh.v, &fresh.count) || fresh.count == 0)
            return -1;
        free(l->v);
        *l = fresh;
        return 0;
    }
    case OPT_FLAG:
        break;
    }
    return -1;
}

/* What a valid value of o looks like, for the error message. */
static void describe(const opt_t *o, char *text, size_t size)
{
    switch (o->kind) {
    case OPT_CHAR:   snprintf(text, size, "one of the letters %s", o->choices); break;
    case OPT_CHARS:  snprintf(text, size, "letters of %s", o->choices); break;
    case OPT_CHOICE: snprintf(text, size, "one of %s", o->choices); break;
    case OPT_LIST:   snprintf(text, size, "a list a,b,c or ranges start:stop[:step]"); break;
    case OPT_UINT64: snprintf(text, size, "a non-negative integer"); break;
    case OPT_DOUBLE:
        if (o->has_min) snprintf(text, size, "a number >= %g", o->min);
        else snprintf(text, size, "a number");
        break;
    default:
        if (o->has_min) snprintf(text, size, "an integer >= %.0f", o->min);
        else snprintf(text, size, "an integer");
        break;
    }
}

void opts_parse(int argc, char **argv, const opt_t *opts, const opts_program_t *prog)
{
    const char *argv0 = argc > 0 ? argv[0] : "program";
    for (const opt_t *o = opts; o->name; ++o)
        if (o->kind == OPT_LIST && o->def) {
            testing_list_t *l = o->value;
            free(l->v);
            if (testing_parse_list(o->def, o->doubling, &l->v, &l->count)) {
                fprintf(stderr, "%s: bad default list %s for %s\n", argv0, o->def, o->name);
                exit(prog ? prog->bad_status : 2);
            }
        }
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            opts_usage(stdout, argv0, opts, prog);
            exit(EXIT_SUCCESS);
        }
        const opt_t *o = NULL;
        const char *value = NULL;
        for (const opt_t *p = opts; p->name && !o; ++p) {
            const size_t len = strlen(p->name);
            if (strncmp(a, p->name, len) != 0)
                continue;
            if (a[len] == '\0') {
                o = p;
            } else if (a[len] == '=' && p->kind != OPT_FLAG) {
                o = p;
                value = a + len + 1;
            }
        }
        if (!o)
            opts_fail(argv0, opts, prog, "unknown option %s", a);
        if (o->kind == OPT_FLAG) {
            *(int *)o->value = o->set ? o->set : 1;
            continue;
        }
        if (!value) {
            if (i + 1 >= argc)
                opts_fail(argv0, opts, prog, "%s needs a value (%s)", o->name,
                          o->arg ? o->arg : "");
            value = argv[++i];
        }
        if (store(o, value)) {
            char want[96];
            describe(o, want, sizeof want);
            opts_fail(argv0, opts, prog, "bad value '%s' for %s: want %s", value, o->name, want);
        }
    }
}
