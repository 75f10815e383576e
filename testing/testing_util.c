/*
 * testing_util.c -- tests of the testing library itself (testing/util/),
 * which every other tester relies on: the residual ratios on the CPU and,
 * with a GPU, on the GPU (a LAPACK factor passes, a perturbed one fails),
 * the matrix generators (symmetric, SPD, in the promised ranges, as
 * ill-conditioned as documented), the reference info, the padding and
 * other-triangle checker, the size and shape parsers, the solve's backward
 * error ratio, and the command-line parser of opts.h. Host-side: runs
 * without a GPU.
 *
 *   testing_util
 *
 * Ends with "SUMMARY passed=P failed=F skipped=S".
 */
#define _POSIX_C_SOURCE 200809L /* fork */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime_api.h>
#include <lapacke.h>

#include "gchol.h"
#include "opts.h"
#include "util.h"

#define LEN(a) TESTING_LEN(a)

/* ---------------------------------------------------------------------------
 * Residuals, generators, checkers.
 * ------------------------------------------------------------------------- */
/* Factors A (lda) with LAPACKE into a copy; returns the copy or NULL. */
static void *lapacke_factor(char prec, char uplo, int64_t n, const void *A, int64_t lda,
                            int64_t *info)
{
    size_t bytes = (size_t)(lda * n) * testing_elsize(prec);
    void *L = malloc(bytes);
    if (!L)
        return NULL;
    memcpy(L, A, bytes);
    *info = prec == 's' ? LAPACKE_spotrf(LAPACK_COL_MAJOR, uplo, (lapack_int)n, L, (lapack_int)lda)
                        : LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, (lapack_int)n, L, (lapack_int)lda);
    return L;
}

/* The GPU residual of a host factor, NaN on failure. */
static double gpu_residual(char prec, char uplo, int64_t n, const void *A, int64_t lda,
                           const void *L)
{
    size_t es = testing_elsize(prec);
    void *dL = NULL;
    double resid = NAN;
    if (TESTING_CUDA(cudaMalloc(&dL, (size_t)(lda * n) * es)) ||
        testing_copy_h2d(es, lda, n, L, lda, dL, lda) ||
        testing_residual_gpu(prec, uplo, n, A, lda, dL, lda, &resid))
        resid = NAN;
    cudaFree(dL);
    return resid;
}

/* Residual of a LAPACK factor is small, of a perturbed one large: on the CPU,
 * and on the GPU when there is one. */
static void test_residual(void)
{
    static const int64_t ns[] = { 1, 50, 300 };
    static const char precs[] = { 'd', 's' }, uplos[] = { 'L', 'U' };
    int gpu = testing_have_gpu();
    printf("-- residual helpers --\n");
    LAPACKE_set_nancheck(0);
    for (int p = 0; p < 2; p++)
        for (int u = 0; u < 2; u++)
            for (int i = 0; i < LEN(ns); i++) {
                char prec = precs[p], uplo = uplos[u];
                int64_t n = ns[i], lda = n + 3, info = -1, j = n / 2;
                void *A = malloc((size_t)(lda * n) * testing_elsize(prec)), *L = NULL;
                double good, bad, ggood = 0, gbad = 1e300;
                if (A) {
                    testing_fill_nan(prec, lda * n, A);
                    testing_generate_spd(prec, uplo, n, A, lda, 77 + (uint64_t)n);
                    L = lapacke_factor(prec, uplo, n, A, lda, &info);
                }
                if (!L) {
                    free(A);
                    testing_record(TESTING_FAILED);
                    continue;
                }
                good = testing_residual_cpu(prec, uplo, n, A, lda, L, lda);
                ggood = gpu ? gpu_residual(prec, uplo, n, A, lda, L) : 0;
                testing_set(prec, L, lda, j, j, 1.1 * testing_get(prec, L, lda, j, j));
                bad = testing_residual_cpu(prec, uplo, n, A, lda, L, lda);
                gbad = gpu ? gpu_residual(prec, uplo, n, A, lda, L) : 1e300;
                testing_expect(info == 0 && good < TESTING_TOL && bad > 100,
                               "CPU residual %c%c n=%lld: LAPACKE factor %.3e, perturbed %.3e",
                               prec, uplo, (long long)n, good, bad);
                if (gpu)
                    testing_expect(ggood < TESTING_TOL && gbad > 100 && fabs(gbad - bad) < 1e-3 * bad,
                                   "GPU residual %c%c n=%lld: LAPACKE factor %.3e, perturbed %.3e",
                                   prec, uplo, (long long)n, ggood, gbad);
                free(A);
                free(L);
            }
}

