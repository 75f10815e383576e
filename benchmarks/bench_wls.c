/*
 * bench_wls.c -- weighted least squares y = argmin || D (A^T y - b) ||_2 in
 * double precision (per column b of B), i.e. the normal equations
 * (A D^2 A^T) Y = A D^2 B, with A m x n (m <= n), D = diag(d), B n x nrhs:
 *   peer        what a cuSOLVER user writes: W = A D (cublasDdgmm),
 *               C = W W^T (cublasDsyrk), rhs = W (D B) (cublasDdgmm +
 *               cublasDgemm), cusolverDnXpotrf + cusolverDnXpotrs; the whole
 *               sequence is timed
 *   DDgels      cusolverDnDDgels: QR least squares in double on the tall
 *               n x m matrix D A^T with rhs D B
 *   DSgels      cusolverDnDSgels: the same by cuSOLVER's mixed precision
 *               (single-precision QR, refinement in double)
 *   gchol dwls  gchol_dwls_gpu (syrk_diag + potrf + potrs, double)
 *   dwls-rfp    gchol_dwls_rfp_gpu: the same with C in RFP storage (sfrk_diag
 *               + pftrf + pftrs; --transr, default N; uplo as --uplo)
 *   gchol dswls gchol_dswls_gpu (single-precision C and Cholesky, refinement
 *               in double); TF32, FP16: gchol_dswls_expert_gpu with products =
 *               TF32, FP16
 * Everyone gets the same device A (uniform(-1,1)), d (uniform(0.5,2)) and B
 * (uniform(-1,1)), generated once per shape. A, d and B are read-only for
 * gchol and the peer; each run writes a fresh output (Y is filled with NaN
 * before it, outside the timed region). For the gels pair, D A^T and D B are
 * formed (cublasDgeam + cublasDdgmm) before every run, untimed: gchol and the
 * peer take A and d directly, so only the solver call itself is timed there
 * (and a fresh D A^T is needed anyway, as gels may overwrite it). A contender
 * whose allocation or call fails is shown as n/a; the others go on.
 *
 * Timing: a warm-up, then the median of --niter runs, CUDA events on the gchol
 * queue's stream (which the cuBLAS and cuSOLVER handles share). Ratios are the
 * peer's time over each gchol column. Check: maxdiff = max over contenders of
 * max_j ||y_j - r_j||_inf / ||r_j||_inf against r = gchol dwls's Y (or the
 * first contender that ran, when dwls did not), with the worst contender
 * named. iter: corrections of the dswls runs (negative = fell back to
 * double); DSgels's own iteration count beside its time.
 *
 *   bench_wls [--mn MxN,MxN,...] [--nrhs K] [--uplo L|U] [--transr N|T] [--niter K]
 *             [--csv FILE] [--no-gels] [--seed S]
 *   default --mn 1024x65536,4096x65536,8192x32768,16384x16384 (':' works as 'x')
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

/* The contenders, in table order. */
enum { C_PEER, C_DDGELS, C_DSGELS, C_DWLS, C_DSWLS, C_TF32, C_RFP, C_FP16, NCONT };
static const char *const CONT_NAME[NCONT] = { "peer", "DDgels", "DSgels", "dwls", "dswls",
                                              "dswls-TF32", "dwls-rfp", "dswls-FP16" };

typedef struct {
    bench_context_t *ctx;
    char     uplo, transr;       /* transr: dwls-rfp's RFP variant          */
    int64_t  m, n, nrhs;
    int64_t  ldda, lddb, lddy, lddc, ldt;
    double  *dA, *dd, *dB;       /* inputs: A m x n, d n, B n x nrhs        */
    double  *dY;                 /* output of the contender being timed     */
    double  *dC;                 /* dwls: factor (dwls-rfp: in RFP); peer: C */
    double  *dW;                 /* peer: A D                               */
    double  *dDB;                /* peer, gels: D B                         */
    double  *dT;                 /* gels: D A^T, n x m                      */
    void    *dwork, *hwork;      /* cuSOLVER workspaces                     */
    int     *dinfo;              /* 2 device info words: factor, solve      */
    size_t   dwork_bytes, hwork_bytes;
    const gchol_options_t *opts; /* dswls: NULL (plain), TF32 or FP16 options */
    int64_t  iter;               /* dswls: last run's iter                  */
    cusolver_int_t gels_iter;    /* gels: last run's iteration count        */
} wls_t;

