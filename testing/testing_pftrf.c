/*
 * testing_pftrf.c -- tests and times gchol's RFP Cholesky factorization
 * (precision-generic): gchol_?pftrf_gpu, gchol_?pftrf_expert_gpu and
 * gchol_?pftrf (host array), in all four (transr, uplo) variants, against
 * LAPACKE (OpenBLAS); and the whole RFP pipeline on the GPU (trttf, pftrf,
 * pftrs, tfttr). -DGCHOL_PREC_D gives testing_dpftrf, -DGCHOL_PREC_S gives
 * testing_spftrf. The conversions and the solve have their own testers
 * (testing_?trttf, testing_?tfttr, testing_?pftrs).
 *
 * Table mode (MAGMA style; the default, with n = 1024..8192):
 *   testing_dpftrf [-n LIST] [--transr N|T] [--uplo L|U] [--niter K]
 * Suite mode (make test):   testing_dpftrf --suite
 * Reduced suite (sanitizer): testing_dpftrf --suite --quick (or --quick)
 *
 * Matrices: A = B B^T / n + MU I (testing_generate_gram_spd): SPD with
 * cond(A) <= ||A||_1 / MU, and not diagonally dominant, so that wrong
 * off-diagonal updates show. Checks of a factorization:
 *   - info as LAPACK: LAPACKE_?pftrf's info exactly for a negative pivot;
 *     reference-LAPACK semantics (first pivot <= 0 or NaN) for NaN input,
 *     which OpenBLAS's potrf does not flag;
 *   - residual ||A - L L^T||_1 / (n ||A||_1 eps) < 30, with L converted back
 *     by LAPACKE_?tfttr, in double;
 *   - max |L - L_lapack| / max |L_lapack| < 30 n eps ||A||_1 / MU (the
 *     factors of both are backward stable; cond(A) bounds their distance);
 *   - guard elements around the RFP array untouched.
 * Also the n = 0 quick returns, the argument checks and, without a GPU, the
 * host form's GCHOL_ERR_NO_DEVICE (these run on any machine).
 *
 * Every mode ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include <cblas.h>
#include <lapacke.h>

#include "gchol.h"
#include "argcheck.h"
#include "flops.h"
#include "testing_prec.h"
#include "util.h"
#include "../kernels/rfp_index.h"

#define GUARD       TESTING_GUARD
#define SENTINEL    TESTING_SENTINEL
#define INFO_POISON TESTING_INFO_POISON
#define MU          0.25                /* shift of the Gram matrices          */
#define LEN(a)      TESTING_LEN(a)

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static gchol_queue_t g_queue;

static const char *const tr_list = testing_rfp_transr, *const up_list = testing_rfp_uplo;

/* ---------------------------------------------------------------------------
 * Small helpers.
 * ------------------------------------------------------------------------- */

/* Appends a failure reason. */
#define FAIL(reason) testing_fail_reason(why, sizeof(why), reason)

/* A device copy of the guarded array h (count + 2 GUARD elements), or NULL. */
static FLOAT *upload_guarded(const FLOAT *h, int64_t count)
{
    return testing_upload(h, (size_t)(count + 2 * GUARD) * ES);
}

static int download(FLOAT *h, const FLOAT *d, int64_t count)
{
    return count <= 0 ? 0 : testing_download(h, d, (size_t)count * ES);
}

/* A host array of nt + 2 GUARD elements: guards = sentinel, body = body
 * (or NaN when body is NULL). NULL when out of memory. */
static FLOAT *guarded(const FLOAT *body, int64_t nt)
{
    return testing_guarded_new(PREC, body, nt);
}

/* Guard elements of a (downloaded) guarded array that differ from h0's. */
static int64_t guard_violations(const FLOAT *h, const FLOAT *h0, int64_t nt)
{
    return testing_guard_violations(PREC, h, h0, nt);
}

/* n1 of the RFP split (rfp_index.h, LAPACK's). */
static int64_t rfp_n1(char transr, char uplo, int64_t n)
{
    return gchol_rfp_blocks(transr == 'T', uplo == 'U', n).n1;
}

