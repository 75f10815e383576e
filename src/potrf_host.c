/*
 * potrf_host.c -- the LAPACK-like host-memory interface: gchol_?potrf and
 * gchol_?potrf_expert. Precision-generic (see prec.h).
 *
 * Only the referenced triangle goes up (with whole diagonal blocks: the
 * device routines never read the other one), and only it comes back: the
 * rectangles beside the diagonal blocks straight into A, the diagonal
 * blocks through pinned staging from which only their referenced triangle
 * is copied. The other triangle and the padding rows of A are never
 * written. The transfers, not the factorization, set the time: from
 * pageable memory every copy goes through the queue's stager
 * (host_stage.c: pinned buffers and a pool of host threads; double,
 * n = 16384, 'L': 278 -> 99 ms); from pinned memory they are direct. With the left-looking driver's
 * lookahead the transfers run beside the factorization: block column k+1
 * goes up while step k runs, and finished columns come back while later
 * ones are factored (host_io_t).
 */
#include "prec.h"

#include "args.h"
#include "host_io.h"
#include "options_ext.h"
#include "potrf.h"
#include "queue.h"
#include "status.h"
#include "tune/tune.h"

#include <string.h>

/* The transfers of one call, in "view" block columns: view column block
 * [c0, c1) is stored rows c0..n of columns c0..c1 for 'L', rows c0..c1 of
 * columns c0..n for 'U' (the same elements as the factorization's lower
 * view). Uploads go on up_stream (the call returns once the data is
 * staged, so the host copies while the GPU computes); both
 * factorization streams wait for them. Columns the driver reports final are
 * copied back `lag` steps later on down_stream, so that the host, which
 * waits for each copy from device to pageable memory, always leaves the GPU
 * work queued. They come back in bands of `band` view columns: the
 * rectangle below (L) or right (U) of a band in one copy, its diagonal
 * blocks (copy_nb wide) into one of `nslots` pinned slots, each unpacked
 * when it is next needed. The sizes are the queue's tuning table's
 * (host_copy_nb, host_band, host_lag, host_slots). */
typedef struct {
    gchol_queue_t q;
    gchol_stage_t *stager;        /* for A, or NULL: copies go direct      */
    int           upper;
    int64_t       n, lda, ldda;
    FLOAT        *A, *dA;
    int64_t       up_to, down_to; /* view columns uploaded / copied back  */
    cudaEvent_t   ev_up;
    int64_t       copy_nb, band;
    int           lag, nslots;
    cudaEvent_t   ev_final[GCHOL_TUNE_MAX_LAG]; /* where the last lag final() calls were */
    int64_t       col_final[GCHOL_TUNE_MAX_LAG];
    int           nfinal;         /* final() calls so far                  */
    FLOAT        *slot[GCHOL_TUNE_MAX_SLOTS];    /* pinned: a band's diagonal blocks each */
    cudaEvent_t   ev_slot[GCHOL_TUNE_MAX_SLOTS]; /* their copy has landed                */
    int64_t       slot_c0[GCHOL_TUNE_MAX_SLOTS]; /* the band in each (empty: c1 <= c0)   */
    int64_t       slot_c1[GCHOL_TUNE_MAX_SLOTS];
    int           next_slot;      /* the oldest slot, next to be reused    */
} host_io_t;

/* View columns [c0, c1) are, for 'U', stored rows c0..c1: the part right
 * of c1 goes in one 2D copy (rows c1 - c0 long: a block column of the
 * driver), the rest by stored column blocks of copy_nb from row c0 down to
 * each diagonal block. For 'L' they are stored column blocks. With c0 = 0
 * and c1 = n both triangles go by stored column blocks, whose columns are
 * long contiguous runs (narrow 2D rows from pageable memory are slow). */

/* Copies stored rows r0..r0+rows of columns c0..c0+cols between A and the
 * device matrix (direction `kind`) on stream s; nothing if either is 0. */
static cudaError_t copy_block(const host_io_t *io, int64_t r0, int64_t c0, int64_t rows,
                              int64_t cols, enum cudaMemcpyKind kind, cudaStream_t s)
{
    const size_t w = sizeof(FLOAT);
    FLOAT *h = io->A + r0 + c0 * io->lda, *d = io->dA + r0 + c0 * io->ldda;
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    return kind == cudaMemcpyHostToDevice
        ? gchol_copy_2d(io->stager, kind, d, io->ldda * w, h, io->lda * w, rows * w, cols, s)
        : gchol_copy_2d(io->stager, kind, h, io->lda * w, d, io->ldda * w, rows * w, cols, s);
}

