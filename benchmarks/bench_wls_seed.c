/*
 * bench_wls_seed.c -- Tables 1 and 2 of Jung and O'Leary, "Exploiting
 * Structure of Symmetric or Triangular Matrices on a GPU" (2008): weighted
 * least squares by A D^2 A^T and its Cholesky factor in single precision on
 * the GPU, refinement in double, reproduced with
 * gchol's host forms on today's GPU, beside the paper's numbers.
 *
 * The problems are the paper's: A m x n with n = 2m, the diagonal of D^2 and
 * b uniform in (0, 1) (Table 1), or D^2_ii = 10^(-4 + 8 i / (n - 1)) (Table
 * 2, ill-conditioned). Per order m:
 *   x_cpu     OpenBLAS in double: W = A D, C = W W^T (dsyrk), W (D b)
 *             (dgemv), dpotrf, dpotrs (the paper's CPU column)
 *   x_sgl^0   gchol_swls on A, d and b rounded to single (host arrays):
 *             C, its factor and the solve in single, the paper's "x_sgl^0"
 *   refined   gchol_dswls (host arrays): single C and factor, refinement in
 *             double to dsposv's test; its ITER
 * Relative errors ||x - x_cpu||_2 / ||x_cpu||_2. Times are wall clock (the
 * host forms are synchronous and include every transfer, as the paper's GPU
 * times do): a warm-up, then the median of --niter runs; OpenBLAS the median
 * of --cpu-niter. speedup = OpenBLAS / gchol_dswls.
 *
 *   bench_wls_seed [--m LIST] [--niter K] [--cpu-niter K] [--csv FILE]
 *   default --m 512,1024,1536,2048,8192,16384
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "bench_util.h"

/* The paper's rows (m = 512 .. 2048): relative errors of x_sgl^0 and of the
 * refined x, refinement iterations, GPU total and CPU seconds, speedup. */
typedef struct {
    int64_t m;
    double  err_sgl, err_ref;
    int     iter;
    double  gpu_s, cpu_s, speedup;
} paper_row_t;

static const paper_row_t kPaper[2][4] = {
    { { 512, 3.11e-04, 3.37e-13, 4, 0.41, 0.20, 0.49 },
      { 1024, 3.10e-04, 4.25e-13, 4, 0.53, 1.03, 1.94 },
      { 1536, 4.61e-04, 6.96e-13, 4, 1.42, 3.41, 2.40 },
      { 2048, 1.01e-03, 1.76e-12, 5, 3.21, 7.95, 2.48 } },
    { { 512, 2.92e-02, 1.16e-10, 7, 0.38, 0.20, 0.53 },
      { 1024, 7.19e-02, 2.01e-10, 10, 0.58, 1.05, 1.81 },
      { 1536, 9.35e-02, 2.37e-10, 13, 1.63, 3.41, 2.09 },
      { 2048, 1.13e-01, 3.41e-10, 15, 3.66, 7.98, 2.18 } },
};

typedef struct {
    int64_t m, n;
    double *A, *d, *b;  /* double inputs (A m x n, ld m) */
    float  *As, *ds, *bs;
    double *W, *C, *x_cpu, *x;
    float  *Cs, *xs;
} problem_t;

static double rel_err_2(int64_t m, const double *x, const double *ref)
{
    double num = 0, den = 0;
    for (int64_t i = 0; i < m; i++) {
        num += (x[i] - ref[i]) * (x[i] - ref[i]);
        den += ref[i] * ref[i];
    }
    return sqrt(num) / sqrt(den);
}

