/*
 * bench_xposv_phases.c -- where the mixed-precision solve's time goes: each
 * phase of gchol_dxposv_gpu's FP16 rung alone, at order n, beside the
 * device-to-device copy rate of the same run.
 *
 *   norm        ||A||_inf (dlansy, one pass over A's triangle)
 *   scale       D, S = D A D in single (one pass over the triangle)
 *   factor      the FP16 factorization with the tuning table's plan
 *   residual    r = b - A x with its norms and one read-back (dsymv)
 *   matvec      A z alone (cuBLAS dsymv), and A z with A whole (dgemv,
 *               both triangles read: the bandwidth a full read reaches)
 *   precond     M^-1 v = D L^-T L^-1 D v: by the inverted diagonal blocks
 *               (the tuned form), and by strsv on the factor's blocks
 *   orthog      GMRES's CGS2 step against 10 basis vectors
 *   xposv       the whole automatic solve
 *
 * GB/s counts the bytes a phase must move at least (a triangle of A is
 * n (n + 1) / 2 entries); %copy is that rate over the copy's. Every phase
 * is timed as the others: CUDA events, a warm-up, the median of --niter.
 *
 *   bench_xposv_phases [-n LIST] [--kappa K] [--niter K]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "../kernels/gchol_kernels.h"
#include "gchol_mixed.h"
#include "../src/potrf_lowp.h"
#include "../src/refine_ops_gpu.h"

enum { kOrthoK = 10 };

typedef struct {
    bench_context_t *ctx;
    int64_t n, ld, lds;
    double *dA0, *dA, *dB, *dX, *dr, *dz, *dw, *V;
    double *d, *lansy, *norm;
    float  *S0, *S, *inv;
    int    *flag;
    gchol_lowp_plan_t plan;
    gchol_gpu_ops_t g;
    gchol_refine_ops_t ops;
    double  h[2 * (kOrthoK + 2)], nrm[3];
    gchol_xposv_result_t xres;
} phases_t;

static int64_t run_copy(void *p, int64_t *info)
{
    phases_t *c = p;
    (void)info;
    BENCH_CUDA(cudaMemcpyAsync(c->dA, c->dA0, (size_t)(c->ld * c->n) * 8, cudaMemcpyDeviceToDevice,
                               c->ctx->stream));
    return 0;
}

static int64_t run_norm(void *p, int64_t *info)
{
    phases_t *c = p;
    (void)info;
    return gchol_dlansy_inf_launch(c->n, c->dA0, c->ld, 0, c->lansy, c->norm, c->ctx->stream);
}

static int64_t run_scale(void *p, int64_t *info)
{
    phases_t *c = p;
    (void)info;
    const int64_t e = gchol_diag_inv_sqrt_launch(c->n, c->dA0, c->ld, c->d, c->flag, c->ctx->stream);
    if (e != 0) return e;
    return gchol_scale_lower_d2s_launch(c->n, c->dA0, c->ld, 0, c->d, c->S, c->lds, c->flag,
                                        c->ctx->stream);
}

static void fresh_s(void *p)
{
    phases_t *c = p;
    BENCH_CUDA(cudaMemcpyAsync(c->S, c->S0, (size_t)(c->lds * c->n) * 4, cudaMemcpyDeviceToDevice,
                               c->ctx->stream));
    BENCH_CUDA(cudaStreamSynchronize(c->ctx->stream));
}

static int64_t run_factor(void *p, int64_t *info)
{
    phases_t *c = p;
    return gchol_spotrf_lowp(c->n, c->S, c->lds, 0, &c->plan, info, c->ctx->queue);
}

static int64_t run_residual(void *p, int64_t *info)
{
    phases_t *c = p;
    (void)info;
    return c->ops.residual(c->ops.ctx, c->dB, c->dX, c->dr, c->nrm);
}

static int64_t run_symv(void *p, int64_t *info)
{
    phases_t *c = p;
    (void)info;
    return c->ops.matvec(c->ops.ctx, c->dz, c->dw);
}

static int64_t run_gemv(void *p, int64_t *info)
{
    phases_t *c = p;
    const double one = 1, zero = 0;
    (void)info;
    BENCH_CUBLAS(cublasDgemv_64(c->ctx->cublas, CUBLAS_OP_N, c->n, c->n, &one, c->dA0, c->ld,
                                c->dz, 1, &zero, c->dw, 1));
    return 0;
}

static int64_t run_precond(void *p, int64_t *info)
{
    phases_t *c = p;
    (void)info;
    return c->ops.precond(c->ops.ctx, c->dr, c->dz);
}

static int64_t run_orthog(void *p, int64_t *info)
{
    phases_t *c = p;
    (void)info;
    return c->ops.orthonormalize(c->ops.ctx, c->V, c->ld, kOrthoK, c->V + (kOrthoK + 1) * c->ld,
                                 c->h);
}

static void fresh_a(void *p)
{
    phases_t *c = p;
    bench_device_copy('d', c->n, c->n, c->dA0, c->ld, c->dA, c->ld, c->ctx->stream);
    BENCH_CUDA(cudaStreamSynchronize(c->ctx->stream));
}

static int64_t run_xposv(void *p, int64_t *info)
{
    phases_t *c = p;
    return gchol_dxposv_gpu('L', c->n, 1, c->dA, c->ld, c->dB, c->ld, c->dX, c->ld, NULL, &c->xres,
                            info, c->ctx->queue);
}

/* The solve's largest allocation, S in single, from the device's default
 * pool and back: with a pool's default release threshold (0) the memory
 * returns to the system at each synchronization, so that every solve on a
 * queue that keeps none (gchol_queue_keep_memory) maps it anew. */
