/*
 * syrk_diag_host.c -- the host-memory forms of A*D^2*A^T: gchol_?syrk_diag
 * (full storage) and gchol_?sfrk_diag (RFP). A streams through the GPU in
 * blocks of columns, two device buffers deep: block b + 1 is copied up
 * (queue's up_stream) while the product of block b runs on the main stream,
 * each block adding its A_b D_b^2 A_b^T into C on the device. A may
 * therefore be larger than the device memory; only C (m x m, or m(m+1)/2 in
 * RFP) and the two blocks must fit. Only C's triangle moves, both ways (up
 * only when beta != 0; with beta = 0 only its 256 x 256 diagonal blocks go
 * up, so that the rest of them comes back as it was).
 * Precision-generic (see prec.h).
 */
#include "internal.h"
#include "prec.h"

#include "../kernels/gchol_kernels.h"

#include <stdlib.h>

/* Blocks of A. Each block's product also reads and writes all of C's
 * triangle, so few large blocks compute fastest (16384 x 16384 in double,
 * H100: 87 ms in one product, 103 ms in blocks of 2048 columns); but the
 * copy of the first block and the product of the last overlap nothing. So
 * the first block is an eighth of the largest, and each next one twice the
 * last. The largest has max(m/2, 4096) columns (at most 1 GiB): C's traffic
 * per block grows with m^2, a block's work with m^2 k. Measured on the H100
 * in double, A and C pinned, largest block 128 MB / 256 MB / 512 MB / 1 GiB
 * (docs/results/s22/c5/, ms): 4096 x 65536 42 / 43 / 45 / 50, 8192 x 32768
 * 57 / 56 / 59 / 67, 16384 x 16384 134 / 122 / 117 / 115; this rule takes
 * 128 MB, 256 MB and 1 GiB there. GCHOL_HOST_CHUNK_BYTES sets the largest
 * block's bytes instead (the tests use small blocks to get many of them). */
enum { kMaxBlockBytes = 1 << 30, kFirstBlockFraction = 8, kMinLargestBlock = 4096 };

static int64_t largest_block(int64_t m, size_t es)
{
    const char *v = getenv("GCHOL_HOST_CHUNK_BYTES");
    const long long b = v && *v ? atoll(v) : 0;
    if (b > 0) return (int64_t)((size_t)b / ((size_t)m * es));
    int64_t kc = m / 2 > kMinLargestBlock ? m / 2 : kMinLargestBlock;
    const int64_t cap = (int64_t)((size_t)kMaxBlockBytes / ((size_t)m * es));
    return kc < cap ? kc : cap;
}

static int64_t first_block(int64_t kc) { return (kc + kFirstBlockFraction - 1) / kFirstBlockFraction; }