static int64_t io_need(void *ctx, int64_t col_end)
{
    host_io_t *io = ctx;
    const enum cudaMemcpyKind up = cudaMemcpyHostToDevice;
    const int64_t n = io->n, c0 = io->up_to, c1 = col_end;
    cudaStream_t s = io->q->up_stream;
    if (c1 <= c0) return GCHOL_SUCCESS;
    cudaError_t e = cudaSuccess;
    if (io->upper && c1 < n) e = copy_block(io, c0, c1, c1 - c0, n - c1, up, s);
    const int64_t cb = io->copy_nb;
    for (int64_t j = c0; j < c1 && e == cudaSuccess; j += cb) {
        const int64_t jb = c1 - j < cb ? c1 - j : cb;
        /* the diagonal block whole, and rows c0..j above it (U) or the rows
         * below it (L); also up to cb rows of the other triangle beside it
         * (below for U, above for L), so that every diagonal block the
         * download stages whole, wherever it starts, was written */
        const int64_t ext = io->upper ? (n - j - jb < cb ? n - j - jb : cb) : (j < cb ? j : cb);
        e = io->upper ? copy_block(io, c0, j, j + jb + ext - c0, jb, up, s)
                      : copy_block(io, j - ext, j, n - j + ext, jb, up, s);
    }
    if (e == cudaSuccess) e = cudaEventRecord(io->ev_up, s);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(io->q->stream, io->ev_up, 0);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(io->q->panel_stream, io->ev_up, 0);
    if (e != cudaSuccess) return gchol_from_cuda(e);
    io->up_to = c1;
    return GCHOL_SUCCESS;
}

/* Copies the triangles of the diagonal blocks of slot `slot` (view columns
 * [c0, c1), each block at copy_nb^2 elements from the previous, ld jb) from
 * the pinned staging into A, once their copy has landed. */
static int64_t unpack_slot(host_io_t *io, int slot)
{
    const size_t w = sizeof(FLOAT);
    const int64_t c0 = io->slot_c0[slot], c1 = io->slot_c1[slot], lda = io->lda;
    const FLOAT *stage = io->slot[slot];
    if (c1 <= c0) return GCHOL_SUCCESS;
    io->slot_c1[slot] = io->slot_c0[slot] = 0;
    cudaError_t e = cudaEventSynchronize(io->ev_slot[slot]);
    if (e != cudaSuccess) return gchol_from_cuda(e);
    const int64_t cb = io->copy_nb;
    for (int64_t j = c0; j < c1; j += cb, stage += cb * cb) {
        const int64_t jb = c1 - j < cb ? c1 - j : cb;
        for (int64_t c = 0; c < jb; ++c) {
            const int64_t lo = io->upper ? 0 : c, len = io->upper ? c + 1 : jb - c;
            memcpy(io->A + (j + lo) + (j + c) * lda, stage + lo + c * jb, (size_t)len * w);
        }
    }
    return GCHOL_SUCCESS;
}

/* Unpacks, oldest first, the slots whose copies have already landed, so
 * that few are left for the end (the end's tail otherwise cost the pinned
 * 8192 up to ~1 ms). */
static int64_t unpack_ready(host_io_t *io)
{
    for (int i = 0; i < io->nslots; ++i) {
        const int slot = (io->next_slot + i) % io->nslots;
        if (io->slot_c1[slot] <= io->slot_c0[slot]) continue;
        const cudaError_t e = cudaEventQuery(io->ev_slot[slot]);
        if (e == cudaErrorNotReady) {
            (void)cudaGetLastError(); /* not an error: later slots are later still */
            break;
        }
        const int64_t st = unpack_slot(io, slot); /* reports e, if it failed */
        if (st != GCHOL_SUCCESS) return st;
    }
    return GCHOL_SUCCESS;
}

/* Copies view columns [down_to, c1) back to A, only the referenced
 * triangle, on down_stream (the copies start once it gets there): by bands
 * of `band` view columns, the rectangle beside the band straight into A (in
 * one pipelined copy through the stager from pageable memory, which blocks
 * the host until it is done), the band's diagonal blocks whole into one of
 * nslots pinned slots, from which only their referenced triangle goes into
 * A when the slot is next needed or at the end (download_finish). So from
 * pinned memory the host waits only for the copies of bands reported two
 * calls before, while the factorization goes on. */
