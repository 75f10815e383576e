/*
 * potrf_view.c -- the blocked driver's operations on the lower view of its
 * matrix (potrf_driver.h): gemm, syrk, trsm, the diagonal block's
 * factorization, the bulk update and the panel, each cut where the view's
 * RFP blocks make a rectangle cross into a block not laid out as its
 * continuation; and the triangle swaps of 'U' by swapping.
 * Precision-generic (see prec.h).
 */
#include "prec.h"
#include "potrf_driver.h"

#include "blas_ext.h"
#include "queue.h"
#include "status.h"
#include "tune/tune.h"

#include "../kernels/gchol_kernels.h"

static const FLOAT one = 1, minus_one = -1;

/* view(i0:i0+nn, i0:i0+nn) -= P P^T over the referenced triangle,
 * P = view(i0:i0+nn, j0:j0+k). */
static int64_t syrk_leaf(const fact_t *f, int s, int64_t i0, int64_t nn, int64_t j0, int64_t k)
{
    const int64_t k1 = cols_first(f, j0, k);
    if (k1 < k) {
        int64_t st = syrk_leaf(f, s, i0, nn, j0, k1);
        return st != GCHOL_SUCCESS ? st : syrk_leaf(f, s, i0, nn, j0 + k1, k - k1);
    }
    const int tC = tr(f, i0, i0), tP = tr(f, i0, j0);
    const cublasOperation_t opP = tP ? CUBLAS_OP_T : CUBLAS_OP_N, opPt = tP ? CUBLAS_OP_N : CUBLAS_OP_T;
    cublasStatus_t r;
    if (GCHOL_PTUNE(f->q)->syrk_via_gemm) {
        /* W = P P^T on the full square in scratch, then C -= W on the
         * triangle: P P^T is symmetric, so stored and view W agree. */
        FLOAT *W = f->q->dscratch[s];
        static const FLOAT zero = 0;
        r = BLAS_GEMM(blas_of(f, s), opP, opPt, nn, nn, k, &one, at(f, i0, j0), f->ld,
                      at(f, i0, j0), f->ld, &zero, W, nn);
        if (r != CUBLAS_STATUS_SUCCESS) return gchol_from_cublas(r);
        return gchol_from_cuda((cudaError_t)TRI_SUB_LAUNCH(nn, W, nn, at(f, i0, i0), f->ld, tC,
                                                           stream_of(f, s)));
    }
    r = BLAS_SYRK(blas_of(f, s), tC ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER, opP, nn, k,
                  &minus_one, at(f, i0, j0), f->ld, &one, at(f, i0, i0), f->ld);
    return gchol_from_cublas(r);
}

/* gchol_dpotrf_op_gemm, gchol_spotrf_op_gemm:
 * view(i0:i0+m, c0:c0+nn) -= view(i0:i0+m, j0:j0+k) * view(c0:c0+nn, j0:j0+k)^T.
 * Each operand's flag follows how its block is stored; a transposed C is
 * updated as C^T -= B^T A. */
int64_t PFX(potrf_op_gemm)(const fact_t *f, int s, int64_t i0, int64_t c0, int64_t m, int64_t nn,
                           int64_t j0, int64_t k)
{
    int64_t st;
    const int64_t m1 = rows_first(f, i0, m, c0), k1 = cols_first(f, j0, k);
    if (m1 < m) {
        if ((st = PFX(potrf_op_gemm)(f, s, i0, c0, m1, nn, j0, k)) != GCHOL_SUCCESS) return st;
        return PFX(potrf_op_gemm)(f, s, i0 + m1, c0, m - m1, nn, j0, k);
    }
    if (k1 < k) {
        if ((st = PFX(potrf_op_gemm)(f, s, i0, c0, m, nn, j0, k1)) != GCHOL_SUCCESS) return st;
        return PFX(potrf_op_gemm)(f, s, i0, c0, m, nn, j0 + k1, k - k1);
    }
    const int tC = tr(f, i0, c0), tA = tr(f, i0, j0), tB = tr(f, c0, j0);
    /* tall updates in pieces (the tuning table's gemm_upper_chunk / _lower_chunk) */
    const gchol_prec_tune_t *pt = GCHOL_PTUNE(f->q);
    const int64_t chunk = tC ? pt->gemm_upper_chunk : pt->gemm_lower_chunk;
    if (chunk > 0 && m > chunk) {
        for (int64_t i = 0; i < m; i += chunk) {
            const int64_t mc = m - i < chunk ? m - i : chunk;
            if ((st = PFX(potrf_op_gemm)(f, s, i0 + i, c0, mc, nn, j0, k)) != GCHOL_SUCCESS)
                return st;
        }
        return GCHOL_SUCCESS;
    }
    const FLOAT *A = at(f, i0, j0), *B = at(f, c0, j0);
    FLOAT *C = at(f, i0, c0);
    /* C -= X op(Y): X = A, Y = B^T; or, C stored transposed, C^T -= B^T A */
    const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;
    const cublasOperation_t op_x = tC ? (tB ? T : N) : (tA ? T : N);
    const cublasOperation_t op_y = tC ? (tA ? N : T) : (tB ? N : T);
    const int64_t rows = tC ? nn : m, cols = tC ? m : nn;
    const FLOAT *X = tC ? B : A, *Y = tC ? A : B;
    /* a large matrix (its order, or ld: RFP 'T''s blocks have ld n / 2),
     * any operand layout; aligned columns (not RFP 'N''s odd ld) */
    if ((f->ld >= pt->gemm_wide_tile_ld || f->order >= pt->gemm_wide_tile_ld) &&
        k >= pt->gemm_wide_tile_k &&
        (f->ld * sizeof(FLOAT)) % 16 == 0 &&
        ((uintptr_t)A | (uintptr_t)B | (uintptr_t)C) % 16 == 0) {
        int done = 0;
        st = PFX(gemm_lt_wide)(f->q->lt, stream_of(f, s), op_x, op_y, rows, cols, k, minus_one, X,
                               f->ld, Y, f->ld, one, C, f->ld, &done);
        if (st != GCHOL_SUCCESS || done) return st;
    }
    cublasStatus_t r = BLAS_GEMM(blas_of(f, s), op_x, op_y, rows, cols, k, &minus_one, X, f->ld, Y,
                                 f->ld, &one, C, f->ld);
    return gchol_from_cublas(r);
}

