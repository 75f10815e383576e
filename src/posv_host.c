/*
 * posv_host.c -- gchol_?posv: A X = B for A symmetric positive definite, A
 * and B in host memory (LAPACK ?posv), in one trip to the GPU. Precision-
 * generic (see prec.h).
 *
 * The factorization is the host potrf's (potrf_host.c: only the referenced
 * triangle travels, beside the factorization); its factor stays on the
 * device, where B is solved, so the factor goes up once instead of twice as
 * with gchol_?potrf followed by gchol_?potrs.
 */
#include "prec.h"

#include "args.h"
#include "host_io.h"
#include "potrf.h"
#include "queue.h"
#include "status.h"

/* -----------------------------------------------------------------------------
 * gchol_dposv, gchol_sposv: factors A = L L^T ('L') or U^T U ('U') and overwrites B with
 * X = A^{-1} B, on the library-owned queue. Synchronous.
 *   uplo (1), n (2) >= 0, nrhs (3) >= 0, A (4) host, lda (5) >= max(1,n),
 *   B (6) host, ldb (7) >= max(1,n), info (8).
 * Returns (and stores in *info) 0, -i, k > 0 (the leading minor of order k
 * is not positive definite: A holds LAPACK's partial factor and B is not
 * written) or a gchol_status_t. A's other triangle and the padding rows of A
 * and B are never written.
 * -------------------------------------------------------------------------- */
int64_t PFX(posv)(char uplo, int64_t n, int64_t nrhs, FLOAT *A, int64_t lda, FLOAT *B,
                  int64_t ldb, int64_t *info)
{
    int64_t st = gchol_check_solve_args(uplo, n, nrhs, A, lda, B, ldb);
    if (st == 0 && info == NULL) st = -8;
    if (st != 0 || n == 0) {
        if (info) *info = st;
        return st;
    }
    const size_t w = sizeof(FLOAT), bbytes = (size_t)n * (size_t)nrhs * w;
    gchol_queue_t q = NULL;
    int prev = 0;
    st = gchol_default_queue_acquire(&q);
    if (st == GCHOL_SUCCESS && (st = gchol_queue_enter(q, &prev)) == GCHOL_SUCCESS) {
        FLOAT *dA = NULL;
        int64_t ldda = 0;
        void *dB = NULL;
        st = PFX(potrf_host_on_queue)(uplo, n, A, lda, bbytes, NULL, q, &dA, &ldda, &dB);
        if (st == GCHOL_SUCCESS && nrhs > 0) { /* info > 0: B stays as it is (LAPACK) */
            gchol_stage_t *stager = gchol_queue_stager(q, B);
            int64_t sinfo = 0;
            st = gchol_from_cuda(gchol_copy_2d(stager, cudaMemcpyHostToDevice, dB, (size_t)n * w,
                                               B, (size_t)ldb * w, (size_t)n * w, nrhs, q->stream));
            if (st == GCHOL_SUCCESS)
                st = PFX(potrs_gpu)(uplo, n, nrhs, dA, ldda, (FLOAT *)dB, n, &sinfo, q);
            if (st == GCHOL_SUCCESS) {
                gchol_host_inout_written = 1;
                st = gchol_from_cuda(gchol_copy_2d(stager, cudaMemcpyDeviceToHost, B,
                                                   (size_t)ldb * w, dB, (size_t)n * w,
                                                   (size_t)n * w, nrhs, q->stream));
            }
            const int64_t st_sync = gchol_from_cuda(cudaStreamSynchronize(q->stream));
            if (st == GCHOL_SUCCESS) st = st_sync;
        }
        gchol_queue_leave(prev);
    }
    gchol_default_queue_release();
    *info = st;
    return st;
}
