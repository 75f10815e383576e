/*
 * special.h -- what testing_special.c and testing_partial.c share: the case
 * (precision, triangle, order, and how it is factored: device, expert with a
 * forced driver, host, RFP on the device or the host), the factorization of
 * a host matrix in any of those forms, the generator of well-conditioned SPD
 * matrices of any scale, the residual of a scaled matrix, element access in
 * the lower view, and the command line. Each tester is one translation unit
 * that includes this file once.
 */
#ifndef GCHOL_TESTING_SPECIAL_H
#define GCHOL_TESTING_SPECIAL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <lapacke.h>

#include "gchol.h"
#include "util.h"
#include "../kernels/rfp_index.h"

/* How a case factors its matrix. */
typedef enum { F_GPU, F_EXPERT, F_HOST, F_RFP, F_RFP_HOST } sp_form_t;

typedef struct {
    char    prec, uplo, transr; /* transr: the RFP forms only          */
    int     form;               /* sp_form_t                           */
    int     variant;            /* gchol_variant_t; AUTO: the plain call */
    int64_t nb;                 /* with a variant: nb (0: automatic)   */
    int64_t n;
} sp_case_t;

/* A gchol call that could not be made (the harness failed). */
#define SP_HARNESS ((int64_t)-999)

static gchol_queue_t sp_queue;

static inline int sp_rfp(const sp_case_t *c) { return c->form == F_RFP || c->form == F_RFP_HOST; }

/* Leading dimension of the case's full-storage matrix: three padding rows
 * (RFP forms: none, the array is converted from and to it). */
static inline int64_t sp_lda(const sp_case_t *c) { return c->n + (sp_rfp(c) ? 0 : 3); }

static inline size_t sp_bytes(const sp_case_t *c)
{
    return (size_t)(sp_lda(c) * (c->n > 0 ? c->n : 1)) * testing_elsize(c->prec);
}

/* Element (i, j), i >= j, of the lower view of a stored triangle. */
static inline double sp_at(char p, char uplo, const void *A, int64_t lda, int64_t i, int64_t j)
{
    return uplo == 'L' ? testing_get(p, A, lda, i, j) : testing_get(p, A, lda, j, i);
}
static inline void sp_set(char p, char uplo, void *A, int64_t lda, int64_t i, int64_t j, double v)
{
    if (uplo == 'L') testing_set(p, A, lda, i, j, v);
    else testing_set(p, A, lda, j, i, v);
}

/* The driver the case runs, as the options resolve it (no GPU: sm_90's
 * table); pftrf: its fused form or the four steps. */
static inline const char *sp_route(const sp_case_t *c)
{
    gchol_options_t o = testing_options(c->variant, GCHOL_LOOKAHEAD_AUTO, c->nb, 0);
    if (sp_rfp(c)) {
        gchol_options_t h = o;
        gchol_options_resolve_host(&h, c->prec, c->n);
        return c->variant == GCHOL_VARIANT_LEFT ||
                       (c->variant == GCHOL_VARIANT_AUTO && h.variant == GCHOL_VARIANT_LEFT)
                   ? "fused" : "4step";
    }
    if (c->form == F_HOST) gchol_options_resolve_host(&o, c->prec, c->n);
    else gchol_options_resolve(&o, c->prec, c->n);
    if (c->uplo == 'U' && c->form != F_HOST && o.upper == GCHOL_UPPER_SWAP) return "left+swap";
    return testing_variant_name(o.variant);
}

/* "d potrf_gpu  L  n=1000  tiled" */
static inline void sp_desc(const sp_case_t *c, char *buf, size_t size)
{
    static const char *name[] = { "potrf_gpu", "potrf_xgpu", "potrf", "pftrf_gpu", "pftrf" };
    const char *nm = c->form == F_RFP && c->variant != GCHOL_VARIANT_AUTO ? "pftrf_xgpu"
                                                                          : name[c->form];
    snprintf(buf, size, "%c %-10s %c%c n=%-5lld %-9s", c->prec, nm, sp_rfp(c) ? c->transr : ' ',
             c->uplo, (long long)c->n, sp_route(c));
}