/* The generator gives the same symmetric SPD matrix for 'L' and 'U', in the
 * promised ranges; A(k,k) = -1 gives info k; the reference info follows
 * reference LAPACK on NaN / Inf pivots. */
static void test_generator(void)
{
    const int64_t n = 500, lda = 503, k = 129;
    double *AL = malloc((size_t)(lda * n) * sizeof(double));
    double *AU = malloc((size_t)(lda * n) * sizeof(double));
    int sym = 1, range = 1;
    int64_t info;
    printf("-- SPD generator and reference info --\n");
    if (!AL || !AU) {
        testing_record(TESTING_FAILED);
        free(AL); free(AU);
        return;
    }
    testing_fill_nan('d', lda * n, AL);
    testing_fill_nan('d', lda * n, AU);
    testing_generate_spd('d', 'L', n, AL, lda, 3);
    testing_generate_spd('d', 'U', n, AU, lda, 3);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            double v = AL[i + j * lda];
            sym &= v == AU[j + i * lda];
            range &= i == j ? (v > n - 1 && v < n + 1) : (fabs(v) < 1 && v != 0);
        }
    testing_expect(sym, "'L' and 'U' generate the same symmetric matrix");
    testing_expect(range, "entries: |off-diagonal| < 1, diagonal in (n-1, n+1)");
    testing_expect(testing_lapacke_info('d', 'L', n, AL, lda) == 0 &&
                   testing_lapacke_info('d', 'U', n, AU, lda) == 0,
                   "generated matrix is SPD (LAPACKE_dpotrf info 0, both uplo)");
    AL[(k - 1) * (lda + 1)] = -1;
    info = testing_lapacke_info('d', 'L', n, AL, lda);
    testing_expect(info == k && testing_reference_info('d', 'L', n, AL, lda) == k,
                   "A(k,k) = -1 gives info k = %lld (LAPACKE %lld)", (long long)k, (long long)info);
    AL[(k - 1) * (lda + 1)] = NAN;
    info = testing_reference_info('d', 'L', n, AL, lda);
    testing_expect(info == k, "reference info with NaN pivot at %lld: %lld", (long long)k,
                   (long long)info);
    AL[(k - 1) * (lda + 1)] = INFINITY;
    info = testing_reference_info('d', 'L', n, AL, lda);
    testing_expect(info == 0, "reference info with Inf diagonal: %lld (expected 0)", (long long)info);
    AU[(k - 1) + (k + 9) * lda] = NAN; /* A(k, k+10) in 'U' = A(k+10, k) */
    info = testing_reference_info('d', 'U', n, AU, lda);
    testing_expect(info == k + 10, "reference info with NaN at A(%lld,%lld): %lld",
                   (long long)k + 10, (long long)k, (long long)info);
    free(AL);
    free(AU);
}

/* The untouched-checker catches one modified byte outside the referenced
 * triangle and ignores changes inside it. */
