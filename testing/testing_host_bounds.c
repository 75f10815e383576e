/*
 * testing_host_bounds.c -- every host-memory routine of gchol on arrays of
 * exactly LAPACK's extent, each placed against an inaccessible page
 * (guard.h), once with the array's end and once with its start
 * touching the page. A read or write one element outside an array stops the
 * tester with "FAILED <case>: ... the guard page ...". Each case also checks
 * its result against LAPACK (residual ratios below 30), that nothing of the
 * arrays outside the referenced part changed, and that the bytes that share
 * the arrays' pages are untouched.
 *
 * Precision-generic: -DGCHOL_PREC_D gives testing_dhost_bounds, -DGCHOL_PREC_S
 * testing_shost_bounds. Routines: gchol_?potrf, ?potrf_expert on pinned
 * (registered) arrays, ?potrs, ?posv, ?pftrf, ?pftrs, ?syrk_diag, ?sfrk_diag
 * (A streamed in many small blocks, and in one), ?wls, ?wls_rfp, and
 * gchol_dsposv and gchol_dswls in double. make test runs each twice: with the library's
 * pinned stager (the default) and with GCHOL_HOST_STAGE=0 (the driver's own
 * pageable copies).
 *
 *   testing_dhost_bounds [--quick]
 *
 * Without a GPU every case is skipped, and the guards themselves are tested
 * (a child process touches the byte past an array and the byte before one).
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

#include <cblas.h>
#include <lapacke.h>

#include "gchol.h"
#include "guard.h"
#include "opts.h"
#include "test_hooks.h"
#include "util.h"

#if defined(GCHOL_PREC_S)
typedef float FLOAT;
#define PREC        's'
#define GCHOL(name) gchol_s##name
#define LAPACKE(name) LAPACKE_s##name
#elif defined(GCHOL_PREC_D)
typedef double FLOAT;
#define PREC        'd'
#define GCHOL(name) gchol_d##name
#define LAPACKE(name) LAPACKE_d##name
#else
#error "compile with -DGCHOL_PREC_D or -DGCHOL_PREC_S"
#endif

#define ES       sizeof(FLOAT)
#define POISON   (-7777.25) /* outside the referenced part of the inputs */
#define LEN(a)   TESTING_LEN(a)

static int  g_where;          /* TESTING_GUARD_TAIL or _HEAD, this round */
static gchol_queue_t g_queue; /* for ?potrf_expert */
static const char *const g_where_name[] = { "end", "start" };

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* LAPACK's extent of an m x n array with leading dimension ld. */
static int64_t extent(int64_t m, int64_t n, int64_t ld) { return n > 0 ? ld * (n - 1) + m : 0; }

static int64_t rfp_size(int64_t n) { return n * (n + 1) / 2; }

/* ---------------------------------------------------------------------------
 * The arrays of one case: a guarded array and a full-size copy of what was
 * put into it (ld x cols elements, so the references never read past it).
 * ------------------------------------------------------------------------- */
typedef struct {
    FLOAT  *g;     /* guarded, ext elements */
    FLOAT  *orig;  /* ld * cols elements: the input                       */
    FLOAT  *out;   /* ld * cols elements: orig, then the guarded part back */
    int64_t ext, ld, cols;
} arr_t;

static int arr_new(arr_t *a, int64_t rows, int64_t cols, int64_t ld)
{
    memset(a, 0, sizeof *a);
    a->ext = extent(rows, cols, ld);
    a->ld = ld;
    a->cols = cols;
    const size_t full = (size_t)max64(1, ld * cols) * ES;
    a->g = testing_guard_alloc((size_t)max64(1, a->ext) * ES, g_where);
    a->orig = malloc(full);
    a->out = malloc(full);
    if (!a->g || !a->orig || !a->out) return -1;
    for (int64_t k = 0; k < ld * cols; k++) a->orig[k] = (FLOAT)POISON;
    return 0;
}

/* An RFP array of order n (ld = n(n+1)/2, one column). */
static int arr_new_rfp(arr_t *a, int64_t n) { return arr_new(a, rfp_size(n), 1, rfp_size(n)); }

/* orig -> the guarded array (its extent). */
static void arr_put(arr_t *a) { memcpy(a->g, a->orig, (size_t)a->ext * ES); }

/* The guarded array -> out (orig beyond the extent). */
static void arr_get(arr_t *a)
{
    memcpy(a->out, a->orig, (size_t)max64(1, a->ld * a->cols) * ES);
    memcpy(a->out, a->g, (size_t)a->ext * ES);
}

