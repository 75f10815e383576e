/*
 * bench_posv.c -- A X = B in double precision, A symmetric positive definite:
 *   gchol dsposv   gchol_dsposv_gpu (single-precision Cholesky, refinement
 *                  in double, LAPACK dsposv semantics)
 *   gchol dsposv TF32  gchol_dsposv_expert_gpu with products = TF32 (the
 *                  single-precision factor's bulk updates on one TF32 product)
 *   gchol dposv    gchol_dpotrf_gpu + gchol_dpotrs_gpu
 *   cuSOLVER dposv cusolverDnXpotrf + cusolverDnXpotrs (double)
 *   cuSOLVER DSgesv cusolverDnDSgesv: cuSOLVER's own mixed-precision solver
 *                  (LU with partial pivoting in single, refinement in double;
 *                  it has none for Cholesky); --no-dsgesv leaves it out.
 * Same matrix (bench_spd_host) and right-hand sides for everyone; each run on
 * a fresh device copy of A made outside the timed region; a warm-up, then
 * the median of --niter runs, CUDA events on the one stream. Ratios are
 * cuSOLVER dposv's time over each.
 *
 *   bench_posv [-n LIST] [--nrhs K] [--uplo L|U] [--niter K] [--csv FILE]
 *              [--no-dsgesv]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

typedef struct {
    bench_context_t *ctx;
    char     uplo;
    int64_t  n, nrhs, ldda;
    double  *dA0, *dA, *dB, *dX;
    int64_t  iter, iter_tf32;
    /* cuSOLVER */
    void    *dwork, *hwork;
    size_t   dwork_bytes, hwork_bytes;
    int     *dinfo;
    int64_t *dipiv;
    int      dsgesv_iter;
} job_ctx_t;

static void fresh_copy(void *p)
{
    job_ctx_t *c = p;
    bench_device_copy('d', c->n, c->n, c->dA0, c->ldda, c->dA, c->ldda, c->ctx->stream);
}

static void fresh_copy_and_x(void *p)
{
    job_ctx_t *c = p;
    fresh_copy(p);
    BENCH_CUDA(cudaMemcpy2DAsync(c->dX, (size_t)c->ldda * 8, c->dB, (size_t)c->ldda * 8,
                                 (size_t)c->n * 8, (size_t)c->nrhs, cudaMemcpyDeviceToDevice,
                                 c->ctx->stream));
    BENCH_CUDA(cudaStreamSynchronize(c->ctx->stream));
}

static int64_t run_dsposv(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    return gchol_dsposv_gpu(c->uplo, c->n, c->nrhs, c->dA, c->ldda, c->dB, c->ldda, c->dX, c->ldda,
                            &c->iter, info, c->ctx->queue);
}

static int64_t run_dsposv_tf32(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    gchol_options_t o;
    gchol_options_default(&o);
    o.products = GCHOL_PRODUCTS_TF32;
    return gchol_dsposv_expert_gpu(c->uplo, c->n, c->nrhs, c->dA, c->ldda, c->dB, c->ldda, c->dX,
                                   c->ldda, &c->iter_tf32, info, &o, c->ctx->queue);
}

static int64_t run_dposv(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    int64_t st = gchol_dpotrf_gpu(c->uplo, c->n, c->dA, c->ldda, info, c->ctx->queue);
    if (st != 0) return st;
    return gchol_dpotrs_gpu(c->uplo, c->n, c->nrhs, c->dA, c->ldda, c->dX, c->ldda, info,
                            c->ctx->queue);
}

static int64_t run_cusolver(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    (void)info;
    bench_cusolver_dposv(&c->ctx->cusolver, c->uplo, c->n, c->nrhs, c->dA, c->ldda, c->dX,
                         c->dwork, c->dwork_bytes, c->hwork, c->hwork_bytes, c->dinfo);
    return 0;
}

static int64_t run_dsgesv(void *p, int64_t *info)
{
    job_ctx_t *c = p;
    cusolver_int_t it = 0;
    (void)info;
    BENCH_CUSOLVER(cusolverDnDSgesv(c->ctx->cusolver.handle, (cusolver_int_t)c->n,
                                    (cusolver_int_t)c->nrhs, c->dA, (cusolver_int_t)c->ldda,
                                    (cusolver_int_t *)c->dipiv, c->dB, (cusolver_int_t)c->ldda,
                                    c->dX, (cusolver_int_t)c->ldda, c->dwork, c->dwork_bytes, &it,
                                    c->dinfo));
    c->dsgesv_iter = (int)it;
    return 0;
}

