/*
 * potrf_lowp.c -- gchol_spotrf_lowp: the lower Cholesky factor of a
 * single-precision SPD matrix whose trailing updates run on the FP16 or
 * BF16 tensor cores with FP32 sums: the low rungs of the mixed-precision
 * solve (dxposv.c). Blocked right-looking, ordered on the queue's stream
 * (the lookahead splits its work over two streams: lookahead_t):
 *
 *   for each block column k of width nb:
 *       S_kk := chol(S_kk)                 single (gchol_spotrf_expert_gpu)
 *       S_ik := S_ik L_kk^-T               single (cublasStrsm), or, with
 *                                          the plan's inverses, W := L_kk^-1
 *                                          (cublasStrsm on I) and S_ik W^T
 *                                          on the TF32 tensor cores, in
 *                                          single, or on the FP16 / BF16
 *                                          ones (both operands scaled)
 *       P := lowp(scale S_ik)              FP16 / BF16 copy of the panel
 *       S_ij -= P_i P_j^T / scale^2        cublasGemmEx, FP32 sums, block
 *                                          columns down the lower triangle,
 *                                          or the triangle split in halves
 *
 * The diagonal blocks factor asynchronously, each writing its info to a
 * device word: the host waits once, at the end, for all of them (128 host
 * synchronizations at n = 32768, nb = 256, otherwise). After a failed
 * pivot the later steps run on whatever the failed block left; the first
 * failed block gives info, and its failed pivot stays in S.
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

#include <stdlib.h>
#include <string.h>

/* FP16's panel scale (see above) and its square's inverse in the gemms. */
static const float kFp16Scale = 256.0f, kFp16Alpha = -1.0f / 65536.0f;

void gchol_lowp_plan_for(int64_t n, int64_t *nb, int *keep_inverse, int *panel_inverse,
                         int *lookahead, int64_t *update_leaf)
{
    const gchol_tune_t *t = gchol_tune_current();
    *nb = n < t->lowp_nb_large_from ? t->lowp_nb_small : t->lowp_nb_large;
    if (*nb > n) *nb = n;
    if (*nb < 1) *nb = 1;
    *keep_inverse = t->lowp_keep_inverse || t->lowp_panel_inverse;
    *panel_inverse = t->lowp_panel_inverse;
    *lookahead = t->lowp_lookahead;
    *update_leaf = t->lowp_update_leaf;
}

/* W := L_kk^-1 (cublasStrsm on I; the strictly upper part stays 0). */
static int64_t invert_diagonal_block(int64_t kb, const float *Skk, int64_t lds, float *W,
                                     int64_t ldw, cublasHandle_t h, cudaStream_t s)
{
    int64_t st = GCHOL_SUCCESS;
    const float one = 1;
    GCHOL_CUDA(cudaMemset2DAsync(W, (size_t)ldw * 4, 0, (size_t)kb * 4, (size_t)kb, s));
    GCHOL_CUDA((cudaError_t)gchol_s_add_diag_launch(kb, W, ldw, 1.0f, s));
    GCHOL_BLAS(cublasStrsm_64(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                              CUBLAS_DIAG_NON_UNIT, kb, kb, &one, Skk, lds, W, ldw));
done:
    return st;
}

/* The low-precision operands of the panel's product on the FP16 / BF16
 * tensor cores (form 3): S_ik's copy Sh (scaled as P is), W's (scaled into
 * FP16's range: L_kk^-1 grows with S_kk's condition), and the device words
 * of inverse_to_lowp (the product's alpha and beta). */
typedef struct {
    void   *Sh, *Wh;
    int64_t ldsh, ldwh;
    void   *words;
} panel_lowp_t;

/* S_ik := S_ik W^T with W = L_kk^-1, the product (form: 1 on the TF32
 * tensor cores, 2 in single, 3 on the FP16 / BF16 tensor cores with FP32
 * sums) into T, then T back into S_ik beside the low-precision copy P.
 * Form 3 rounds both operands to the factorization's own precision, as
 * TF32 rounds them to 10 bits, and its alpha and beta come from the device
 * (the handle's pointer mode device for that call). */