static void test_untouched_checker(void)
{
    enum { N = 20, LDA = 25 };
    static const char precs[] = { 'd', 's' }, uplos[] = { 'L', 'U' };
    printf("-- padding / other-triangle checker --\n");
    for (int p = 0; p < 2; p++)
        for (int u = 0; u < 2; u++) {
            char prec = precs[p], uplo = uplos[u];
            size_t es = testing_elsize(prec);
            double A[LDA * N], S[LDA * N];
            unsigned char *a = (unsigned char *)A;
            int64_t pad_at = 22 + 3 * LDA, other_at = uplo == 'L' ? 2 + 9 * LDA : 9 + 2 * LDA;
            int64_t ref_at = uplo == 'L' ? 9 + 2 * LDA : 2 + 9 * LDA;
            int64_t c0, c1, c2, c3;
            testing_fill_nan(prec, LDA * N, A);
            testing_generate_spd(prec, uplo, N, A, LDA, 5);
            memcpy(S, A, sizeof(A));
            c0 = testing_count_untouched_violations(prec, uplo, N, A, S, LDA);
            a[pad_at * es] ^= 1;
            c1 = testing_count_untouched_violations(prec, uplo, N, A, S, LDA);
            a[pad_at * es] ^= 1;
            a[other_at * es + 1] ^= 0x10;
            c2 = testing_count_untouched_violations(prec, uplo, N, A, S, LDA);
            a[other_at * es + 1] ^= 0x10;
            a[ref_at * es] ^= 1;
            c3 = testing_count_untouched_violations(prec, uplo, N, A, S, LDA);
            testing_expect(c0 == 0 && c1 == 1 && c2 == 1 && c3 == 0,
                           "checker %c%c: clean %lld, padding byte %lld, other-triangle byte "
                           "%lld, referenced %lld", prec, uplo, (long long)c0, (long long)c1,
                           (long long)c2, (long long)c3);
        }
}

/* Size lists and ranges. */
static void test_parse_sizes(void)
{
    static const struct { const char *spec; int64_t count, first, last; } ok[] = {
        { "1024:8192:1024", 8, 1024, 8192 }, { "1,2,3", 3, 1, 3 }, { "7", 1, 7, 7 },
        { "1:5:2,10", 4, 1, 10 }, { "0:3", 4, 0, 3 },
        { "9223372036854775806:9223372036854775807:5", 1, INT64_MAX - 1, INT64_MAX - 1 } };
    static const char *const bad[] = { "", "abc", "5:1", "1,,2", "1:4:0", "-3", "4x" };
    printf("-- size parser --\n");
    for (int i = 0; i < LEN(ok); i++) {
        int64_t *v = NULL, c = 0;
        int rc = testing_parse_sizes(ok[i].spec, &v, &c);
        testing_expect(rc == 0 && c == ok[i].count && v[0] == ok[i].first &&
                       v[c - 1] == ok[i].last, "parse \"%s\": %lld sizes", ok[i].spec,
                       (long long)c);
        free(v);
    }
    for (int i = 0; i < LEN(bad); i++) {
        int64_t *v = NULL, c = 0;
        testing_expect(testing_parse_sizes(bad[i], &v, &c) != 0 && !v,
                       "parse \"%s\" rejected", bad[i]);
    }
}