static void read_dinfo(void *p, int64_t *info)
{
    bench_read_dinfo(((job_ctx_t *)p)->dinfo, info);
}

int main(int argc, char **argv)
{
    testing_list_t sizes = { NULL, 0 };
    int64_t nrhs = 1;
    int niter = 5, no_dsgesv = 0;
    char uplo = 'L';
    const char *csv = NULL;
    const opt_t opts[] = {
        OPT("-n", OPT_LIST, &sizes, "LIST", "orders (default 1024,2048,4096,8192,16384,32768)",
            .doubling = 1, .def = "1024,2048,4096,8192,16384,32768"),
        OPT("--nrhs", OPT_INT64, &nrhs, "K", "right-hand sides (default 1)", OPT_MIN(1)),
        OPT("--uplo", OPT_CHAR, &uplo, "L|U", "triangle (default L)", .choices = "LU"),
        OPT("--niter", OPT_INT, &niter, "K", "timed runs after a warm-up, median reported "
            "(default 5)", OPT_MIN(1)),
        OPT("--csv", OPT_STRING, &csv, "FILE", "also write the table as CSV"),
        OPT("--no-dsgesv", OPT_FLAG, &no_dsgesv, NULL, "leave out cusolverDnDSgesv"),
        OPT_END
    };
    const opts_program_t prog = { "[-n LIST] [--nrhs K] [--uplo L|U] [--niter K] [--csv FILE] "
                                  "[--no-dsgesv]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    const int dsgesv = !no_dsgesv;
    const int64_t *ns = sizes.v, count = sizes.count;
    bench_require_gpu(0, argv[0]);
    bench_context_t ctx;
    bench_context_create(&ctx);
    FILE *out = bench_csv_open(csv, "n,nrhs,uplo,iter,gchol_dsposv_s,iter_tf32,gchol_dsposv_tf32_s,"
                               "gchol_dposv_s,cusolver_dposv_s,cusolver_dsgesv_s,dsgesv_iter,"
                               "ratio_dsposv,ratio_dsposv_tf32,ratio_dposv,berr_dsposv,"
                               "berr_dsposv_tf32,berr_dposv");
    printf("A X = B, double, A = bench_spd_host (uniform(-1,1) + n I), B uniform(-1,1); uplo %c, "
           "nrhs %lld, median of %d\n", uplo, (long long)nrhs, niter);
    printf("ratio = cuSOLVER dpotrf+dpotrs time / the column's time\n");
    printf("%7s %5s %4s | %10s %6s | %4s %10s %6s | %10s %6s | %10s | %10s %4s | %8s %8s %8s\n", "n",
           "nrhs", "iter", "dsposv ms", "ratio", "iter", "TF32 ms", "ratio", "dposv ms", "ratio",
           "cuS dposv", "cuS DSgesv", "iter", "berr mix", "berr tf32", "berr dbl");
    for (int64_t k = 0; k < count; k++) {
        const int64_t n = ns[k];
        job_ctx_t c;
        memset(&c, 0, sizeof(c));
        c.ctx = &ctx;
        c.uplo = uplo;
        c.n = n;
        c.nrhs = nrhs;
        double *A = bench_spd_host('d', n, n, 1234 + (uint64_t)n);
        double normA = 0;
        for (int64_t i = 0; i < n; i++) { /* ||A||_inf (symmetric: column sums) */
            double s = 0;
            for (int64_t r = 0; r < n; r++) s += fabs(A[r + i * n]);
            normA = s > normA ? s : normA;
        }
        double *B = bench_random_host('d', n, nrhs, n, 99, -1.0, 1.0);
        c.dA0 = bench_upload('d', n, n, A, n, &c.ldda);
        int64_t ldb = 0;
        c.dB = bench_upload('d', n, nrhs, B, n, &ldb);
        c.dA = bench_device_malloc((size_t)(c.ldda * n) * 8);
        c.dX = bench_device_malloc((size_t)(c.ldda * nrhs) * 8);
        BENCH_CUDA(cudaMalloc((void **)&c.dinfo, 2 * sizeof(int))); /* potrf's, potrs's */
        free(A);
        free(B);

        int64_t info = 0;
        const testing_job_t j_mixed = { fresh_copy, run_dsposv, NULL };
        const testing_job_t j_double = { fresh_copy_and_x, run_dposv, NULL };
        const testing_job_t j_cus = { fresh_copy_and_x, run_cusolver, read_dinfo };
        const testing_job_t j_dsg = { fresh_copy, run_dsgesv, read_dinfo };
        const double t_mixed = testing_time_job(&j_mixed, &c, ctx.stream, 0, niter, &info);
        const int64_t info_mixed = info;
        const double berr_mixed = bench_solve_berr(c.ctx->cublas, c.uplo, c.n, c.nrhs, c.dA0, c.ldda, c.dB, c.dX, normA);
        info = 0;
        const testing_job_t j_tf32 = { fresh_copy, run_dsposv_tf32, NULL };
        const double t_tf32 = testing_time_job(&j_tf32, &c, ctx.stream, 0, niter, &info);
        const int64_t info_tf32 = info;
        const double berr_tf32 = bench_solve_berr(c.ctx->cublas, c.uplo, c.n, c.nrhs, c.dA0, c.ldda, c.dB, c.dX, normA);
        info = 0;
        const double t_double = testing_time_job(&j_double, &c, ctx.stream, 0, niter, &info);
        const double berr_double = bench_solve_berr(c.ctx->cublas, c.uplo, c.n, c.nrhs, c.dA0, c.ldda, c.dB, c.dX, normA);
        /* cuSOLVER's workspaces */
        bench_cusolver_t *cs = &ctx.cusolver;
        BENCH_CUSOLVER(cusolverDnXpotrf_bufferSize(cs->handle, cs->params,
                                                   uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
                                                   n, CUDA_R_64F, c.dA, c.ldda, CUDA_R_64F,
                                                   &c.dwork_bytes, &c.hwork_bytes));
        size_t dsg_bytes = 0;
        if (dsgesv)
            BENCH_CUSOLVER(cusolverDnDSgesv_bufferSize(cs->handle, (cusolver_int_t)n, (cusolver_int_t)nrhs,
                                                       c.dA, (cusolver_int_t)c.ldda, NULL, c.dB,
                                                       (cusolver_int_t)c.ldda, c.dX, (cusolver_int_t)c.ldda,
                                                       NULL, &dsg_bytes));
        if (dsg_bytes > c.dwork_bytes) c.dwork_bytes = dsg_bytes;
        c.dwork = bench_device_malloc(c.dwork_bytes > 0 ? c.dwork_bytes : 1);
        c.hwork = bench_malloc(c.hwork_bytes > 0 ? c.hwork_bytes : 1);
        int64_t cinfo = 0;
        const double t_cus = testing_time_job(&j_cus, &c, ctx.stream, 0, niter, &cinfo);
        double t_dsg = NAN;
        if (dsgesv) {
            c.dipiv = bench_device_malloc((size_t)n * sizeof(cusolver_int_t));
            int64_t dinfo = 0;
            t_dsg = testing_time_job(&j_dsg, &c, ctx.stream, 0, niter, &dinfo);
            BENCH_CUDA(cudaFree(c.dipiv));
        }
        printf("%7lld %5lld %4lld | %10.3f %6.2f | %4lld %10.3f %6.2f | %10.3f %6.2f | %10.3f | %10.3f %4d | "
               "%8.2e %8.2e %8.2e%s\n",
               (long long)n, (long long)nrhs, (long long)c.iter, 1e3 * t_mixed, t_cus / t_mixed,
               (long long)c.iter_tf32, 1e3 * t_tf32, t_cus / t_tf32, 1e3 * t_double,
               t_cus / t_double, 1e3 * t_cus, 1e3 * t_dsg, c.dsgesv_iter, berr_mixed, berr_tf32,
               berr_double, info_mixed || info_tf32 || cinfo ? "  (info set)" : "");
        fflush(stdout);
        if (out)
            fprintf(out, "%lld,%lld,%c,%lld,%.6e,%lld,%.6e,%.6e,%.6e,%.6e,%d,%.4f,%.4f,%.4f,%.3e,%.3e,%.3e\n",
                    (long long)n, (long long)nrhs, uplo, (long long)c.iter, t_mixed,
                    (long long)c.iter_tf32, t_tf32, t_double, t_cus, t_dsg, c.dsgesv_iter,
                    t_cus / t_mixed, t_cus / t_tf32, t_cus / t_double, berr_mixed, berr_tf32,
                    berr_double);
        BENCH_CUDA(cudaFree(c.dA0)); BENCH_CUDA(cudaFree(c.dA)); BENCH_CUDA(cudaFree(c.dB));
        BENCH_CUDA(cudaFree(c.dX)); BENCH_CUDA(cudaFree(c.dwork)); BENCH_CUDA(cudaFree(c.dinfo));
        free(c.hwork);
    }
    if (out) fclose(out);
    bench_context_destroy(&ctx);
    opts_free_list(&sizes);
    return 0;
}