/* Without a GPU: records the case as skipped and returns 1. */
static inline int sp_skip(const char *desc, const char *what)
{
    if (!testing_case_in_part()) return 1; /* another part's case: not counted here */
    if (testing_have_gpu()) return 0;
    testing_skip("%s %s (no GPU)", desc, what);
    return 1;
}

/* Factors the host matrix A (lda; for the RFP forms its uplo triangle,
 * through an RFP array made by LAPACKE_?trttf and read back by ?tfttr) in
 * place, in the case's form. Returns gchol's return value and *info its info
 * argument, or SP_HARNESS when the harness failed (reported). */
static inline int64_t sp_factor(const sp_case_t *c, void *A, int64_t lda, int64_t *info)
{
    const char p = c->prec, u = c->uplo, t = c->transr;
    const int64_t n = c->n, nt = testing_rfp_size(n);
    const int rfp = sp_rfp(c), s = p == 's';
    const gchol_options_t o = testing_options(c->variant, GCHOL_LOOKAHEAD_AUTO, c->nb, 0);
    const gchol_options_t *po = c->variant != GCHOL_VARIANT_AUTO ? &o : NULL;
    const size_t bytes = rfp ? (size_t)nt * testing_elsize(p) : sp_bytes(c);
    void *R = NULL, *d = NULL;
    int64_t ret = SP_HARNESS;
    *info = TESTING_INFO_POISON;
    if (c->form == F_HOST)
        return s ? gchol_spotrf(u, n, A, lda, info) : gchol_dpotrf(u, n, A, lda, info);
    if (rfp) {
        if (!(R = testing_malloc(bytes))) return ret;
        if (s) LAPACKE_strttf(LAPACK_COL_MAJOR, t, u, (lapack_int)n, A, (lapack_int)lda, R);
        else LAPACKE_dtrttf(LAPACK_COL_MAJOR, t, u, (lapack_int)n, A, (lapack_int)lda, R);
    }
    if (c->form == F_RFP_HOST) {
        ret = s ? gchol_spftrf(t, u, n, R, info) : gchol_dpftrf(t, u, n, R, info);
    } else if ((d = testing_upload(rfp ? R : A, bytes)) != NULL) {
        if (c->form == F_GPU)
            ret = s ? gchol_spotrf_gpu(u, n, d, lda, info, sp_queue)
                    : gchol_dpotrf_gpu(u, n, d, lda, info, sp_queue);
        else if (c->form == F_EXPERT)
            ret = s ? gchol_spotrf_expert_gpu(u, n, d, lda, info, po, sp_queue)
                    : gchol_dpotrf_expert_gpu(u, n, d, lda, info, po, sp_queue);
        else if (po)
            ret = s ? gchol_spftrf_expert_gpu(t, u, n, d, info, po, sp_queue)
                    : gchol_dpftrf_expert_gpu(t, u, n, d, info, po, sp_queue);
        else
            ret = s ? gchol_spftrf_gpu(t, u, n, d, info, sp_queue)
                    : gchol_dpftrf_gpu(t, u, n, d, info, sp_queue);
        if (testing_download(rfp ? R : A, d, bytes)) ret = SP_HARNESS;
        cudaFree(d);
    }
    if (rfp && ret != SP_HARNESS) {
        if (s) LAPACKE_stfttr(LAPACK_COL_MAJOR, t, u, (lapack_int)n, R, A, (lapack_int)lda);
        else LAPACKE_dtfttr(LAPACK_COL_MAJOR, t, u, (lapack_int)n, R, A, (lapack_int)lda);
    }
    free(R);
    return ret;
}

