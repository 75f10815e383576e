/*
 * testing_trttf.c -- tests and times gchol_?trttf_gpu: the uplo triangle of
 * a full-storage matrix into an RFP array, against LAPACKE_?trttf (OpenBLAS),
 * bit for bit. Precision-generic: -DGCHOL_PREC_D gives testing_dtrttf,
 * -DGCHOL_PREC_S testing_strttf.
 *
 * Table mode (MAGMA style; the default, n = 1024..8192):
 *   testing_dtrttf [-n LIST] [--transr N|T] [--uplo L|U] [--niter K]
 *   n, GPU seconds and GB/s (the triangle read and the RFP array written),
 *   LAPACKE seconds, elements that differ from LAPACKE's array, ok / FAILED.
 * Suite mode (make test): testing_dtrttf --suite   (--quick: fewer sizes)
 *   n = 0..40 and sizes around 128 and 1000 in the four (transr, uplo)
 *   variants, lda > n and = n, the other triangle NaN (must not be read) or
 *   values; the RFP array between guard elements that must stay as they
 *   are; the input untouched; the n = 0 quick return; the argument checks
 *   (these run, and pass, without a GPU).
 *
 * The cases, the table and main() are testing_rfp_conversion_main()'s
 * (testing/util/rfp_check.c), shared with testing_?tfttr; this file gives
 * the precision and the argument checks.
 *
 * Every mode ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include "gchol.h"
#include "argcheck.h"
#include "testing_prec.h"
#include "util.h"

static int64_t trttf_w(const testing_args_t *a)
{
    return GCHOL(trttf_gpu)(a->transr, a->uplo, a->n, (const FLOAT *)a->A, a->ld, (FLOAT *)a->C,
                            a->info, a->q);
}

static const testing_entry_t arg_entries[] = {
    { GCHOL_NAME("trttf_gpu"), trttf_w, 0, 1, 0,
      { R_TRANSR, R_UPLO, R_N, R_A, R_LD, R_C, R_INFO, R_QUEUE } },
};

int main(int argc, char **argv)
{
    return testing_rfp_conversion_main(argc, argv, PREC, TESTING_TRTTF, arg_entries,
                                       TESTING_LEN(arg_entries));
}
