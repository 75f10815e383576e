/*
 * opts.h -- the one command-line parser of the gchol testers and benchmarks.
 *
 * A program declares the options it accepts in a table of opt_t, ended by
 * an entry whose name is NULL, and calls opts_parse(). Every option with a
 * value takes it as "--name value" or "--name=value". -h and --help print
 * the usage (generated from the table) and exit 0; an unknown option or a
 * bad value prints the reason and the usage to stderr and exits with the
 * program's bad_status.
 *
 *     int niter = 3, suite = 0;
 *     testing_list_t sizes = { 0 };
 *     const opt_t opts[] = {
 *         OPT("--suite", OPT_FLAG, &suite, NULL, "run the test suite"),
 *         OPT("-n", OPT_LIST, &sizes, "LIST", "sizes", .def = "1024,2048"),
 *         OPT("--niter", OPT_INT, &niter, "K", "timed runs (default 3)", OPT_MIN(1)),
 *         OPT_END
 *     };
 *     const opts_program_t prog = { "[--suite | -n LIST]", NULL, 2 };
 *     opts_parse(argc, argv, opts, &prog);
 */
#ifndef GCHOL_TESTING_OPTS_H
#define GCHOL_TESTING_OPTS_H

#include <stdint.h>
#include <stdio.h>

typedef enum {
    OPT_FLAG,   /* int: set to .set (1 when .set is 0); takes no value       */
    OPT_INT,    /* int                                                        */
    OPT_INT64,  /* int64_t                                                    */
    OPT_UINT64, /* uint64_t                                                   */
    OPT_DOUBLE, /* double                                                     */
    OPT_STRING, /* const char * (points into argv)                            */
    OPT_CHAR,   /* char: one of the letters of .choices                       */
    OPT_CHARS,  /* const char *: letters of .choices, at least one ("ds")     */
    OPT_CHOICE, /* int: .values[k] (or k) for the k-th word of .choices "a|b" */
    OPT_LIST    /* testing_list_t: "a,b,c" and ranges start:stop[:step]       */
} opt_kind_t;

/* A list of sizes (malloc'ed; opts_free_list frees it). */
typedef struct {
    int64_t *v;
    int64_t  count;
} testing_list_t;

typedef struct {
    const char *name;    /* "--niter", "-n"; NULL ends the table              */
    opt_kind_t  kind;
    void       *value;   /* where the value goes (see opt_kind_t)             */
    const char *arg;     /* the value's name in the usage ("K", "LIST")       */
    const char *help;    /* its description; "\n" starts a new usage line     */
    const char *choices; /* OPT_CHAR / OPT_CHARS: the letters allowed;
                            OPT_CHOICE: the words, '|'-separated              */
    const int  *values;  /* OPT_CHOICE: the value of each word (NULL: index)  */
    double      min;     /* OPT_INT, OPT_INT64, OPT_DOUBLE: least value ...   */
    int         has_min; /* ... when this is set (OPT_MIN)                   */
    int         set;     /* OPT_FLAG: the value stored (0: 1)                 */
    int         doubling; /* OPT_LIST: a range without a step doubles          */
    const char *def;     /* OPT_LIST: the list when the option is not given   */
} opt_t;

/* An entry: name, kind, value, the value's name and the help text, then
 * any other fields by name (.choices = "LU", OPT_MIN(1), ...). */
#define OPT(name_, kind_, value_, arg_, ...) \
    { .name = (name_), .kind = (kind_), .value = (value_), .arg = (arg_), .help = __VA_ARGS__ }
/* The end of a table. */
#define OPT_END { .name = NULL }
/* The least value of a numeric option. */
#define OPT_MIN(x) .min = (x), .has_min = 1

typedef struct {
    const char *synopsis;   /* after "usage: PROGRAM ": "[options]"           */
    const char *about;      /* printed after the option list (may be NULL)   */
    int         bad_status; /* exit status of a bad command line              */
} opts_program_t;

/* Parses argv against the table; exits on -h / --help and on errors. Every
 * OPT_LIST with .def starts as that list. */
void opts_parse(int argc, char **argv, const opt_t *opts, const opts_program_t *prog);

/* Prints the usage. */
void opts_usage(FILE *f, const char *argv0, const opt_t *opts, const opts_program_t *prog);

/* Prints "PROGRAM: message" and the usage to stderr and exits with the
 * program's bad_status: for checks across options after opts_parse. */
void opts_fail(const char *argv0, const opt_t *opts, const opts_program_t *prog,
               const char *fmt, ...) __attribute__((format(printf, 4, 5), noreturn));

/* Frees a list's array. */
void opts_free_list(testing_list_t *list);

#endif /* GCHOL_TESTING_OPTS_H */