static int64_t panel_by_inverse(int64_t m, int64_t kb, float *Skk, int64_t lds, const float *W,
                                int64_t ldw, float *T, void *P, int64_t ldp, int bf16, int form,
                                const panel_lowp_t *pl, float scale, cublasHandle_t h,
                                cudaStream_t s)
{
    int64_t st = GCHOL_SUCCESS;
    const float one = 1, zero = 0;
    if (form == 3) {
        const cudaDataType_t t = bf16 ? CUDA_R_16BF : CUDA_R_16F;
        const float *ab = (const float *)pl->words + 1;
        GCHOL_CUDA((cudaError_t)gchol_panel_to_lowp_launch(m, kb, Skk + kb, lds, pl->Sh, pl->ldsh,
                                                           bf16, scale, NULL, 0, s));
        GCHOL_CUDA((cudaError_t)gchol_inverse_to_lowp_launch(kb, W, ldw, pl->Wh, pl->ldwh, bf16,
                                                             scale, pl->words, s));
        GCHOL_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
        const cublasStatus_t b = cublasGemmEx_64(h, CUBLAS_OP_N, CUBLAS_OP_T, m, kb, kb, ab,
                                                 pl->Sh, t, pl->ldsh, pl->Wh, t, pl->ldwh, ab + 1,
                                                 T, CUDA_R_32F, m, CUBLAS_COMPUTE_32F,
                                                 CUBLAS_GEMM_DEFAULT);
        GCHOL_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
        GCHOL_BLAS(b);
    } else {
        GCHOL_BLAS(cublasGemmEx_64(h, CUBLAS_OP_N, CUBLAS_OP_T, m, kb, kb, &one, Skk + kb,
                                   CUDA_R_32F, lds, W, CUDA_R_32F, ldw, &zero, T, CUDA_R_32F, m,
                                   form == 2 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_FAST_TF32,
                                   CUBLAS_GEMM_DEFAULT));
    }
    GCHOL_CUDA((cudaError_t)gchol_panel_to_lowp_launch(m, kb, T, m, P, ldp, bf16, scale, Skk + kb,
                                                       lds, s));
done:
    return st;
}

/* The trailing update of block column k (panel copy P, kb wide) on block
 * columns [j0, j1) of the trailing m x m triangle S22: one gemm per block
 * column, rows from its diagonal down, FP16 / BF16 operands, FP32 sums. */
