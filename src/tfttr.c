/*
 * tfttr.c -- gchol_?tfttr_gpu: RFP storage back into a full triangle
 * (LAPACK ?tfttr) on the GPU. Precision-generic (see prec.h).
 */
#include "prec.h"

#include "args.h"
#include "queue.h"
#include "status.h"

#include "../kernels/gchol_kernels.h"

/* -----------------------------------------------------------------------------
 * gchol_dtfttr_gpu, gchol_stfttr_gpu: writes the uplo triangle of dA from
 * the RFP array dARF; the other triangle and the padding rows of dA are not
 * touched. Asynchronous.
 *   transr (1) 'N'/'T': the RFP variant,
 *   uplo   (2) 'L'/'U': the triangle of dA,
 *   n      (3) order, n >= 0,
 *   dARF   (4) device, n(n+1)/2 elements, not written,
 *   dA     (5) device n x n,
 *   ldda   (6) >= max(1,n),
 *   info   (7) receives the return value: 0, -i or a library error,
 *   queue  (8).
 * -------------------------------------------------------------------------- */
int64_t PFX(tfttr_gpu)(char transr, char uplo, int64_t n, const FLOAT *dARF, FLOAT *dA,
                       int64_t ldda, int64_t *info, gchol_queue_t queue)
{
    int64_t st = 0;
    if (!gchol_transr_valid(transr)) st = -1;
    else if (!gchol_uplo_valid(uplo)) st = -2;
    else if (n < 0) st = -3;
    else if (n > 0 && dARF == NULL) st = -4;
    else if (n > 0 && dA == NULL) st = -5;
    else if (ldda < (n > 1 ? n : 1)) st = -6;
    else if (info == NULL) st = -7;
    else if (queue == NULL) st = -8;
    int prev = 0;
    if (st == 0 && n > 0 && (st = gchol_queue_enter(queue, &prev)) == GCHOL_SUCCESS) {
        /* the kernel only reads dARF in this direction */
        st = gchol_from_cuda(RFP_CONVERT_LAUNCH(0, gchol_transr_is_trans(transr),
                                                gchol_uplo_is_upper(uplo), n, dA, ldda,
                                                (FLOAT *)dARF, queue->stream));
        gchol_queue_leave(prev);
    }
    if (info) *info = st;
    return st;
}