static int64_t download(host_io_t *io, int64_t c1)
{
    const enum cudaMemcpyKind down = cudaMemcpyDeviceToHost;
    const size_t w = sizeof(FLOAT);
    const int64_t n = io->n, ldda = io->ldda, c0 = io->down_to;
    const FLOAT *dA = io->dA;
    cudaStream_t s = io->q->down_stream;
    if (c1 <= c0) return GCHOL_SUCCESS;
    gchol_host_inout_written = 1;
    int64_t st = unpack_ready(io);
    if (st != GCHOL_SUCCESS) return st;
    const int64_t cb = io->copy_nb;
    for (int64_t b0 = c0; b0 < c1; b0 += io->band) {
        const int64_t b1 = c1 - b0 < io->band ? c1 : b0 + io->band;
        cudaError_t e = cudaSuccess;
        if (b1 < n)
            e = io->upper ? copy_block(io, b0, b1, b1 - b0, n - b1, down, s)
                          : copy_block(io, b1, b0, n - b1, b1 - b0, down, s);
        const int slot = io->next_slot;
        st = unpack_slot(io, slot); /* the oldest band, if still there */
        if (st != GCHOL_SUCCESS) return st;
        FLOAT *stage = io->slot[slot];
        for (int64_t j = b0; j < b1 && e == cudaSuccess; j += cb, stage += cb * cb) {
            const int64_t jb = b1 - j < cb ? b1 - j : cb;
            /* rows b0..j above the diagonal block (U), or below it down to b1 (L) */
            const int64_t r0 = io->upper ? b0 : j + jb, rows = io->upper ? j - b0 : b1 - j - jb;
            e = copy_block(io, r0, j, rows, jb, down, s);
            if (e == cudaSuccess)
                e = cudaMemcpy2DAsync(stage, jb * w, dA + j + j * ldda, ldda * w, jb * w, jb,
                                      down, s);
        }
        if (e == cudaSuccess) e = cudaEventRecord(io->ev_slot[slot], s);
        if (e != cudaSuccess) return gchol_from_cuda(e);
        io->slot_c0[slot] = b0;
        io->slot_c1[slot] = b1;
        io->next_slot = (slot + 1) % io->nslots;
    }
    io->down_to = c1;
    return GCHOL_SUCCESS;
}

/* The diagonal blocks still in the slots, older band first. */
static int64_t download_finish(host_io_t *io)
{
    int64_t st = GCHOL_SUCCESS;
    for (int i = 0; i < io->nslots && st == GCHOL_SUCCESS; ++i)
        st = unpack_slot(io, (io->next_slot + i) % io->nslots);
    return st;
}

/* Columns below col_end are final at the point just enqueued on s: copy
 * back the columns reported lag calls ago. */
static int64_t io_final(void *ctx, int64_t col_end, cudaStream_t s)
{
    host_io_t *io = ctx;
    const int slot = io->nfinal % io->lag;
    if (io->nfinal >= io->lag) {
        cudaError_t e = cudaStreamWaitEvent(io->q->down_stream, io->ev_final[slot], 0);
        if (e != cudaSuccess) return gchol_from_cuda(e);
        int64_t st = download(io, io->col_final[slot]);
        if (st != GCHOL_SUCCESS) return st;
    }
    cudaError_t e = cudaEventRecord(io->ev_final[slot], s);
    if (e != cudaSuccess) return gchol_from_cuda(e);
    io->col_final[slot] = col_end;
    io->nfinal++;
    return GCHOL_SUCCESS;
}

/* 'U' by swapping the triangles (the options say swap for either triangle;
 * only 'U' swaps) with all of A on the device already: the swap needs the
 * whole matrix, so A comes back at the end. */
static int swaps_whole(char uplo, const gchol_options_t *opts)
{
    return gchol_uplo_is_upper(uplo) && opts && opts->upper == GCHOL_UPPER_SWAP;
}

/* Uploads, factors and copies back A through the queue's device matrix
 * (ldda >= n): the transfers interleaved with the factorization where the
 * driver allows it. Columns before `uploaded` are on the device already.
 * Returns 0, k > 0 or a gchol_status_t. */
