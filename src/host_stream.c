/*
 * host_stream.c -- the engine of the streamed host-memory forms
 * (gchol_?syrk_diag, gchol_?sfrk_diag in syrk_diag_host.c; gchol_?wls,
 * gchol_?wls_rfp in wls.c). A streams through the GPU in blocks of columns,
 * two device buffers deep: block b + 1 is copied up (the queue's up_stream)
 * while the product of block b runs on the main stream, each block adding
 * its A_b D_b^2 A_b^T into C on the device (and A_b D_b^2 B_b into R when
 * there are right-hand sides). A may therefore be larger than the device
 * memory; only C (m x m, or m(m+1)/2 in RFP), R and two blocks must fit.
 * Only C's stored part moves: up when beta != 0 (with beta = 0, in full
 * storage, only its 256 x 256 diagonal blocks, so that the triangle download
 * writes the rest of them back as it was). Precision-generic (see prec.h).
 */
#include "prec.h"

#include "args.h"
#include "host_io.h"
#include "queue.h"
#include "status.h"
#include "syrk_diag.h"

#include "../kernels/gchol_kernels.h"
#include "host_stream.h"
#include "test_hooks.h"
#include "tune/tune.h"

#include <stdint.h>
#include <stdlib.h>

static int64_t round_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

/* Blocks of A. Each block's product also reads and writes all of C's
 * triangle, so few large blocks compute fastest; but the copy of the first
 * block and the product of the last overlap nothing. So the first block is
 * a fraction of the largest, and each next one twice the last. The largest
 * has max(m / 2, host_block_min_cols) columns, at most host_block_max_bytes
 * (the tuning table): C's traffic per block grows with m^2, a block's work
 * with m^2 k. A test may fix the largest block's bytes (test_hooks.h). */
static int64_t largest_block(const gchol_tune_t *t, int64_t m, size_t es)
{
    const int64_t b = gchol_test_hooks()->host_chunk_bytes;
    if (b > 0) return (int64_t)((size_t)b / ((size_t)m * es));
    int64_t kc = m / 2 > t->host_block_min_cols ? m / 2 : t->host_block_min_cols;
    const int64_t cap = (int64_t)((size_t)t->host_block_max_bytes / ((size_t)m * es));
    return kc < cap ? kc : cap;
}

static int64_t first_block(const gchol_tune_t *t, int64_t kc)
{
    const int64_t f = t->host_first_block_frac > 1 ? t->host_first_block_frac : 1;
    return (kc + f - 1) / f;
}

/* C back in parts (job->c_back): the last block's product runs as `parts`
 * launches, each on a range of C's columns (of its lower view) and every
 * row below, and each part comes back while the next ones compute; else
 * C's download (1 GB at 16384 in double) follows the whole product. Where
 * m >= host_parts_from_m, so that each launch keeps many tiles. */
static int part_count(const gchol_tune_t *t)
{
    return t->host_parts < 1 ? 1 : t->host_parts > GCHOL_TUNE_MAX_PARTS ? GCHOL_TUNE_MAX_PARTS
                                                                          : t->host_parts;
}

static int64_t part_start(int64_t m, int p, int parts)
{
    return p >= parts ? m : (m * p / parts) / GCHOL_TRI_BLOCK * GCHOL_TRI_BLOCK;
}

/* C += alpha A_b D_b^2 A_b^T (beta_b C first), on the queue's stream. */
static int64_t block_product(const PFX(stream_job_t) *j, int64_t k, const FLOAT *dA,
                             const FLOAT *dd, FLOAT beta_b, FLOAT *dC, gchol_queue_t q)
{
    return j->rfp
        ? PFX(sfrk_diag_gpu)(j->transr, j->uplo, j->m, k, j->alpha, dA, j->m, dd, beta_b, dC, q)
        : PFX(syrk_diag_full)(j->uplo, j->m, k, j->alpha, dA, j->m, dd, beta_b, dC, j->m, 0, q);
}