/* ||A||_1 of the n x n full matrix A (lda). */
static double norm1(int64_t n, const FLOAT *A, int64_t lda)
{
    double m = 0;
    for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int64_t i = 0; i < n; i++)
            s += fabs((double)A[i + j * lda]);
        m = s > m ? s : m;
    }
    return m;
}

/* The SPD matrix of order n (both triangles, lda = n), kept while the cases
 * of one n run. The caller must not free it. */
static const FLOAT *gram(int64_t n)
{
    return testing_gram_cached(PREC, n, MU, 0x6A7Aull + (uint64_t)n);
}

/* ===========================================================================
 * 1. pftrf (device and host arrays) against LAPACKE.
 * ========================================================================= */
typedef enum { DEF_NONE, DEF_NEG, DEF_NAN_DIAG, DEF_NAN_OFF } defect_t;
static const char *defect_name[] = { "spd", "neg", "nan_diag", "nan_off" };

typedef struct {
    char    transr, uplo;
    int64_t n, k;       /* defect at (k, k), 1-based; NaN off: (k, (k+1)/2) */
    int     defect;
    int     host;       /* 1: gchol_?pftrf on a host array                 */
    int     form;       /* 0: pftrf_gpu; else pftrf_expert_gpu, forms[form] */
    int64_t rank;       /* 0: the Gram matrix of order n (gram()); r > 0: a
                         * Gram matrix of rank r + MU I, checked by its
                         * residual alone (no O(n^3) LAPACKE factor on the
                         * CPU: the large-n cases) */
} fcase_t;

/* Options of the pftrf_expert_gpu cases: the fused form (the left-looking
 * driver across the RFP blocks) at small n, with block columns that end
 * inside, at and across the RFP split, tiled and recursive panels, split
 * panels, lookahead on and off; and the four-step form forced. The 'sw'
 * forms swap the triangles of the half-size blocks that potrf factors as
 * 'U' (GCHOL_UPPER_SWAP): the other triangle of such a block is another
 * block of the RFP array, which must come back bit for bit. */
typedef struct {
    const char *name;
    int         variant;
    int64_t     nb, recnb;
    int         lookahead;
    int         upper;
} pftrf_form_t;
static const pftrf_form_t forms[] = {
    { "default", GCHOL_VARIANT_AUTO, 0, 0, GCHOL_LOOKAHEAD_AUTO, GCHOL_UPPER_AUTO },
    { "left64", GCHOL_VARIANT_LEFT, 64, 64, GCHOL_LOOKAHEAD_ON, GCHOL_UPPER_AUTO },
    { "left192", GCHOL_VARIANT_LEFT, 192, 64, GCHOL_LOOKAHEAD_ON, GCHOL_UPPER_AUTO },
    { "left128o", GCHOL_VARIANT_LEFT, 128, 128, GCHOL_LOOKAHEAD_OFF, GCHOL_UPPER_AUTO },
    { "left96r", GCHOL_VARIANT_LEFT, 96, 32, GCHOL_LOOKAHEAD_ON, GCHOL_UPPER_AUTO },
    { "right", GCHOL_VARIANT_RIGHT, 0, 0, GCHOL_LOOKAHEAD_AUTO, GCHOL_UPPER_AUTO },
    { "left128sw", GCHOL_VARIANT_LEFT, 128, 128, GCHOL_LOOKAHEAD_ON, GCHOL_UPPER_SWAP },
    { "rightsw", GCHOL_VARIANT_RIGHT, 0, 0, GCHOL_LOOKAHEAD_AUTO, GCHOL_UPPER_SWAP },
    /* wide enough for single precision's updates on the 3xTF32 syrk kernel
     * at n >= 6000 (the large-n section below) */
    { "left1024", GCHOL_VARIANT_LEFT, 1024, 512, GCHOL_LOOKAHEAD_ON, GCHOL_UPPER_AUTO },
    { "left1024o", GCHOL_VARIANT_LEFT, 1024, 512, GCHOL_LOOKAHEAD_OFF, GCHOL_UPPER_AUTO },
};
enum { FORM_LEFT1024 = 8, FORM_LEFT1024O = 9 };
_Static_assert(LEN(forms) == FORM_LEFT1024O + 1, "the nb = 1024 forms are the last two");

