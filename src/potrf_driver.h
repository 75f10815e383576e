/*
 * potrf_driver.h -- what the files of the blocked Cholesky driver share
 * (potrf_view.c, potrf_trace.c, potrf_left.c, potrf_right.c, potrf.c): one
 * factorization's state, the block view of its matrix, and the operations,
 * tracing and drivers on it. Precision-generic: include after prec.h. Not
 * installed.
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
 * across the RFP blocks (gchol_?potrf_blocks).
 */
#ifndef GCHOL_POTRF_DRIVER_H
#define GCHOL_POTRF_DRIVER_H

#include "potrf.h"
#include "queue.h"
#include "status.h"

#include <stdint.h>

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
     * swaps block by block, else the factorization swaps all at once. */
    int64_t       swap_n, swap_cols, swap_rows;
    int           swap_pieces;
    /* tracing (synchronous forms only) */
    int           tracing;
    cudaEvent_t   t0;
    trace_rec_t  *recs;
    int64_t       nrecs, caprecs;
} fact_t;

/* The two streams: updates and results (MAIN), lookahead panels (PANEL). */
enum { MAIN = 0, PANEL = 1 };

static inline cudaStream_t stream_of(const fact_t *f, int s)
{
    return s == PANEL ? f->q->panel_stream : f->q->stream;
}
static inline cublasHandle_t blas_of(const fact_t *f, int s)
{
    return s == PANEL ? f->q->panel_blas : f->q->blas;
}

/* The block holding element (i, j) of the lower view, and its local place. */
static inline int block_of(const fact_t *f, int64_t i, int64_t j)
{
    return j >= f->split ? B22 : i >= f->split ? B21 : B11;
}
static inline FLOAT *at_in(const fact_t *f, int b, int64_t i, int64_t j)
{
    const int64_t li = b == B11 ? i : i - f->split, lj = b == B22 ? j - f->split : j;
    return f->blk[b].trans ? f->blk[b].base + lj + li * f->ld : f->blk[b].base + li + lj * f->ld;
}
/* Address of element (i, j) of the lower view, and whether its block is
 * stored transposed. */
static inline FLOAT *at(const fact_t *f, int64_t i, int64_t j)
{
    return at_in(f, block_of(f, i, j), i, j);
}
static inline int tr(const fact_t *f, int64_t i, int64_t j)
{
    return f->blk[block_of(f, i, j)].trans;
}

/* An ordinary ld x n matrix, lower or upper: one block, no split. */
static inline void view_plain(fact_t *f, FLOAT *A, int64_t ld, int upper)
{
    for (int b = 0; b < 3; ++b) f->blk[b] = (block_t){ A, upper };
    f->split = INT64_MAX;
    f->rows_contig = f->cols_contig = 1;
    f->ld = ld;
}

/* Rows [i0, i0+m) of a rectangle in column c: how many lie in its first
 * block (all of them unless they cross from block 11 into a block 21 that
 * is not its continuation). */
static inline int64_t rows_first(const fact_t *f, int64_t i0, int64_t m, int64_t c)
{
    return c < f->split && i0 < f->split && i0 + m > f->split && !f->rows_contig ? f->split - i0
                                                                                  : m;
}
/* Columns [j0, j0+k) of a rectangle: how many lie in its first block. */
static inline int64_t cols_first(const fact_t *f, int64_t j0, int64_t k)
{
    return j0 < f->split && j0 + k > f->split && !f->cols_contig ? f->split - j0 : k;
}

/* ---- the operations on the lower view (potrf_view.c) --------------------
 * Each enqueues on stream s (MAIN or PANEL) and returns a gchol status. */

/* view(i0:i0+m, c0:c0+nn) -= view(i0:i0+m, j0:j0+k) * view(c0:c0+nn, j0:j0+k)^T */
int64_t PFX(potrf_op_gemm)(const fact_t *f, int s, int64_t i0, int64_t c0, int64_t m, int64_t nn,
                           int64_t j0, int64_t k);