/* The helpers the RFP testers add: Gram generator, counters. */
static void test_rfp_helpers(void)
{
    const int64_t n = 200, lda = 203;
    double *A = malloc((size_t)(lda * n) * sizeof(double)), mindiag = 1e300, maxoff = 0;
    float *As = malloc((size_t)(lda * n) * sizeof(float));
    int sym = 1, same = 1;
    printf("-- RFP tester helpers --\n");
    if (!A || !As) {
        testing_record(TESTING_FAILED);
        free(A); free(As);
        return;
    }
    testing_fill_nan('d', lda * n, A);
    testing_fill_nan('s', lda * n, As);
    testing_expect(testing_generate_gram_spd('d', n, A, lda, 0.25, 11) == 0 &&
                   testing_generate_gram_spd('s', n, As, lda, 0.25, 11) == 0,
                   "testing_generate_gram_spd n=%lld", (long long)n);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            double v = A[i + j * lda];
            sym &= v == A[j + i * lda];
            same &= (float)v == As[i + j * lda];
            if (i == j)
                mindiag = v < mindiag ? v : mindiag;
            else
                maxoff = fabs(v) > maxoff ? fabs(v) : maxoff;
        }
    sym &= isnan(A[n + 5 * lda]) && isnan(As[n + 2 + 7 * lda]); /* padding not written */
    testing_expect(sym && same, "Gram matrix symmetric, float = rounded double, padding kept");
    testing_expect(mindiag > 0.25 && maxoff > 0.05,
                   "Gram matrix not diagonal-like: min diagonal %.3f, max |off-diagonal| %.3f",
                   mindiag, maxoff);
    testing_expect(testing_lapacke_info('d', 'L', n, A, lda) == 0 &&
                   testing_lapacke_info('s', 'U', n, As, lda) == 0,
                   "Gram matrix is SPD (LAPACKE ?potrf info 0)");
    {
        /* the ill-conditioned generator: referenced triangle only, SPD, and
         * as ill-conditioned as documented (1-norm estimate from LAPACKE) */
        int tri = 1;
        double anorm = 0, rcond = 0;
        testing_fill_nan('d', lda * n, A);
        testing_expect(testing_generate_lowrank_spd('d', 'U', n, A, lda, n / 2, 1e-9, 5) == 0,
                       "testing_generate_lowrank_spd n=%lld", (long long)n);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                double v = A[i + j * lda];
                tri &= i <= j ? !isnan(v) : isnan(v);
                if (i <= j)
                    anorm = fmax(anorm, fabs(v));
            }
        anorm *= (double)n; /* a bound on the 1-norm is enough for the estimate */
        testing_expect(tri, "low-rank SPD matrix: only the upper triangle written");
        const int ok = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', (lapack_int)n, A, (lapack_int)lda) == 0 &&
                       LAPACKE_dpocon(LAPACK_COL_MAJOR, 'U', (lapack_int)n, A, (lapack_int)lda,
                                      anorm, &rcond) == 0;
        testing_expect(ok && rcond > 0 && rcond < 1e-7,
                       "low-rank SPD matrix is SPD and ill-conditioned (rcond estimate %.1e)", rcond);
    }
    {
        double x[5] = { 1, 2, 3, 4, 5 }, y[5] = { 1, 2, 3, 4, 5 };
        int64_t c0 = testing_count_diff('d', 5, x, y), c1;
        y[3] = -4;
        c1 = testing_count_diff('d', 5, x, y);
        testing_fill_value('d', 5, y, 2.5);
        testing_expect(c0 == 0 && c1 == 1 && y[0] == 2.5 && y[4] == 2.5 &&
                       testing_rfp_size(0) == 0 && testing_rfp_size(7) == 28,
                       "testing_count_diff, testing_fill_value, testing_rfp_size");
    }
    free(A);
    free(As);
}

/* The prescribed-condition generator: symmetric, padding kept, float the
 * rounded double, and its eigenvalues (LAPACKE_dsyev) from 1/kappa to 1. */
static void test_cond_generator(void)
{
    enum { N = 60, LDA = N + 3 };
    static double A[LDA * N], E[N * N], w[N];
    static float As[LDA * N];
    const double kappas[] = { 1e2, 1e8, 1e14 };
    for (int t = 0; t < TESTING_LEN(kappas); t++) {
        const double kappa = kappas[t];
        int sym = 1, pad = 1, same = 1;
        testing_fill_nan('d', LDA * N, A);
        testing_fill_nan('s', LDA * N, As);
        const int rc = testing_generate_cond_spd('d', N, A, LDA, kappa, 17) |
                       testing_generate_cond_spd('s', N, As, LDA, kappa, 17);
        for (int64_t j = 0; j < N; j++) {
            for (int64_t i = 0; i < N; i++) {
                sym &= A[i + j * LDA] == A[j + i * LDA];
                same &= As[i + j * LDA] == (float)A[i + j * LDA];
                E[i + j * N] = A[i + j * LDA];
            }
            for (int64_t i = N; i < LDA; i++) pad &= isnan(A[i + j * LDA]) && isnan(As[i + j * LDA]);
        }
        const int ev = LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', N, E, N, w) == 0;
        /* the smallest eigenvalue is known to about eps ||A|| = 1e-16 */
        const double got = w[N - 1] / w[0], rel = fabs(got / kappa - 1);
        testing_expect(rc == 0 && sym && pad && same && ev && fabs(w[N - 1] - 1) < 1e-12 &&
                           rel < (kappa < 1e10 ? 1e-6 : 0.1),
                       "testing_generate_cond_spd kappa %.0e: eigenvalues %.3e .. %.3e, ratio "
                       "%.3e, symmetric, padding kept, float = rounded double",
                       kappa, w[0], w[N - 1], got);
    }
}

/* ---------------------------------------------------------------------------
 * Lists, shapes, the solve ratio, the options parser.
 * ------------------------------------------------------------------------- */