static int arr_slack_ok(const arr_t *a) { return testing_guard_slack_ok(a->g); }

static void arr_free(arr_t *a)
{
    testing_guard_free(a->g);
    free(a->orig);
    free(a->out);
    memset(a, 0, sizeof *a);
}

/* Elements of the extent outside rows [0, rows) of a general array, or
 * outside the uplo triangle of order n ('L'/'U'), whose bytes changed. */
static int64_t changed_outside(const arr_t *a, char uplo, int64_t rows)
{
    int64_t bad = 0;
    for (int64_t k = 0; k < a->ext; k++) {
        const int64_t i = k % a->ld, j = k / a->ld;
        int ref = i < rows;
        if (uplo == 'L') ref = ref && i >= j;
        if (uplo == 'U') ref = ref && i <= j;
        if (!ref && memcmp(&a->out[k], &a->orig[k], ES) != 0) bad++;
    }
    return bad;
}

/* ---------------------------------------------------------------------------
 * Inputs and references (double).
 * ------------------------------------------------------------------------- */

/* The SPD matrix S(i,j) = u(seed, max, min) + n [i == j], n x n in double. */
static double *spd_double(int64_t n, uint64_t seed)
{
    double *S = malloc((size_t)max64(1, n * n) * sizeof(double));
    if (!S) return NULL;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            S[i + j * n] = testing_hash_uniform(seed, i > j ? i : j, i > j ? j : i) +
                           (i == j ? (double)n : 0.0);
    return S;
}

/* The uplo triangle of S (rounded) into a->orig; the rest stays POISON. */
static void put_triangle(arr_t *a, char uplo, int64_t n, const double *S)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = uplo == 'L' ? j : 0; i <= (uplo == 'L' ? n - 1 : j); i++)
            a->orig[i + j * a->ld] = (FLOAT)S[i + j * n];
}

/* Uniform(-1, 1) rows x cols into rows [0, rows) of a->orig. */
static void put_random(arr_t *a, int64_t rows, int64_t cols, uint64_t seed)
{
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++)
            a->orig[i + j * a->ld] = (FLOAT)testing_hash_uniform(seed, i, j);
}

/* max_j ||b_j - S x_j||_inf / ((||S||_inf ||x_j||_inf + ||b_j||_inf) n eps):
 * S n x n double, X and B (FLOAT, ldx / ldb). */
static double solve_ratio(int64_t n, int64_t nrhs, const double *S, const FLOAT *X, int64_t ldx,
                          const FLOAT *B, int64_t ldb)
{
    double snorm = 0, worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double r = 0;
        for (int64_t j = 0; j < n; j++) r += fabs(S[i + j * n]);
        snorm = fmax(snorm, r);
    }
    for (int64_t c = 0; c < nrhs; c++) {
        double xn = 0, bn = 0, rn = 0;
        for (int64_t i = 0; i < n; i++) {
            double r = (double)B[i + c * ldb];
            for (int64_t j = 0; j < n; j++) r -= S[i + j * n] * (double)X[j + c * ldx];
            if (r != r) return NAN;
            rn = fmax(rn, fabs(r));
            xn = fmax(xn, fabs((double)X[i + c * ldx]));
            bn = fmax(bn, fabs((double)B[i + c * ldb]));
        }
        const double den = (snorm * xn + bn) * (double)n * testing_eps(PREC);
        worst = fmax(worst, den > 0 ? rn / den : (rn > 0 ? INFINITY : 0));
    }
    return worst;
}

/* One line per case: the conditions, then the label. */
static void expect_case(int ok, const char *label, const char *detail)
{
    testing_expect(ok, "%s, array %s against the guard page%s%s", label, g_where_name[g_where],
                   detail[0] ? ": " : "", detail);
}

static void skip_case(const char *label)
{
    printf("  skipped %s (no GPU)\n", label);
    testing_record(TESTING_SKIPPED);
}

/* ---------------------------------------------------------------------------
 * potrf, potrf_expert on pinned arrays.
 * ------------------------------------------------------------------------- */
