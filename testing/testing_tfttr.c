/*
 * testing_tfttr.c -- tests and times gchol_?tfttr_gpu: an RFP array into the
 * uplo triangle of a full-storage matrix, against LAPACKE_?tfttr (OpenBLAS),
 * bit for bit. Precision-generic: -DGCHOL_PREC_D gives testing_dtfttr,
 * -DGCHOL_PREC_S testing_stfttr.
 *
 * Table mode (MAGMA style; the default, n = 1024..8192):
 *   testing_dtfttr [-n LIST] [--transr N|T] [--uplo L|U] [--niter K]
 *   n, GPU seconds and GB/s (the RFP array read and the triangle written),
 *   LAPACKE seconds, elements that differ from LAPACKE's array, ok / FAILED.
 * Suite mode (make test): testing_dtfttr --suite   (--quick: fewer sizes)
 *   n = 0..40 and sizes around 128 and 1000 in the four (transr, uplo)
 *   variants, lda > n and = n; the other triangle and the padding rows of
 *   the full array poisoned (NaN or a finite sentinel) and checked
 *   untouched; the input RFP array and its guard elements untouched; the
 *   n = 0 quick return; the argument checks (these run, and pass, without a
 *   GPU).
 *
 * The cases, the table and main() are testing_rfp_conversion_main()'s
 * (testing/util/rfp_check.c), shared with testing_?trttf; this file gives
 * the precision and the argument checks.
 *
 * Every mode ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include "gchol.h"
#include "argcheck.h"
#include "testing_prec.h"
#include "util.h"

static int64_t tfttr_w(const testing_args_t *a)
{
    return GCHOL(tfttr_gpu)(a->transr, a->uplo, a->n, (const FLOAT *)a->A, (FLOAT *)a->C, a->ld,
                            a->info, a->q);
}

static const testing_entry_t arg_entries[] = {
    { GCHOL_NAME("tfttr_gpu"), tfttr_w, 0, 1, 0,
      { R_TRANSR, R_UPLO, R_N, R_A, R_C, R_LD, R_INFO, R_QUEUE } },
};

int main(int argc, char **argv)
{
    return testing_rfp_conversion_main(argc, argv, PREC, TESTING_TFTTR, arg_entries,
                                       TESTING_LEN(arg_entries));
}
