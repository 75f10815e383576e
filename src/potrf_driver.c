/*
 * potrf_driver.c -- GPU-only blocked Cholesky: the device and asynchronous
 * interfaces, the left- and right-looking drivers, lookahead and the
 * recursive diagonal-block factorization. Precision-generic (see prec.h).
 *
 * All index arithmetic works on the "lower view" of the matrix: for
 * uplo = 'L' element (i,j), i >= j, is A[i + j*ld]; for uplo = 'U' it is
 * A[j + i*ld], the transpose. Each update is then one cuBLAS call whose
 * side/fill/transpose flags follow how its operands are stored, so 'U' runs
 * the same algorithm on the same shapes as 'L' instead of transposing the
 * matrix.
 *
 * The view may also be three blocks, each stored as is or transposed (an
 * RFP array: rfp_index.h): columns < split in block 11 (rows < split) and
 * block 21 (rows >= split), columns >= split in block 22. Block columns
 * then end at the split, and an operation whose rectangle would cross from
 * one block into a block not laid out as its continuation is cut there, so
 * every cuBLAS call and kernel launch sees one ordinary strided block. This
 * is how pftrf runs the whole left-looking driver, lookahead included,
 * across the RFP blocks (gchol_?potrf_blocks below).
 */
#include "internal.h"
#include "prec.h"

#include "../kernels/gchol_kernels.h"
#include "../kernels/rfp_index.h"

#include <stdlib.h>

/* One recorded operation of a traced factorization. */
typedef struct {
    cudaEvent_t         start, end;
    gchol_trace_event_t info;
} trace_rec_t;

/* One block of the view: the address of its element (0, 0) and whether it
 * is stored transposed (its lower view's (i, j) at base[j + i*ld]). */
typedef struct {
    FLOAT *base;
    int    trans;
} block_t;

enum { B11 = 0, B21 = 1, B22 = 2 };

/* Everything one factorization needs. */
typedef struct {
    gchol_queue_t q;
    block_t       blk[3];      /* an ordinary matrix: all three the same    */
    int64_t       split;       /* first row/column of blocks 21 and 22      */
    int           rows_contig; /* block 21 continues block 11 down its columns */
    int           cols_contig; /* block 22 continues block 21 along its rows   */
    int64_t       ld;
    int64_t       order;       /* the whole view's order n                  */
    int64_t      *dinfo;
    int64_t       recnb;       /* leaves of the recursive potf2 path        */
    int64_t       panel_leaf;  /* widest panel factored by one tiled launch */
    int           tf32;        /* single: one TF32 product in the updates   */
    const gchol_host_io_t *io; /* host interface's transfers, or NULL      */
    /* 'U' by swapping the triangles (GCHOL_UPPER_SWAP): the order (0: not
     * swapping); the pairs of columns < swap_cols are swapped, those of
     * rows < swap_rows swapped back; swap_pieces: the left-looking driver
     * swaps block by block (below), else factor() swaps all at once. */
    int64_t       swap_n, swap_cols, swap_rows;
    int           swap_pieces;
    /* tracing (synchronous forms only) */
    int           tracing;
    cudaEvent_t   t0;
    trace_rec_t  *recs;
    int64_t       nrecs, caprecs;
} fact_t;

enum { MAIN = 0, PANEL = 1 };

static const FLOAT one = 1, minus_one = -1;

static cudaStream_t stream_of(const fact_t *f, int s)
{
    return s == PANEL ? f->q->panel_stream : f->q->stream;
}
static cublasHandle_t blas_of(const fact_t *f, int s)
{
    return s == PANEL ? f->q->panel_blas : f->q->blas;
}

/* The block holding element (i, j) of the lower view, and its local place. */
static int block_of(const fact_t *f, int64_t i, int64_t j)
{
    return j >= f->split ? B22 : i >= f->split ? B21 : B11;
}
static FLOAT *at_in(const fact_t *f, int b, int64_t i, int64_t j)
{
    const int64_t li = b == B11 ? i : i - f->split, lj = b == B22 ? j - f->split : j;
    return f->blk[b].trans ? f->blk[b].base + lj + li * f->ld : f->blk[b].base + li + lj * f->ld;
}
/* Address of element (i, j) of the lower view, and whether its block is
 * stored transposed. */
static FLOAT *at(const fact_t *f, int64_t i, int64_t j) { return at_in(f, block_of(f, i, j), i, j); }
static int tr(const fact_t *f, int64_t i, int64_t j) { return f->blk[block_of(f, i, j)].trans; }

/* An ordinary ld x n matrix, lower or upper: one block, no split. */
static void view_plain(fact_t *f, FLOAT *A, int64_t ld, int upper)
{
    for (int b = 0; b < 3; ++b) f->blk[b] = (block_t){ A, upper };
    f->split = INT64_MAX;
    f->rows_contig = f->cols_contig = 1;
    f->ld = ld;
}

/* Rows [i0, i0+m) of a rectangle in column c: how many lie in its first
 * block (all of them unless they cross from block 11 into a block 21 that
 * is not its continuation). */