static void case_potrf(char uplo, int64_t n, int64_t lda, int pinned)
{
    char label[160], detail[200] = "";
    snprintf(label, sizeof label, "%cpotrf%s uplo=%c n=%lld lda=%lld", PREC,
             pinned ? "_expert (pinned)" : "", uplo, (long long)n, (long long)lda);
    testing_guard_label("%s", label);
    if (!testing_have_gpu()) { skip_case(label); return; }
    arr_t A;
    double *S = spd_double(n, 100 + (uint64_t)n);
    int ok = 0;
    if (arr_new(&A, n, n, lda) != 0 || !S) { snprintf(detail, sizeof detail, "out of host memory"); goto done; }
    put_triangle(&A, uplo, n, S);
    arr_put(&A);
    int registered = 0;
    if (pinned && cudaHostRegister(A.g, (size_t)A.ext * ES, cudaHostRegisterDefault) == cudaSuccess)
        registered = 1;
    (void)cudaGetLastError();
    int64_t info = -1,
            ret = pinned ? GCHOL(potrf_expert)(uplo, n, A.g, lda, &info, NULL, g_queue)
                         : GCHOL(potrf)(uplo, n, A.g, lda, &info);
    if (registered) cudaHostUnregister(A.g);
    arr_get(&A);
    const double resid = testing_residual_cpu(PREC, uplo, n, A.orig, lda, A.out, lda);
    const int64_t changed = changed_outside(&A, uplo, n);
    ok = ret == 0 && info == 0 && resid >= 0 && resid < TESTING_TOL && changed == 0 &&
         arr_slack_ok(&A) && (!pinned || registered);
    snprintf(detail, sizeof detail, "ret %lld info %lld residual %.2e, %lld changed outside%s",
             (long long)ret, (long long)info, resid, (long long)changed,
             pinned && !registered ? ", cudaHostRegister failed" : "");
done:
    expect_case(ok, label, detail);
    arr_free(&A);
    free(S);
}

/* ---------------------------------------------------------------------------
 * potrs, posv (and dsposv): A (lda), B (ldb), X (ldx for dsposv).
 * ------------------------------------------------------------------------- */
enum { SOLVE_POTRS, SOLVE_POSV, SOLVE_DSPOSV };
static const char *const solve_name[] = { "potrs", "posv", "sposv" };

static void case_solve(int kind, char uplo, int64_t n, int64_t nrhs, int64_t lda, int64_t ldb)
{
    char label[160], detail[200] = "";
    snprintf(label, sizeof label, "%c%s uplo=%c n=%lld nrhs=%lld lda=%lld ldb=%lld", PREC,
             solve_name[kind], uplo, (long long)n, (long long)nrhs, (long long)lda,
             (long long)ldb);
    testing_guard_label("%s", label);
    if (!testing_have_gpu()) { skip_case(label); return; }
    arr_t A, B, X;
    memset(&X, 0, sizeof X);
    double *S = spd_double(n, 200 + (uint64_t)n);
    int ok = 0;
    if (arr_new(&A, n, n, lda) != 0 || arr_new(&B, n, nrhs, ldb) != 0 ||
        (kind == SOLVE_DSPOSV && arr_new(&X, n, nrhs, ldb + 1) != 0) || !S) {
        snprintf(detail, sizeof detail, "out of host memory");
        goto done;
    }
    put_triangle(&A, uplo, n, S);
    if (kind == SOLVE_POTRS) { /* potrs takes the factor: LAPACK's */
        memcpy(A.out, A.orig, (size_t)(lda * n) * ES);
        if (LAPACKE(potrf)(LAPACK_COL_MAJOR, uplo, (lapack_int)n, A.out, (lapack_int)lda) != 0) {
            snprintf(detail, sizeof detail, "LAPACKE potrf failed");
            goto done;
        }
        memcpy(A.orig, A.out, (size_t)(lda * n) * ES);
    }
    put_random(&B, n, nrhs, 300 + (uint64_t)n);
    arr_put(&A);
    arr_put(&B);
    int64_t info = -1, iter = -99, ret;
    if (kind == SOLVE_POTRS)
        ret = GCHOL(potrs)(uplo, n, nrhs, A.g, lda, B.g, ldb, &info);
    else if (kind == SOLVE_POSV)
        ret = GCHOL(posv)(uplo, n, nrhs, A.g, lda, B.g, ldb, &info);
    else {
#if defined(GCHOL_PREC_D)
        arr_put(&X);
        ret = gchol_dsposv(uplo, n, nrhs, A.g, lda, B.g, ldb, X.g, X.ld, &iter, &info);
#else
        ret = -1;
#endif
    }
    arr_get(&A);
    arr_get(&B);
    if (kind == SOLVE_DSPOSV) arr_get(&X);
    /* the solution: B for potrs / posv, X for dsposv; B's input is B.orig */
    const FLOAT *Xs = kind == SOLVE_DSPOSV ? X.out : B.out;
    const int64_t ldxs = kind == SOLVE_DSPOSV ? X.ld : ldb;
    const double ratio = solve_ratio(n, nrhs, S, Xs, ldxs, B.orig, ldb);
    /* potrs leaves A alone; posv writes the factor into the triangle only;
     * dsposv leaves A alone unless it fell back (iter < 0), and never B */
    const int64_t changed = changed_outside(&A, kind == SOLVE_POTRS ? 'A' : uplo,
                                            kind == SOLVE_POTRS ? 0 : n) +
                            changed_outside(&B, 'G', kind == SOLVE_DSPOSV ? 0 : n) +
                            (kind == SOLVE_DSPOSV ? changed_outside(&X, 'G', n) : 0);
    ok = ret == 0 && info == 0 && ratio == ratio && ratio < TESTING_TOL && changed == 0 &&
         arr_slack_ok(&A) && arr_slack_ok(&B) && (kind != SOLVE_DSPOSV || arr_slack_ok(&X));
    snprintf(detail, sizeof detail, "ret %lld info %lld%s backward error %.2e, %lld changed outside",
             (long long)ret, (long long)info,
             kind == SOLVE_DSPOSV ? (iter >= 0 ? " (refined)" : " (fell back)") : "", ratio,
             (long long)changed);
done:
    expect_case(ok, label, detail);
    arr_free(&A);
    arr_free(&B);
    arr_free(&X);
    free(S);
}

