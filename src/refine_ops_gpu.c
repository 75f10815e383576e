/*
 * refine_ops_gpu.c -- the refinement engine's operations (refine_engine.h)
 * on the GPU, for the mixed-precision solve (dxposv.c): cuBLAS on device
 * vectors, the residual and A z against the original double A (one stored
 * triangle, gchol's symv kernel or cuBLAS dsymv), the preconditioner M^{-1} v = D L^-T L^-1 D v with the
 * single-precision factor L of S = D A D (S ~ L L^T). Read-backs go through
 * the queue's stream and wait for it; the handle's pointer mode is host
 * except inside the ops that leave results on the device, which restore it.
 */
#include "refine_ops_gpu.h"

#include "status.h"

#include "../kernels/gchol_kernels.h"

static const double one = 1, zero = 0, minus_one = -1;

static int64_t read_back(double *h, const double *d, int64_t count, cudaStream_t s)
{
    int64_t st = GCHOL_SUCCESS;
    GCHOL_CUDA(cudaMemcpyAsync(h, d, (size_t)count * sizeof(double), cudaMemcpyDeviceToHost, s));
    GCHOL_CUDA(cudaStreamSynchronize(s));
done:
    return st;
}

/* ||v||_2 into the device word out (pointer mode device for the call). */
static int64_t nrm2_device(const gchol_gpu_ops_t *g, const double *v, double *out)
{
    int64_t st = GCHOL_SUCCESS;
    GCHOL_BLAS(cublasSetPointerMode(g->blas, CUBLAS_POINTER_MODE_DEVICE));
    const cublasStatus_t b = cublasDnrm2_64(g->blas, g->n, v, 1, out);
    GCHOL_BLAS(cublasSetPointerMode(g->blas, CUBLAS_POINTER_MODE_HOST));
    GCHOL_BLAS(b);
done:
    return st;
}

/* y := alpha A x + beta y on the stored triangle: gchol's kernel reads it
 * once at near copy rate where cuBLAS dsymv reaches about half of that
 * (H200), and sums in a fixed order, so that a refinement repeats bit for
 * bit; cuBLAS where the ops have no workspace for it. */
static int64_t symv(const gchol_gpu_ops_t *g, double alpha, const double *x, double beta,
                    double *y)
{
    int64_t st = GCHOL_SUCCESS;
    if (g->symv_work)
        GCHOL_CUDA((cudaError_t)gchol_dsymv_launch(g->n, alpha, g->dA, g->ldda,
                                                   g->fill == CUBLAS_FILL_MODE_UPPER, x, beta, y,
                                                   g->symv_work, g->stream));
    else
        GCHOL_BLAS(cublasDsymv_64(g->blas, g->fill, g->n, &alpha, g->dA, g->ldda, x, 1, &beta, y,
                                  1));
done:
    return st;
}

static int64_t op_residual(void *ctx, const double *b, const double *x, double *r,
                           double *norms_host)
{
    const gchol_gpu_ops_t *g = ctx;
    int64_t st = GCHOL_SUCCESS;
    GCHOL_CUDA(cudaMemcpyAsync(r, b, (size_t)g->n * sizeof(double), cudaMemcpyDeviceToDevice,
                               g->stream));
    GCHOL_TRY(symv(g, -1, x, 1, r));
    GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(g->n, 1, r, g->n, g->dnorms, g->stream));
    GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(g->n, 1, x, g->n, g->dnorms + 1, g->stream));
    GCHOL_TRY(nrm2_device(g, r, g->dnorms + 2));
    GCHOL_TRY(read_back(norms_host, g->dnorms, 3, g->stream));
done:
    return st;
}

/* t := L^-1 t, then t := L^-T t, by blocks of kSolveNb: a small trsv on
 * each diagonal block and a gemv on the column panel below it (forward:
 * right-looking, t_below -= L_panel t_k; backward: left-looking, t_k -=
 * L_panel^T t_below), so that every gemv reads long contiguous columns. */
enum { kSolveNb = 512 };
static const float fone = 1, fminus_one = -1;