static int64_t run_alloc(void *p, int64_t *info)
{
    phases_t *c = p;
    void *w = NULL;
    (void)info;
    BENCH_CUDA(cudaMallocAsync(&w, (size_t)(c->lds * c->n) * 4, c->ctx->stream));
    BENCH_CUDA(cudaMemsetAsync(w, 0, 4, c->ctx->stream));
    BENCH_CUDA(cudaFreeAsync(w, c->ctx->stream));
    BENCH_CUDA(cudaStreamSynchronize(c->ctx->stream));
    return 0;
}

/* One row: the phase's median time, and its rate over `bytes`. */
static void row(phases_t *c, const char *name, const testing_job_t *j, int niter, double bytes,
                double copy_gbs)
{
    int64_t info = 0;
    const double t = testing_time_job(j, c, c->ctx->stream, 0, niter, &info);
    if (!(t >= 0)) {
        printf("  %-34s %9s  (failed: %lld)\n", name, "-", (long long)info);
        return;
    }
    const double gbs = bytes / t / 1e9;
    if (bytes > 0)
        printf("  %-34s %9.3f %8.0f %6.0f%%\n", name, 1e3 * t, gbs, 100 * gbs / copy_gbs);
    else
        printf("  %-34s %9.3f %8s %7s\n", name, 1e3 * t, "-", "-");
    fflush(stdout);
}