/* The shared body: map.rfp selects the storage of C (ldc for full). */
static int64_t stream_product(const gchol_outmap_t *map, char transr, char uplo, int64_t m,
                              int64_t n, FLOAT alpha, const FLOAT *A, int64_t lda, const FLOAT *d,
                              FLOAT beta, FLOAT *C, int64_t ldc)
{
    /* BLAS quick return: nothing to add and C unchanged. */
    if (m == 0 || ((alpha == 0 || n == 0) && beta == 1)) return GCHOL_SUCCESS;
    if (alpha == 0) n = 0; /* A and d are not read; C := beta C */

    const size_t es = sizeof(FLOAT);
    const int64_t csize = map->rfp ? m * (m + 1) / 2 : m * m; /* on the device: ld m */
    int64_t kc = largest_block(m, es);
    if (kc < 1) kc = 1;
    if (kc > n) kc = n;

    gchol_queue_t q = NULL;
    int prev = 0, entered = 0;
    cudaEvent_t ready[2] = { NULL, NULL }, freed[2] = { NULL, NULL };
    int64_t st = gchol_default_queue_acquire(&q);
    if (st == GCHOL_SUCCESS) st = gchol_queue_enter(q, &prev);
    if (st != GCHOL_SUCCESS) goto done;
    entered = 1;
    /* C and the blocks; smaller blocks if they do not fit (down to 64 columns) */
    int nbuf = 0;
    for (;;) {
        nbuf = n == 0 ? 0 : n > first_block(kc) ? 2 : 1;
        const size_t bytes = ((size_t)csize + (size_t)nbuf * (size_t)(m * kc + kc)) * es;
        st = gchol_queue_reserve_device(q, bytes);
        if (st != GCHOL_ERR_DEVICE_ALLOC || kc <= 64) break;
        kc /= 2;
    }
    if (st != GCHOL_SUCCESS) goto done;
    FLOAT *dC = (FLOAT *)q->dwork, *dA[2], *dd[2];
    for (int b = 0; b < 2; ++b) {
        dA[b] = dC + csize + (size_t)b * (size_t)(m * kc + kc);
        dd[b] = dA[b] + m * kc;
    }
    for (int b = 0; b < nbuf; ++b) {
        GCHOL_CUDA(cudaEventCreateWithFlags(&ready[b], cudaEventDisableTiming));
        GCHOL_CUDA(cudaEventCreateWithFlags(&freed[b], cudaEventDisableTiming));
    }
    gchol_stage_t *stage_a = n ? gchol_queue_stager(q, A) : NULL;
    gchol_stage_t *stage_d = n && d ? gchol_queue_stager(q, d) : NULL;
    gchol_stage_t *stage_c = gchol_queue_stager(q, C);

    /* C's stored part, when it is read; else, in full storage, the diagonal
     * blocks whose other triangle the download writes back */
    if (beta == 0 && !map->rfp)
        GCHOL_CUDA(gchol_host_upload_diag_blocks(stage_c, m, es, (char *)dC, (size_t)m * es,
                                                 (const char *)C, (size_t)ldc * es, q->stream));
    if (beta != 0) {
        if (map->rfp)
            GCHOL_CUDA(gchol_copy_2d(stage_c, cudaMemcpyHostToDevice, dC, (size_t)csize * es, C,
                                     (size_t)csize * es, (size_t)csize * es, 1, q->stream));
        else
            GCHOL_CUDA(gchol_host_copy_triangle(stage_c, cudaMemcpyHostToDevice, map->upper, m, es,
                                                (char *)dC, (size_t)m * es, (char *)C,
                                                (size_t)ldc * es, q->stream));
    }
    if (n == 0) { /* C := beta C */
        st = map->rfp ? PFX(sfrk_diag_gpu)(transr, uplo, m, 0, alpha, NULL, m, NULL, beta, dC, q)
                      : PFX(syrk_diag_full)(uplo, m, 0, alpha, NULL, m, NULL, beta, dC, m, 0, q);
        if (st != GCHOL_SUCCESS) goto done;
    }
    int64_t k = first_block(kc);
    for (int64_t j0 = 0, blk = 0; j0 < n; j0 += k, ++blk) {
        const int b = (int)(blk % 2);
        if (blk > 0) k = 2 * k < kc ? 2 * k : kc;
        if (k > n - j0) k = n - j0;
        /* buffer b is free once the product of block blk - 2 has run */
        if (blk >= 2) GCHOL_CUDA(cudaStreamWaitEvent(q->up_stream, freed[b], 0));
        GCHOL_CUDA(gchol_copy_2d(stage_a, cudaMemcpyHostToDevice, dA[b], (size_t)m * es,
                                 A + j0 * lda, (size_t)lda * es, (size_t)m * es, k, q->up_stream));
        if (d)
            GCHOL_CUDA(gchol_copy_2d(stage_d, cudaMemcpyHostToDevice, dd[b], (size_t)k * es,
                                     d + j0, (size_t)k * es, (size_t)k * es, 1, q->up_stream));
        GCHOL_CUDA(cudaEventRecord(ready[b], q->up_stream));
        GCHOL_CUDA(cudaStreamWaitEvent(q->stream, ready[b], 0));
        const FLOAT beta_b = j0 == 0 ? beta : (FLOAT)1; /* later blocks add to C */
        const FLOAT *ddb = d ? dd[b] : NULL;
        st = map->rfp ? PFX(sfrk_diag_gpu)(transr, uplo, m, k, alpha, dA[b], m, ddb, beta_b, dC, q)
                      : PFX(syrk_diag_full)(uplo, m, k, alpha, dA[b], m, ddb, beta_b, dC, m, 0, q);
        if (st != GCHOL_SUCCESS) goto done;
        GCHOL_CUDA(cudaEventRecord(freed[b], q->stream));
    }
    /* C's stored part back; C is an input too when beta != 0 */
    if (beta != 0) gchol_host_inout_written = 1;
    if (map->rfp)
        GCHOL_CUDA(gchol_copy_2d(stage_c, cudaMemcpyDeviceToHost, C, (size_t)csize * es, dC,
                                 (size_t)csize * es, (size_t)csize * es, 1, q->stream));
    else
        GCHOL_CUDA(gchol_host_copy_triangle(stage_c, cudaMemcpyDeviceToHost, map->upper, m, es,
                                            (char *)dC, (size_t)m * es, (char *)C,
                                            (size_t)ldc * es, q->stream));
done:
    if (q) {
        /* nothing may still be copying into the queue's buffer, also after an error */
        cudaError_t e1 = cudaStreamSynchronize(q->up_stream), e2 = cudaStreamSynchronize(q->stream);
        if (st == GCHOL_SUCCESS) st = gchol_from_cuda(e1 != cudaSuccess ? e1 : e2);
        for (int b = 0; b < 2; ++b) {
            if (ready[b]) cudaEventDestroy(ready[b]);
            if (freed[b]) cudaEventDestroy(freed[b]);
        }
        if (entered) gchol_queue_leave(prev);
    }
    gchol_default_queue_release(); /* as host_call.c: after any acquire */
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_?syrk_diag: C := alpha*A*diag(d)^2*A^T + beta*C, host memory, full
 * storage. The arguments of gchol_?syrk_diag_gpu with host arrays and no
 * queue: uplo (1), m (2), n (3), alpha (4), A (5) host, lda (6) >= max(1,m),
 * d (7) host, n entries or NULL, beta (8), C (9) host, ldc (10) >= max(1,m).
 * Synchronous (the library-owned queue); only the uplo triangle of C is read
 * (beta != 0) and written. Returns 0, -i, or a library error (<= -100).
 * -------------------------------------------------------------------------- */
int64_t PFX(syrk_diag)(char uplo, int64_t m, int64_t n, FLOAT alpha, const FLOAT *A, int64_t lda,
                       const FLOAT *d, FLOAT beta, FLOAT *C, int64_t ldc)
{
    if (!gchol_uplo_valid(uplo)) return -1;
    if (m < 0) return -2;
    if (n < 0) return -3;
    if (m > 0 && n > 0 && alpha != 0 && A == NULL) return -5;
    if (lda < (m > 1 ? m : 1)) return -6;
    if (m > 0 && C == NULL) return -9;
    if (ldc < (m > 1 ? m : 1)) return -10;
    const gchol_outmap_t map = { .rfp = 0, .upper = gchol_uplo_is_upper(uplo), .transposed = 0,
                                 .ldc = ldc };
    return stream_product(&map, 'N', uplo, m, n, alpha, A, lda, d, beta, C, ldc);
}

/* -----------------------------------------------------------------------------
 * gchol_?sfrk_diag: the same into RFP storage, host memory: transr (1),
 * uplo (2), m (3), n (4), alpha (5), A (6) host, lda (7) >= max(1,m), d (8)
 * or NULL, beta (9), C (10) host RFP array of m(m+1)/2 elements.
 * -------------------------------------------------------------------------- */
int64_t PFX(sfrk_diag)(char transr, char uplo, int64_t m, int64_t n, FLOAT alpha, const FLOAT *A,
                       int64_t lda, const FLOAT *d, FLOAT beta, FLOAT *C)
{
    if (!gchol_transr_valid(transr)) return -1;
    if (!gchol_uplo_valid(uplo)) return -2;
    if (m < 0) return -3;
    if (n < 0) return -4;
    if (m > 0 && n > 0 && alpha != 0 && A == NULL) return -6;
    if (lda < (m > 1 ? m : 1)) return -7;
    if (m > 0 && C == NULL) return -10;
    const gchol_outmap_t map = { .rfp = 1, .upper = gchol_uplo_is_upper(uplo),
                                 .transposed = gchol_transr_is_trans(transr), .ldc = 0 };
    return stream_product(&map, transr, uplo, m, n, alpha, A, lda, d, beta, C, 0);
}