static int64_t solve_llt(const gchol_gpu_ops_t *g, float *t)
{
    int64_t st = GCHOL_SUCCESS;
    const int64_t n = g->n, ld = g->ldl;
    for (int64_t k = 0; k < n; k += kSolveNb) {
        const int64_t kb = n - k < kSolveNb ? n - k : kSolveNb, below = n - k - kb;
        const float *Lkk = g->L + k + k * ld;
        GCHOL_BLAS(cublasStrsv_64(g->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
                                  kb, Lkk, ld, t + k, 1));
        if (below > 0)
            GCHOL_BLAS(cublasSgemv_64(g->blas, CUBLAS_OP_N, below, kb, &fminus_one, Lkk + kb, ld,
                                      t + k, 1, &fone, t + k + kb, 1));
    }
    for (int64_t k = (n - 1) / kSolveNb * kSolveNb; k >= 0; k -= kSolveNb) {
        const int64_t kb = n - k < kSolveNb ? n - k : kSolveNb, below = n - k - kb;
        const float *Lkk = g->L + k + k * ld;
        if (below > 0)
            GCHOL_BLAS(cublasSgemv_64(g->blas, CUBLAS_OP_T, below, kb, &fminus_one, Lkk + kb, ld,
                                      t + k + kb, 1, &fone, t + k, 1));
        GCHOL_BLAS(cublasStrsv_64(g->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT,
                                  kb, Lkk, ld, t + k, 1));
    }
done:
    return st;
}

/* The same through the inverted diagonal blocks of the factorization's
 * own blocks: forward u_k := L_kk^-1 t_k, t_below -= L_panel u_k; backward
 * u_k -= L_panel^T t_below, t_k := L_kk^-T u_k. Every step a gemv (the
 * trsv's dependent steps cost ~30 us per block). */
static int64_t solve_llt_inv(const gchol_gpu_ops_t *g, float *t, float *u)
{
    int64_t st = GCHOL_SUCCESS;
    static const float fzero = 0;
    const int64_t n = g->n, ld = g->ldl, nb = g->nbinv;
    for (int64_t k = 0; k < n; k += nb) {
        const int64_t kb = n - k < nb ? n - k : nb, below = n - k - kb;
        const float *Lkk = g->L + k + k * ld, *Wk = g->inv + k * nb;
        GCHOL_BLAS(cublasSgemv_64(g->blas, CUBLAS_OP_N, kb, kb, &fone, Wk, nb, t + k, 1, &fzero,
                                  u + k, 1));
        if (below > 0)
            GCHOL_BLAS(cublasSgemv_64(g->blas, CUBLAS_OP_N, below, kb, &fminus_one, Lkk + kb, ld,
                                      u + k, 1, &fone, t + k + kb, 1));
    }
    for (int64_t k = (n - 1) / nb * nb; k >= 0; k -= nb) {
        const int64_t kb = n - k < nb ? n - k : nb, below = n - k - kb;
        const float *Lkk = g->L + k + k * ld, *Wk = g->inv + k * nb;
        if (below > 0)
            GCHOL_BLAS(cublasSgemv_64(g->blas, CUBLAS_OP_T, below, kb, &fminus_one, Lkk + kb, ld,
                                      t + k + kb, 1, &fone, u + k, 1));
        GCHOL_BLAS(cublasSgemv_64(g->blas, CUBLAS_OP_T, kb, kb, &fone, Wk, nb, u + k, 1, &fzero,
                                  t + k, 1));
    }
done:
    return st;
}

static int64_t op_precond(void *ctx, const double *v, double *z)
{
    const gchol_gpu_ops_t *g = ctx;
    int64_t st = GCHOL_SUCCESS;
    GCHOL_CUDA((cudaError_t)gchol_scaled_d2s_launch(g->n, g->d, v, g->t, g->amax, g->stream));
    if (g->inv)
        GCHOL_TRY(solve_llt_inv(g, g->t, g->u));
    else
        GCHOL_TRY(solve_llt(g, g->t));
    GCHOL_CUDA((cudaError_t)gchol_scaled_s2d_launch(g->n, g->d, g->t, z, g->amax, g->stream));
done:
    return st;
}

static int64_t op_matvec(void *ctx, const double *z, double *w)
{
    const gchol_gpu_ops_t *g = ctx;
    int64_t st = GCHOL_SUCCESS;
    GCHOL_TRY(symv(g, 1, z, 0, w));
done:
    return st;
}

/* CGS2: h = V^T w, w -= V h, twice; the sum of both h and ||w||_2 come back
 * in one read-back, then w is scaled on the host's value. */