/* R := beta_r R + A_b (D_b^2 B_b): B_b is scaled in its own buffer. */
static int64_t block_rhs(const PFX(stream_job_t) *j, int64_t k, const FLOAT *dA, const FLOAT *dd,
                         FLOAT *dB, FLOAT beta_r, FLOAT *dR, gchol_queue_t q)
{
    static const FLOAT one = 1;
    int64_t st = GCHOL_SUCCESS;
    if (dd) GCHOL_CUDA((cudaError_t)SCALE_ROWS_SQ_LAUNCH(k, j->nrhs, dd, dB, k, q->stream));
    if (j->nrhs == 1)
        GCHOL_BLAS(BLAS_GEMV(q->blas, CUBLAS_OP_N, j->m, k, &one, dA, j->m, dB, 1, &beta_r, dR, 1));
    else
        GCHOL_BLAS(BLAS_GEMM(q->blas, CUBLAS_OP_N, CUBLAS_OP_N, j->m, j->nrhs, k, &one, dA, j->m,
                             dB, k, &beta_r, dR, j->m));
done:
    return st;
}

/* gchol_dhost_stream_copy_c, gchol_shost_stream_copy_c */
int64_t PFX(host_stream_copy_c)(gchol_queue_t q, const PFX(stream_job_t) *j, FLOAT *dC,
                                gchol_stage_t *stage_c, enum cudaMemcpyKind kind)
{
    const size_t es = sizeof(FLOAT);
    if (j->rfp) { /* m(m+1)/2 elements exactly: the host array ends there */
        const size_t bytes = (size_t)(j->m * (j->m + 1) / 2) * es;
        return gchol_from_cuda(kind == cudaMemcpyHostToDevice
            ? gchol_copy_2d(stage_c, kind, dC, bytes, j->C, bytes, bytes, 1, q->stream)
            : gchol_copy_2d(stage_c, kind, j->C, bytes, dC, bytes, bytes, 1, q->stream));
    }
    return gchol_from_cuda(gchol_host_copy_triangle(stage_c, kind, gchol_uplo_is_upper(j->uplo), j->m, es,
                                                    (char *)dC, (size_t)j->m * es, (char *)j->C,
                                                    (size_t)j->ldc * es, q->stream));
}