/* Doubling ranges and shapes. */
static void test_lists(void)
{
    int64_t *v = NULL, c = 0, *m = NULL, *n = NULL;
    printf("-- lists with doubling, shapes --\n");
    int rc = testing_parse_list("1024:8192,100", 1, &v, &c);
    testing_expect(rc == 0 && c == 5 && v[0] == 1024 && v[3] == 8192 && v[4] == 100,
                   "parse \"1024:8192,100\" doubling: %lld sizes", (long long)c);
    free(v);
    rc = testing_parse_list("0:4", 1, &v, &c);
    testing_expect(rc == 0 && c == 4 && v[0] == 0 && v[1] == 1 && v[3] == 4,
                   "parse \"0:4\" doubling: 0, 1, 2, 4 (%lld sizes)", (long long)c);
    free(v);
    rc = testing_parse_list("4611686018427387904:9223372036854775807", 1, &v, &c);
    testing_expect(rc == 0 && c == 1 && v[0] == INT64_C(4611686018427387904),
                   "parse \"2^62:INT64_MAX\" doubling: 2^62 alone (%lld sizes)", (long long)c);
    free(v);
    int64_t k = testing_parse_shapes("1024x65536,8:3", &m, &n);
    testing_expect(k == 2 && m[0] == 1024 && n[0] == 65536 && m[1] == 8 && n[1] == 3,
                   "parse shapes \"1024x65536,8:3\": %lld", (long long)k);
    free(m);
    free(n);
    static const char *const bad[] = { "", "4", "4x", "0x5", "4x5,", "4y5" };
    for (int i = 0; i < LEN(bad); i++) {
        k = testing_parse_shapes(bad[i], &m, &n);
        testing_expect(k < 0 && !m && !n, "parse shapes \"%s\" rejected", bad[i]);
    }
}

/* The backward error ratio of an exact solve is at rounding level, of a
 * perturbed one is not; symmetric from either triangle and general agree. */
static void test_solve_ratio(void)
{
    enum { N = 40, NRHS = 3 };
    static double A[N * N], X[N * NRHS], B[N * NRHS];
    printf("-- solve ratio --\n");
    testing_generate_spd('d', 'L', N, A, N, 21);
    testing_generate_spd('d', 'U', N, A, N, 21);
    for (int64_t j = 0; j < NRHS; j++)
        for (int64_t i = 0; i < N; i++)
            X[i + j * N] = testing_hash_uniform(5, i, j);
    for (int64_t j = 0; j < NRHS; j++)
        for (int64_t i = 0; i < N; i++) {
            double s = 0;
            for (int64_t k = 0; k < N; k++)
                s += A[i + k * N] * X[k + j * N];
            B[i + j * N] = s;
        }
    const double rl = testing_solve_ratio('d', 'L', N, NRHS, A, N, B, N, X, N);
    const double ru = testing_solve_ratio('d', 'U', N, NRHS, A, N, B, N, X, N);
    const double rg = testing_solve_ratio('d', 'G', N, NRHS, A, N, B, N, X, N);
    testing_expect(rl >= 0 && rl < 10 * N * testing_eps('d') && ru == rl && rg == rl,
                   "exact solution: ratio %.2e (L), %.2e (U), %.2e (G)", rl, ru, rg);
    X[7 + N] += 1e-6;
    const double rp = testing_solve_ratio('d', 'G', N, NRHS, A, N, B, N, X, N);
    testing_expect(rp > 1e-9, "perturbed solution: ratio %.2e", rp);
    X[7 + N] = NAN;
    testing_expect(isnan(testing_solve_ratio('d', 'G', N, NRHS, A, N, B, N, X, N)),
                   "NaN in X: ratio NaN");
}

/* Runs opts_parse on argv in a child process (its messages silenced);
 * returns the child's exit status (0 when the parse returned), -1 when the
 * child could not run. */
static int parse_in_child(int argc, const char *const *argv, const opt_t *opts,
                          const opts_program_t *prog)
{
    fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr) || !freopen("/dev/null", "w", stdout)) _exit(3);
        char *args[4] = { NULL, NULL, NULL, NULL };
        for (int i = 0; i < argc && i < 3; i++) args[i] = (char *)argv[i];
        opts_parse(argc, args, opts, prog);
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