/* Below these sizes gchol's tile trsm kernel and syrk_leaf run; above, the
 * recursive forms below move most of the flops into gemm, which runs near
 * peak where trsm and syrk do not (on the H100, cuBLAS trsm m x 512 runs at
 * about an eighth of gemm's rate). */
enum { kTrsmLeaf = GCHOL_TRSM_MAX_K, kSyrkLeaf = GCHOL_SCRATCH_N };
_Static_assert((long long)GCHOL_TILED_WORK_ELEMS * sizeof(double) <=
                   (long long)GCHOL_SCRATCH_N * GCHOL_SCRATCH_N * sizeof(double),
               "a stream's scratch holds the tiled kernel's workspace");

/* gchol_dpotrf_op_trsm, gchol_spotrf_op_trsm:
 * B := B * L11^{-T}, B = view(i0:i0+m, j0:j0+k), L11 = view(j0:j0+k, j0:j0+k).
 * Split L11 = [La 0; Lb Lc]: Xa = Ba La^{-T}; Bc -= Xa Lb^T; Xc = Bc Lc^{-T}. */
int64_t PFX(potrf_op_trsm)(const fact_t *f, int s, int64_t i0, int64_t j0, int64_t m, int64_t k)
{
    int64_t st;
    const int64_t m1 = rows_first(f, i0, m, j0);
    if (m1 < m) {
        if ((st = PFX(potrf_op_trsm)(f, s, i0, j0, m1, k)) != GCHOL_SUCCESS) return st;
        return PFX(potrf_op_trsm)(f, s, i0 + m1, j0, m - m1, k);
    }
    if (k <= kTrsmLeaf) {
        const int tL = tr(f, j0, j0), tB = tr(f, i0, j0);
        if (tL == tB)
            return gchol_from_cuda((cudaError_t)TRSM_LEAF_LAUNCH(
                m, k, at(f, j0, j0), f->ld, tL, at(f, i0, j0), f->ld, tL, stream_of(f, s)));
        /* L and B stored differently (a block view): B L^{-T} by cuBLAS,
         * or its transpose L^{-1} B^T */
        const cublasFillMode_t fill = tL ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        return gchol_from_cublas(
            tB ? BLAS_TRSM(blas_of(f, s), CUBLAS_SIDE_LEFT, fill, tL ? CUBLAS_OP_T : CUBLAS_OP_N,
                           CUBLAS_DIAG_NON_UNIT, k, m, &one, at(f, j0, j0), f->ld, at(f, i0, j0),
                           f->ld)
               : BLAS_TRSM(blas_of(f, s), CUBLAS_SIDE_RIGHT, fill, tL ? CUBLAS_OP_N : CUBLAS_OP_T,
                           CUBLAS_DIAG_NON_UNIT, m, k, &one, at(f, j0, j0), f->ld, at(f, i0, j0),
                           f->ld));
    }
    const int64_t k1 = ((k / 2 + kTrsmLeaf - 1) / kTrsmLeaf) * kTrsmLeaf, k2 = k - k1;
    if ((st = PFX(potrf_op_trsm)(f, s, i0, j0, m, k1)) != GCHOL_SUCCESS) return st;
    if ((st = PFX(potrf_op_gemm)(f, s, i0, j0 + k1, m, k2, j0, k1)) != GCHOL_SUCCESS) return st;
    return PFX(potrf_op_trsm)(f, s, i0, j0 + k1, m, k2);
}

