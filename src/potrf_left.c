/*
 * potrf_left.c -- the left-looking blocked driver (potrf_driver.h), with
 * its lookahead over two streams; the only driver that runs across the
 * blocks of an RFP array, swaps 'U' block by block and interleaves the host
 * interface's transfers. Precision-generic (see prec.h).
 */
#include "prec.h"
#include "potrf_driver.h"

#include "status.h"
#include "tune/tune.h"

/* Width of the block column at j: nb, cut at n and at the view's split. */
static int64_t col_width(const fact_t *f, int64_t j, int64_t nb, int64_t n)
{
    int64_t e = n - j < nb ? n : j + nb;
    if (j < f->split && e > f->split) e = f->split;
    return e - j;
}

/*
 * gchol_dpotrf_left, gchol_spotrf_left: update block column k from all
 * columns to its left (syrk on the diagonal block, gemm below it), then
 * factor it (op_panel). Columns before c0 are already final (pftrf's second
 * half); the first block column takes its whole update from them.
 *
 * With lookahead the update of column k is split in two. The bulk, from
 * columns 0..k-2, needs only column k-2 finished, so the main stream runs it
 * while the panel stream finishes column k-1. The panel stream then applies
 * the last term (from column k-1: a gemm with inner size nb), factors the
 * diagonal block and solves the panel. The main stream runs nothing but
 * the large gemms; the chain of small operations runs beside them.
 */
int64_t PFX(potrf_left)(fact_t *f, int64_t c0, int64_t n, int64_t nb, int lookahead)
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
        GCHOL_TRY(PFX(potrf_swap_columns_to)(f, e));
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
                GCHOL_TRY(PFX(potrf_swap_rows_back_to)(f, j));
                const int64_t j2 = j1 + jb1;
                const int64_t e = j2 < n ? j2 + col_width(f, j2, nb, n) : n;
                GCHOL_TRY(PFX(potrf_swap_columns_to)(f, e));
            }
            bulk_queued = 1;
        }
        /* last term of column k: column k-1, or every final column */
        const int64_t s0 = jprev >= 0 ? jprev : 0;
        if (j > s0) {
            if (j - s0 >= GCHOL_PTUNE(f->q)->last_term_update_min_k) {
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