/* ---------------------------------------------------------------------------
 * Device memory that may fail: NULL when out of memory (the error cleared).
 * ------------------------------------------------------------------------- */
static void *try_malloc(size_t bytes)
{
    void *p = NULL;
    cudaError_t err = cudaMalloc(&p, bytes > 0 ? bytes : 1);
    if (err == cudaErrorMemoryAllocation) {
        (void) cudaGetLastError();
        return NULL;
    }
    BENCH_CUDA(err);
    return p;
}

static void dfree(void *p)
{
    if (p) BENCH_CUDA(cudaFree(p));
}

/* Host m x n (ld m) to a fresh device buffer with leading dimension ldd;
 * NULL when out of device memory. */
static double *try_upload(const double *h, int64_t m, int64_t n, int64_t ldd)
{
    double *d = try_malloc((size_t) ldd * n * sizeof(double));
    if (d) BENCH_CUDA(cudaMemcpy2D(d, ldd * sizeof(double), h, m * sizeof(double),
                                   m * sizeof(double), n, cudaMemcpyHostToDevice));
    return d;
}

/* ---------------------------------------------------------------------------
 * Jobs: untimed prepare, timed run, untimed finish (bench_time_job).
 * ------------------------------------------------------------------------- */
/* A fresh output: Y := NaN (all bits set), so that an unwritten Y shows. */
static void prep_y(void *p)
{
    wls_t *c = p;
    BENCH_CUDA(cudaMemsetAsync(c->dY, 0xFF, (size_t) c->lddy * c->nrhs * sizeof(double),
                               c->ctx->stream));
    BENCH_CUDA(cudaStreamSynchronize(c->ctx->stream));
}

/* gels input: T := D A^T (n x m; zeroed first so that geam never reads
 * garbage through its beta = 0 operand) and DB := D B, then a fresh Y. */
static void prep_gels(void *p)
{
    wls_t *c = p;
    const double one = 1.0, zero = 0.0;
    cublasHandle_t h = c->ctx->cublas;
    BENCH_CUDA(cudaMemsetAsync(c->dT, 0, (size_t) c->ldt * c->m * sizeof(double),
                               c->ctx->stream));
    BENCH_CUBLAS(cublasDgeam_64(h, CUBLAS_OP_T, CUBLAS_OP_N, c->n, c->m, &one, c->dA, c->ldda,
                                &zero, c->dT, c->ldt, c->dT, c->ldt));
    BENCH_CUBLAS(cublasDdgmm_64(h, CUBLAS_SIDE_LEFT, c->n, c->m, c->dT, c->ldt, c->dd, 1, c->dT,
                                c->ldt));
    BENCH_CUBLAS(cublasDdgmm_64(h, CUBLAS_SIDE_LEFT, c->n, c->nrhs, c->dB, c->lddb, c->dd, 1,
                                c->dDB, c->lddb));
    prep_y(p);
}

static int64_t run_dwls(void *p, int64_t *info)
{
    wls_t *c = p;
    return gchol_dwls_gpu(c->uplo, c->m, c->n, c->nrhs, c->dA, c->ldda, c->dd, c->dB, c->lddb,
                          c->dC, c->lddc, c->dY, c->lddy, info, c->ctx->queue);
}

static int64_t run_dwls_rfp(void *p, int64_t *info)
{
    wls_t *c = p;
    return gchol_dwls_rfp_gpu(c->transr, c->uplo, c->m, c->n, c->nrhs, c->dA, c->ldda, c->dd,
                              c->dB, c->lddb, c->dC, c->dY, c->lddy, info, c->ctx->queue);
}