static int64_t update_columns(cublasHandle_t h, int64_t m, int64_t kb, int64_t nb, int64_t j0,
                              int64_t j1, const void *P, int64_t ldp, cudaDataType_t ptype,
                              float alpha, float *S22, int64_t lds)
{
    int64_t st = GCHOL_SUCCESS;
    const float one = 1;
    for (int64_t j = j0; j < j1; j += nb) {
        const int64_t jb = j1 - j < nb ? j1 - j : nb;
        const char *Pj = (const char *)P + (size_t)j * 2;
        GCHOL_BLAS(cublasGemmEx_64(h, CUBLAS_OP_N, CUBLAS_OP_T, m - j, jb, kb, &alpha, Pj, ptype,
                                   ldp, Pj, ptype, ldp, &one, S22 + j + j * lds, CUDA_R_32F, lds,
                                   CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    }
done:
    return st;
}

/* The same on the lower triangle of S22's block [j0, j0 + size)^2 (j0 on a
 * block column's edge) with the off-diagonal halves one gemm each, split
 * on block columns' edges, recursively, down to squares of at most leaf,
 * which go by block columns: fewer, larger gemms than one per block column,
 * and, as those, nothing written above the diagonal outside the diagonal
 * blocks (make_s zeroes those). */
static int64_t update_triangle(cublasHandle_t h, int64_t j0, int64_t size, int64_t leaf,
                               int64_t kb, int64_t nb, const void *P, int64_t ldp,
                               cudaDataType_t ptype, float alpha, float *S22, int64_t lds)
{
    int64_t st = GCHOL_SUCCESS;
    const float one = 1;
    const char *Pj = (const char *)P + (size_t)j0 * 2;
    const int64_t halves = (size + nb - 1) / nb / 2; /* the first half's block columns */
    if (size <= leaf || halves == 0) {
        /* the square's block columns, each from its diagonal to the square's edge */
        for (int64_t j = 0; j < size; j += nb) {
            const int64_t jb = size - j < nb ? size - j : nb;
            const char *Pc = Pj + (size_t)j * 2;
            GCHOL_BLAS(cublasGemmEx_64(h, CUBLAS_OP_N, CUBLAS_OP_T, size - j, jb, kb, &alpha, Pc,
                                       ptype, ldp, Pc, ptype, ldp, &one,
                                       S22 + (j0 + j) + (j0 + j) * lds, CUDA_R_32F, lds,
                                       CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        }
        return GCHOL_SUCCESS;
    }
    const int64_t s1 = halves * nb, s2 = size - s1;
    GCHOL_TRY(update_triangle(h, j0, s1, leaf, kb, nb, P, ldp, ptype, alpha, S22, lds));
    GCHOL_BLAS(cublasGemmEx_64(h, CUBLAS_OP_N, CUBLAS_OP_T, s2, s1, kb, &alpha,
                               Pj + (size_t)s1 * 2, ptype, ldp, Pj, ptype, ldp, &one,
                               S22 + (j0 + s1) + j0 * lds, CUDA_R_32F, lds, CUBLAS_COMPUTE_32F,
                               CUBLAS_GEMM_DEFAULT));
    GCHOL_TRY(update_triangle(h, j0 + s1, s2, leaf, kb, nb, P, ldp, ptype, alpha, S22, lds));
done:
    return st;
}

/* Block columns [j0, m) of the m x m trailing triangle: one gemm per block
 * column (leaf 0), or the triangle split recursively (leaf > 0). */
static int64_t update_rest(cublasHandle_t h, int64_t m, int64_t kb, int64_t nb, int64_t j0,
                           int64_t leaf, const void *P, int64_t ldp, cudaDataType_t ptype,
                           float alpha, float *S22, int64_t lds)
{
    if (leaf > 0)
        return update_triangle(h, j0, m - j0, leaf, kb, nb, P, ldp, ptype, alpha, S22, lds);
    return update_columns(h, m, kb, nb, j0, m, P, ldp, ptype, alpha, S22, lds);
}

/* Where the factorization's two streams of work run. The chain (each
 * diagonal block, its inverse, the panel, its low-precision copy and the
 * next panel's block column) runs on chain_s with chain_h, the bulk of each
 * trailing update (every other block column) on bulk_s with bulk_h:
 *   0  both on the queue's stream (no lookahead);
 *   1  the chain on the queue's stream, the bulk on a stream of its own
 *      (with the queue's panel handle);
 *   2  the chain on the queue's high-priority panel stream and handle, the
 *      bulk on the queue's stream: the chain's kernels take each SM that
 *      the bulk's blocks leave, instead of waiting behind them.
 * Events: the panel copy is ready (panel); the bulk's first block column,
 * the next step's panel column, is done (col; with two panels at a time
 * also its second, col2); the whole bulk is done (bulk, so that its P may
 * be rewritten), two of each in turn; fork and join order the second
 * stream after and before the queue's. */
typedef struct {
    cudaStream_t   chain_s, bulk_s;
    cudaStream_t   second; /* the one that is not the queue's (mode 1, 2) */
    cudaStream_t   own;    /* mode 1's, the panel handle moved to it      */
    cublasHandle_t chain_h, bulk_h;
    cudaEvent_t    fork, join, panel, col[2], col2[2], bulk[2];
    int            has_col[2], has_col2[2], has_bulk[2];
} lookahead_t;

static int64_t lookahead_open(lookahead_t *la, int mode, gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    memset(la, 0, sizeof *la);
    la->chain_s = la->bulk_s = q->stream;
    la->chain_h = la->bulk_h = q->blas;
    if (mode == 0) return GCHOL_SUCCESS;
    cudaEvent_t *ev[9] = { &la->fork, &la->join, &la->panel, &la->col[0], &la->col[1],
                           &la->col2[0], &la->col2[1], &la->bulk[0], &la->bulk[1] };
    for (int i = 0; i < 9; ++i) GCHOL_CUDA(cudaEventCreateWithFlags(ev[i], cudaEventDisableTiming));
    if (mode == 2) {
        la->chain_s = la->second = q->panel_stream;
        la->chain_h = q->panel_blas;
        /* the handle on the stream its chain's kernels run on */
        GCHOL_BLAS(cublasSetStream(la->chain_h, la->chain_s));
    } else {
        GCHOL_CUDA(cudaStreamCreateWithFlags(&la->own, cudaStreamNonBlocking));
        la->bulk_s = la->second = la->own;
        la->bulk_h = q->panel_blas;
        GCHOL_BLAS(cublasSetStream(la->bulk_h, la->own));
    }
    /* the second stream starts after what the queue's stream holds: S, the
     * stream-ordered buffers, the cleared info words */
    GCHOL_CUDA(cudaEventRecord(la->fork, q->stream));
    GCHOL_CUDA(cudaStreamWaitEvent(la->second, la->fork, 0));
done:
    return st;
}

/* The queue's stream waits for everything on the second stream; then the
 * second stream's resources go (the panel handle back on the panel
 * stream). */
static int64_t lookahead_close(lookahead_t *la, gchol_queue_t q, int64_t st)
{
    cudaError_t e = cudaSuccess;
    if (la->second) { /* else nothing ran beside the queue's stream */
        if (la->join) {
            e = cudaEventRecord(la->join, la->second);
            if (e == cudaSuccess) e = cudaStreamWaitEvent(q->stream, la->join, 0);
        }
        /* no event to order by: the second stream's work must end here */
        if (!la->join || e != cudaSuccess) {
            const cudaError_t e2 = cudaStreamSynchronize(la->second);
            if (e == cudaSuccess) e = e2;
        }
    }
    /* the panel handle back on the panel stream; if it cannot be, its
     * stream must outlive it: kept */
    int keep_own = 0;
    if (la->own && cublasSetStream(q->panel_blas, q->panel_stream) != CUBLAS_STATUS_SUCCESS) {
        keep_own = 1;
        if (st == GCHOL_SUCCESS) st = GCHOL_ERR_CUBLAS;
    }
    cudaEvent_t ev[9] = { la->fork, la->join, la->panel, la->col[0], la->col[1], la->col2[0],
                          la->col2[1], la->bulk[0], la->bulk[1] };
    for (int i = 0; i < 9; ++i)
        if (ev[i]) (void)cudaEventDestroy(ev[i]);
    if (la->own && !keep_own) (void)cudaStreamDestroy(la->own);
    memset(la, 0, sizeof *la);
    if (e != cudaSuccess && st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
    return st;
}

/* What the chain of one block column needs. */
typedef struct {
    float              *dS;
    int64_t             lds, nb;
    int                 bf16;
    float               scale;
    int                 panel_inverse;
    float              *inv, *T;
    const panel_lowp_t *pl;
    int64_t            *dinfo;
    float              *tile_work; /* NULL: the diagonal blocks by gchol_spotrf_async */
    const gchol_options_t *diag;   /* its options */
    cublasHandle_t      h;
    cudaStream_t        s;
    gchol_queue_t       q;
} chain_t;

/* Block column k's chain: its diagonal block (the tiled kernel with the
 * lookahead, else gchol_spotrf_async; info into dinfo[k / nb]), inverse,
 * panel and the panel's low-precision copy at Pk (ld ldp), that after
 * `reuse` (unless NULL: Pk's earlier reader); the panel only when m > 0. */
static int64_t chain_column(const chain_t *c, int64_t k, int64_t kb, int64_t m, void *Pk,
                            int64_t ldp, cudaEvent_t reuse)
{
    int64_t st = GCHOL_SUCCESS;
    const float one = 1;
    float *Skk = c->dS + k + k * c->lds;
    if (c->tile_work)
        GCHOL_CUDA((cudaError_t)gchol_spotrf_tiled_launch(kb, kb, Skk, c->lds, 0, 0,
                                                          c->dinfo + k / c->nb, c->q->dtile_sync,
                                                          c->tile_work, &c->q->tune->kernel,
                                                          c->s));
    else
        GCHOL_TRY(gchol_spotrf_async('L', kb, Skk, c->lds, c->dinfo + k / c->nb, c->diag, c->q));
    if (c->inv)
        GCHOL_TRY(invert_diagonal_block(kb, Skk, c->lds, c->inv + k * c->nb, c->nb, c->h, c->s));
    if (m == 0) return GCHOL_SUCCESS;
    if (reuse) GCHOL_CUDA(cudaStreamWaitEvent(c->s, reuse, 0));
    if (c->inv && c->panel_inverse) {
        GCHOL_TRY(panel_by_inverse(m, kb, Skk, c->lds, c->inv + k * c->nb, c->nb, c->T, Pk, ldp,
                                   c->bf16, c->panel_inverse, c->pl, c->scale, c->h, c->s));
    } else {
        GCHOL_BLAS(cublasStrsm_64(c->h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                                  CUBLAS_DIAG_NON_UNIT, m, kb, &one, Skk, c->lds, Skk + kb,
                                  c->lds));
        GCHOL_CUDA((cudaError_t)gchol_panel_to_lowp_launch(m, kb, Skk + kb, c->lds, Pk, ldp,
                                                           c->bf16, c->scale, NULL, 0, c->s));
    }
done:
    return st;
}

/* The lookahead two panels at a time: block columns in pairs (a, b = a + 1).
 * The chain factors a, puts its panel's copy P_a in the left half of Q =
 * P[p % 2] (row 0 = block a + 1's first row) and updates block columns
 * a + 1 and a + 2 with it; then factors b, puts P_b in Q's right half from
 * row nb (the same rows as P_a's) and updates block column a + 2 with it.
 * The bulk stream updates every block column from a + 3 on with both at
 * once, Q's rows from nb down, so that its gemms' inner dimension is 2 nb
 * (half the FP32 reads and writes of the trailing matrix a panel); its
 * first two block columns, the next pair's chain's, first, each with an
 * event (col, col2); the whole (bulk) before Q is rewritten two pairs on.
 * Any block column's updates run on one stream at a time, and the bulk
 * stream's order covers every earlier pair's. */
static int64_t factor_pairs(const chain_t *c, int64_t n, int64_t ldp, void *const P[2],
                            cudaDataType_t ptype, float alpha, lookahead_t *la)
{
    int64_t st = GCHOL_SUCCESS;
    const int64_t nb = c->nb, lds = c->lds;
    for (int64_t a = 0, p = 0; a < n; a += 2 * nb, ++p) {
        const int i = (int)(p % 2);
        char *Q = (char *)P[i];
        const int64_t kba = n - a < nb ? n - a : nb, ma = n - a - kba;
        /* Q, two pairs back, is read by that pair's bulk until it is done */
        GCHOL_TRY(chain_column(c, a, kba, ma, Q, ldp, la->has_bulk[i] ? la->bulk[i] : NULL));
        if (ma == 0) break;
        /* block columns a + 1 and a + 2: the previous pair's bulk's first two */
        if (la->has_col[1 - i]) GCHOL_CUDA(cudaStreamWaitEvent(c->s, la->col[1 - i], 0));
        if (la->has_col2[1 - i]) GCHOL_CUDA(cudaStreamWaitEvent(c->s, la->col2[1 - i], 0));
        float *S22a = c->dS + (a + kba) + (a + kba) * lds;
        GCHOL_TRY(update_columns(c->h, ma, kba, nb, 0, ma < 2 * nb ? ma : 2 * nb, Q, ldp, ptype,
                                 alpha, S22a, lds));
        const int64_t b = a + kba, kbb = n - b < nb ? n - b : nb, mb = n - b - kbb;
        char *Qb = Q + (size_t)(nb + nb * ldp) * 2; /* P_b: the right half, from row nb */
        GCHOL_TRY(chain_column(c, b, kbb, mb, Qb, ldp, NULL));
        la->has_col[i] = la->has_col2[i] = la->has_bulk[i] = 0;
        if (mb == 0) break;
        /* the bulk (block columns a + 3 on) starts beside the chain's a + 2 */
        if (mb > nb) {
            GCHOL_CUDA(cudaEventRecord(la->panel, c->s));
            GCHOL_CUDA(cudaStreamWaitEvent(la->bulk_s, la->panel, 0));
        }
        float *S22b = c->dS + (b + kbb) + (b + kbb) * lds;
        GCHOL_TRY(update_columns(c->h, mb, kbb, nb, 0, mb < nb ? mb : nb, Qb, ldp, ptype, alpha,
                                 S22b, lds));
        if (mb <= nb) continue; /* no block column from a + 3 on */
        const char *Qw = Q + (size_t)nb * 2; /* [P_a P_b] from block column a + 2's rows */
        const int64_t j1 = mb < 2 * nb ? mb : 2 * nb, j2 = mb < 3 * nb ? mb : 3 * nb;
        GCHOL_TRY(update_columns(la->bulk_h, mb, kba + kbb, nb, nb, j1, Qw, ldp, ptype, alpha,
                                 S22b, lds));
        GCHOL_CUDA(cudaEventRecord(la->col[i], la->bulk_s));
        la->has_col[i] = 1;
        if (j1 < mb) {
            GCHOL_TRY(update_columns(la->bulk_h, mb, kba + kbb, nb, j1, j2, Qw, ldp, ptype,
                                     alpha, S22b, lds));
            GCHOL_CUDA(cudaEventRecord(la->col2[i], la->bulk_s));
            la->has_col2[i] = 1;
        }
        if (j2 < mb)
            GCHOL_TRY(update_columns(la->bulk_h, mb, kba + kbb, nb, j2, mb, Qw, ldp, ptype,
                                     alpha, S22b, lds));
        GCHOL_CUDA(cudaEventRecord(la->bulk[i], la->bulk_s));
        la->has_bulk[i] = 1;
    }
done:
    return st;
}

int64_t gchol_spotrf_lowp(int64_t n, float *dS, int64_t lds, int bf16,
                          const gchol_lowp_plan_t *plan, int64_t *info, gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    void *P[2] = { NULL, NULL };
    float *T = NULL;
    panel_lowp_t pl = { NULL, NULL, 0, 0, NULL };
    int64_t *dinfo = NULL, *hinfo = NULL; /* one word per diagonal block */
    lookahead_t la;
    const float scale = bf16 ? 1.0f : kFp16Scale, alpha = bf16 ? -1.0f : kFp16Alpha;
    const cudaDataType_t ptype = bf16 ? CUDA_R_16BF : CUDA_R_16F;
    cudaStream_t s = q->stream;
    *info = 0;
    memset(&la, 0, sizeof la);
    if (n <= 0) return GCHOL_SUCCESS;
    int64_t nb = plan->nb > 0 ? plan->nb : 1;
    if (nb > n) nb = n;
    float *inv = plan->inv;
    /* the lookahead needs the diagonal blocks on the tiled kernel */
    const int by_inverse = inv && plan->panel_inverse;
    const int ahead = plan->lookahead && n > 2 * nb && nb <= GCHOL_TILED_MAX_N;
    const int pairs = ahead && plan->lookahead == 3; /* P[i] then holds [P_a P_b] */
    const int64_t ldp = (n + 7) / 8 * 8; /* 16-byte columns for the tensor-core gemms */
    const int64_t nblocks = (n + nb - 1) / nb;
    hinfo = (int64_t *)malloc((size_t)nblocks * sizeof(int64_t));
    if (!hinfo) return GCHOL_ERR_HOST_ALLOC;
    GCHOL_CUDA(gchol_queue_malloc(q, (void **)&dinfo, (size_t)nblocks * sizeof(int64_t)));
    for (int i = 0; i < (ahead ? 2 : 1); ++i)
        GCHOL_CUDA(gchol_queue_malloc(q, &P[i], (size_t)(ldp * nb * (pairs ? 2 : 1)) * 2));
    if (by_inverse && n > nb)
        GCHOL_CUDA(gchol_queue_malloc(q, (void **)&T, (size_t)((n - nb) * nb) * 4));
    if (by_inverse && plan->panel_inverse == 3 && n > nb) {
        pl.ldsh = (n - nb + 7) / 8 * 8; /* 16-byte columns, as P's */
        pl.ldwh = (nb + 7) / 8 * 8;
        GCHOL_CUDA(gchol_queue_malloc(q, &pl.Sh, (size_t)(pl.ldsh * nb) * 2));
        GCHOL_CUDA(gchol_queue_malloc(q, &pl.Wh, (size_t)(pl.ldwh * nb) * 2));
        GCHOL_CUDA(gchol_queue_malloc(q, &pl.words, 3 * sizeof(float)));
        /* the product's beta (0) is a device word: T holds numbers beforehand */
        GCHOL_CUDA(cudaMemsetAsync(T, 0, (size_t)((n - nb) * nb) * 4, s));
    }
    /* every block's info word cleared at once: with the lookahead the
     * tiled kernel factors the diagonal blocks, launched here */
    GCHOL_CUDA(cudaMemsetAsync(dinfo, 0, (size_t)nblocks * sizeof(int64_t), s));
    gchol_options_t diag;
    gchol_options_default(&diag);
    GCHOL_TRY(lookahead_open(&la, ahead ? (plan->lookahead == 2 ? 2 : 1) : 0, q));
    const cudaStream_t cs = la.chain_s, bs = la.bulk_s;
    const cublasHandle_t ch = la.chain_h, bh = la.bulk_h;
    /* the tiled kernel's inverses in the scratch of the stream it runs on
     * (with the lookahead) */
    float *tile_work = ahead ? (float *)q->dscratch[cs == q->stream ? 0 : 1] : NULL;
    const chain_t c = { dS, lds, nb, bf16, scale, plan->panel_inverse, inv, T, &pl, dinfo,
                        tile_work, &diag, ch, cs, q };
    if (pairs) GCHOL_TRY(factor_pairs(&c, n, ldp, P, ptype, alpha, &la));
    for (int64_t k = 0, b = 0; k < (pairs ? 0 : n); k += nb, ++b) {
        const int64_t kb = n - k < nb ? n - k : nb, m = n - k - kb;
        const int i = ahead ? (int)(b % 2) : 0;
        /* P[i] is the bulk's of two steps ago: rewritten once it is done */
        GCHOL_TRY(chain_column(&c, k, kb, m, P[i], ldp,
                               ahead && la.has_bulk[i] ? la.bulk[i] : NULL));
        if (m == 0) break;
        float *S22 = dS + (k + kb) + (k + kb) * lds;
        if (!ahead) {
            GCHOL_TRY(update_rest(ch, m, kb, nb, 0, plan->update_leaf, P[i], ldp, ptype, alpha,
                                  S22, lds));
            continue;
        }
        /* the next panel's block column on the chain, after the previous
         * bulk's update of it; the rest on the bulk's stream */
        const int64_t first = m < nb ? m : nb;
        GCHOL_CUDA(cudaEventRecord(la.panel, cs));
        if (la.has_col[1 - i]) GCHOL_CUDA(cudaStreamWaitEvent(cs, la.col[1 - i], 0));
        GCHOL_TRY(update_columns(ch, m, kb, nb, 0, first, P[i], ldp, ptype, alpha, S22, lds));
        la.has_col[i] = la.has_bulk[i] = 0;
        if (m > first) {
            const int64_t second = m - first < nb ? m : first + nb;
            GCHOL_CUDA(cudaStreamWaitEvent(bs, la.panel, 0));
            GCHOL_TRY(update_columns(bh, m, kb, nb, first, second, P[i], ldp, ptype, alpha, S22,
                                     lds));
            GCHOL_CUDA(cudaEventRecord(la.col[i], bs));
            GCHOL_TRY(update_rest(bh, m, kb, nb, second, plan->update_leaf, P[i], ldp, ptype,
                                  alpha, S22, lds));
            GCHOL_CUDA(cudaEventRecord(la.bulk[i], bs));
            la.has_col[i] = la.has_bulk[i] = 1;
        }
    }
    /* the one wait: every block's info (the second stream joins first) */
    st = lookahead_close(&la, q, st);
    if (st != GCHOL_SUCCESS) goto done;
    GCHOL_CUDA(cudaMemcpyAsync(hinfo, dinfo, (size_t)nblocks * sizeof(int64_t),
                               cudaMemcpyDeviceToHost, s));
    GCHOL_CUDA(cudaStreamSynchronize(s));
    for (int64_t b = 0; b < nblocks; ++b)
        if (hinfo[b] > 0) {
            *info = b * nb + hinfo[b];
            break;
        }
done:
    st = lookahead_close(&la, q, st); /* after a failure above; else a no-op */
    void *bufs[4] = { T, pl.Sh, pl.Wh, pl.words };
    for (int i = 0; i < 4; ++i)
        if (bufs[i]) {
            const cudaError_t e = cudaFreeAsync(bufs[i], s);
            if (e != cudaSuccess && st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
        }
    for (int i = 0; i < 2; ++i)
        if (P[i]) {
            const cudaError_t e = cudaFreeAsync(P[i], s);
            if (e != cudaSuccess && st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
        }
    if (dinfo) {
        const cudaError_t e = cudaFreeAsync(dinfo, s);
        if (e != cudaSuccess && st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
    }
    free(hinfo);
    return st;
}