static int64_t factor_host(char uplo, int64_t n, FLOAT *A, int64_t lda, FLOAT *dA, int64_t ldda,
                           const gchol_options_t *opts, gchol_queue_t q, int64_t uploaded)
{
    const gchol_tune_t *t = q->tune;
    const int64_t cb = t->host_copy_nb > 0 ? t->host_copy_nb : 256;
    host_io_t io = { .q = q, .stager = gchol_queue_stager(q, A),
                     .upper = gchol_uplo_is_upper(uplo), .n = n, .lda = lda, .ldda = ldda,
                     .A = A, .dA = dA, .up_to = uploaded, .copy_nb = cb,
                     .band = t->host_band > 0 ? t->host_band : cb,
                     .lag = t->host_lag < 1 ? 1 : t->host_lag > GCHOL_TUNE_MAX_LAG
                                                      ? GCHOL_TUNE_MAX_LAG : t->host_lag,
                     .nslots = t->host_slots < 1 ? 1 : t->host_slots > GCHOL_TUNE_MAX_SLOTS
                                                           ? GCHOL_TUNE_MAX_SLOTS : t->host_slots };
    /* a band's diagonal blocks, copy_nb^2 elements apart */
    const size_t slot_elems = (size_t)((io.band + cb - 1) / cb) * (size_t)(cb * cb);
    int64_t st = gchol_queue_reserve_host(q, (size_t)io.nslots * slot_elems * sizeof(FLOAT));
    if (st != GCHOL_SUCCESS) return st;
    for (int i = 0; i < io.nslots; ++i) io.slot[i] = (FLOAT *)q->hstage + i * slot_elems;
    int created = 0, created_slots = 0;
    cudaError_t e = cudaEventCreateWithFlags(&io.ev_up, cudaEventDisableTiming);
    for (; e == cudaSuccess && created < io.lag; ++created)
        e = cudaEventCreateWithFlags(&io.ev_final[created], cudaEventDisableTiming);
    for (; e == cudaSuccess && created_slots < io.nslots; ++created_slots)
        e = cudaEventCreateWithFlags(&io.ev_slot[created_slots], cudaEventDisableTiming);
    if (e != cudaSuccess) {
        st = gchol_from_cuda(e);
    } else {
        const gchol_host_io_t hooks = { &io, io_need, io_final };
        const int whole = uploaded == n && swaps_whole(uplo, opts);
        st = PFX(potrf_io)(uplo, n, dA, ldda, opts, whole ? NULL : &hooks, q);
        /* the factorization has finished (or failed): the rest comes back,
         * the leading columns too when info > 0, as LAPACK leaves them */
        if (st >= 0) {
            /* after info = k, only the columns that went up: the device
             * holds nothing of the others */
            int64_t st_copy = download(&io, st > 0 ? io.up_to : n);
            if (st_copy == GCHOL_SUCCESS) st_copy = download_finish(&io);
            if (st_copy != GCHOL_SUCCESS) st = st_copy;
        }
        /* nothing may still read A or io when this returns */
        (void)cudaStreamSynchronize(q->up_stream);
        (void)cudaStreamSynchronize(q->down_stream);
        /* after a library error, the diagonal blocks of the bands whose
         * rectangles came back (A is then partly written, as documented) */
        if (st < 0) (void)download_finish(&io);
    }
    if (io.ev_up) cudaEventDestroy(io.ev_up);
    for (int i = 0; i < created; ++i)
        if (io.ev_final[i]) cudaEventDestroy(io.ev_final[i]);
    for (int i = 0; i < created_slots; ++i)
        if (io.ev_slot[i]) cudaEventDestroy(io.ev_slot[i]);
    return st;
}

/* Arguments 1..5, common to both host forms, in LAPACK order: 0 or -i. */
static int64_t check_host_args(char uplo, int64_t n, const FLOAT *A, int64_t lda,
                               const int64_t *info)
{
    if (!gchol_uplo_valid(uplo)) return -1;
    if (n < 0) return -2;
    if (n > 0 && A == NULL) return -3;
    if (lda < (n > 1 ? n : 1)) return -4;
    if (info == NULL) return -5;
    return 0;
}

/* -----------------------------------------------------------------------------
 * gchol_?potrf_expert: Cholesky of a host matrix on the GPU.
 *   uplo (1), n (2), A (3) host array lda x n, lda (4) >= max(1,n),
 *   info (5), opts (6) NULL for defaults (trace allowed), queue (7).
 * Returns (and stores in *info) 0, -i, k > 0 or a gchol_status_t. When
 * info = k > 0, A holds the partial factor as LAPACK leaves it.
 * -------------------------------------------------------------------------- */
/* gchol_dpotrf_expert, gchol_spotrf_expert */
int64_t PFX(potrf_expert)(char uplo, int64_t n, FLOAT *A, int64_t lda, int64_t *info,
                          const gchol_options_t *opts, gchol_queue_t queue)
{
    int64_t st = check_host_args(uplo, n, A, lda, info);
    if (st == 0 && !gchol_options_valid(opts)) st = -6;
    if (st == 0 && queue == NULL) st = -7;
    if (st != 0 || n == 0) {
        if (st == 0 && opts && opts->trace) opts->trace->count = 0;
        if (info) *info = st;
        return st;
    }
    int prev = 0;
    if ((st = gchol_queue_enter(queue, &prev)) == GCHOL_SUCCESS) {
        FLOAT *dA = NULL;
        int64_t ldda = 0;
        void *dextra = NULL;
        st = PFX(potrf_host_on_queue)(uplo, n, A, lda, 0, opts, queue, &dA, &ldda, &dextra);
        gchol_queue_leave(prev);
    }
    *info = st;
    return st;
}