static int64_t run_dswls(void *p, int64_t *info)
{
    wls_t *c = p;
    if (c->opts == NULL)
        return gchol_dswls_gpu(c->m, c->n, c->nrhs, c->dA, c->ldda, c->dd, c->dB, c->lddb, c->dY,
                               c->lddy, &c->iter, info, c->ctx->queue);
    return gchol_dswls_expert_gpu(c->m, c->n, c->nrhs, c->dA, c->ldda, c->dd, c->dB, c->lddb,
                                  c->dY, c->lddy, &c->iter, info, c->opts, c->ctx->queue);
}

/* The cuBLAS + cuSOLVER normal equations, every step timed. */
static int64_t run_peer(void *p, int64_t *info)
{
    wls_t *c = p;
    bench_cusolver_t *cs = &c->ctx->cusolver;
    cublasHandle_t h = c->ctx->cublas;
    const cublasFillMode_t fill = c->uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    const double one = 1.0, zero = 0.0;
    (void) info;
    BENCH_CUBLAS(cublasDdgmm_64(h, CUBLAS_SIDE_RIGHT, c->m, c->n, c->dA, c->ldda, c->dd, 1, c->dW,
                                c->ldda));
    BENCH_CUBLAS(cublasDsyrk_64(h, fill, CUBLAS_OP_N, c->m, c->n, &one, c->dW, c->ldda, &zero,
                                c->dC, c->lddc));
    BENCH_CUBLAS(cublasDdgmm_64(h, CUBLAS_SIDE_LEFT, c->n, c->nrhs, c->dB, c->lddb, c->dd, 1,
                                c->dDB, c->lddb));
    BENCH_CUBLAS(cublasDgemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, c->m, c->nrhs, c->n, &one, c->dW,
                                c->ldda, c->dDB, c->lddb, &zero, c->dY, c->lddy));
    BENCH_CUSOLVER(cusolverDnXpotrf(cs->handle, cs->params, fill, c->m, CUDA_R_64F, c->dC, c->lddc,
                                    CUDA_R_64F, c->dwork, c->dwork_bytes, c->hwork,
                                    c->hwork_bytes, c->dinfo));
    BENCH_CUSOLVER(cusolverDnXpotrs(cs->handle, cs->params, fill, c->m, c->nrhs, CUDA_R_64F, c->dC,
                                    c->lddc, CUDA_R_64F, c->dY, c->lddy, c->dinfo + 1));
    return 0;
}

/* cusolverDn[DD|DS]gels on the n x m matrix T = D A^T: a failed call is
 * reported and returns -1 (the contender becomes n/a), it does not exit. */
static int64_t run_gels(wls_t *c, int mixed)
{
    bench_cusolver_t *cs = &c->ctx->cusolver;
    cusolver_int_t it = 0;
    cusolverStatus_t st =
        (mixed ? cusolverDnDSgels : cusolverDnDDgels)(
            cs->handle, (cusolver_int_t) c->n, (cusolver_int_t) c->m, (cusolver_int_t) c->nrhs,
            c->dT, (cusolver_int_t) c->ldt, c->dDB, (cusolver_int_t) c->lddb, c->dY,
            (cusolver_int_t) c->lddy, c->dwork, c->dwork_bytes, &it, c->dinfo);
    c->gels_iter = it;
    if (st != CUSOLVER_STATUS_SUCCESS) {
        fprintf(stderr, "# cusolverDn%sgels failed: cusolverStatus_t %d (shown as n/a)\n",
                mixed ? "DS" : "DD", (int) st);
        return -1;
    }
    return 0;
}

static int64_t run_ddgels(void *p, int64_t *info) { (void) info; return run_gels(p, 0); }
static int64_t run_dsgels(void *p, int64_t *info) { (void) info; return run_gels(p, 1); }

/* Before a cuSOLVER run: both info words 0, then a fresh Y (or gels input). */
static void clear_dinfo(wls_t *c)
{
    BENCH_CUDA(cudaMemsetAsync(c->dinfo, 0, 2 * sizeof(int), c->ctx->stream));
}

static void prep_peer(void *p) { clear_dinfo(p); prep_y(p); }
static void prep_gels_info(void *p) { clear_dinfo(p); prep_gels(p); }