/* gchol_dhost_stream, gchol_shost_stream */
int64_t PFX(host_stream)(const PFX(stream_job_t) *j, PFX(stream_post_t) post, void *ctx)
{
    const size_t es = sizeof(FLOAT);
    const int64_t m = j->m, n = j->alpha == 0 ? 0 : j->n; /* alpha = 0: A, d not read */
    const int64_t nrhs = j->nrhs;
    /* Every part of the buffer starts on 256 bytes: the product kernel's
     * 16-byte copies need aligned blocks (an odd m(m+1)/2, or an odd kc in
     * double, would otherwise put every other block on its element-wise
     * path). */
    /* C's or R's element count beyond int64 (no such memory exists) */
    if (m > 3037000499 /* sqrt(2^63) */ || (nrhs > 0 && m > INT64_MAX / nrhs))
        return GCHOL_ERR_DEVICE_ALLOC;
    const int64_t al = 256 / (int64_t)es;
    const int64_t csize = round_up(j->rfp ? m * (m + 1) / 2 : m * m, al); /* C, ld m */
    const int64_t rsize = round_up(m * nrhs, al);

    gchol_queue_t q = NULL;
    int prev = 0, entered = 0, nparts = 0;
    cudaEvent_t ready[2] = { NULL, NULL }, freed[2] = { NULL, NULL };
    cudaEvent_t part_done[GCHOL_TUNE_MAX_PARTS] = { NULL };
    int64_t st = gchol_default_queue_acquire(&q);
    if (st == GCHOL_SUCCESS) st = gchol_queue_enter(q, &prev);
    if (st != GCHOL_SUCCESS) goto done;
    entered = 1;
    const gchol_tune_t *t = q->tune;
    int64_t kc = largest_block(t, m, es);
    if (kc < 1) kc = 1;
    if (kc > n) kc = n;
    const int64_t parts_from = gchol_test_hooks()->host_parts_from_m > 0
                                   ? gchol_test_hooks()->host_parts_from_m
                                   : t->host_parts_from_m;
    const int parts = j->c_back && !j->rfp && m >= parts_from && n > 0;
    if (parts) nparts = part_count(t);
    /* C, R and the blocks of A, d and B; smaller blocks if they do not fit
     * (down to 64 columns) */
    int nbuf = 0;
    int64_t block = 0; /* elements per buffer: A_b, d_b, B_b, each aligned */
    for (;;) {
        nbuf = n == 0 ? 0 : n > first_block(t, kc) ? 2 : 1;
        block = round_up(m * kc, al) + round_up(kc, al) + round_up(kc * nrhs, al);
        /* (in elements; an m or n beyond any memory must not wrap the size) */
        int64_t total = 0;
        if (__builtin_mul_overflow((int64_t)nbuf, block, &total) ||
            __builtin_add_overflow(total, csize + rsize, &total) ||
            (uint64_t)total > SIZE_MAX / es) {
            st = GCHOL_ERR_DEVICE_ALLOC;
            goto done;
        }
        st = gchol_queue_reserve_device(q, (size_t)total * es);
        if (st != GCHOL_ERR_DEVICE_ALLOC || kc <= 64) break;
        kc /= 2;
    }
    if (st != GCHOL_SUCCESS) goto done;
    FLOAT *dC = (FLOAT *)q->dwork, *dR = nrhs ? dC + csize : NULL, *dA[2], *dd[2], *dB[2];
    for (int b = 0; b < 2; ++b) {
        dA[b] = dC + csize + rsize + b * block;
        dd[b] = dA[b] + round_up(m * kc, al);
        dB[b] = dd[b] + round_up(kc, al);
    }
    for (int b = 0; b < nbuf; ++b) {
        GCHOL_CUDA(cudaEventCreateWithFlags(&ready[b], cudaEventDisableTiming));
        GCHOL_CUDA(cudaEventCreateWithFlags(&freed[b], cudaEventDisableTiming));
    }
    for (int p = 0; p < nparts; ++p)
        GCHOL_CUDA(cudaEventCreateWithFlags(&part_done[p], cudaEventDisableTiming));
    gchol_stage_t *stage_a = n ? gchol_queue_stager(q, j->A) : NULL;
    gchol_stage_t *stage_d = n && j->d ? gchol_queue_stager(q, j->d) : NULL;
    gchol_stage_t *stage_b = n && nrhs ? gchol_queue_stager(q, j->B) : NULL;
    gchol_stage_t *stage_c = gchol_queue_stager(q, j->C);

    /* C's stored part, when it is read; else, in full storage, the diagonal
     * blocks whose other triangle the download writes back */
    if (j->beta == 0 && !j->rfp && !j->post_c_back)
        GCHOL_CUDA(gchol_host_upload_diag_blocks(stage_c, m, es, (char *)dC, (size_t)m * es,
                                                 (const char *)j->C, (size_t)j->ldc * es,
                                                 q->stream));
    if (j->beta != 0) GCHOL_TRY(PFX(host_stream_copy_c)(q, j, dC, stage_c, cudaMemcpyHostToDevice));
    if (n == 0) { /* C := beta C; R := 0 */
        GCHOL_TRY(block_product(j, 0, NULL, NULL, j->beta, dC, q));
        if (nrhs) GCHOL_CUDA(cudaMemsetAsync(dR, 0, (size_t)(m * nrhs) * es, q->stream));
    }
    int64_t k = first_block(t, kc);
    for (int64_t j0 = 0, blk = 0; j0 < n; j0 += k, ++blk) {
        const int b = (int)(blk % 2);
        if (blk > 0) k = 2 * k < kc ? 2 * k : kc;
        if (k > n - j0) k = n - j0;
        /* buffer b is free once the products of block blk - 2 have run */
        if (blk >= 2) GCHOL_CUDA(cudaStreamWaitEvent(q->up_stream, freed[b], 0));
        GCHOL_CUDA(gchol_copy_2d(stage_a, cudaMemcpyHostToDevice, dA[b], (size_t)m * es,
                                 j->A + j0 * j->lda, (size_t)j->lda * es, (size_t)m * es, k,
                                 q->up_stream));
        if (j->d)
            GCHOL_CUDA(gchol_copy_2d(stage_d, cudaMemcpyHostToDevice, dd[b], (size_t)k * es,
                                     j->d + j0, (size_t)k * es, (size_t)k * es, 1, q->up_stream));
        if (nrhs)
            GCHOL_CUDA(gchol_copy_2d(stage_b, cudaMemcpyHostToDevice, dB[b], (size_t)k * es,
                                     j->B + j0, (size_t)j->ldb * es, (size_t)k * es, nrhs,
                                     q->up_stream));
        GCHOL_CUDA(cudaEventRecord(ready[b], q->up_stream));
        GCHOL_CUDA(cudaStreamWaitEvent(q->stream, ready[b], 0));
        const FLOAT *ddb = j->d ? dd[b] : NULL;
        /* later blocks add to C and R */
        const FLOAT beta_b = j0 == 0 ? j->beta : (FLOAT)1;
        if (parts && j0 + k == n) { /* the last block: C's columns [c0, c1) and the rows below */
            for (int p = 0; p < nparts; ++p) {
                const int64_t c0 = part_start(m, p, nparts), c1 = part_start(m, p + 1, nparts);
                if (c1 > c0) {
                    GCHOL_TRY(PFX(syrk_diag_cols)(j->uplo, m - c0, c1 - c0, k, j->alpha,
                                                  dA[b] + c0, m, ddb, beta_b, dC + c0 + c0 * m, m,
                                                  0, q));
                }
                GCHOL_CUDA(cudaEventRecord(part_done[p], q->stream));
            }
        } else {
            GCHOL_TRY(block_product(j, k, dA[b], ddb, beta_b, dC, q));
        }
        if (nrhs) GCHOL_TRY(block_rhs(j, k, dA[b], ddb, dB[b], j0 == 0 ? 0 : (FLOAT)1, dR, q));
        GCHOL_CUDA(cudaEventRecord(freed[b], q->stream));
    }
    if (j->c_back) {
        if (j->beta != 0) gchol_host_inout_written = 1;
        if (parts) { /* each part once its product has run, on down_stream */
            for (int p = 0; p < nparts; ++p) {
                const int64_t c0 = part_start(m, p, nparts), c1 = part_start(m, p + 1, nparts);
                if (c1 == c0) continue; /* (small m, tests) */
                GCHOL_CUDA(cudaStreamWaitEvent(q->down_stream, part_done[p], 0));
                GCHOL_CUDA(gchol_host_copy_triangle_part(
                    stage_c, cudaMemcpyDeviceToHost, gchol_uplo_is_upper(j->uplo), m, c0, c1,
                    es, (char *)dC, (size_t)m * es,
                    (char *)j->C, (size_t)j->ldc * es, q->down_stream));
            }
        } else {
            GCHOL_TRY(PFX(host_stream_copy_c)(q, j, dC, stage_c, cudaMemcpyDeviceToHost));
        }
    }
    st = post(q, j, dC, dR, stage_c, ctx);
done:
    if (q) {
        /* nothing may still be copying into or out of the queue's buffer,
         * also after an error */
        cudaError_t e1 = cudaStreamSynchronize(q->up_stream), e2 = cudaStreamSynchronize(q->stream);
        cudaError_t e3 = cudaStreamSynchronize(q->down_stream);
        if (st == GCHOL_SUCCESS)
            st = gchol_from_cuda(e1 != cudaSuccess ? e1 : e2 != cudaSuccess ? e2 : e3);
        for (int b = 0; b < 2; ++b) {
            if (ready[b]) cudaEventDestroy(ready[b]);
            if (freed[b]) cudaEventDestroy(freed[b]);
        }
        for (int p = 0; p < GCHOL_TUNE_MAX_PARTS; ++p)
            if (part_done[p]) cudaEventDestroy(part_done[p]);
        if (entered) gchol_queue_leave(prev);
    }
    gchol_default_queue_release(); /* as host_call.c: after any acquire */
    return st;
}