static void phases(bench_context_t *ctx, int64_t n, double kappa, int niter)
{
    phases_t c;
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    c.n = n;
    double *A = bench_malloc((size_t)(n * n) * 8);
    if (testing_generate_cond_spd('d', n, A, n, kappa, 71 + (uint64_t)n)) {
        fprintf(stderr, "bench_xposv_phases: out of host memory at n = %lld\n", (long long)n);
        exit(1);
    }
    c.dA0 = bench_upload('d', n, n, A, n, &c.ld);
    free(A);
    double *B = bench_random_host('d', n, 1, n, 99, -1.0, 1.0);
    int64_t ldb = 0;
    c.dB = bench_upload('d', n, 1, B, n, &ldb);
    free(B);
    c.lds = (n + 31) / 32 * 32;
    c.dA = bench_device_malloc((size_t)(c.ld * n) * 8);
    c.dX = bench_device_malloc((size_t)n * 8);
    c.dr = bench_device_malloc((size_t)n * 8);
    c.dz = bench_device_malloc((size_t)n * 8);
    c.dw = bench_device_malloc((size_t)n * 8);
    c.V = bench_device_malloc((size_t)(c.ld * (kOrthoK + 2)) * 8);
    c.d = bench_device_malloc((size_t)n * 8);
    c.lansy = bench_device_malloc(gchol_lansy_inf_work(n) * 8);
    c.norm = bench_device_malloc(8);
    c.flag = bench_device_malloc(sizeof(int));
    c.S0 = bench_device_malloc((size_t)(c.lds * n) * 4);
    c.S = bench_device_malloc((size_t)(c.lds * n) * 4);
    /* the update gemms read the diagonal blocks' upper parts: zeros there */
    BENCH_CUDA(cudaMemset(c.S0, 0, (size_t)(c.lds * n) * 4));
    BENCH_CUDA(cudaMemset(c.S, 0, (size_t)(c.lds * n) * 4));
    BENCH_CUDA(cudaMemset(c.flag, 0, sizeof(int)));
    /* x, z and r: B's entries; the basis: random columns (none on zeros) */
    double *Vh = bench_random_host('d', n, kOrthoK + 2, n, 7, -1.0, 1.0);
    BENCH_CUDA(cudaMemcpy2D(c.V, (size_t)c.ld * 8, Vh, (size_t)n * 8, (size_t)n * 8, kOrthoK + 2,
                            cudaMemcpyHostToDevice));
    free(Vh);
    BENCH_CUDA(cudaMemcpy(c.dX, c.dB, (size_t)n * 8, cudaMemcpyDeviceToDevice));
    BENCH_CUDA(cudaMemcpy(c.dz, c.dB, (size_t)n * 8, cudaMemcpyDeviceToDevice));
    BENCH_CUDA(cudaMemcpy(c.dr, c.dB, (size_t)n * 8, cudaMemcpyDeviceToDevice));

    int keep = 0;
    gchol_lowp_plan_for(n, &c.plan.nb, &keep, &c.plan.panel_inverse, &c.plan.lookahead,
                        &c.plan.update_leaf);
    c.inv = bench_device_malloc((size_t)(c.plan.nb * n) * 4);
    c.plan.inv = keep ? c.inv : NULL;

    printf("\nn = %lld, kappa %.0e, FP16 plan: nb %lld, inverses %s, panels %s, lookahead %s, "
           "updates %s (median of %d)\n",
           (long long)n, kappa, (long long)c.plan.nb, keep ? "kept" : "not kept",
           c.plan.panel_inverse ? "through them" : "by strsm",
           c.plan.lookahead == 2 ? "on, chain at high priority" : c.plan.lookahead ? "on" : "off",
           c.plan.update_leaf > 0 ? "split in halves" : "by block columns", niter);
    printf("  %-34s %9s %8s %7s\n", "phase", "ms", "GB/s", "%copy");
    const double tri = (double)n * (double)(n + 1) / 2, whole = (double)c.ld * (double)n;
    const testing_job_t j_copy = { NULL, run_copy, NULL };
    int64_t info = 0;
    const double tc = testing_time_job(&j_copy, &c, ctx->stream, 0, niter, &info);
    const double copy_gbs = 2 * 8 * whole / tc / 1e9;
    printf("  %-34s %9.3f %8.0f %6.0f%%\n", "copy of A (read + write)", 1e3 * tc, copy_gbs, 100.0);

    const testing_job_t j_norm = { NULL, run_norm, NULL };
    row(&c, "norm: dlansy", &j_norm, niter, 8 * tri, copy_gbs);
    const testing_job_t j_scale = { NULL, run_scale, NULL };
    row(&c, "scale: D, S = D A D (single)", &j_scale, niter, 12 * tri, copy_gbs);
    BENCH_CUDA(cudaMemcpy(c.S0, c.S, (size_t)(c.lds * n) * 4, cudaMemcpyDeviceToDevice));
    const testing_job_t j_factor = { fresh_s, run_factor, NULL };
    info = 0;
    const double tf = testing_time_job(&j_factor, &c, ctx->stream, 0, niter, &info);
    printf("  %-34s %9.3f %8.1f TFLOP/s%s\n", "factor: FP16, the tuned plan", 1e3 * tf,
           (double)n * n * n / 3 / tf / 1e12, info ? "  (info != 0)" : "");

    /* the factor of the last run stays in S for the ops below */
    c.g = (gchol_gpu_ops_t){ n, c.dA0, c.ld, CUBLAS_FILL_MODE_LOWER, c.d, c.S, c.lds, NULL, NULL,
                             NULL, NULL, NULL, ctx->cublas, ctx->stream, c.plan.inv, c.plan.nb,
                             NULL, 0, NULL, NULL, 0, NULL, NULL, NULL };
    c.g.t = bench_device_malloc((size_t)n * 4);
    c.g.u = bench_device_malloc((size_t)n * 4);
    c.g.dnorms = bench_device_malloc(3 * 8);
    c.g.dh = bench_device_malloc((size_t)(2 * (kOrthoK + 3)) * 8);
    c.g.dy = bench_device_malloc((size_t)(kOrthoK + 2) * 8);
    c.g.amax = bench_device_malloc(8);
    double *symv_work = bench_device_malloc(gchol_symv_work(n) * 8);
    gchol_gpu_ops_table(&c.g, &c.ops);

    /* the residual and A z on both products: cuBLAS dsymv, gchol's symv */
    const testing_job_t j_res = { NULL, run_residual, NULL };
    const testing_job_t j_symv = { NULL, run_symv, NULL };
    for (int own = 0; own < 2; ++own) {
        c.g.symv_work = own ? symv_work : NULL;
        row(&c, own ? "residual: b - A x, gchol symv" : "residual: b - A x, cuBLAS dsymv", &j_res,
            niter, 8 * tri, copy_gbs);
        row(&c, own ? "matvec: A z (gchol symv)" : "matvec: A z (cuBLAS dsymv)", &j_symv, niter,
            8 * tri, copy_gbs);
    }
    const testing_job_t j_gemv = { NULL, run_gemv, NULL };
    row(&c, "matvec: A z (dgemv, A whole)", &j_gemv, niter, 8 * (double)n * n, copy_gbs);
    const testing_job_t j_pre = { NULL, run_precond, NULL };
    row(&c, keep ? "precond: by the inverses" : "precond: by strsv", &j_pre, niter,
        2 * 4 * tri, copy_gbs);
    if (keep) {
        c.g.inv = NULL;
        row(&c, "precond: by strsv", &j_pre, niter, 2 * 4 * tri, copy_gbs);
        c.g.inv = c.plan.inv;
    }
    const testing_job_t j_orth = { NULL, run_orthog, NULL };
    row(&c, "orthog: CGS2 against 10 vectors", &j_orth, niter, 2 * 2 * 8 * (double)n * (kOrthoK + 1),
        copy_gbs);
    const testing_job_t j_alloc = { NULL, run_alloc, NULL };
    row(&c, "alloc: S from the pool, returned", &j_alloc, niter, 0, copy_gbs);
    const testing_job_t j_x = { fresh_a, run_xposv, NULL };
    for (int kept = 0; kept < 2; ++kept) {
        BENCH_GCHOL(gchol_queue_keep_memory(ctx->queue, kept ? SIZE_MAX : 0));
        info = 0;
        const double tx = testing_time_job(&j_x, &c, ctx->stream, 0, niter, &info);
        printf("  %-34s %9.3f  rung %d, iter %lld, inner %lld, syncs %lld%s\n",
               kept ? "xposv: the whole, memory kept" : "xposv: the whole solve", 1e3 * tx,
               c.xres.prec, (long long)c.xres.iter, (long long)c.xres.inner,
               (long long)c.xres.host_syncs, info ? "  (info != 0)" : "");
    }
    BENCH_GCHOL(gchol_queue_keep_memory(ctx->queue, 0));

    BENCH_CUDA(cudaFree(c.g.t)); BENCH_CUDA(cudaFree(c.g.u)); BENCH_CUDA(cudaFree(c.g.dnorms));
    BENCH_CUDA(cudaFree(c.g.dh)); BENCH_CUDA(cudaFree(c.g.dy)); BENCH_CUDA(cudaFree(c.g.amax));
    BENCH_CUDA(cudaFree(symv_work));
    double *dbl[] = { c.dA0, c.dA, c.dB, c.dX, c.dr, c.dz, c.dw, c.V, c.d, c.lansy, c.norm };
    for (size_t i = 0; i < sizeof dbl / sizeof dbl[0]; i++) BENCH_CUDA(cudaFree(dbl[i]));
    BENCH_CUDA(cudaFree(c.S0)); BENCH_CUDA(cudaFree(c.S)); BENCH_CUDA(cudaFree(c.inv));
    BENCH_CUDA(cudaFree(c.flag));
}

int main(int argc, char **argv)
{
    testing_list_t sizes = { NULL, 0 };
    int niter = 5;
    double kappa = 1e2;
    const opt_t opts[] = {
        OPT("-n", OPT_LIST, &sizes, "LIST", "orders (default 16384,32768)", .def = "16384,32768"),
        OPT("--kappa", OPT_DOUBLE, &kappa, "K", "condition number of A (default 1e2)"),
        OPT("--niter", OPT_INT, &niter, "K", "timed runs after a warm-up, median reported "
            "(default 5)", OPT_MIN(1)),
        OPT_END
    };
    const opts_program_t prog = { "[-n LIST] [--kappa K] [--niter K]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    bench_require_gpu(0, argv[0]);
    bench_context_t ctx;
    bench_context_create(&ctx);
    printf("gchol_dxposv_gpu's phases alone: A SPD with kappa %.0e (geometric spectrum), lower, "
           "one right-hand side\n", kappa);
    for (int64_t k = 0; k < sizes.count; k++) phases(&ctx, sizes.v[k], kappa, niter);
    bench_context_destroy(&ctx);
    opts_free_list(&sizes);
    return 0;
}
