/*
 * tester.c -- what the testers of the solves and the RFP routines share
 * around their cases (util.h): the command line, main() from the parse to
 * the SUMMARY line, and the table of the solve testers.
 */
#include <stdio.h>

#include "flops.h"
#include "util.h"

int testing_tester_main(int argc, char **argv, const testing_tester_t *t)
{
    testing_cmdline_t cmd = { 0, 0, 3, { NULL, 0 }, 1, 'N', 'L' };
    opt_t opts[9];
    int k = 0;
    opts[k++] = (opt_t)OPT("--suite", OPT_FLAG, &cmd.suite, NULL, "the test suite (make test)");
    opts[k++] = (opt_t)OPT("--quick", OPT_FLAG, &cmd.quick, NULL,
                           "the suite with fewer cases (the sanitizers)");
    const char *part = NULL;
    opts[k++] = (opt_t)OPT("--part", OPT_STRING, &part, "I/K",
                           "with --suite: only cases I, I+K, I+2K, ... (from 0)");
    opts[k++] = (opt_t)OPT("-n", OPT_LIST, &cmd.ns, "LIST",
                           "table: orders (default 1024,2048,4096,8192)",
                           .def = "1024,2048,4096,8192");
    if (t->options & TESTING_CMD_NRHS)
        opts[k++] = (opt_t)OPT("--nrhs", OPT_INT64, &cmd.nrhs, "K",
                               "table: right-hand sides (default 1)", OPT_MIN(1));
    if (t->options & TESTING_CMD_TRANSR)
        opts[k++] = (opt_t)OPT("--transr", OPT_CHAR, &cmd.transr, "N|T",
                               "table: RFP variant (default N)", .choices = "NT");
    opts[k++] = (opt_t)OPT("--uplo", OPT_CHAR, &cmd.uplo, "L|U", "table: triangle (default L)",
                           .choices = "LU");
    opts[k++] = (opt_t)OPT("--niter", OPT_INT, &cmd.niter, "K",
                           "table: timed runs, median reported (default 3)", OPT_MIN(1));
    opts[k] = (opt_t)OPT_END;
    const opts_program_t prog = { "[--suite [--quick] | table options]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    if (part && testing_parse_part(part) != 0) {
        fprintf(stderr, "--part: expected I/K with 0 <= I < K, got '%s'\n", part);
        return 2;
    }

    gchol_queue_t queue = NULL;
    if (t->queue)
        *t->queue = queue = testing_queue_or_null();
    if (cmd.suite || cmd.quick) {
        const double t0 = testing_wtime();
        const char *gpu = testing_have_gpu() ? "GPU present" : "no GPU";
        if (t->prec)
            printf("testing_%c%s --suite%s  (%s precision, %s)\n", t->prec, t->routine,
                   cmd.quick ? " --quick" : "", testing_prec_name(t->prec), gpu);
        else
            printf("testing_%s --suite%s  (%s)\n", t->routine, cmd.quick ? " --quick" : "", gpu);
        testing_check_arguments(t->entries, t->nentries, queue);
        t->suite(cmd.quick);
        printf("suite time %.1f s\n", testing_wtime() - t0);
    } else {
        t->table(&cmd);
    }
    if (queue)
        gchol_queue_destroy(queue);
    if (testing_have_gpu())
        gchol_finalize();
    testing_gram_release();
    opts_free_list(&cmd.ns);
    return testing_summary();
}

void testing_solve_table_head(char prec, const char *routine, double mu)
{
    printf("CPU reference: LAPACKE_%c%s; factor of B B^T/n + %.2f I; flops 2 n^2 nrhs\n", prec,
           routine, mu);
    printf("%7s %5s %10s %9s %10s %9s %10s  %s\n", "n", "nrhs", "GPU s", "GPU GF/s", "CPU s",
           "CPU GF/s", "berr", "check");
}

void testing_solve_table_row(int64_t n, int64_t nrhs, double tg, double tc, double berr, int ok)
{
    ok = ok && berr >= 0 && berr < TESTING_TOL;
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    const double gf = testing_flops_potrs(n, nrhs) / 1e9;
    printf("%7lld %5lld %10.5f %9.1f %10.5f %9.1f %10.2e  %s\n", (long long)n, (long long)nrhs, tg,
           tg > 0 ? gf / tg : 0.0, tc, tc > 0 ? gf / tc : 0.0, berr, ok ? "ok" : "FAILED");
    fflush(stdout);
}