/* The host form's work on a queue the caller has entered (also posv_host.c's
 * first step): reserves the device matrix, leading dimension ldda = n rounded
 * up to 32 elements (every column aligned for cuBLAS), and `extra` bytes
 * behind it, then uploads, factors and copies back A. Returns 0, k > 0 or a
 * gchol_status_t. The factor stays on the device (*dA, *ldda) and the extra
 * space at *dextra (256-byte aligned) until the queue's buffer is next used. */
/* gchol_dpotrf_host_on_queue, gchol_spotrf_host_on_queue */
int64_t PFX(potrf_host_on_queue)(char uplo, int64_t n, FLOAT *A, int64_t lda, size_t extra,
                                 const gchol_options_t *opts, gchol_queue_t queue, FLOAT **dA,
                                 int64_t *ldda, void **dextra)
{
    const int64_t ld = (n + 31) / 32 * 32;
    const size_t abytes = ((size_t)ld * (size_t)n * sizeof(FLOAT) + 255) / 256 * 256;
    int64_t st = gchol_queue_reserve_device(queue, abytes + extra);
    if (st != GCHOL_SUCCESS) return st;
    *dA = (FLOAT *)queue->dwork;
    *ldda = ld;
    *dextra = (char *)queue->dwork + abytes;
    /* rows n..ld-1 zeroed: the tiled kernel's 16-byte operand copies span
     * them at a ragged edge, and no kernel may read uninitialized memory */
    if (ld > n) {
        cudaError_t e = cudaMemset2DAsync(*dA + n, (size_t)ld * sizeof(FLOAT), 0,
                                          (size_t)(ld - n) * sizeof(FLOAT), (size_t)n,
                                          queue->stream);
        if (e != cudaSuccess) return gchol_from_cuda(e);
    }
    return factor_host(uplo, n, A, lda, *dA, ld, opts, queue, 0);
}

/* The factorization of a matrix already on the device (dA, ldda; the queue
 * entered), its uplo triangle copied back into the host A (lda) as its
 * columns become final, beside the factorization (the weighted least
 * squares' C, wls.c). The variant is the device form's choice; where it
 * reports no final columns (the single-kernel tiled factorization), all of
 * the triangle comes back at the end. Returns 0, k > 0 (A then holds
 * LAPACK's partial factor) or a gchol_status_t. */
static void device_to_host_options(gchol_options_t *o, const gchol_tune_t *t, int64_t n)
{
    gchol_options_default(o);
    gchol_options_resolve_tuned(o, t, PREC_CHAR, n);
}

/* gchol_dpotrf_device_to_host, gchol_spotrf_device_to_host */
int64_t PFX(potrf_device_to_host)(char uplo, int64_t n, FLOAT *dA, int64_t ldda, FLOAT *A,
                                  int64_t lda, gchol_queue_t queue)
{
    gchol_options_t o;
    device_to_host_options(&o, queue->tune, n);
    return factor_host(uplo, n, A, lda, dA, ldda, &o, queue, n);
}

/* gchol_dpotrf_device_to_host_overlaps, gchol_spotrf_device_to_host_overlaps:
 * whether potrf_device_to_host's copies run beside the factorization (on
 * the current device, whose queue the caller is about to use): where the
 * driver reports final columns and the triangles are not swapped. */
int PFX(potrf_device_to_host_overlaps)(char uplo, int64_t n)
{
    gchol_options_t o;
    device_to_host_options(&o, gchol_tune_current(), n);
    return gchol_options_left_lookahead(&o, n) && !swaps_whole(uplo, &o);
}

/* gchol_?potrf: LAPACK's ?potrf on the GPU, on the library-owned queue.
 *   uplo (1), n (2), A (3), lda (4), info (5). */
/* gchol_dpotrf, gchol_spotrf */
int64_t PFX(potrf)(char uplo, int64_t n, FLOAT *A, int64_t lda, int64_t *info)
{
    int64_t st = check_host_args(uplo, n, A, lda, info);
    if (st != 0 || n == 0) {
        if (info) *info = st;
        return st;
    }
    gchol_queue_t q = NULL;
    st = gchol_default_queue_acquire(&q);
    if (st == GCHOL_SUCCESS) st = PFX(potrf_expert)(uplo, n, A, lda, info, NULL, q);
    gchol_default_queue_release();
    *info = st;
    return st;
}
