/*
 * potrf_lowp.c -- gchol_spotrf_lowp: the lower Cholesky factor of a
 * single-precision SPD matrix whose trailing updates run on the FP16 or
 * BF16 tensor cores with FP32 sums: the low rungs of the mixed-precision
 * solve (dxposv.c). Blocked right-looking, on the queue's stream:
 *
 *   for each block column k of width nb:
 *       S_kk := chol(S_kk)                 single (gchol_spotrf_expert_gpu)
 *       S_ik := S_ik L_kk^-T               single (cublasStrsm), or, with
 *                                          the plan's inverses, W := L_kk^-1
 *                                          (cublasStrsm on I) and S_ik W^T
 *                                          on the TF32 tensor cores
 *       P := lowp(scale S_ik)              FP16 / BF16 copy of the panel
 *       S_ij -= P_i P_j^T / scale^2        cublasGemmEx, FP32 sums, block
 *                                          columns down the lower triangle
 *
 * The matrix is the unit-diagonal S = D A D (dxposv.c), so every entry of L
 * has |l_ij| <= 1: FP16's panel is scaled by 2^8 to keep small entries out
 * of its subnormal range, its products (<= 2^16) stay in FP32's. The update
 * gemms also write the strictly upper part of each diagonal block: S is the
 * solver's own working copy, whose upper triangle it never reads. The TF32
 * panel rounds its operands to 10 bits, as the FP16 copy of its result
 * does anyway.
 */
#include "potrf_lowp.h"

#include "queue.h"
#include "status.h"
#include "tune/tune.h"

#include "../kernels/gchol_kernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

/* FP16's panel scale (see above) and its square's inverse in the gemms. */
static const float kFp16Scale = 256.0f, kFp16Alpha = -1.0f / 65536.0f;

void gchol_lowp_plan_for(int64_t n, int64_t *nb, int *keep_inverse, int *panel_inverse)
{
    const gchol_tune_t *t = gchol_tune_current();
    *nb = n < t->lowp_nb_large_from ? t->lowp_nb_small : t->lowp_nb_large;
    if (*nb > n) *nb = n;
    if (*nb < 1) *nb = 1;
    *keep_inverse = t->lowp_keep_inverse || t->lowp_panel_inverse;
    *panel_inverse = t->lowp_panel_inverse;
}

/* W := L_kk^-1 (cublasStrsm on I; the strictly upper part stays 0). */
static int64_t invert_diagonal_block(int64_t kb, const float *Skk, int64_t lds, float *W,
                                     int64_t ldw, gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    const float one = 1;
    cudaStream_t s = q->stream;
    GCHOL_CUDA(cudaMemset2DAsync(W, (size_t)ldw * 4, 0, (size_t)kb * 4, (size_t)kb, s));
    GCHOL_CUDA((cudaError_t)gchol_s_add_diag_launch(kb, W, ldw, 1.0f, s));
    GCHOL_BLAS(cublasStrsm_64(q->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                              CUBLAS_DIAG_NON_UNIT, kb, kb, &one, Skk, lds, W, ldw));
done:
    return st;
}

/* S_ik := S_ik W^T with W = L_kk^-1, the product on the TF32 tensor cores
 * into T, then T back into S_ik beside the low-precision copy P. */
static int64_t panel_by_inverse(int64_t m, int64_t kb, float *Skk, int64_t lds, const float *W,
                                int64_t ldw, float *T, void *P, int64_t ldp, int bf16,
                                float scale, gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    const float one = 1, zero = 0;
    cudaStream_t s = q->stream;
    GCHOL_BLAS(cublasGemmEx_64(q->blas, CUBLAS_OP_N, CUBLAS_OP_T, m, kb, kb, &one, Skk + kb,
                               CUDA_R_32F, lds, W, CUDA_R_32F, ldw, &zero, T, CUDA_R_32F, m,
                               CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
    GCHOL_CUDA((cudaError_t)gchol_panel_to_lowp_launch(m, kb, T, m, P, ldp, bf16, scale, Skk + kb,
                                                       lds, s));
done:
    return st;
}

int64_t gchol_spotrf_lowp(int64_t n, float *dS, int64_t lds, int bf16,
                          const gchol_lowp_plan_t *plan, int64_t *info, gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    void *P = NULL;
    float *T = NULL;
    const float one = 1;
    const float scale = bf16 ? 1.0f : kFp16Scale, alpha = bf16 ? -1.0f : kFp16Alpha;
    const cudaDataType_t ptype = bf16 ? CUDA_R_16BF : CUDA_R_16F;
    cudaStream_t s = q->stream;
    *info = 0;
    if (n <= 0) return GCHOL_SUCCESS;
    int64_t nb = plan->nb > 0 ? plan->nb : 1;
    if (nb > n) nb = n;
    float *inv = plan->inv;
    const int by_inverse = inv && plan->panel_inverse;
    const int64_t ldp = (n + 7) / 8 * 8; /* 16-byte columns for the tensor-core gemms */
    GCHOL_CUDA(gchol_malloc_async(&P, (size_t)(ldp * nb) * 2, s));
    if (by_inverse && n > nb)
        GCHOL_CUDA(gchol_malloc_async((void **)&T, (size_t)((n - nb) * nb) * 4, s));
    for (int64_t k = 0; k < n; k += nb) {
        const int64_t kb = n - k < nb ? n - k : nb, m = n - k - kb;
        float *Skk = dS + k + k * lds;
        int64_t binfo = 0;
        st = gchol_spotrf_expert_gpu('L', kb, Skk, lds, &binfo, NULL, q);
        if (st < 0) goto done;
        st = GCHOL_SUCCESS;
        if (binfo > 0) { *info = k + binfo; goto done; }
        if (inv) GCHOL_TRY(invert_diagonal_block(kb, Skk, lds, inv + k * nb, nb, q));
        if (by_inverse) {
            if (m > 0)
                GCHOL_TRY(panel_by_inverse(m, kb, Skk, lds, inv + k * nb, nb, T, P, ldp, bf16,
                                           scale, q));
        } else if (m > 0) {
            GCHOL_BLAS(cublasStrsm_64(q->blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER,
                                      CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, m, kb, &one, Skk, lds,
                                      Skk + kb, lds));
            GCHOL_CUDA((cudaError_t)gchol_panel_to_lowp_launch(m, kb, Skk + kb, lds, P, ldp, bf16,
                                                               scale, NULL, 0, s));
        }
        if (m == 0) break;
        /* the trailing lower triangle in block columns j .. j + jb */
        float *S22 = dS + (k + kb) + (k + kb) * lds;
        for (int64_t j = 0; j < m; j += nb) {
            const int64_t jb = m - j < nb ? m - j : nb;
            const char *Pj = (const char *)P + (size_t)j * 2;
            GCHOL_BLAS(cublasGemmEx_64(q->blas, CUBLAS_OP_N, CUBLAS_OP_T, m - j, jb, kb, &alpha, Pj,
                                       ptype, ldp, Pj, ptype, ldp, &one, S22 + j + j * lds,
                                       CUDA_R_32F, lds, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        }
    }
done:
    if (T) {
        const cudaError_t e = cudaFreeAsync(T, s);
        if (e != cudaSuccess && st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
    }
    if (P) {
        const cudaError_t e = cudaFreeAsync(P, s);
        if (e != cudaSuccess && st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
    }
    return st;
}