/* The matrix of a case: Gram (both triangles), then the defect. */
static FLOAT *make_matrix(const fcase_t *c)
{
    int64_t n = c->n, k = c->k - 1, j = (c->k - 1) / 2;
    FLOAT *A = malloc((size_t)max64(1, n * n) * ES);
    if (A && c->rank > 0) {
        if (testing_generate_lowrank_spd(PREC, c->uplo, n, A, max64(1, n), c->rank, MU,
                                         0x6A7Bull + (uint64_t)n)) {
            free(A);
            return NULL;
        }
        return A; /* SPD only: no defect */
    }
    const FLOAT *G = gram(n);
    if (!G || !A) {
        free(A);
        return NULL;
    }
    memcpy(A, G, (size_t)(n * n) * ES);
    switch (c->defect) {
    case DEF_NEG:      A[k + k * n] = (FLOAT)-1; break;
    case DEF_NAN_DIAG: A[k + k * n] = (FLOAT)NAN; break;
    case DEF_NAN_OFF:  A[k + j * n] = A[j + k * n] = (FLOAT)NAN; break;
    default: break;
    }
    return A;
}

static void print_fcase(const fcase_t *c, testing_result_t res)
{
    printf("  %-7s %-10s %-8s %c%c n=%-5lld n1=%-5lld %-8s k=%-5lld", testing_result_name(res),
           c->host ? "pftrf_host" : c->form ? "pftrf_x" : "pftrf_gpu", forms[c->form].name,
           c->transr, c->uplo, (long long)c->n,
           (long long)rfp_n1(c->transr, c->uplo, c->n), defect_name[c->defect],
           (long long)c->k);
}

/* Residual and distance to LAPACK's factor of an SPD case (info 0).
 * F: the factor as an RFP array, Fref: LAPACKE's (NULL: the residual only). */
static void check_factor(const fcase_t *c, const FLOAT *A, const FLOAT *F, const FLOAT *Fref,
                         double *resid, double *diff, char *why, size_t len)
{
    int64_t n = c->n, nt = testing_rfp_size(n);
    double maxd = 0, maxr = 0, tol;
    FLOAT *L = calloc((size_t)max64(1, n * n), ES);
    *resid = *diff = NAN;
    if (!L) {
        testing_fail_reason(why, len, "out of host memory");
        return;
    }
    LAPACKE_set_nancheck(0);
    LAPACKE(tfttr)(LAPACK_COL_MAJOR, c->transr, c->uplo, (lapack_int)n, F, L, (lapack_int)n);
    if (testing_residual(PREC, c->uplo, n, A, n, L, n, NULL, 0, resid))
        testing_fail_reason(why, len, "residual failed");
    else if (!(*resid < TESTING_TOL))
        testing_fail_reason(why, len, "residual too large");
    free(L);
    if (!Fref)
        return;
    for (int64_t p = 0; p < nt; p++) {
        double d = fabs((double)F[p] - (double)Fref[p]);
        if (isnan(d)) {
            maxd = NAN;
            break;
        }
        maxd = d > maxd ? d : maxd;
        maxr = fabs((double)Fref[p]) > maxr ? fabs((double)Fref[p]) : maxr;
    }
    *diff = maxd / (maxr > 0 ? maxr : 1);
    tol = TESTING_TOL * (double)n * testing_eps(PREC) * norm1(n, A, n) / MU;
    if (!(*diff < tol))
        testing_fail_reason(why, len, "factor differs from LAPACKE's");
}

