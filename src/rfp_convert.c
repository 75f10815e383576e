/*
 * rfp_convert.c -- gchol_?trttf_gpu and gchol_?tfttr_gpu: full triangle to
 * RFP and back (LAPACK ?trttf / ?tfttr) on the GPU. Precision-generic.
 */
#include "internal.h"
#include "prec.h"

#include "../kernels/gchol_kernels.h"

static int64_t convert(int to_rfp, char transr, char uplo, int64_t n, FLOAT *dA, int64_t ldda,
                       FLOAT *dARF, gchol_queue_t queue)
{
    if (n == 0) return GCHOL_SUCCESS;
    int prev = 0;
    int64_t st = gchol_queue_enter(queue, &prev);
    if (st != GCHOL_SUCCESS) return st;
    st = gchol_from_cuda(RFP_CONVERT_LAUNCH(to_rfp, gchol_transr_is_trans(transr),
                                            gchol_uplo_is_upper(uplo), n, dA, ldda, dARF,
                                            queue->stream));
    gchol_queue_leave(prev);
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_?trttf_gpu: copies the uplo triangle of dA into RFP.
 *   transr (1) 'N'/'T', uplo (2) 'L'/'U', n (3) >= 0, dA (4) device,
 *   ldda (5) >= max(1,n), dARF (6) device, n(n+1)/2 elements,
 *   info (7) receives the return value, queue (8). Asynchronous.
 * -------------------------------------------------------------------------- */
int64_t PFX(trttf_gpu)(char transr, char uplo, int64_t n, const FLOAT *dA, int64_t ldda,
                       FLOAT *dARF, int64_t *info, gchol_queue_t queue)
{
    int64_t st = 0;
    if (!gchol_transr_valid(transr)) st = -1;
    else if (!gchol_uplo_valid(uplo)) st = -2;
    else if (n < 0) st = -3;
    else if (n > 0 && dA == NULL) st = -4;
    else if (ldda < (n > 1 ? n : 1)) st = -5;
    else if (n > 0 && dARF == NULL) st = -6;
    else if (info == NULL) st = -7;
    else if (queue == NULL) st = -8;
    /* The kernel only reads dA in this direction. */
    if (st == 0) st = convert(1, transr, uplo, n, (FLOAT *)dA, ldda, dARF, queue);
    if (info) *info = st;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_?tfttr_gpu: writes the uplo triangle of dA from RFP; the other
 * triangle and the padding rows of dA are not touched.
 *   transr (1), uplo (2), n (3), dARF (4), dA (5), ldda (6) >= max(1,n),
 *   info (7), queue (8). Asynchronous.
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
    if (st == 0) st = convert(0, transr, uplo, n, dA, ldda, (FLOAT *)dARF, queue);
    if (info) *info = st;
    return st;
}