/* The paper's inputs, uniform in (0, 1); ill: D^2 geometric from 1e-4 to 1e4. */
static void problem_make(problem_t *p, int64_t m, int ill, uint64_t seed)
{
    const int64_t n = 2 * m;
    memset(p, 0, sizeof *p);
    p->m = m;
    p->n = n;
    p->A = bench_random_host('d', m, n, m, seed, 0.0, 1.0);
    p->b = bench_random_host('d', n, 1, n, seed + 1, 0.0, 1.0);
    double *d2 = bench_random_host('d', n, 1, n, seed + 2, 0.0, 1.0);
    p->d = bench_malloc((size_t)n * 8);
    for (int64_t i = 0; i < n; i++)
        p->d[i] = sqrt(ill ? pow(10.0, -4.0 + 8.0 * (double)i / (double)(n - 1)) : d2[i]);
    free(d2);
    p->As = bench_malloc((size_t)(m * n) * 4);
    p->ds = bench_malloc((size_t)n * 4);
    p->bs = bench_malloc((size_t)n * 4);
    for (int64_t k = 0; k < m * n; k++) p->As[k] = (float)p->A[k];
    for (int64_t i = 0; i < n; i++) {
        p->ds[i] = (float)p->d[i];
        p->bs[i] = (float)p->b[i];
    }
    p->W = bench_malloc((size_t)(m * n) * 8);
    p->C = bench_malloc((size_t)(m * m) * 8);
    p->Cs = bench_malloc((size_t)(m * m) * 4);
    p->x_cpu = bench_malloc((size_t)m * 8);
    p->x = bench_malloc((size_t)m * 8);
    p->xs = bench_malloc((size_t)m * 4);
}

static void problem_free(problem_t *p)
{
    free(p->A); free(p->d); free(p->b); free(p->As); free(p->ds); free(p->bs);
    free(p->W); free(p->C); free(p->Cs); free(p->x_cpu); free(p->x); free(p->xs);
}