static int64_t op_orthonormalize(void *ctx, const double *V, int64_t ldv, int64_t k, double *w,
                                 double *h_host)
{
    const gchol_gpu_ops_t *g = ctx;
    int64_t st = GCHOL_SUCCESS;
    double *h1 = g->dh, *h2 = g->dh + (k + 2);
    for (int pass = 0; pass < 2; ++pass) {
        double *h = pass ? h2 : h1;
        GCHOL_BLAS(cublasDgemv_64(g->blas, CUBLAS_OP_T, g->n, k + 1, &one, V, ldv, w, 1, &zero, h, 1));
        GCHOL_BLAS(cublasDgemv_64(g->blas, CUBLAS_OP_N, g->n, k + 1, &minus_one, V, ldv, h, 1, &one,
                                  w, 1));
    }
    GCHOL_BLAS(cublasDaxpy_64(g->blas, k + 1, &one, h2, 1, h1, 1));
    GCHOL_TRY(nrm2_device(g, w, h1 + k + 1));
    GCHOL_TRY(read_back(h_host, h1, k + 2, g->stream));
    if (h_host[k + 1] != 0) {
        const double inv = 1 / h_host[k + 1];
        GCHOL_BLAS(cublasDscal_64(g->blas, g->n, &inv, w, 1));
    }
done:
    return st;
}

static int64_t op_scal_copy(void *ctx, double alpha, const double *x, double *y)
{
    const gchol_gpu_ops_t *g = ctx;
    int64_t st = GCHOL_SUCCESS;
    if (x != y)
        GCHOL_CUDA(cudaMemcpyAsync(y, x, (size_t)g->n * sizeof(double), cudaMemcpyDeviceToDevice,
                                   g->stream));
    if (alpha != 1) GCHOL_BLAS(cublasDscal_64(g->blas, g->n, &alpha, y, 1));
done:
    return st;
}

static int64_t op_axpy(void *ctx, double alpha, const double *x, double *y)
{
    const gchol_gpu_ops_t *g = ctx;
    int64_t st = GCHOL_SUCCESS;
    GCHOL_BLAS(cublasDaxpy_64(g->blas, g->n, &alpha, x, 1, y, 1));
done:
    return st;
}

static int64_t op_gemv_update(void *ctx, const double *Z, int64_t ldz, int64_t k,
                              const double *y_host, double *x)
{
    const gchol_gpu_ops_t *g = ctx;
    int64_t st = GCHOL_SUCCESS;
    GCHOL_CUDA(cudaMemcpyAsync(g->dy, y_host, (size_t)(k + 1) * sizeof(double),
                               cudaMemcpyHostToDevice, g->stream));
    GCHOL_BLAS(cublasDgemv_64(g->blas, CUBLAS_OP_N, g->n, k + 1, &one, Z, ldz, g->dy, 1, &one, x, 1));
    /* y_host is the engine's scratch: the upload must finish before it
     * changes (a pageable source is copied before the call returns, a
     * pinned one is not) */
    GCHOL_CUDA(cudaStreamSynchronize(g->stream));
done:
    return st;
}

/* ---- several right-hand sides ------------------------------------------- */

static int64_t op_residual_block(void *ctx, const double *B, int64_t ldb, const double *X,
                                 int64_t ldx, double *R, int64_t ldr, int64_t ncols,
                                 double *norms_host)
{
    const gchol_gpu_ops_t *g = ctx;
    int64_t st = GCHOL_SUCCESS;
    if (ncols > g->nblock) return GCHOL_ERR_INVALID_VALUE;
    GCHOL_CUDA(cudaMemcpy2DAsync(R, (size_t)ldr * sizeof(double), B, (size_t)ldb * sizeof(double),
                                 (size_t)g->n * sizeof(double), (size_t)ncols,
                                 cudaMemcpyDeviceToDevice, g->stream));
    GCHOL_BLAS(cublasDsymm_64(g->blas, CUBLAS_SIDE_LEFT, g->fill, g->n, ncols, &minus_one, g->dA,
                              g->ldda, X, ldx, &one, R, ldr));
    GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(g->n, ncols, R, ldr, g->dnormsb, g->stream));
    GCHOL_CUDA((cudaError_t)gchol_dcol_absmax_launch(g->n, ncols, X, ldx, g->dnormsb + ncols,
                                                     g->stream));
    GCHOL_TRY(read_back(norms_host, g->dnormsb, 2 * ncols, g->stream));