static testing_result_t run_fcase(const fcase_t *c)
{
    char why[256] = "";
    int64_t n = c->n, nt = testing_rfp_size(n), ret = INFO_POISON, info = INFO_POISON;
    int64_t expect = 0, lapacke_info = 0, guards = 0;
    double resid = 0, diff = 0;
    FLOAT *A = NULL, *F0 = NULL, *F = NULL, *Fref = NULL, *dF = NULL;
    testing_result_t res;

    if (!testing_case_in_part())
        return TESTING_SKIPPED;
    if (!testing_have_gpu()) {
        print_fcase(c, TESTING_SKIPPED);
        printf(" (no GPU)\n");
        return testing_record(TESTING_SKIPPED);
    }
    A = make_matrix(c);
    F0 = guarded(NULL, nt);
    F = guarded(NULL, nt);
    if (c->rank == 0) /* LAPACKE's factor, for the small cases */
        Fref = malloc((size_t)max64(1, nt) * ES);
    if (!A || !F0 || !F || (c->rank == 0 && !Fref)) {
        FAIL("out of host memory");
        goto done;
    }
    LAPACKE_set_nancheck(0);
    LAPACKE(trttf)(LAPACK_COL_MAJOR, c->transr, c->uplo, (lapack_int)n, A, (lapack_int)n,
                  F0 + GUARD);
    if (Fref) {
        memcpy(Fref, F0 + GUARD, (size_t)nt * ES);
        lapacke_info = LAPACKE(pftrf)(LAPACK_COL_MAJOR, c->transr, c->uplo, (lapack_int)n, Fref);
    }
    expect = c->defect == DEF_NONE ? 0
           : c->defect == DEF_NEG  ? lapacke_info
           : testing_reference_info(PREC, c->uplo, n, A, n);
    if (c->defect == DEF_NONE && lapacke_info != 0)
        FAIL("LAPACKE info != 0 (generator?)");
    if (c->defect == DEF_NEG && lapacke_info != c->k)
        FAIL("LAPACKE info != k (generator?)");

    if (c->host) {
        memcpy(F, F0, (size_t)(nt + 2 * GUARD) * ES);
        ret = GCHOL(pftrf)(c->transr, c->uplo, n, F + GUARD, &info);
    } else {
        if (!(dF = upload_guarded(F0, nt))) {
            FAIL("CUDA error in the harness");
            goto done;
        }
        if (c->form) {
            const pftrf_form_t *fm = &forms[c->form];
            gchol_options_t o = testing_options(fm->variant, fm->lookahead, fm->nb, fm->recnb);
            o.upper = fm->upper;
            ret = GCHOL(pftrf_expert_gpu)(c->transr, c->uplo, n, dF + GUARD, &info, &o, g_queue);
        } else {
            ret = GCHOL(pftrf_gpu)(c->transr, c->uplo, n, dF + GUARD, &info, g_queue);
        }
        if (download(F, dF, nt + 2 * GUARD)) {
            FAIL("download failed");
            goto done;
        }
    }
    if (ret != info)
        FAIL("return value != info");
    if (info != expect)
        FAIL("wrong info");
    guards = guard_violations(F, F0, nt);
    if (guards)
        FAIL("guard elements modified");
    if (c->defect == DEF_NONE && info == 0 && n > 0)
        check_factor(c, A, F + GUARD, Fref, &resid, &diff, why, sizeof(why));
done:
    res = testing_record(why[0] ? TESTING_FAILED : TESTING_PASSED);
    print_fcase(c, res);
    printf(" ret=%lld info=%lld exp=%lld lapacke=%lld resid=%.2e diff=%.2e", (long long)ret,
           (long long)info, (long long)expect, (long long)lapacke_info, resid, diff);
    if (guards)
        printf(" guards=%lld", (long long)guards);
    printf("%s%s\n", why[0] ? " -- " : "", why);
    fflush(stdout);
    cudaFree(dF);
    free(A); free(F0); free(F); free(Fref);
    return res;
}

/* Adds the defect columns k of order n for one variant: first, second,
 * around the split n1, around 128 (a potrf block edge), the last two. */
static int defect_ks(char transr, char uplo, int64_t n, int full, int64_t *ks)
{
    int64_t n1 = rfp_n1(transr, uplo, n);
    int64_t cand[] = { 1, 2, n1 - 1, n1, n1 + 1, n1 + 2, 128, 129, (n * 7) / 10, n - 1, n };
    int cnt = 0;
    for (int i = 0; i < LEN(cand); i++) {
        int dup = 0;
        if (cand[i] < 1 || cand[i] > n)
            continue;
        if (!full && i >= 6 && i <= 8) /* quick: no 128 / 129 / 0.7 n */
            continue;
        for (int j = 0; j < cnt; j++)
            dup |= ks[j] == cand[i];
        if (!dup)
            ks[cnt++] = cand[i];
    }
    return cnt;
}