/* ---------------------------------------------------------------------------
 * pftrf, pftrs on RFP arrays of exactly n(n+1)/2 elements.
 * ------------------------------------------------------------------------- */
static void case_rfp(int solve, char transr, char uplo, int64_t n, int64_t nrhs, int64_t ldb)
{
    char label[160], detail[200] = "";
    if (solve)
        snprintf(label, sizeof label, "%cpftrs transr=%c uplo=%c n=%lld nrhs=%lld ldb=%lld", PREC,
                 transr, uplo, (long long)n, (long long)nrhs, (long long)ldb);
    else
        snprintf(label, sizeof label, "%cpftrf transr=%c uplo=%c n=%lld", PREC, transr, uplo,
                 (long long)n);
    testing_guard_label("%s", label);
    if (!testing_have_gpu()) { skip_case(label); return; }
    arr_t R, B, F;
    memset(&B, 0, sizeof B);
    memset(&F, 0, sizeof F);
    double *S = spd_double(n, 400 + (uint64_t)n);
    int ok = 0;
    if (arr_new_rfp(&R, n) != 0 || arr_new(&F, n, n, n) != 0 ||
        (solve && arr_new(&B, n, nrhs, ldb) != 0) || !S) {
        snprintf(detail, sizeof detail, "out of host memory");
        goto done;
    }
    put_triangle(&F, uplo, n, S);
    if (solve && LAPACKE(potrf)(LAPACK_COL_MAJOR, uplo, (lapack_int)n, F.orig, (lapack_int)n) != 0) {
        snprintf(detail, sizeof detail, "LAPACKE potrf failed");
        goto done;
    }
    LAPACKE(trttf)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, F.orig, (lapack_int)n, R.orig);
    arr_put(&R);
    int64_t info = -1, ret;
    double err;
    if (solve) {
        put_random(&B, n, nrhs, 500 + (uint64_t)n);
        arr_put(&B);
        ret = GCHOL(pftrs)(transr, uplo, n, nrhs, R.g, B.g, ldb, &info);
        arr_get(&R);
        arr_get(&B);
        err = solve_ratio(n, nrhs, S, B.out, ldb, B.orig, ldb);
        ok = memcmp(R.out, R.orig, (size_t)R.ext * ES) == 0 && changed_outside(&B, 'G', n) == 0 &&
             arr_slack_ok(&B);
    } else {
        ret = GCHOL(pftrf)(transr, uplo, n, R.g, &info);
        arr_get(&R);
        LAPACKE(tfttr)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, R.out, F.out, (lapack_int)n);
        err = testing_residual_cpu(PREC, uplo, n, F.orig, n, F.out, n);
        ok = 1;
    }
    ok = ok && ret == 0 && info == 0 && err == err && err >= 0 && err < TESTING_TOL &&
         arr_slack_ok(&R);
    snprintf(detail, sizeof detail, "ret %lld info %lld %s %.2e", (long long)ret,
             (long long)info, solve ? "backward error" : "residual", err);