done:
    return st;
}

/* T := L^-1 T, then T := L^-T T, on ncols columns (ld ldt): solve_llt's
 * blocks with strsm and sgemm, or, with the inverted diagonal blocks,
 * solve_llt_inv's with sgemm only (U the other n x ncols scratch). */
static int64_t solve_llt_block(const gchol_gpu_ops_t *g, float *T, float *U, int64_t ldt,
                               int64_t ncols)
{
    int64_t st = GCHOL_SUCCESS;
    static const float fzero = 0;
    const int64_t n = g->n, ld = g->ldl, nb = g->inv ? g->nbinv : kSolveNb;
    for (int64_t k = 0; k < n; k += nb) {
        const int64_t kb = n - k < nb ? n - k : nb, below = n - k - kb;
        const float *Lkk = g->L + k + k * ld;
        float *Tk = T + k;
        if (g->inv) {
            GCHOL_BLAS(cublasSgemm_64(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, kb, ncols, kb, &fone,
                                      g->inv + k * nb, nb, T + k, ldt, &fzero, U + k, ldt));
            Tk = U + k;
        } else {
            GCHOL_BLAS(cublasStrsm_64(g->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                                      CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, kb, ncols, &fone, Lkk, ld,
                                      T + k, ldt));
        }
        if (below > 0)
            GCHOL_BLAS(cublasSgemm_64(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, below, ncols, kb,
                                      &fminus_one, Lkk + kb, ld, Tk, ldt, &fone, T + k + kb, ldt));
    }
    /* forward's result: in U (inverses) or T; backward's: in T */
    float *Y = g->inv ? U : T;
    for (int64_t k = (n - 1) / nb * nb; k >= 0; k -= nb) {
        const int64_t kb = n - k < nb ? n - k : nb, below = n - k - kb;
        const float *Lkk = g->L + k + k * ld;
        if (below > 0)
            GCHOL_BLAS(cublasSgemm_64(g->blas, CUBLAS_OP_T, CUBLAS_OP_N, kb, ncols, below,
                                      &fminus_one, Lkk + kb, ld, T + k + kb, ldt, &fone, Y + k,
                                      ldt));
        if (g->inv)
            GCHOL_BLAS(cublasSgemm_64(g->blas, CUBLAS_OP_T, CUBLAS_OP_N, kb, ncols, kb, &fone,
                                      g->inv + k * nb, nb, U + k, ldt, &fzero, T + k, ldt));
        else
            GCHOL_BLAS(cublasStrsm_64(g->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                                      CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, kb, ncols, &fone, Lkk, ld,
                                      T + k, ldt));
    }
done:
    return st;
}

static int64_t op_precond_block(void *ctx, const double *V, int64_t ldv, double *Z, int64_t ldz,
                                int64_t ncols)
{
    const gchol_gpu_ops_t *g = ctx;
    int64_t st = GCHOL_SUCCESS;
    if (ncols > g->nblock) return GCHOL_ERR_INVALID_VALUE;
    for (int64_t j = 0; j < ncols; ++j)
        GCHOL_CUDA((cudaError_t)gchol_scaled_d2s_launch(g->n, g->d, V + j * ldv, g->tb + j * g->ldtb,
                                                        g->amaxb + j, g->stream));
    GCHOL_TRY(solve_llt_block(g, g->tb, g->ub, g->ldtb, ncols));
    for (int64_t j = 0; j < ncols; ++j)
        GCHOL_CUDA((cudaError_t)gchol_scaled_s2d_launch(g->n, g->d, g->tb + j * g->ldtb, Z + j * ldz,
                                                        g->amaxb + j, g->stream));
done:
    return st;
}

void gchol_gpu_block_ops_table(gchol_refine_block_ops_t *bops)
{
    bops->residual = op_residual_block;
    bops->precond = op_precond_block;
}

void gchol_gpu_ops_table(gchol_gpu_ops_t *g, gchol_refine_ops_t *ops)
{
    ops->ctx = g;
    ops->n = g->n;
    ops->residual = op_residual;
    ops->precond = op_precond;
    ops->matvec = op_matvec;
    ops->orthonormalize = op_orthonormalize;
    ops->scal_copy = op_scal_copy;
    ops->axpy = op_axpy;
    ops->gemv_update = op_gemv_update;
}