static void run_pftrf_suite(int quick)
{
    static const int64_t spd_full[] = { 1, 2, 3, 4, 5, 16, 17, 127, 128, 129, 256, 257,
                                        1000, 1001, 1002, 2048, 2049, 4096, 4097, 5001 };
    static const int64_t spd_quick[] = { 1, 2, 3, 4, 5, 16, 17, 127, 128, 129, 256, 257 };
    static const int64_t neg_full[] = { 1, 2, 3, 5, 257, 1001 }, neg_quick[] = { 1, 2, 3, 5, 257 };
    static const int64_t host_full[] = { 1, 17, 128, 1001 }, host_quick[] = { 17, 129 };
    const int64_t *spd = quick ? spd_quick : spd_full, *neg = quick ? neg_quick : neg_full;
    const int64_t *hostn = quick ? host_quick : host_full;
    int nspd = quick ? LEN(spd_quick) : LEN(spd_full), nneg = quick ? LEN(neg_quick) : LEN(neg_full);
    int nhost = quick ? LEN(host_quick) : LEN(host_full);

    printf("\n-- pftrf_gpu, SPD (Gram, mu %.2f), 4 variants --\n", MU);
    for (int i = 0; i < nspd; i++)
        for (int v = 0; v < 4; v++) {
            fcase_t c = { tr_list[v], up_list[v], spd[i], 0, DEF_NONE, 0, 0, 0 };
            run_fcase(&c);
        }
    printf("\n-- pftrf_gpu, not SPD: A(k,k) = -1, info = LAPACKE's --\n");
    for (int i = 0; i < nneg; i++)
        for (int v = 0; v < 4; v++) {
            int64_t ks[16];
            int cnt = defect_ks(tr_list[v], up_list[v], neg[i], !quick, ks);
            for (int j = 0; j < cnt; j++) {
                fcase_t c = { tr_list[v], up_list[v], neg[i], ks[j], DEF_NEG, 0, 0, 0 };
                run_fcase(&c);
            }
        }
    printf("\n-- pftrf_gpu, NaN input: info as reference LAPACK (NaN pivot) --\n");
    for (int v = 0; v < 4; v++) {
        int64_t n = 257, n1 = rfp_n1(tr_list[v], up_list[v], n);
        int64_t kd[] = { 1, 100, n1, n1 + 1, n }, ko[] = { 100, n1 + 1, 200 };
        for (int j = 0; j < LEN(kd); j++)
            if (!quick || j == 3) {
                fcase_t c = { tr_list[v], up_list[v], n, kd[j], DEF_NAN_DIAG, 0, 0, 0 };
                run_fcase(&c);
            }
        for (int j = 0; j < LEN(ko); j++)
            if (!quick || j == 1) {
                fcase_t c = { tr_list[v], up_list[v], n, ko[j], DEF_NAN_OFF, 0, 0, 0 };
                run_fcase(&c);
            }
    }
    printf("\n-- pftrf_expert_gpu: the fused form (left-looking across the RFP blocks) "
           "and the four-step form, forced --\n");
    {
        static const int64_t fn_full[] = { 2, 63, 64, 65, 127, 128, 129, 257, 384, 385, 386, 1000,
                                            1001 };
        static const int64_t fn_quick[] = { 2, 65, 128, 129, 385, 386 };
        const int64_t *fn = quick ? fn_quick : fn_full;
        const int nfn = quick ? LEN(fn_quick) : LEN(fn_full);
        for (int i = 0; i < nfn; i++)
            for (int f = 1; f < LEN(forms); f++)
                for (int v = 0; v < 4; v++) {
                    fcase_t c = { tr_list[v], up_list[v], fn[i], 0, DEF_NONE, 0, f, 0 };
                    run_fcase(&c);
                }
        /* a failed pivot before, at and after the split, and NaN; odd n, and
         * even n (transr 'N' then runs the fused form realigned) */
        for (int e = 0; e < 2; e++)
            for (int f = 1; f < LEN(forms); f++)
                for (int v = 0; v < 4; v++) {
                    const int64_t n = e ? 386 : 385;
                    int64_t ks[16];
                    int cnt = defect_ks(tr_list[v], up_list[v], n, !quick, ks);
                    for (int j = 0; j < cnt; j++) {
                        fcase_t c = { tr_list[v], up_list[v], n, ks[j], DEF_NEG, 0, f, 0 };
                        run_fcase(&c);
                    }
                    fcase_t c = { tr_list[v], up_list[v], n, 300, DEF_NAN_DIAG, 0, f, 0 };
                    run_fcase(&c);
                }
    }
    /* In single precision the fused form's block-column updates run on the
     * 3xTF32 syrk kernel where its tiles fill the GPU (src/potrf_view.c,
     * op_update): with nb = 1024 from about n = 6000, with A and C each as
     * stored or transposed, rows crossing the split in one launch (L) and
     * the columns of blocks 21 and 22 in two (n = 8192); vector loads
     * only where ld is a multiple of 4 (T at n = 8192). Double runs the same
     * cases through cuBLAS. */
    printf("\n-- pftrf_expert_gpu, nb = 1024, large n (single: updates on the syrk kernel "
           "across the RFP blocks) --\n");
    {
        static const int64_t bn_full[] = { 6000, 6002, 7001, 8192 }, bn_quick[] = { 6000 };
        const int64_t *bn = quick ? bn_quick : bn_full;
        const int nbn = quick ? LEN(bn_quick) : LEN(bn_full);
        for (int i = 0; i < nbn; i++)
            for (int f = FORM_LEFT1024; f <= FORM_LEFT1024O; f++)
                for (int v = 0; v < 4; v++) {
                    fcase_t c = { tr_list[v], up_list[v], bn[i], 0, DEF_NONE, 0, f, 0 };
                    run_fcase(&c);
                }
        /* a failed pivot after the split, and NaN there */
        for (int v = 0; v < 4 && !quick; v++) {
            const int64_t n = 8192, n1 = rfp_n1(tr_list[v], up_list[v], n);
            const int64_t kneg[] = { n1 + 1, 7000 };
            for (int j = 0; j < LEN(kneg); j++) {
                fcase_t c = { tr_list[v], up_list[v], n, kneg[j], DEF_NEG, 0, FORM_LEFT1024, 0 };
                run_fcase(&c);
            }
            fcase_t c = { tr_list[v], up_list[v], n, 7000, DEF_NAN_OFF, 0, FORM_LEFT1024, 0 };
            run_fcase(&c);
        }
        /* order 18436: double's updates take cublasLt's 128 x 128 tiles
         * by the order (from gemm_wide_tile_ld of the tuning table, 18432
         * on sm_90), also in
         * 'T', whose blocks' ld is about n / 2, and where the operands are
         * stored unlike each other (N,L: C transposed against A and B in
         * block 22's columns, T,L the other way round). A Gram matrix of
         * rank 512 + MU I, checked by the residual (on the GPU); 'L' only,
         * since the host-side conversions alone take ~10 s a case */
        for (int v = 0; v < 4 && !quick; v++)
            if (up_list[v] == 'L') {
                fcase_t c = { tr_list[v], up_list[v], 18436, 0, DEF_NONE, 0, 0, 512 };
                run_fcase(&c);
            }
    }
    printf("\n-- pftrf on a host array (library queue) --\n");
    for (int i = 0; i < nhost; i++)
        for (int v = 0; v < 4; v++) {
            fcase_t c = { tr_list[v], up_list[v], hostn[i], 0, DEF_NONE, 1, 0, 0 };
            run_fcase(&c);
        }
    for (int v = 0; v < (quick ? 1 : 4); v++) {
        fcase_t c = { tr_list[v], up_list[v], 257, 200, DEF_NEG, 1, 0, 0 };
        run_fcase(&c);
    }
}