done:
    expect_case(ok, label, detail);
    arr_free(&R);
    arr_free(&B);
    arr_free(&F);
    free(S);
}

#include "host_bounds_syrk.h"

#include "host_bounds_wls.h"

/* ---------------------------------------------------------------------------
 * The guards themselves (host only): a child touches one byte outside.
 * ------------------------------------------------------------------------- */
static void test_guards(void)
{
    printf("-- the guard pages --\n");
    for (int where = 0; where < 2; where++) {
        const size_t bytes = 1000 * ES;
        unsigned char *p = testing_guard_alloc(bytes, where);
        int inside_ok = p != NULL;
        if (p) {
            memset(p, 0x3c, bytes); /* the whole array is usable */
            inside_ok = testing_guard_slack_ok(p);
        }
        testing_expect(inside_ok, "guarded array (%s against the page): all %zu bytes writable, "
                       "slack untouched", g_where_name[where], bytes);
        int caught = 0;
        if (p) {
            fflush(stdout);
            const pid_t pid = fork();
            if (pid == 0) {
                /* silence the child's report, keep its exit status */
                if (!freopen("/dev/null", "w", stdout)) _exit(2);
                testing_guard_trap();
                volatile unsigned char *v = p;
                if (where == TESTING_GUARD_TAIL) v[bytes] = 1; else (void)v[-1];
                _exit(0); /* not reached when the guard works */
            }
            int status = 0;
            caught = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
                     WEXITSTATUS(status) == 1;
        }
        testing_expect(caught, "a %s one byte %s the array stops the process through the handler",
                       where == TESTING_GUARD_TAIL ? "write" : "read",
                       where == TESTING_GUARD_TAIL ? "past" : "before");
        if (p) {
            p[bytes - 1] ^= 1; /* a write inside the array is not slack */
            testing_expect(testing_guard_slack_ok(p), "slack check ignores the array's own bytes");
        }
        testing_guard_free(p);
        /* slack written: caught */
        p = testing_guard_alloc(24, where);
        if (p) (where == TESTING_GUARD_TAIL ? p - 1 : p + 24)[0] = 0;
        testing_expect(p && !testing_guard_slack_ok(p),
                       "a write into the slack %s the array is seen",
                       where == TESTING_GUARD_TAIL ? "before" : "after");
        testing_guard_free(p);
    }
}

/* ---------------------------------------------------------------------------
 * Main.
 * ------------------------------------------------------------------------- */