/* gchol_dpotrf_op_syrk, gchol_spotrf_op_syrk:
 * view(i0:i0+nn, i0:i0+nn) -= P P^T, P = view(i0:i0+nn, j0:j0+k): the two
 * diagonal halves recursively, the off-diagonal block by one gemm. */
int64_t PFX(potrf_op_syrk)(const fact_t *f, int s, int64_t i0, int64_t nn, int64_t j0, int64_t k)
{
    if (nn <= kSyrkLeaf) return syrk_leaf(f, s, i0, nn, j0, k);
    const int64_t n1 = ((nn / 2 + 255) / 256) * 256, n2 = nn - n1;
    int64_t st;
    if ((st = PFX(potrf_op_syrk)(f, s, i0, n1, j0, k)) != GCHOL_SUCCESS) return st;
    if ((st = PFX(potrf_op_gemm)(f, s, i0 + n1, i0, n2, n1, j0, k)) != GCHOL_SUCCESS) return st;
    return PFX(potrf_op_syrk)(f, s, i0 + n1, n2, j0, k);
}

/* gchol_dpotrf_op_diag, gchol_spotrf_op_diag: recursive factorization of the
 * diagonal block view(j0:j0+nn, j0:j0+nn): halves until recnb, where the
 * fused potf2 kernel takes over. Split points are multiples of 32 so the
 * leaves stay aligned. */
int64_t PFX(potrf_op_diag)(const fact_t *f, int s, int64_t j0, int64_t nn)
{
    if (nn <= f->recnb)
        return gchol_from_cuda((cudaError_t)POTF2_LAUNCH(nn, at(f, j0, j0), f->ld, tr(f, j0, j0),
                                                         j0, f->dinfo, stream_of(f, s)));
    int64_t n1 = ((nn / 2 + 31) / 32) * 32;
    if (n1 >= nn) n1 = nn / 2;
    const int64_t n2 = nn - n1;
    int64_t st;
    if ((st = PFX(potrf_op_diag)(f, s, j0, n1)) != GCHOL_SUCCESS) return st;
    if ((st = PFX(potrf_op_trsm)(f, s, j0 + n1, j0, n2, n1)) != GCHOL_SUCCESS) return st;
    if ((st = PFX(potrf_op_syrk)(f, s, j0 + n1, n2, j0, n1)) != GCHOL_SUCCESS) return st;
    return PFX(potrf_op_diag)(f, s, j0 + n1, n2);
}

/*
 * gchol_dpotrf_op_update, gchol_spotrf_op_update: the bulk update of block
 * column [i0, i0+nn) from view columns [j0, j0+k): syrk on its diagonal
 * block and gemm on the m rows below it. In single precision one launch of
 * gchol's 3xTF32 syrk kernel does both where the tuning table says so
 * (tf32_syrk_update) and its tiles fill the last wave enough (at one block
 * per SM: tf32_update_min_fill_pct; the last block columns, with few rows,
 * stay on cuBLAS). The kernel takes A and C each as stored or
 * transposed, so it also runs across the blocks of an RFP array (pftrf):
 * one launch per block that the columns [j0, j0+k) lie in, provided C's and
 * A's rows each lie in one strided block.
 */
int64_t PFX(potrf_op_update)(const fact_t *f, int s, int64_t i0, int64_t nn, int64_t m,
                             int64_t j0, int64_t k)
{
    int64_t st;
#ifdef SYRK_UPDATE_LAUNCH
    const gchol_prec_tune_t *pt = GCHOL_PTUNE(f->q);
    if (k > 0 && pt->tf32_syrk_update && rows_first(f, i0, nn + m, i0) == nn + m &&
        rows_first(f, i0, nn + m, j0) == nn + m) {
        int sms = 0;
        const int64_t tiles = gchol_syrk_update_tiles(nn + m, nn);
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, f->q->device) != cudaSuccess)
            return GCHOL_ERR_CUDA;
        const int64_t waves = (tiles + sms - 1) / (sms > 0 ? sms : 1);
        if (sms > 0 && 100 * tiles >= (int64_t)pt->tf32_update_min_fill_pct * waves * sms) {
            /* the columns right of the split lie in block 22: no row crossing there */
            for (int64_t j = j0, kj; j < j0 + k; j += kj) {
                kj = cols_first(f, j, j0 + k - j);
                cudaError_t e = (cudaError_t)SYRK_UPDATE_LAUNCH(
                    nn + m, nn, kj, at(f, i0, j), f->ld, tr(f, i0, j), at(f, i0, i0), f->ld,
                    tr(f, i0, i0), f->tf32, stream_of(f, s));
                if (e != cudaSuccess) return gchol_from_cuda(e);
            }
            return GCHOL_SUCCESS;
        }
    }