static int64_t rows_first(const fact_t *f, int64_t i0, int64_t m, int64_t c)
{
    return c < f->split && i0 < f->split && i0 + m > f->split && !f->rows_contig ? f->split - i0
                                                                                  : m;
}
/* Columns [j0, j0+k) of a rectangle: how many lie in its first block. */
static int64_t cols_first(const fact_t *f, int64_t j0, int64_t k)
{
    return j0 < f->split && j0 + k > f->split && !f->cols_contig ? f->split - j0 : k;
}

/* ---- the four operations, on the lower view ------------------------------ */

static int64_t op_gemm(const fact_t *f, int s, int64_t i0, int64_t c0, int64_t m, int64_t nn,
                       int64_t j0, int64_t k);

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
    if (SYRK_VIA_GEMM) {
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

/* view(i0:i0+m, c0:c0+nn) -= view(i0:i0+m, j0:j0+k) * view(c0:c0+nn, j0:j0+k)^T.
 * Each operand's flag follows how its block is stored; a transposed C is
 * updated as C^T -= B^T A. */
static int64_t op_gemm(const fact_t *f, int s, int64_t i0, int64_t c0, int64_t m, int64_t nn,
                       int64_t j0, int64_t k)
{
    int64_t st;
    const int64_t m1 = rows_first(f, i0, m, c0), k1 = cols_first(f, j0, k);
    if (m1 < m) {
        if ((st = op_gemm(f, s, i0, c0, m1, nn, j0, k)) != GCHOL_SUCCESS) return st;
        return op_gemm(f, s, i0 + m1, c0, m - m1, nn, j0, k);
    }
    if (k1 < k) {
        if ((st = op_gemm(f, s, i0, c0, m, nn, j0, k1)) != GCHOL_SUCCESS) return st;
        return op_gemm(f, s, i0, c0, m, nn, j0 + k1, k - k1);
    }
    const int tC = tr(f, i0, c0), tA = tr(f, i0, j0), tB = tr(f, c0, j0);
    /* tall updates in pieces: see GEMM_UPPER_CHUNK and GEMM_LOWER_CHUNK in prec.h */
    const int64_t chunk = tC ? GEMM_UPPER_CHUNK : GEMM_LOWER_CHUNK;
    if (chunk > 0 && m > chunk) {
        for (int64_t i = 0; i < m; i += chunk) {
            const int64_t mc = m - i < chunk ? m - i : chunk;
            if ((st = op_gemm(f, s, i0 + i, c0, mc, nn, j0, k)) != GCHOL_SUCCESS) return st;
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
    if ((f->ld >= GEMM_WIDE_TILE_LD || f->order >= GEMM_WIDE_TILE_LD) &&
        k >= GEMM_WIDE_TILE_K &&
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

/* Below these sizes our tile trsm kernel and syrk_leaf run; above, the
 * recursive forms below move most of the flops into gemm, which runs near
 * peak where trsm and syrk do not (measured on the H100: cuBLAS trsm m x 512
 * at ~7 TFLOP/s, syrk with k = 512 at ~35-39 TFLOP/s, gemm at ~60). */
enum { kTrsmLeaf = GCHOL_TRSM_MAX_K, kSyrkLeaf = GCHOL_SCRATCH_N };
_Static_assert((long long)GCHOL_TILED_WORK_ELEMS * sizeof(double) <=
                   (long long)GCHOL_SCRATCH_N * GCHOL_SCRATCH_N * sizeof(double),
               "a stream's scratch holds the tiled kernel's workspace");

/* B := B * L11^{-T}, B = view(i0:i0+m, j0:j0+k), L11 = view(j0:j0+k, j0:j0+k).
 * Split L11 = [La 0; Lb Lc]: Xa = Ba La^{-T}; Bc -= Xa Lb^T; Xc = Bc Lc^{-T}. */
static int64_t op_trsm(const fact_t *f, int s, int64_t i0, int64_t j0, int64_t m, int64_t k)
{
    int64_t st;
    const int64_t m1 = rows_first(f, i0, m, j0);
    if (m1 < m) {
        if ((st = op_trsm(f, s, i0, j0, m1, k)) != GCHOL_SUCCESS) return st;
        return op_trsm(f, s, i0 + m1, j0, m - m1, k);
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
    if ((st = op_trsm(f, s, i0, j0, m, k1)) != GCHOL_SUCCESS) return st;
    if ((st = op_gemm(f, s, i0, j0 + k1, m, k2, j0, k1)) != GCHOL_SUCCESS) return st;
    return op_trsm(f, s, i0, j0 + k1, m, k2);
}

/* view(i0:i0+nn, i0:i0+nn) -= P P^T, P = view(i0:i0+nn, j0:j0+k): the two
 * diagonal halves recursively, the off-diagonal block by one gemm. */
static int64_t op_syrk(const fact_t *f, int s, int64_t i0, int64_t nn, int64_t j0, int64_t k)
{
    if (nn <= kSyrkLeaf) return syrk_leaf(f, s, i0, nn, j0, k);
    const int64_t n1 = ((nn / 2 + 255) / 256) * 256, n2 = nn - n1;
    int64_t st;
    if ((st = op_syrk(f, s, i0, n1, j0, k)) != GCHOL_SUCCESS) return st;
    if ((st = op_gemm(f, s, i0 + n1, i0, n2, n1, j0, k)) != GCHOL_SUCCESS) return st;
    return op_syrk(f, s, i0 + n1, n2, j0, k);
}

/* Recursive factorization of the diagonal block view(j0:j0+nn, j0:j0+nn):
 * halves until recnb, where the fused potf2 kernel takes over. Split points
 * are multiples of 32 so the leaves stay aligned. */
static int64_t op_potrf_diag(const fact_t *f, int s, int64_t j0, int64_t nn)
{
    if (nn <= f->recnb)
        return gchol_from_cuda((cudaError_t)POTF2_LAUNCH(nn, at(f, j0, j0), f->ld, tr(f, j0, j0),
                                                         j0, f->dinfo, stream_of(f, s)));
    int64_t n1 = ((nn / 2 + 31) / 32) * 32;
    if (n1 >= nn) n1 = nn / 2;
    const int64_t n2 = nn - n1;
    int64_t st;
    if ((st = op_potrf_diag(f, s, j0, n1)) != GCHOL_SUCCESS) return st;
    if ((st = op_trsm(f, s, j0 + n1, j0, n2, n1)) != GCHOL_SUCCESS) return st;
    if ((st = op_syrk(f, s, j0 + n1, n2, j0, n1)) != GCHOL_SUCCESS) return st;
    return op_potrf_diag(f, s, j0 + n1, n2);
}

/* ---- tracing: CUDA events around each driver-level operation ------------- */

static int64_t trace_begin(fact_t *f, int s)
{
    if (!f->tracing) return GCHOL_SUCCESS;
    if (f->nrecs == f->caprecs) {
        int64_t cap = f->caprecs ? 2 * f->caprecs : 256;
        trace_rec_t *p = realloc(f->recs, (size_t)cap * sizeof(*p));
        if (p == NULL) return GCHOL_ERR_HOST_ALLOC;
        f->recs = p;
        f->caprecs = cap;
    }
    trace_rec_t *r = &f->recs[f->nrecs];
    cudaError_t e = cudaEventCreate(&r->start);
    if (e != cudaSuccess) return gchol_from_cuda(e);
    if ((e = cudaEventCreate(&r->end)) != cudaSuccess) {
        cudaEventDestroy(r->start);
        return gchol_from_cuda(e);
    }
    f->nrecs++;
    return gchol_from_cuda(cudaEventRecord(r->start, stream_of(f, s)));
}

static int64_t trace_end(fact_t *f, int s, int op, int64_t block, int64_t m, int64_t n, int64_t k)
{
    if (!f->tracing) return GCHOL_SUCCESS;
    trace_rec_t *r = &f->recs[f->nrecs - 1];
    gchol_trace_event_t ev = { s, op, block, m, n, k, 0.f, 0.f };
    r->info = ev;
    return gchol_from_cuda(cudaEventRecord(r->end, stream_of(f, s)));
}

/* After the factorization has completed: copy the timeline out, free events. */
static void trace_finish(fact_t *f, gchol_trace_t *trace, int ok)
{
    if (trace != NULL) trace->count = ok ? f->nrecs : 0;
    for (int64_t i = 0; i < f->nrecs; ++i) {
        trace_rec_t *r = &f->recs[i];
        if (ok && i < trace->capacity) {
            r->info.start_ms = r->info.end_ms = 0.f;
            (void)cudaEventElapsedTime(&r->info.start_ms, f->t0, r->start);
            (void)cudaEventElapsedTime(&r->info.end_ms, f->t0, r->end);
            trace->events[i] = r->info;
        }
        cudaEventDestroy(r->start);
        cudaEventDestroy(r->end);
    }
    free(f->recs);
    if (f->t0) cudaEventDestroy(f->t0);
}

#define TRACED(s, op, block, m, n, k, call)                 \
    do {                                                    \
        GCHOL_TRY(trace_begin(f, (s)));                     \
        GCHOL_TRY(call);                                    \
        GCHOL_TRY(trace_end(f, (s), (op), (block), (m), (n), (k))); \
    } while (0)

#define SYRK(s, i0, nn, j0, k)      TRACED(s, GCHOL_OP_SYRK, j0, nn, nn, k, op_syrk(f, s, i0, nn, j0, k))
#define GEMM(s, i0, c0, m, nn, j0, k) \
    TRACED(s, GCHOL_OP_GEMM, c0, m, nn, k, op_gemm(f, s, i0, c0, m, nn, j0, k))

/*
 * The bulk update of block column [i0, i0+nn) from view columns [j0, j0+k):
 * syrk on its diagonal block and gemm on the m rows below it. In single
 * precision one launch of gchol's 3xTF32 syrk kernel does both where its
 * tiles fill the GPU's waves to 3/4 or more (at one block per SM; the last
 * block columns, with few rows, stay on cuBLAS). The kernel takes A and C
 * each as stored or transposed, so it also runs across the blocks of an
 * RFP array (pftrf): one launch per block that the columns [j0, j0+k) lie
 * in, provided C's and A's rows each lie in one strided block.
 */
static int64_t op_update(const fact_t *f, int s, int64_t i0, int64_t nn, int64_t m, int64_t j0,
                         int64_t k)
{
    int64_t st;
#ifdef SYRK_UPDATE_LAUNCH
    if (k > 0 && !GCHOL_NO_TF32_UPDATE && rows_first(f, i0, nn + m, i0) == nn + m &&
        rows_first(f, i0, nn + m, j0) == nn + m) {
        int sms = 0;
        const int64_t tiles = gchol_syrk_update_tiles(nn + m, nn);
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, f->q->device) != cudaSuccess)
            return GCHOL_ERR_CUDA;
        const int64_t waves = (tiles + sms - 1) / (sms > 0 ? sms : 1);
        if (sms > 0 && 4 * tiles >= 3 * waves * sms) {
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
    if ((st = op_syrk(f, s, i0, nn, j0, k)) != GCHOL_SUCCESS) return st;
    return m > 0 ? op_gemm(f, s, i0 + nn, i0, m, nn, j0, k) : GCHOL_SUCCESS;
}

#define UPDATE(s, i0, nn, m, j0, k) \
    TRACED(s, GCHOL_OP_GEMM, i0, (nn) + (m), nn, k, op_update(f, s, i0, nn, m, j0, k))

/* Whether one launch of the tiled kernel in panel mode can factor a panel
 * jb wide with m rows below its diagonal block (m = 0: the whole matrix). */
static int tiled_panel_fits(int64_t jb, int64_t m)
{
    const int64_t tb = GCHOL_TILED_NB, rows = m + jb;
    return jb <= GCHOL_TILED_MAX_N && (m == 0 || jb % tb == 0) && rows <= INT32_MAX / 2 &&
           ((rows + tb - 1) / tb) * ((jb + tb - 1) / tb) <= GCHOL_TILED_SYNC_WORDS - 2;
}

/* The block column at j, jb wide with m rows below the diagonal block, once
 * updated: its diagonal block factored and the rows below solved.
 * The tiled kernel in panel mode does a panel up to panel_leaf wide in one
 * launch (the chain of small potf2, trsm and syrk launches of the recursive
 * forms took ~250 us per 256 columns at n = 16384). A wider panel is split
 * in two, left-looking: the update of the right half by the left one is a
 * cuBLAS syrk and gemm, which run at twice the rate of the tiled kernel's
 * 64 x 64 tile products. Where the kernel does not fit (a width not a
 * multiple of its tiles), the recursive potf2 and trsm. The kernel's
 * inverses live in this stream's scratch. (A leaf with only its diagonal
 * block on the tiled kernel and the rows below by op_trsm, whose gemms run
 * at twice the workers' rate, lost at every size: the solve then starts
 * after the whole diagonal block instead of beside its chain; double lower
 * 8192 / 16384 / 32768: 4.87 / 30.8 / 237 -> 6.08 / 33.2 / 240-246 ms,
 * docs/results/s21/c5/.) */
static int64_t op_panel(const fact_t *f, int s, int64_t j, int64_t jb, int64_t m)
{
    int64_t st;
    /* one launch needs the panel in one strided block */
    if (!tiled_panel_fits(jb, m) || rows_first(f, j, jb + m, j) < jb + m) {
        if ((st = op_potrf_diag(f, s, j, jb)) != GCHOL_SUCCESS || m == 0) return st;
        return op_trsm(f, s, j + jb, j, m, jb);
    }
    if (jb <= f->panel_leaf || m == 0)
        return gchol_from_cuda((cudaError_t)POTRF_TILED_LAUNCH(
            m + jb, jb, at(f, j, j), f->ld, tr(f, j, j), j, f->dinfo, f->q->dtile_sync,
            (FLOAT *)f->q->dscratch[s], NULL, stream_of(f, s)));
    const int64_t tb = GCHOL_TILED_NB, j1 = ((jb / 2 + tb - 1) / tb) * tb, j2 = jb - j1;
    if ((st = op_panel(f, s, j, j1, m + j2)) != GCHOL_SUCCESS) return st;
    if ((st = op_syrk(f, s, j + j1, j2, j, j1)) != GCHOL_SUCCESS) return st;
    if (m > 0 && (st = op_gemm(f, s, j + jb, j + j1, m, j2, j, j1)) != GCHOL_SUCCESS) return st;
    return op_panel(f, s, j + j1, j2, m);
}
#define PANEL(s, j, jb, m) \
    TRACED(s, GCHOL_OP_POTRF_DIAG, j, (m) + (jb), jb, 0, op_panel(f, s, j, jb, m))

/* 'U' by swapping: the pairs in the lower triangle's columns swap_cols..e-1
 * swapped, before anything reads those columns; and those in its rows
 * swap_rows..e-1 swapped back (of the columns swapped), once nothing reads
 * those rows any more. On the main stream. */
static int64_t swap_columns_to(fact_t *f, int64_t e)
{
    if (e <= f->swap_cols) return GCHOL_SUCCESS;
    const int64_t st = gchol_from_cuda((cudaError_t)SWAP_TRIANGLES_LAUNCH(
        f->swap_n, f->blk[B11].base, f->ld, 0, f->swap_n, f->swap_cols, e, f->q->stream));
    if (st == GCHOL_SUCCESS) f->swap_cols = e;
    return st;
}
static int64_t swap_rows_back_to(fact_t *f, int64_t e)
{
    if (e <= f->swap_rows) return GCHOL_SUCCESS;
    const int64_t st = gchol_from_cuda((cudaError_t)SWAP_TRIANGLES_LAUNCH(
        f->swap_n, f->blk[B11].base, f->ld, f->swap_rows, e, 0, f->swap_cols, f->q->stream));
    if (st == GCHOL_SUCCESS) f->swap_rows = e;
    return st;
}

#define RECORD(ev, s)  GCHOL_CUDA(cudaEventRecord(f->q->ev, stream_of(f, s)))
#define WAIT(s, ev)    GCHOL_CUDA(cudaStreamWaitEvent(stream_of(f, s), f->q->ev, 0))

/* ---- drivers --------------------------------------------------------------- */

/*
 * Right-looking: factor the panel (op_panel), update the whole trailing
 * matrix. With lookahead the panel stream updates and factors block
 * column k+1 (syrk + gemm from panel k, then its panel) while the main stream
 * applies panel k to the rest of the trailing matrix; the two write disjoint
 * columns and meet through two events only.
 */
static int64_t potrf_right(fact_t *f, int64_t n, int64_t nb, int lookahead)
{
    int64_t st = GCHOL_SUCCESS;
    if (!lookahead) {
        for (int64_t j = 0; j < n; j += nb) {
            const int64_t jb = n - j < nb ? n - j : nb, m = n - j - jb;
            PANEL(MAIN, j, jb, m);
            if (m > 0) SYRK(MAIN, j + jb, m, j, jb);
        }
        return GCHOL_SUCCESS;
    }
    const int64_t jb0 = n < nb ? n : nb;
    PANEL(PANEL, 0, jb0, n - jb0);
    RECORD(ev_panel, PANEL);
    for (int64_t j = 0; j + nb < n; j += nb) {
        const int64_t j1 = j + nb, jb1 = n - j1 < nb ? n - j1 : nb, j2 = j1 + jb1;
        WAIT(MAIN, ev_panel);                /* panel k is solved            */
        if (j > 0) WAIT(PANEL, ev_update);   /* step k-1 reached column k+1  */
        SYRK(PANEL, j1, jb1, j, nb);
        if (j2 < n) GEMM(PANEL, j2, j1, n - j2, jb1, j, nb);
        PANEL(PANEL, j1, jb1, n - j2);
        RECORD(ev_panel, PANEL);
        if (j2 < n) SYRK(MAIN, j2, n - j2, j, nb);
        RECORD(ev_update, MAIN);
    }
done:
    return st;
}

/* Width of the block column at j: nb, cut at n and at the view's split. */
static int64_t col_width(const fact_t *f, int64_t j, int64_t nb, int64_t n)
{
    int64_t e = n - j < nb ? n : j + nb;
    if (j < f->split && e > f->split) e = f->split;
    return e - j;
}

/*
 * Left-looking: update block column k from all columns to its left (syrk on
 * the diagonal block, gemm below it), then factor it (op_panel). Columns
 * before c0 are already final (pftrf's second half); the first block
 * column takes its whole update from them.
 *
 * With lookahead the update of column k is split in two. The bulk, from
 * columns 0..k-2, needs only column k-2 finished, so the main stream runs it
 * while the panel stream finishes column k-1. The panel stream then applies
 * the last term (from column k-1: a gemm with inner size nb), factors the
 * diagonal block and solves the panel. The main stream runs nothing but
 * the large gemms; the chain of small operations runs beside them.
 */
static int64_t potrf_left(fact_t *f, int64_t c0, int64_t n, int64_t nb, int lookahead)
{
    int64_t st = GCHOL_SUCCESS;
    if (!lookahead) {
        for (int64_t j = c0, jb; j < n; j += jb) {
            jb = col_width(f, j, nb, n);
            const int64_t m = n - j - jb;
            if (j > 0) UPDATE(MAIN, j, jb, m, 0, j);
            PANEL(MAIN, j, jb, m);
        }
        return GCHOL_SUCCESS;
    }
    /* Host order fixes which record each wait sees: in step k the panel
     * stream's wait sees the bulk of column k (recorded in step k-1), the
     * main stream's wait sees column k-1 finished. With the host
     * interface, step k needs columns up to k+1 uploaded, and column k is
     * final once its panel is: the transfers run beside the factorization. */
    int64_t jprev = -1;  /* column k-1 of this call, if any */
    int bulk_queued = 0; /* the bulk of column k was enqueued in step k-1 */
    /* 'U' by swapping: block columns 0 to 2 now; in step k, after the bulk
     * of column k+1 (which the panel stream waits for), block row k-1 back
     * (panel k-1, which the main stream waited for, was its last reader:
     * later steps read only the rows below their column) and block column
     * k+2 in (read first by the next step's bulk). The memory-bound swaps
     * fill the main stream's wait for the panel stream. */
    if (f->swap_pieces) {
        int64_t e = c0;
        for (int b = 0; b < 3 && e < n; ++b) e += col_width(f, e, nb, n);
        GCHOL_TRY(swap_columns_to(f, e));
        RECORD(ev_update, MAIN);
        WAIT(PANEL, ev_update);
    }
    for (int64_t j = c0, jb; j < n; jprev = j, j += jb) {
        jb = col_width(f, j, nb, n);
        const int64_t m = n - j - jb, j1 = j + jb;
        const int64_t jb1 = j1 < n ? col_width(f, j1, nb, n) : 0, m1 = n - j1 - jb1;
        if (f->io) GCHOL_TRY(f->io->need(f->io->ctx, j1 < n ? j1 + jb1 : n));
        if (bulk_queued) WAIT(PANEL, ev_update);
        bulk_queued = 0;
        if (j > 0 && j1 < n) {
            /* bulk of column k+1: columns 0..k-1 */
            if (jprev >= 0) WAIT(MAIN, ev_panel);
            UPDATE(MAIN, j1, jb1, m1, 0, j);
            RECORD(ev_update, MAIN);
            if (f->swap_pieces) {
                GCHOL_TRY(swap_rows_back_to(f, j));
                const int64_t j2 = j1 + jb1;
                GCHOL_TRY(swap_columns_to(f, j2 < n ? j2 + col_width(f, j2, nb, n) : n));
            }
            bulk_queued = 1;
        }
        /* last term of column k: column k-1, or every final column */
        const int64_t s0 = jprev >= 0 ? jprev : 0;
        if (j > s0) {
            if (j - s0 >= LAST_TERM_UPDATE_MIN_K) {
                UPDATE(PANEL, j, jb, m, s0, j - s0);
            } else {
                SYRK(PANEL, j, jb, s0, j - s0);
                if (m > 0) GEMM(PANEL, j + jb, j, m, jb, s0, j - s0);
            }
        }
        PANEL(PANEL, j, jb, m);
        RECORD(ev_panel, PANEL);
        if (f->io) GCHOL_TRY(f->io->final(f->io->ctx, j + jb, stream_of(f, PANEL)));
    }
done:
    return st;
}

/* Enqueues the factorization of view columns c0..n-1 (those before are
 * final) on the queue's stream; info to f->dinfo. A block view or c0 > 0
 * runs the left-looking driver whatever the options' variant. */
static int64_t factor(fact_t *f, int64_t n, int64_t c0, const gchol_options_t *user_opts)
{
    int64_t st = GCHOL_SUCCESS, st_join;
    gchol_options_t o;
    if (user_opts) o = *user_opts; else gchol_options_default(&o);
    f->order = n;
    if (f->io) gchol_options_resolve_host(&o, PREC_CHAR, n);
    else gchol_options_resolve(&o, PREC_CHAR, n);
    f->recnb = o.recnb < GCHOL_POTF2_MAX_N ? o.recnb : GCHOL_POTF2_MAX_N;
    f->panel_leaf = o.recnb > GCHOL_TILED_NB ? o.recnb : GCHOL_TILED_NB;
    f->tf32 = o.products == GCHOL_PRODUCTS_TF32;
    const int64_t nb = o.nb > f->recnb ? o.nb : f->recnb;
    /* whether a blocked driver runs (else the tiled kernel or one block) */
    const int blocked = f->split < n || c0 > 0 || (o.variant != GCHOL_VARIANT_TILED && n > nb);

    /* 'U' by swapping: the lower factorization on the swapped matrix, whose
     * accesses are contiguous. The left-looking lookahead swaps block by
     * block beside its work; otherwise all at once here. What was swapped
     * is swapped back below, whatever happens in between. */
    f->swap_n = 0;
    f->swap_pieces = 0;
    GCHOL_CUDA(cudaMemsetAsync(f->dinfo, 0, sizeof(int64_t), f->q->stream));
    if (o.upper == GCHOL_UPPER_SWAP && f->split == INT64_MAX && c0 == 0 && f->blk[B11].trans &&
        !f->io) {
        view_plain(f, f->blk[B11].base, f->ld, 0);
        f->swap_n = n;
        f->swap_cols = f->swap_rows = 0;
        f->swap_pieces = gchol_options_left_lookahead(&o, n);
        if (!f->swap_pieces) GCHOL_TRY(swap_columns_to(f, n));
    }
    if (f->tracing) {
        GCHOL_CUDA(cudaEventCreate(&f->t0));
        GCHOL_CUDA(cudaEventRecord(f->t0, f->q->stream));
    }
    /* The panel stream joins in only where a blocked driver runs: the tiled
     * kernel, and a matrix of one block, use the queue's stream alone (the
     * fork and join took host time before every small factorization, while
     * the GPU waited). */
    if (blocked) {
        GCHOL_CUDA(cudaEventRecord(f->q->ev_fork, f->q->stream));
        GCHOL_CUDA(cudaStreamWaitEvent(f->q->panel_stream, f->q->ev_fork, 0));
    }
    /* only the left-looking lookahead interleaves the host transfers */
    if (f->io && !gchol_options_left_lookahead(&o, n)) {
        GCHOL_TRY(f->io->need(f->io->ctx, n));
        f->io = NULL;
    }

    if (f->split < n || c0 > 0)
        st = potrf_left(f, c0, n, nb, o.lookahead == GCHOL_LOOKAHEAD_ON);
    else if (o.variant == GCHOL_VARIANT_TILED)
        TRACED(MAIN, GCHOL_OP_POTRF_DIAG, 0, n, n, 0,
               gchol_from_cuda((cudaError_t)POTRF_TILED_LAUNCH(n, n, f->blk[B11].base, f->ld,
                                                               f->blk[B11].trans, 0,
                                                               f->dinfo, f->q->dtile_sync,
                                                               (FLOAT *)f->q->dscratch[0], NULL,
                                                               f->q->stream)));
    else if (n <= nb)
        PANEL(MAIN, 0, n, 0);
    else if (o.variant == GCHOL_VARIANT_LEFT)
        st = potrf_left(f, 0, n, nb, o.lookahead == GCHOL_LOOKAHEAD_ON);
    else
        st = potrf_right(f, n, nb, o.lookahead == GCHOL_LOOKAHEAD_ON);

done:
    /* Join even after a failure, so the caller's stream never runs ahead of
     * work still queued on the panel stream. */
    st_join = GCHOL_SUCCESS;
    if (blocked) {
        st_join = gchol_from_cuda(cudaEventRecord(f->q->ev_join, f->q->panel_stream));
        if (st_join == GCHOL_SUCCESS)
            st_join = gchol_from_cuda(cudaStreamWaitEvent(f->q->stream, f->q->ev_join, 0));
    }
    if (f->swap_n > 0) {
        /* without the join, wait for the panel stream here: the pairs
         * swapped come back in every case */
        int64_t st_back = st_join == GCHOL_SUCCESS
                              ? GCHOL_SUCCESS
                              : gchol_from_cuda(cudaStreamSynchronize(f->q->panel_stream));
        if (st_back == GCHOL_SUCCESS) st_back = swap_rows_back_to(f, n);
        if (st_join == GCHOL_SUCCESS) st_join = st_back;
    }
    return st != GCHOL_SUCCESS ? st : st_join;
}

/* LAPACK-order argument check shared by all device forms. The queue is
 * argument `queue_arg`; opts (if the form has it) is queue_arg - 1. */
static int64_t check_args(char uplo, int64_t n, const void *dA, int64_t ldda, const void *info,
                          int has_opts, const gchol_options_t *opts, int allow_trace,
                          gchol_queue_t queue)
{
    if (!gchol_uplo_valid(uplo)) return -1;
    if (n < 0) return -2;
    if (n > 0 && dA == NULL) return -3;
    if (ldda < (n > 1 ? n : 1)) return -4;
    if (info == NULL) return -5;
    if (has_opts && (!gchol_options_valid(opts) || (!allow_trace && opts && opts->trace)))
        return -6;
    if (queue == NULL) return has_opts ? -7 : -6;
    return 0;
}

/* Runs the factorization of columns c0..n-1 of f's view and waits for it;
 * returns *info as in LAPACK, or a library error. */
static int64_t factor_sync(fact_t *f, int64_t n, int64_t c0, const gchol_options_t *opts)
{
    gchol_queue_t queue = f->q;
    int prev = 0;
    int64_t st = gchol_queue_enter(queue, &prev);
    if (st != GCHOL_SUCCESS) return st;
    gchol_trace_t *trace = opts ? opts->trace : NULL;
    f->dinfo = queue->dinfo;
    f->tracing = trace != NULL;
    st = factor(f, n, c0, opts);
    if (st == GCHOL_SUCCESS)
        st = gchol_from_cuda(cudaMemcpyAsync(queue->hinfo, queue->dinfo, sizeof(int64_t),
                                             cudaMemcpyDeviceToHost, queue->stream));
    cudaError_t e = cudaStreamSynchronize(queue->stream);
    if (st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
    if (f->tracing) trace_finish(f, trace, st == GCHOL_SUCCESS);
    if (st == GCHOL_SUCCESS) st = *queue->hinfo;
    gchol_queue_leave(prev);
    return st;
}

static int64_t potrf_sync(char uplo, int64_t n, FLOAT *dA, int64_t ldda,
                          const gchol_options_t *opts, const gchol_host_io_t *io,
                          gchol_queue_t queue)
{
    fact_t f = { .q = queue, .io = io };
    view_plain(&f, dA, ldda, gchol_uplo_is_upper(uplo));
    return factor_sync(&f, n, 0, opts);
}

/* gchol_?potrf_blocks: the left-looking driver on an RFP array of order n
 * whose blocks b describes (rfp_index.h: gchol_rfp_blocks or the realigned
 * layout), factoring the columns c0..n-1 of its lower view; those before c0
 * must be final. Synchronous; returns 0, k > 0 (the global column of the
 * first failed pivot) or a library error. opts' variant is ignored (trace
 * must be NULL); nb, recnb and lookahead are used, resolved at n. */
int64_t PFX(potrf_blocks)(const gchol_rfp_blocks_t *blocks, int64_t n, FLOAT *dA, int64_t c0,
                          const gchol_options_t *opts, gchol_queue_t queue)
{
    const gchol_rfp_blocks_t b = *blocks;
    fact_t f = { .q = queue, .split = b.n1, .ld = b.ld };
    f.blk[B11] = (block_t){ dA + b.off11, b.t11 };
    f.blk[B21] = (block_t){ dA + b.off21, b.t21 };
    f.blk[B22] = (block_t){ dA + b.off22, b.t22 };
    f.rows_contig = b.t21 == b.t11 && f.blk[B21].base == at_in(&f, B11, b.n1, 0);
    f.cols_contig = b.t22 == b.t21 && f.blk[B22].base == at_in(&f, B21, b.n1, b.n1);
    gchol_options_t o;
    if (opts) o = *opts; else gchol_options_default(&o);
    o.variant = GCHOL_VARIANT_LEFT;
    o.trace = NULL;
    return factor_sync(&f, n, c0, &o);
}

/* -----------------------------------------------------------------------------
 * gchol_?potrf_expert_gpu: Cholesky of a device matrix, synchronous.
 *   uplo   (1) 'L': A = L L^T in the lower triangle; 'U': A = U^T U, upper.
 *   n      (2) order, n >= 0.
 *   dA     (3) device array, ldda x n; the other triangle's values are
 *              kept (opts->upper = GCHOL_UPPER_SWAP uses its storage during
 *              the call and restores it bit for bit).
 *   ldda   (4) >= max(1, n).
 *   info   (5) 0, -i for illegal argument i, k > 0 for a minor that is not
 *              positive definite, or a gchol_status_t (<= -100).
 *   opts   (6) NULL for defaults; variant, nb, recnb, lookahead, trace,
 *              upper.
 *   queue  (7) from gchol_queue_create*.
 * -------------------------------------------------------------------------- */
int64_t PFX(potrf_expert_gpu)(char uplo, int64_t n, FLOAT *dA, int64_t ldda, int64_t *info,
                              const gchol_options_t *opts, gchol_queue_t queue)
{
    int64_t st = check_args(uplo, n, dA, ldda, info, 1, opts, 1, queue);
    if (st == 0 && n == 0 && opts && opts->trace) opts->trace->count = 0;
    if (st == 0 && n > 0) st = potrf_sync(uplo, n, dA, ldda, opts, NULL, queue);
    if (info) *info = st;
    return st;
}

/* gchol_?potrf_gpu: the same with default options; queue is argument 6. */
int64_t PFX(potrf_gpu)(char uplo, int64_t n, FLOAT *dA, int64_t ldda, int64_t *info,
                       gchol_queue_t queue)
{
    int64_t st = check_args(uplo, n, dA, ldda, info, 0, NULL, 0, queue);
    if (st == 0 && n > 0) st = potrf_sync(uplo, n, dA, ldda, NULL, NULL, queue);
    if (info) *info = st;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_?potrf_async: enqueues the factorization on the queue's stream and
 * returns without synchronizing the host. The LAPACK info (0 or k > 0) lands
 * in the device word dinfo (argument 5), in stream order. The return value is
 * -i for an illegal argument (nothing enqueued, nothing touched), a library
 * error (<= -100), or 0. opts (6) may be NULL; opts->trace must be NULL.
 * -------------------------------------------------------------------------- */
int64_t PFX(potrf_async)(char uplo, int64_t n, FLOAT *dA, int64_t ldda, int64_t *dinfo,
                         const gchol_options_t *opts, gchol_queue_t queue)
{
    int64_t st = check_args(uplo, n, dA, ldda, dinfo, 1, opts, 0, queue);
    if (st != 0) return st;
    int prev = 0;
    if ((st = gchol_queue_enter(queue, &prev)) != GCHOL_SUCCESS) return st;
    if (n == 0) {
        st = gchol_from_cuda(cudaMemsetAsync(dinfo, 0, sizeof(int64_t), queue->stream));
    } else {
        fact_t f = { .q = queue, .dinfo = dinfo };
        view_plain(&f, dA, ldda, gchol_uplo_is_upper(uplo));
        st = factor(&f, n, 0, opts);
    }
    gchol_queue_leave(prev);
    return st;
}

/* gchol_?potrf_io: the synchronous factorization with the host interface's
 * transfers interleaved (internal.h); arguments are checked by the caller. */
int64_t PFX(potrf_io)(char uplo, int64_t n, FLOAT *dA, int64_t ldda, const gchol_options_t *opts,
                      const gchol_host_io_t *io, gchol_queue_t queue)
{
    return potrf_sync(uplo, n, dA, ldda, opts, io, queue);
}