#include "pftrf_pipeline.h"

/* ===========================================================================
 * Suite.
 * ========================================================================= */
static void run_suite(int quick)
{
    run_host_no_device();
    run_quick_returns();
    run_pftrf_suite(quick);
    printf("\n-- pipeline on the GPU --\n");
    for (int v = 0; v < 4; v++)
        run_pipeline(tr_list[v], up_list[v], quick ? 129 : 513);
}

/* ===========================================================================
 * Table mode.
 * ========================================================================= */
static void table_row(char transr, char uplo, int64_t n, int niter)
{
    int64_t nt = testing_rfp_size(n), info = INFO_POISON, linfo = -1;
    const FLOAT *A = gram(n);
    FLOAT *F0 = guarded(NULL, nt), *F = guarded(NULL, nt), *Fref = malloc((size_t)max64(1, nt) * ES);
    FLOAT *dF = NULL;
    double *times = calloc((size_t)niter, sizeof(double)), tg = 0, tc = -1, resid = NAN, diff = NAN;
    char why[256] = "";
    int ok = 1;

    if (!A || !F0 || !F || !Fref || !times) {
        ok = 0;
        goto done;
    }
    LAPACKE_set_nancheck(0);
    LAPACKE(trttf)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, A, (lapack_int)n, F0 + GUARD);
    if (!(dF = upload_guarded(F0, nt))) {
        ok = 0;
        goto done;
    }
    for (int it = -1; it < niter && ok; it++) {
        double t;
        if (TESTING_CUDA(cudaMemcpy(dF, F0, (size_t)(nt + 2 * GUARD) * ES, cudaMemcpyHostToDevice))) {
            ok = 0;
            break;
        }
        t = testing_wtime();
        ok = GCHOL(pftrf_gpu)(transr, uplo, n, dF + GUARD, &info, g_queue) == 0 && info == 0;
        if (it >= 0)
            times[it] = testing_wtime() - t;
    }
    tg = testing_median(times, niter);
    memcpy(Fref, F0 + GUARD, (size_t)nt * ES);
    tc = testing_wtime();
    linfo = LAPACKE(pftrf)(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, Fref);
    tc = testing_wtime() - tc;
    if (ok && download(F, dF, nt + 2 * GUARD) == 0 && linfo == 0) {
        fcase_t c = { transr, uplo, n, 0, DEF_NONE, 0, 0, 0 };
        check_factor(&c, A, F + GUARD, Fref, &resid, &diff, why, sizeof(why));
        ok = !why[0] && guard_violations(F, F0, nt) == 0;
    } else {
        ok = 0;
    }