/* view(i0:i0+nn, i0:i0+nn) -= P P^T, P = view(i0:i0+nn, j0:j0+k) */
int64_t PFX(potrf_op_syrk)(const fact_t *f, int s, int64_t i0, int64_t nn, int64_t j0, int64_t k);
/* B := B * L11^{-T}, B = view(i0:i0+m, j0:j0+k), L11 = view(j0:j0+k, j0:j0+k) */
int64_t PFX(potrf_op_trsm)(const fact_t *f, int s, int64_t i0, int64_t j0, int64_t m, int64_t k);
/* The Cholesky factor of the diagonal block view(j0:j0+nn, j0:j0+nn) */
int64_t PFX(potrf_op_diag)(const fact_t *f, int s, int64_t j0, int64_t nn);
/* The update of block column [i0, i0+nn) (m rows below its diagonal block)
 * from view columns [j0, j0+k): syrk on the diagonal block, gemm below */
int64_t PFX(potrf_op_update)(const fact_t *f, int s, int64_t i0, int64_t nn, int64_t m,
                             int64_t j0, int64_t k);
/* The updated block column at j, jb wide with m rows below its diagonal
 * block: the diagonal block factored, the rows below solved */
int64_t PFX(potrf_op_panel)(const fact_t *f, int s, int64_t j, int64_t jb, int64_t m);
/* 'U' by swapping: the pairs in the lower triangle's columns swap_cols..e-1
 * swapped, before anything reads those columns; and those in its rows
 * swap_rows..e-1 swapped back (of the columns swapped), once nothing reads
 * those rows any more. On the main stream. */
int64_t PFX(potrf_swap_columns_to)(fact_t *f, int64_t e);
int64_t PFX(potrf_swap_rows_back_to)(fact_t *f, int64_t e);

/* ---- tracing: CUDA events around each driver-level operation
 * (potrf_trace.c); each does nothing unless f->tracing. ------------------ */
int64_t PFX(potrf_trace_begin)(fact_t *f, int s);
int64_t PFX(potrf_trace_end)(fact_t *f, int s, int op, int64_t block, int64_t m, int64_t n,
                             int64_t k);
/* After the factorization has completed: the timeline into trace (if ok),
 * the events freed. */
void PFX(potrf_trace_finish)(fact_t *f, gchol_trace_t *trace, int ok);

/* ---- the drivers ----------------------------------------------------------
 * Each enqueues the factorization of view columns c0..n-1 (right-looking:
 * 0..n-1) in block columns nb wide; info to f->dinfo. */
int64_t PFX(potrf_left)(fact_t *f, int64_t c0, int64_t n, int64_t nb, int lookahead);
int64_t PFX(potrf_right)(fact_t *f, int64_t n, int64_t nb, int lookahead);

/* Inside functions with an `int64_t st` and a `done` label, `fact_t *f`:
 * an operation, traced; and the events between the two streams. */
#define TRACED(s, op, block, m, n, k, call)                                  \
    do {                                                                     \
        GCHOL_TRY(PFX(potrf_trace_begin)(f, (s)));                           \
        GCHOL_TRY(call);                                                     \
        GCHOL_TRY(PFX(potrf_trace_end)(f, (s), (op), (block), (m), (n), (k))); \
    } while (0)

#define SYRK(s, i0, nn, j0, k) \
    TRACED(s, GCHOL_OP_SYRK, j0, nn, nn, k, PFX(potrf_op_syrk)(f, s, i0, nn, j0, k))
#define GEMM(s, i0, c0, m, nn, j0, k) \
    TRACED(s, GCHOL_OP_GEMM, c0, m, nn, k, PFX(potrf_op_gemm)(f, s, i0, c0, m, nn, j0, k))
#define UPDATE(s, i0, nn, m, j0, k) \
    TRACED(s, GCHOL_OP_GEMM, i0, (nn) + (m), nn, k, PFX(potrf_op_update)(f, s, i0, nn, m, j0, k))
#define PANEL(s, j, jb, m) \
    TRACED(s, GCHOL_OP_POTRF_DIAG, j, (m) + (jb), jb, 0, PFX(potrf_op_panel)(f, s, j, jb, m))

#define RECORD(ev, s)  GCHOL_CUDA(cudaEventRecord(f->q->ev, stream_of(f, s)))
#define WAIT(s, ev)    GCHOL_CUDA(cudaStreamWaitEvent(stream_of(f, s), f->q->ev, 0))

#endif