#endif
    if ((st = PFX(potrf_op_syrk)(f, s, i0, nn, j0, k)) != GCHOL_SUCCESS) return st;
    return m > 0 ? PFX(potrf_op_gemm)(f, s, i0 + nn, i0, m, nn, j0, k) : GCHOL_SUCCESS;
}

/* Whether one launch of the tiled kernel in panel mode can factor a panel
 * jb wide with m rows below its diagonal block (m = 0: the whole matrix). */
static int tiled_panel_fits(int64_t jb, int64_t m)
{
    const int64_t tb = GCHOL_TILED_NB, rows = m + jb;
    return jb <= GCHOL_TILED_MAX_N && (m == 0 || jb % tb == 0) && rows <= INT32_MAX / 2 &&
           ((rows + tb - 1) / tb) * ((jb + tb - 1) / tb) <= GCHOL_TILED_SYNC_WORDS - 2;
}

/* gchol_dpotrf_op_panel, gchol_spotrf_op_panel: the block column at j, jb
 * wide with m rows below the diagonal block, once updated: its diagonal
 * block factored and the rows below solved.
 * The tiled kernel in panel mode does a panel up to panel_leaf wide in one
 * launch (the chain of small potf2, trsm and syrk launches of the recursive
 * forms took ~250 us per 256 columns at n = 16384). A wider panel is split
 * in two, left-looking: the update of the right half by the left one is a
 * cuBLAS syrk and gemm, which run at twice the rate of the tiled kernel's
 * 64 x 64 tile products. Where the kernel does not fit (a width not a
 * multiple of its tiles), the recursive potf2 and trsm. The kernel's
 * inverses live in this stream's scratch. The whole panel stays on the
 * tiled kernel, rows below included: solving them by op_trsm after the
 * diagonal block alone lost at every size, as the solve then waits for the
 * whole diagonal block instead of running beside its chain. */
int64_t PFX(potrf_op_panel)(const fact_t *f, int s, int64_t j, int64_t jb, int64_t m)
{
    int64_t st;
    /* one launch needs the panel in one strided block */
    if (!tiled_panel_fits(jb, m) || rows_first(f, j, jb + m, j) < jb + m) {
        if ((st = PFX(potrf_op_diag)(f, s, j, jb)) != GCHOL_SUCCESS || m == 0) return st;
        return PFX(potrf_op_trsm)(f, s, j + jb, j, m, jb);
    }
    if (jb <= f->panel_leaf || m == 0)
        return gchol_from_cuda((cudaError_t)POTRF_TILED_LAUNCH(
            m + jb, jb, at(f, j, j), f->ld, tr(f, j, j), j, f->dinfo, f->q->dtile_sync,
            (FLOAT *)f->q->dscratch[s], &f->q->tune->kernel, stream_of(f, s)));
    const int64_t tb = GCHOL_TILED_NB, j1 = ((jb / 2 + tb - 1) / tb) * tb, j2 = jb - j1;
    if ((st = PFX(potrf_op_panel)(f, s, j, j1, m + j2)) != GCHOL_SUCCESS) return st;
    if ((st = PFX(potrf_op_syrk)(f, s, j + j1, j2, j, j1)) != GCHOL_SUCCESS) return st;
    if (m > 0 && (st = PFX(potrf_op_gemm)(f, s, j + jb, j + j1, m, j2, j, j1)) != GCHOL_SUCCESS)
        return st;
    return PFX(potrf_op_panel)(f, s, j + j1, j2, m);
}

/* gchol_dpotrf_swap_columns_to, gchol_spotrf_swap_columns_to */
int64_t PFX(potrf_swap_columns_to)(fact_t *f, int64_t e)
{
    if (e <= f->swap_cols) return GCHOL_SUCCESS;
    const int64_t st = gchol_from_cuda((cudaError_t)SWAP_TRIANGLES_LAUNCH(
        f->swap_n, f->blk[B11].base, f->ld, 0, f->swap_n, f->swap_cols, e, f->q->stream));
    if (st == GCHOL_SUCCESS) f->swap_cols = e;
    return st;
}

/* gchol_dpotrf_swap_rows_back_to, gchol_spotrf_swap_rows_back_to */
int64_t PFX(potrf_swap_rows_back_to)(fact_t *f, int64_t e)
{
    if (e <= f->swap_rows) return GCHOL_SUCCESS;
    const int64_t st = gchol_from_cuda((cudaError_t)SWAP_TRIANGLES_LAUNCH(
        f->swap_n, f->blk[B11].base, f->ld, f->swap_rows, e, 0, f->swap_cols, f->q->stream));
    if (st == GCHOL_SUCCESS) f->swap_rows = e;
    return st;
}