/* x_cpu by OpenBLAS in double; 0, or -1 when dpotrf or dpotrs fails. */
static int64_t cpu_solve(problem_t *p)
{
    const int64_t m = p->m, n = p->n;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) p->W[i + j * m] = p->A[i + j * m] * p->d[j];
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (blasint)m, (blasint)n, 1.0, p->W,
                (blasint)m, 0.0, p->C, (blasint)m);
    double *db = bench_malloc((size_t)n * 8);
    for (int64_t i = 0; i < n; i++) db[i] = p->d[i] * p->b[i];
    cblas_dgemv(CblasColMajor, CblasNoTrans, (blasint)m, (blasint)n, 1.0, p->W, (blasint)m, db, 1,
                0.0, p->x_cpu, 1);
    free(db);
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)m, p->C, (lapack_int)m);
    if (info == 0)
        info = LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (lapack_int)m, 1, p->C, (lapack_int)m,
                              p->x_cpu, (lapack_int)m);
    return info == 0 ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The runs timed: OpenBLAS, gchol_swls, gchol_dswls (each returns its info,
 * or -1 when OpenBLAS's dpotrf failed). */
typedef enum { RUN_CPU, RUN_SWLS, RUN_DSWLS } run_t;

static int64_t run(problem_t *p, run_t which, int64_t *iter)
{
    const int64_t m = p->m, n = p->n;
    int64_t info = 0;
    switch (which) {
    case RUN_CPU: return cpu_solve(p);
    case RUN_SWLS:
        return gchol_swls('L', m, n, 1, p->As, m, p->ds, p->bs, n, p->Cs, m, p->xs, m, &info);
    default: return gchol_dswls(m, n, 1, p->A, m, p->d, p->b, n, p->x, m, iter, &info);
    }
}

/* The median wall-clock seconds of k runs (after a warm-up when warm);
 * *info the last run's. */
static double median_seconds(problem_t *p, run_t which, int k, int warm, int64_t *info,
                             int64_t *iter)
{
    double ts[16];
    if (k > 16) k = 16;
    if (warm) *info = run(p, which, iter);
    for (int r = 0; r < k; r++) {
        const double t0 = testing_wtime();
        *info = run(p, which, iter);
        ts[r] = testing_wtime() - t0;
    }
    qsort(ts, (size_t)k, sizeof(double), cmp_double);
    return ts[k / 2];
}

int main(int argc, char **argv)
{
    testing_list_t ms = { NULL, 0 };
    int niter = 3, cpu_niter = 1;
    const char *csv = NULL;
    const opt_t opts[] = {
        OPT("--m", OPT_LIST, &ms, "LIST", "orders m of C (n = 2m; default "
            "512,1024,1536,2048,8192,16384)", .def = "512,1024,1536,2048,8192,16384"),
        OPT("--niter", OPT_INT, &niter, "K", "timed GPU runs after a warm-up, median reported "
            "(default 3)", OPT_MIN(1)),
        OPT("--cpu-niter", OPT_INT, &cpu_niter, "K", "timed OpenBLAS runs, median reported "
            "(default 1)", OPT_MIN(1)),
        OPT("--csv", OPT_STRING, &csv, "FILE", "also write the tables as CSV"),
        OPT_END
    };
    const opts_program_t prog = { "[--m LIST] [--niter K] [--cpu-niter K] [--csv FILE]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    bench_require_gpu(0, argv[0]);
    FILE *out = bench_csv_open(csv, "table,m,err_sgl,err_refined,iter,swls_s,dswls_s,openblas_s,"
                               "speedup,paper_err_sgl,paper_err_refined,paper_iter,paper_gpu_s,"
                               "paper_cpu_s,paper_speedup");
    for (int t = 0; t < 2; t++) {
        printf("\nTable %d: %s weighted least squares, n = 2m (paper | gchol on this GPU)\n", t + 1,
               t ? "ill-conditioned random" : "random");
        printf("%6s | %9s %9s %4s %7s %7s %6s | %9s %9s %4s %9s %9s %10s %7s\n", "m", "err x0",
               "err ref", "iter", "GPU s", "CPU s", "speed", "err x0", "err ref", "iter",
               "swls ms", "dswls ms", "OpenBLAS ms", "speed");
        for (int64_t k = 0; k < ms.count; k++) {
            problem_t p;
            const int64_t m = ms.v[k];
            problem_make(&p, m, t, 2026 + (uint64_t)m);
            int64_t info_c = 0, info_s = 0, info_d = 0, iter = 0;
            const double tc = median_seconds(&p, RUN_CPU, cpu_niter, 0, &info_c, &iter);
            const double ts = median_seconds(&p, RUN_SWLS, niter, 1, &info_s, &iter);
            const double td = median_seconds(&p, RUN_DSWLS, niter, 1, &info_d, &iter);
            for (int64_t i = 0; i < m; i++) p.W[i] = (double)p.xs[i];
            const double e0 = info_s == 0 && info_c == 0 ? rel_err_2(m, p.W, p.x_cpu) : NAN;
            const double e1 = info_d == 0 && info_c == 0 ? rel_err_2(m, p.x, p.x_cpu) : NAN;
            const paper_row_t *pr = NULL;
            for (int r = 0; r < 4; r++)
                if (kPaper[t][r].m == m) pr = &kPaper[t][r];
            if (pr)
                printf("%6lld | %9.2e %9.2e %4d %7.2f %7.2f %6.2f |", (long long)m, pr->err_sgl,
                       pr->err_ref, pr->iter, pr->gpu_s, pr->cpu_s, pr->speedup);
            else
                printf("%6lld | %9s %9s %4s %7s %7s %6s |", (long long)m, "-", "-", "-", "-", "-",
                       "-");
            printf(" %9.2e %9.2e %4lld %9.2f %9.2f %10.1f %7.1f%s\n", e0, e1, (long long)iter,
                   1e3 * ts, 1e3 * td, 1e3 * tc, tc / td,
                   info_c || info_s || info_d ? "  (an info != 0)" : "");
            fflush(stdout);
            if (out)
                fprintf(out, "%d,%lld,%.3e,%.3e,%lld,%.6e,%.6e,%.6e,%.3f,%.3e,%.3e,%d,%.2f,%.2f,%.2f\n",
                        t + 1, (long long)m, e0, e1, (long long)iter, ts, td, tc, tc / td,
                        pr ? pr->err_sgl : NAN, pr ? pr->err_ref : NAN, pr ? pr->iter : -1,
                        pr ? pr->gpu_s : NAN, pr ? pr->cpu_s : NAN, pr ? pr->speedup : NAN);
            problem_free(&p);
        }
    }
    if (out) fclose(out);
    gchol_finalize();
    opts_free_list(&ms);
    return 0;
}