static void run_round(int quick)
{
    static const char uplos[] = { 'L', 'U' };
    static const char variants[4][2] = { { 'N', 'L' }, { 'N', 'U' }, { 'T', 'L' }, { 'T', 'U' } };
    printf("\n-- round: every array's %s against a guard page --\n", g_where_name[g_where]);
    for (int u = 0; u < 2; u++) {
        case_potrf(uplos[u], 1, 1, 0);
        case_potrf(uplos[u], 17, 20, 0);
        case_potrf(uplos[u], 300, 300, 0);
        case_potrf(uplos[u], 1100, 1103, 0);
        if (!quick) case_potrf(uplos[u], 2100, 2101, 0); /* > one 16 MB stager buffer */
        /* the left-looking lookahead: block columns up and back beside the steps */
        if (!quick) case_potrf(uplos[u], PREC == 'd' ? 4700 : 6200, PREC == 'd' ? 4703 : 6201, 0);
        case_potrf(uplos[u], 1100, 1101, 1);
    }
    for (int u = 0; u < 2; u++)
        for (int kind = SOLVE_POTRS; kind <= (PREC == 'd' ? SOLVE_DSPOSV : SOLVE_POSV); kind++) {
            case_solve(kind, uplos[u], 1, 1, 1, 1);
            case_solve(kind, uplos[u], 37, 3, 40, 38);
            case_solve(kind, uplos[u], 700, 2, 701, 703);
        }
    for (int v = 0; v < 4; v++) {
        case_rfp(0, variants[v][0], variants[v][1], 1, 0, 0);
        case_rfp(0, variants[v][0], variants[v][1], 18, 0, 0);
        case_rfp(0, variants[v][0], variants[v][1], 257, 0, 0);
        if (!quick) case_rfp(0, variants[v][0], variants[v][1], 1100, 0, 0);
        case_rfp(1, variants[v][0], variants[v][1], 19, 2, 21);
        case_rfp(1, variants[v][0], variants[v][1], 300, 3, 300);
    }
    for (int u = 0; u < 2; u++)
        for (int b = 0; b < 2; b++) {
            const double beta = b ? 0.5 : 0.0;
            case_syrk(0, uplos[u], 1, 1, 1, 1, beta, 0, 0);
            case_syrk(0, uplos[u], 17, 45, 19, 18, beta, 1, 0);
            case_syrk(0, uplos[u], 300, 1500, 301, 303, beta, 1, 0);
            case_syrk(0, uplos[u], 300, 1500, 300, 300, beta, 0, 1);
            if (!quick) case_syrk(0, uplos[u], 1000, 4000, 1001, 1000, beta, 0, 0);
        }
    for (int v = 0; v < 4; v++) {
        case_syrk(variants[v][0], variants[v][1], 18, 45, 19, 0, v % 2 ? 0.5 : 0.0, 1, 0);
        case_syrk(variants[v][0], variants[v][1], 301, 1500, 303, 0, v % 2 ? 0.0 : 0.5, 1, 0);
        if (!quick) case_syrk(variants[v][0], variants[v][1], 300, 1500, 300, 0, 0.5, 0, 1);
    }
    for (int u = 0; u < 2; u++) {
        case_wls(0, uplos[u], 1, 3, 1, 1, 3, 1, 1, 0);
        case_wls(0, uplos[u], 20, 90, 2, 23, 91, 21, 22, 1);
        case_wls(0, uplos[u], 300, 1500, 3, 301, 1502, 300, 303, u == 0);
    }
    if (!quick) {
        /* C's factor copied back beside the left-looking factorization (m
         * above the tuning table's tiled switch); single 'U' swaps its
         * triangles there, and its factor comes back after it */
        case_wls(0, 'L', PREC == 'd' ? 4900 : 8500, PREC == 'd' ? 19600 : 34000, 2,
                 PREC == 'd' ? 4901 : 8500, PREC == 'd' ? 19601 : 34001, PREC == 'd' ? 4903 : 8501,
                 PREC == 'd' ? 4900 : 8502, 0);
        case_wls(0, 'U', PREC == 'd' ? 4900 : 8500, PREC == 'd' ? 19600 : 34000, 1,
                 PREC == 'd' ? 4900 : 8501, PREC == 'd' ? 19600 : 34000,
                 PREC == 'd' ? 4901 : 8500, PREC == 'd' ? 4902 : 8502, 0);
    }
#if defined(GCHOL_PREC_D)
    case_dswls(1, 3, 1, 1, 3, 1, 1);
    case_dswls(20, 90, 2, 23, 91, 22, 1);
    case_dswls(300, 1500, 3, 301, 1502, 303, 0);
#endif
    for (int v = 0; v < 4; v++) {
        case_wls(variants[v][0], variants[v][1], 21, 90, 2, 21, 90, 0, 23, 1);
        if (!quick || v == 0) case_wls(variants[v][0], variants[v][1], 300, 1500, 1, 302, 1500, 0, 300, 0);
    }
}

int main(int argc, char **argv)
{
    int quick = 0;
    const opt_t opts[] = {
        OPT("--quick", OPT_FLAG, &quick, NULL, "fewer and smaller cases (the sanitizers)"),
        OPT_END
    };
    const opts_program_t prog = { "[--quick]", "GCHOL_HOST_STAGE=0 in the environment runs the "
                                  "host forms on the driver's pageable copies.", 2 };
    opts_parse(argc, argv, opts, &prog);
    const char *stage = getenv("GCHOL_HOST_STAGE");
    printf("testing_%chost_bounds: host arrays of LAPACK's extent against guard pages%s; %s\n",
           PREC, quick ? " (quick)" : "",
           stage && atoi(stage) == 0 ? "GCHOL_HOST_STAGE=0 (the driver's pageable copies)"
                                     : "the library's pinned stager");
    test_guards();
    testing_guard_trap();
    if (testing_have_gpu()) g_queue = testing_queue_or_null();
    for (g_where = TESTING_GUARD_TAIL; g_where <= TESTING_GUARD_HEAD; g_where++) run_round(quick);
    if (g_queue) gchol_queue_destroy(g_queue);
    gchol_finalize();
    return testing_summary();
}