/* The case's matrix: NaN everywhere (padding, other triangle), and in the
 * uplo triangle testing_generate_spd's matrix times scale / n: diagonal
 * scale (1 +- 1/n), off-diagonal entries below scale / n in magnitude,
 * eigenvalues within scale (1 +- 1.2 / sqrt(n)). NULL if out of memory. */
static inline void *sp_matrix(const sp_case_t *c, double scale, uint64_t seed)
{
    const char p = c->prec;
    const int64_t n = c->n, lda = sp_lda(c);
    void *A = malloc(sp_bytes(c));
    if (!A) return NULL;
    testing_fill_nan(p, lda * n, A);
    testing_generate_spd(p, c->uplo, n, A, lda, seed);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++)
            sp_set(p, c->uplo, A, lda, i, j, sp_at(p, c->uplo, A, lda, i, j) / (double)n * scale);
    return A;
}

/* The power of two e with 2^(2e) nearest to scale. */
static inline int sp_exponent(double scale) { return (int)lround(log2(scale) / 2); }

/* The residual ratio ||A - L L^T||_1 / (n ||A||_1 eps) of precision p,
 * computed in double on A 2^-2e and L 2^-e (exact scalings by powers of
 * two), so that a matrix scaled near overflow or underflow is measured
 * safely. -1 on a failure. */
static inline double sp_residual(char p, char uplo, int64_t n, const void *A, const void *L,
                                 int64_t lda, int e)
{
    double *Ad = calloc((size_t)(n * n), sizeof(double));
    double *Ld = calloc((size_t)(n * n), sizeof(double)), r = -1;
    if (Ad && Ld) {
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = j; i < n; i++) {
                sp_set('d', uplo, Ad, n, i, j, ldexp(sp_at(p, uplo, A, lda, i, j), -2 * e));
                sp_set('d', uplo, Ld, n, i, j, ldexp(sp_at(p, uplo, L, lda, i, j), -e));
            }
        if (testing_residual('d', uplo, n, Ad, n, Ld, n, NULL, 0, &r)) r = -1;
        else r *= testing_eps('d') / testing_eps(p);
    }
    free(Ad);
    free(Ld);
    return r;
}

/* Entries of the referenced triangle of L that are not finite. */
static inline int64_t sp_count_nonfinite(char p, char uplo, int64_t n, const void *L, int64_t lda)
{
    int64_t bad = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) bad += !isfinite(sp_at(p, uplo, L, lda, i, j));
    return bad;
}

/* The testers' main(): --suite (the default), --quick, --prec. run(prec,
 * quick) runs the cases of one precision. Returns the exit status. */
static inline int sp_main(int argc, char **argv, const char *name, void (*run)(char, int))
{
    int suite = 0, quick = 0;
    const char *precs = "ds", *part = NULL;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the whole suite (the default)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "small orders only (make sanitize)"),
        OPT("--prec", OPT_CHARS, &precs, "ds", "precisions (default ds)", .choices = "ds"),
        OPT("--part", OPT_STRING, &part, "I/K", "the cases i with i mod K = I only"),
        OPT_END
    };
    const opts_program_t prog = { "[--suite] [--quick] [--prec ds] [--part I/K]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    (void)suite;
    if (part && testing_parse_part(part) != 0) {
        fprintf(stderr, "--part %s: want I/K with 0 <= I < K\n", part);
        return 2;
    }
    const double t0 = testing_wtime();
    printf("testing_%s --suite%s  (%s)\n", name, quick ? " --quick" : "",
           testing_have_gpu() ? "GPU present" : "no GPU");
    LAPACKE_set_nancheck(0); /* the inputs hold NaN on purpose */
    sp_queue = testing_queue_or_null();
    for (const char *p = precs; *p; ++p) run(*p, quick);
    if (sp_queue) gchol_queue_destroy(sp_queue);
    if (testing_have_gpu()) gchol_finalize();
    printf("suite time %.1f s\n", testing_wtime() - t0);
    return testing_summary();
}

#endif /* GCHOL_TESTING_SPECIAL_H */