/* The cuSOLVER device info words, after a run: the first nonzero one. */
static void read_dinfo(void *p, int64_t *info)
{
    wls_t *c = p;
    int h[2] = { 0, 0 };
    BENCH_CUDA(cudaMemcpy(h, c->dinfo, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    const int first = h[0] != 0 ? h[0] : h[1];
    if (first != 0 && *info == 0) *info = first;
}

/* ---------------------------------------------------------------------------
 * Results
 * ------------------------------------------------------------------------- */
/* A host copy (ld m) of the contender's Y. */
static double *download_y(const wls_t *c)
{
    double *h = bench_malloc((size_t) c->m * c->nrhs * sizeof(double));
    BENCH_CUDA(cudaMemcpy2D(h, c->m * sizeof(double), c->dY, c->lddy * sizeof(double),
                            c->m * sizeof(double), c->nrhs, cudaMemcpyDeviceToHost));
    return h;
}

/* max_j ||y_j - r_j||_inf / ||r_j||_inf (NaN propagates). */
static double rel_diff(const double *Y, const double *R, int64_t m, int64_t nrhs)
{
    double worst = 0.0;
    for (int64_t j = 0; j < nrhs; ++j) {
        double dn = 0.0, rn = 0.0;
        for (int64_t i = 0; i < m; ++i) {
            const double e = fabs(Y[i + j * m] - R[i + j * m]), r = fabs(R[i + j * m]);
            if (isnan(e) || e > dn) dn = e;
            if (isnan(r) || r > rn) rn = r;
        }
        const double q = dn / (rn > 0 ? rn : 1.0);
        if (isnan(q) || q > worst) worst = q;
    }
    return worst;
}

static int measured(double t) { return t > 0 && isfinite(t); }

/* Table fields: "n/a" when not measured. */
static const char *fmt_ms(char *buf, double seconds)
{
    if (measured(seconds)) snprintf(buf, 32, "%.3f", 1e3 * seconds);
    else snprintf(buf, 32, "n/a");
    return buf;
}

static const char *fmt_ratio(char *buf, double peer, double t)
{
    if (measured(peer) && measured(t)) snprintf(buf, 32, "%.2f", peer / t);
    else snprintf(buf, 32, "n/a");
    return buf;
}

static const char *fmt_int(char *buf, int ok, long long v)
{
    if (ok) snprintf(buf, 32, "%lld", v);
    else snprintf(buf, 32, "n/a");
    return buf;
}

/* CSV fields: empty when not measured (as bench_csv_num). */
static void csv_ms(FILE *f, double seconds)
{
    if (measured(seconds)) fprintf(f, "%.6g,", 1e3 * seconds);
    else fputc(',', f);
}

static void csv_ratio(FILE *f, double peer, double t)
{
    if (measured(peer) && measured(t)) fprintf(f, "%.4f,", peer / t);
    else fputc(',', f);
}

static void csv_int(FILE *f, int ok, long long v)
{
    if (ok) fprintf(f, "%lld,", v);
    else fputc(',', f);
}

/* ---------------------------------------------------------------------------
 * Main
 * ------------------------------------------------------------------------- */
int main(int argc, char **argv)
{
    const char *shapes = "1024x65536,4096x65536,8192x32768,16384x16384", *csv = NULL;
    int64_t nrhs = 1, *ms = NULL, *ns = NULL;
    int niter = 5, no_gels = 0;
    char uplo = 'L', transr = 'N';
    uint64_t seed = 2026;
    const opt_t opts[] = {
        OPT("--mn", OPT_STRING, &shapes, "MxN,MxN,...", "shapes of A (m x n, m <= n; C is m x "
            "m); ':' works as 'x'\ndefault 1024x65536,4096x65536,8192x32768,16384x16384"),
        OPT("--nrhs", OPT_INT64, &nrhs, "K", "columns of B (default 1)", OPT_MIN(1)),
        OPT("--uplo", OPT_CHAR, &uplo, "L|U", "triangle of C for gchol dwls and the peer "
            "(default L)", .choices = "LU"),
        OPT("--transr", OPT_CHAR, &transr, "N|T", "RFP variant of gchol dwls-rfp's C (default "
            "N)", .choices = "NT"),
        OPT("--niter", OPT_INT, &niter, "K", "timed runs after a warm-up, median reported "
            "(default 5)", OPT_MIN(1)),
        OPT("--csv", OPT_STRING, &csv, "FILE", "also write the table as CSV (times in ms, n/a "
            "empty)"),
        OPT("--no-gels", OPT_FLAG, &no_gels, NULL, "leave out cusolverDnDDgels and "
            "cusolverDnDSgels"),
        OPT("--seed", OPT_UINT64, &seed, "S", "random inputs (default 2026)"),
        OPT_END
    };
    const opts_program_t prog = { "[options]", NULL, EXIT_FAILURE };
    opts_parse(argc, argv, opts, &prog);
    const int gels = !no_gels;
    const int64_t count = testing_parse_shapes(shapes, &ms, &ns);
    if (count <= 0) opts_fail(argv[0], opts, &prog, "bad --mn %s", shapes);
    for (int64_t k = 0; k < count; ++k)
        if (ms[k] > ns[k])
            opts_fail(argv[0], opts, &prog, "m = %lld > n = %lld: A D^2 A^T is singular (m <= n "
                      "needed)", (long long) ms[k], (long long) ns[k]);

    bench_require_gpu(0, argv[0]);
    bench_context_t ctx;
    bench_context_create(&ctx);
    FILE *out = bench_csv_open(csv, "m,n,nrhs,uplo,peer_ms,ddgels_ms,dsgels_ms,dsgels_iter,"
                               "dwls_ms,dswls_ms,dswls_tf32_ms,ratio_dwls,ratio_dswls,"
                               "ratio_dswls_tf32,iter_dswls,iter_dswls_tf32,maxdiff,worst,ref,"
                               "transr,dwls_rfp_ms,ratio_dwls_rfp,dswls_fp16_ms,"
                               "ratio_dswls_fp16,iter_dswls_fp16");

    int *dinfo = bench_device_malloc(2 * sizeof(int));
    gchol_options_t tf32;
    gchol_options_default(&tf32);
    tf32.products = GCHOL_PRODUCTS_TF32;
    gchol_options_t fp16 = tf32;
    fp16.products = GCHOL_PRODUCTS_FP16;

    printf("# weighted least squares y = argmin ||D(A^T y - b)||, double: A m x n uniform(-1,1), "
           "d uniform(0.5,2), B n x %lld uniform(-1,1); uplo %c; median of %d after a warm-up\n",
           (long long) nrhs, uplo, niter);
    printf("# peer = cuBLAS dgmm+syrk+dgmm+gemm + cuSOLVER Xpotrf+Xpotrs (all timed); "
           "ratio = peer time / gchol time\n");
    printf("# DDgels/DSgels: cusolverDn[DD|DS]gels on D*A^T (n x m) with rhs D*B; forming D*A^T "
           "and D*B is untimed (only the solver call is timed)%s\n",
           gels ? "" : " -- left out (--no-gels)");
    printf("# rfp = gchol dwls_rfp (C in RFP, transr %c): its time and peer / rfp\n", transr);
    printf("# maxdiff = max over contenders of max_j ||y_j - r_j||_inf/||r_j||_inf, r = gchol "
           "dwls's Y; worst = that contender; it = dswls iter (< 0: fell back to double)\n");
    printf("%6s %6s %4s | %9s | %9s | %9s %4s | %9s %9s %9s %9s %9s | %6s %6s %6s %6s %6s | "
           "%4s %4s %4s | %8s %s\n",
           "m", "n", "nrhs", "peer ms", "DDgels ms", "DSgels ms", "it", "dwls ms", "dswls ms",
           "TF32 ms", "FP16 ms", "rfp ms", "r dwls", "r dsw", "r TF32", "r FP16", "r rfp", "it",
           "itTF", "itFP", "maxdiff", "worst");
    fflush(stdout);
    bench_spin_up(0.5);

    for (int64_t k = 0; k < count; ++k) {
        const int64_t m = ms[k], n = ns[k];
        wls_t c;
        memset(&c, 0, sizeof(c));
        c.ctx = &ctx;
        c.dinfo = dinfo;
        c.uplo = uplo;
        c.transr = transr;
        c.m = m;
        c.n = n;
        c.nrhs = nrhs;
        c.ldda = bench_ldda(m);
        c.lddb = bench_ldda(n);
        c.lddy = bench_ldda(m);
        c.lddc = bench_ldda(m);
        c.ldt = bench_ldda(n);

        double t[NCONT], *Yh[NCONT] = { NULL };
        int64_t info[NCONT] = { 0 };
        for (int i = 0; i < NCONT; ++i) t[i] = -1.0;
        int64_t iter_dswls = 0, iter_tf32 = 0, iter_fp16 = 0;
        cusolver_int_t iter_dsgels = 0;

        /* Inputs, once per shape. */
        double *A = bench_random_host('d', m, n, m, seed, -1.0, 1.0);
        double *d = bench_random_host('d', n, 1, n, seed + 1, 0.5, 2.0);
        double *B = bench_random_host('d', n, nrhs, n, seed + 2, -1.0, 1.0);
        c.dA = try_upload(A, m, n, c.ldda);
        c.dd = try_upload(d, n, 1, n);
        c.dB = try_upload(B, n, nrhs, c.lddb);
        c.dY = try_malloc((size_t) c.lddy * nrhs * sizeof(double));
        free(A);
        free(d);
        free(B);
        if (!c.dA || !c.dd || !c.dB || !c.dY) {
            printf("%6lld %6lld %4lld | inputs do not fit in device memory: skipped\n",
                   (long long) m, (long long) n, (long long) nrhs);
            dfree(c.dA); dfree(c.dd); dfree(c.dB); dfree(c.dY);
            continue;
        }

        /* gchol dwls (the reference). */
        c.dC = try_malloc((size_t) c.lddc * m * sizeof(double));
        if (c.dC) {
            const testing_job_t job = { prep_y, run_dwls, NULL };
            t[C_DWLS] = testing_time_job(&job, &c, ctx.stream, 0, niter, &info[C_DWLS]);
            if (measured(t[C_DWLS])) Yh[C_DWLS] = download_y(&c);
            dfree(c.dC);
            c.dC = NULL;
        }

        /* gchol dwls with C in RFP storage. */
        c.dC = try_malloc((size_t) (m * (m + 1) / 2) * sizeof(double));
        if (c.dC) {
            const testing_job_t job = { prep_y, run_dwls_rfp, NULL };
            t[C_RFP] = testing_time_job(&job, &c, ctx.stream, 0, niter, &info[C_RFP]);
            if (measured(t[C_RFP])) Yh[C_RFP] = download_y(&c);
            dfree(c.dC);
            c.dC = NULL;
        }

        /* gchol dswls, accurate, TF32 and FP16 products. */
        {
            const testing_job_t job = { prep_y, run_dswls, NULL };
            c.opts = NULL;
            t[C_DSWLS] = testing_time_job(&job, &c, ctx.stream, 0, niter, &info[C_DSWLS]);
            iter_dswls = c.iter;
            if (measured(t[C_DSWLS])) Yh[C_DSWLS] = download_y(&c);
            c.opts = &tf32;
            t[C_TF32] = testing_time_job(&job, &c, ctx.stream, 0, niter, &info[C_TF32]);
            iter_tf32 = c.iter;
            if (measured(t[C_TF32])) Yh[C_TF32] = download_y(&c);
            c.opts = &fp16;
            t[C_FP16] = testing_time_job(&job, &c, ctx.stream, 0, niter, &info[C_FP16]);
            iter_fp16 = c.iter;
            if (measured(t[C_FP16])) Yh[C_FP16] = download_y(&c);
            c.opts = NULL;
        }

        /* The peer: cuBLAS + cuSOLVER normal equations. */
        c.dW = try_malloc((size_t) c.ldda * n * sizeof(double));
        c.dC = try_malloc((size_t) c.lddc * m * sizeof(double));
        c.dDB = try_malloc((size_t) c.lddb * nrhs * sizeof(double));
        if (c.dW && c.dC && c.dDB) {
            bench_cusolver_t *cs = &ctx.cusolver;
            BENCH_CUSOLVER(cusolverDnXpotrf_bufferSize(
                cs->handle, cs->params,
                uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER, m, CUDA_R_64F, c.dC,
                c.lddc, CUDA_R_64F, &c.dwork_bytes, &c.hwork_bytes));
            c.dwork = try_malloc(c.dwork_bytes);
            c.hwork = bench_malloc(c.hwork_bytes);
            if (c.dwork) {
                const testing_job_t job = { prep_peer, run_peer, read_dinfo };
                t[C_PEER] = testing_time_job(&job, &c, ctx.stream, 0, niter, &info[C_PEER]);
                if (measured(t[C_PEER])) Yh[C_PEER] = download_y(&c);
            }
            dfree(c.dwork);
            free(c.hwork);
            c.dwork = c.hwork = NULL;
        }
        dfree(c.dW); dfree(c.dC);
        c.dW = c.dC = NULL;

        /* cuSOLVER QR least squares on D A^T (n x m), double and mixed. */
        const int gels_fits = n <= INT32_MAX && c.ldt <= INT32_MAX && nrhs <= INT32_MAX;
        if (gels && !gels_fits)
            fprintf(stderr, "# cusolverDn[DD|DS]gels: dimensions beyond 32-bit (shown as n/a)\n");
        if (gels && gels_fits && c.dDB) {
            c.dT = try_malloc((size_t) c.ldt * m * sizeof(double));
            if (c.dT) {
                bench_cusolver_t *cs = &ctx.cusolver;
                for (int mixed = 0; mixed <= 1; ++mixed) {
                    const int which = mixed ? C_DSGELS : C_DDGELS;
                    size_t bytes = 0;
                    cusolverStatus_t st = (mixed ? cusolverDnDSgels_bufferSize
                                                 : cusolverDnDDgels_bufferSize)(
                        cs->handle, (cusolver_int_t) n, (cusolver_int_t) m,
                        (cusolver_int_t) nrhs, c.dT, (cusolver_int_t) c.ldt, c.dDB,
                        (cusolver_int_t) c.lddb, c.dY, (cusolver_int_t) c.lddy, NULL, &bytes);
                    if (st != CUSOLVER_STATUS_SUCCESS) {
                        fprintf(stderr, "# cusolverDn%sgels_bufferSize failed: cusolverStatus_t "
                                "%d (shown as n/a)\n", mixed ? "DS" : "DD", (int) st);
                        continue;
                    }
                    c.dwork_bytes = bytes;
                    c.dwork = try_malloc(bytes);
                    if (c.dwork == NULL) {
                        fprintf(stderr, "# cusolverDn%sgels: no %.2f GB of workspace (shown as "
                                "n/a)\n", mixed ? "DS" : "DD", (double) bytes / 1e9);
                        continue;
                    }
                    const testing_job_t job = { prep_gels_info, mixed ? run_dsgels : run_ddgels,
                                              read_dinfo };
                    t[which] = testing_time_job(&job, &c, ctx.stream, 0, niter, &info[which]);
                    if (mixed) iter_dsgels = c.gels_iter;
                    if (measured(t[which])) Yh[which] = download_y(&c);
                    dfree(c.dwork);
                    c.dwork = NULL;
                }
                dfree(c.dT);
                c.dT = NULL;
            }
        }
        dfree(c.dDB);
        c.dDB = NULL;

        /* Check every Y against the reference: dwls, else the first that ran
         * with info 0. */
        int ref = Yh[C_DWLS] && info[C_DWLS] == 0 ? C_DWLS : -1;
        for (int i = 0; i < NCONT && ref < 0; ++i)
            if (Yh[i] && info[i] == 0) ref = i;
        double maxdiff = -1.0;
        int worst = -1;
        for (int i = 0; i < NCONT && ref >= 0; ++i) {
            if (!Yh[i] || i == ref) continue;
            const double q = rel_diff(Yh[i], Yh[ref], m, nrhs);
            if (worst < 0 || (!isnan(maxdiff) && (isnan(q) || q > maxdiff))) {
                maxdiff = q;
                worst = i;
            }
        }

        char f[21][32], note[256] = "";
        if (ref >= 0 && ref != C_DWLS)
            snprintf(note + strlen(note), sizeof(note) - strlen(note), "  (ref: %s)",
                     CONT_NAME[ref]);
        for (int i = 0; i < NCONT; ++i)
            if (info[i] != 0)
                snprintf(note + strlen(note), sizeof(note) - strlen(note), "  (%s %s %lld)",
                         CONT_NAME[i], measured(t[i]) ? "info" : "failed", (long long) info[i]);
        if (worst >= 0) snprintf(f[15], 32, "%.2e", maxdiff);
        else snprintf(f[15], 32, "n/a");
        printf("%6lld %6lld %4lld | %9s | %9s | %9s %4s | %9s %9s %9s %9s %9s | %6s %6s %6s %6s "
               "%6s | %4s %4s %4s | %8s %s%s\n",
               (long long) m, (long long) n, (long long) nrhs, fmt_ms(f[0], t[C_PEER]),
               fmt_ms(f[1], t[C_DDGELS]), fmt_ms(f[2], t[C_DSGELS]),
               fmt_int(f[3], measured(t[C_DSGELS]), iter_dsgels), fmt_ms(f[4], t[C_DWLS]),
               fmt_ms(f[5], t[C_DSWLS]), fmt_ms(f[6], t[C_TF32]), fmt_ms(f[18], t[C_FP16]),
               fmt_ms(f[16], t[C_RFP]), fmt_ratio(f[7], t[C_PEER], t[C_DWLS]),
               fmt_ratio(f[8], t[C_PEER], t[C_DSWLS]), fmt_ratio(f[9], t[C_PEER], t[C_TF32]),
               fmt_ratio(f[19], t[C_PEER], t[C_FP16]), fmt_ratio(f[17], t[C_PEER], t[C_RFP]),
               fmt_int(f[10], measured(t[C_DSWLS]), iter_dswls),
               fmt_int(f[11], measured(t[C_TF32]), iter_tf32),
               fmt_int(f[20], measured(t[C_FP16]), iter_fp16), f[15],
               worst >= 0 ? CONT_NAME[worst] : "-", note);
        fflush(stdout);
        if (out) {
            fprintf(out, "%lld,%lld,%lld,%c,", (long long) m, (long long) n, (long long) nrhs, uplo);
            csv_ms(out, t[C_PEER]);
            csv_ms(out, t[C_DDGELS]);
            csv_ms(out, t[C_DSGELS]);
            csv_int(out, measured(t[C_DSGELS]), iter_dsgels);
            csv_ms(out, t[C_DWLS]);
            csv_ms(out, t[C_DSWLS]);
            csv_ms(out, t[C_TF32]);
            csv_ratio(out, t[C_PEER], t[C_DWLS]);
            csv_ratio(out, t[C_PEER], t[C_DSWLS]);
            csv_ratio(out, t[C_PEER], t[C_TF32]);
            csv_int(out, measured(t[C_DSWLS]), iter_dswls);
            csv_int(out, measured(t[C_TF32]), iter_tf32);
            if (worst >= 0) fprintf(out, "%.3e,%s,", maxdiff, CONT_NAME[worst]);
            else fprintf(out, ",,");
            fprintf(out, "%s,%c,", ref >= 0 ? CONT_NAME[ref] : "", transr);
            csv_ms(out, t[C_RFP]);
            csv_ratio(out, t[C_PEER], t[C_RFP]);
            csv_ms(out, t[C_FP16]);
            csv_ratio(out, t[C_PEER], t[C_FP16]);
            if (measured(t[C_FP16])) fprintf(out, "%lld", (long long) iter_fp16); /* last: no comma */
            fprintf(out, "\n");
            fflush(out);
        }

        for (int i = 0; i < NCONT; ++i) free(Yh[i]);
        dfree(c.dA); dfree(c.dd); dfree(c.dB); dfree(c.dY);
    }
    if (out) fclose(out);
    dfree(dinfo);
    bench_context_destroy(&ctx);
    free(ms);
    free(ns);
    return 0;
}