/* The options parser on a table of every kind. */
static void test_opts(void)
{
    static const int la_values[] = { -1, 0, 1 };
    int flag = 0, i = 0, choice = -5;
    int64_t i64 = 0;
    uint64_t u64 = 0;
    double d = 0;
    const char *str = NULL, *chars = "d";
    char c = 'L';
    testing_list_t list = { NULL, 0 }, dlist = { NULL, 0 };
    const opt_t opts[] = {
        OPT("--flag", OPT_FLAG, &flag, NULL, "a flag", .set = 7),
        OPT("--int", OPT_INT, &i, "K", "an int", OPT_MIN(1)),
        OPT("-n", OPT_INT64, &i64, "N", "an int64"),
        OPT("--seed", OPT_UINT64, &u64, "S", "a uint64"),
        OPT("--x", OPT_DOUBLE, &d, "X", "a double"),
        OPT("--csv", OPT_STRING, &str, "FILE", "a string"),
        OPT("--uplo", OPT_CHAR, &c, "L|U", "a char", .choices = "LU"),
        OPT("--prec", OPT_CHARS, &chars, "d|s|ds", "chars", .choices = "ds"),
        OPT("--la", OPT_CHOICE, &choice, "X", "a choice", .choices = "auto|off|on",
            .values = la_values),
        OPT("--list", OPT_LIST, &list, "LIST", "a list", .def = "3"),
        OPT("--dlist", OPT_LIST, &dlist, "LIST", "a doubling list", .doubling = 1),
        OPT_END
    };
    const opts_program_t prog = { "[options]", NULL, 2 };
    char *argv[] = { "prog", "--flag", "--int=4", "-n", "-12", "--seed", "18446744073709551615",
                     "--x", "2.5", "--csv=out.csv", "--uplo", "U", "--prec", "ds", "--la=on",
                     "--dlist", "256:1024", NULL };
    printf("-- options parser --\n");
    testing_expect(list.count == 0, "no list before parsing");
    opts_parse(17, argv, opts, &prog);
    testing_expect(flag == 7 && i == 4 && i64 == -12 && u64 == UINT64_MAX && d == 2.5,
                   "flag %d, int %d, int64 %lld, uint64 %llu, double %g", flag, i, (long long)i64,
                   (unsigned long long)u64, d);
    testing_expect(str && !strcmp(str, "out.csv") && c == 'U' && !strcmp(chars, "ds") &&
                       choice == 1,
                   "string %s, char %c, chars %s, choice %d", str ? str : "(null)", c, chars,
                   choice);
    testing_expect(list.count == 1 && list.v[0] == 3 && dlist.count == 3 && dlist.v[2] == 1024,
                   "default list %lld entries, doubling list %lld entries", (long long)list.count,
                   (long long)dlist.count);
    opts_free_list(&list);
    opts_free_list(&dlist);
    /* a bad command line exits with the program's status: in a child */
    static const char *const bad[][3] = { { "prog", "--int", "0" }, { "prog", "--uplo", "X" },
                                          { "prog", "--la", "maybe" }, { "prog", "--nope", NULL },
                                          { "prog", "--prec", "dq" }, { "prog", "--int", NULL },
                                          { "prog", "--list", "5:1" }, { "prog", "--x", "1e" } };
    for (int k = 0; k < LEN(bad); k++) {
        const int status = parse_in_child(bad[k][2] ? 3 : 2, bad[k], opts, &prog);
        testing_expect(status == 2, "%s %s: exit status %d (want 2)", bad[k][1],
                       bad[k][2] ? bad[k][2] : "(no value)", status);
    }
}

int main(int argc, char **argv)
{
    const opt_t opts[] = { OPT_END };
    const opts_program_t prog = { "", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    printf("testing_util (%s)\n", testing_have_gpu() ? "GPU present" : "no GPU");
    test_residual();
    test_generator();
    test_untouched_checker();
    test_parse_sizes();
    test_rfp_helpers();
    test_cond_generator();
    test_lists();
    test_solve_ratio();
    test_opts();
    if (testing_have_gpu())
        gchol_finalize();
    return testing_summary();
}