done:
    testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
    {
        double fl = testing_flops_potrf(n) / 1e9;
        printf("%7lld %10.5f %9.1f %10.5f %9.1f %10.2e %10.2e %6lld  %s\n", (long long)n, tg,
               tg > 0 ? fl / tg : 0.0, tc, tc > 0 ? fl / tc : 0.0, resid, diff, (long long)info,
               ok ? "ok" : "FAILED");
        fflush(stdout);
    }
    cudaFree(dF);
    free(F0); free(F); free(Fref); free(times);
}

static void run_table(const testing_cmdline_t *cmd)
{
    if (!testing_table_can_run(g_queue)) return;
    printf("%s precision, gchol_%cpftrf_gpu, transr %c, uplo %c, niter %d (median)\n",
           PREC_NAME, PREC, cmd->transr, cmd->uplo, cmd->niter);
    printf("CPU reference: LAPACKE_%cpftrf, OpenBLAS core %s; matrix B B^T/n + %.2f I\n", PREC,
           openblas_get_corename(), MU);
    printf("%7s %10s %9s %10s %9s %10s %10s %6s  %s\n", "n", "GPU s", "GPU GF/s", "CPU s",
           "CPU GF/s", "residual", "|L-Lref|", "info", "check");
    for (int64_t i = 0; i < cmd->ns.count; i++)
        table_row(cmd->transr, cmd->uplo, cmd->ns.v[i], cmd->niter);
}

/* ===========================================================================
 * Command line.
 * ========================================================================= */
int main(int argc, char **argv)
{
    const testing_tester_t t = { PREC, "pftrf", TESTING_CMD_TRANSR, &g_queue, arg_entries,
                                 LEN(arg_entries), run_suite, run_table };
    return testing_tester_main(argc, argv, &t);
}
