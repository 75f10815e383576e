/*
 * testing_lowp_host.c -- host-side test of the FP16 / BF16 Cholesky of the
 * mixed-precision solve (src/potrf_lowp.c) with cuBLAS, the CUDA runtime
 * and gchol's launchers mocked, LAPACK as the reference: the driver's
 * offsets, operands and its order over two streams are checked without a
 * GPU, so in CI.
 *
 * The mocks queue each call on its stream (a handle's: the one it is bound
 * to) and run nothing until the host synchronizes; then the streams run in
 * an order that their events allow, favouring the queue's stream, the
 * other streams, or at random. A missing wait then reads stale data or
 * data not yet written (new buffers hold NaN) and shows in the factor.
 * Each buffer's use is checked against its extent and its free; host
 * scalars are read when called (pointer mode host), device ones when run.
 * The products sum in double; the diagonal blocks are LAPACK's; FP16 and
 * BF16 round to nearest even, TF32 to 10 bits.
 *
 * Every case runs three times: twice with the low-precision copies exact
 * (each converter also keeps the float it rounded, which the products
 * read, and TF32 keeps 23 bits), once ordered each way, where the factor
 * must be LAPACK's spotrf's to single's rounding, so that a wrong offset
 * or order is an O(1) error; once rounded, at random, with the backward
 * error of FP16 / BF16. The inverses kept (nb x n) are checked against
 * the inverted diagonal blocks, the failed pivot's info against LAPACK's,
 * and nothing outside the lower triangle and the diagonal blocks written.
 */
#include "../src/potrf_lowp.h"
#include "../src/queue.h"
#include "../src/tune/tune.h"
#include "util.h"

#include "../kernels/gchol_kernels.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowp_mock_state.h"
#include "lowp_mock_exec.h"
#include "lowp_mock_api.h"

/* ---- the cases ------------------------------------------------------------------------ */
typedef struct {
    int64_t n, nb, pad;
    int     form; /* -1: no inverses; 0: inverses kept, panels by strsm;
                     1, 2, 3: panels through them (plan.panel_inverse) */
    int     lookahead;
    int64_t leaf;
    int     bf16;
    int     defect; /* a negative pivot planted in block column 3 */
} lcase_t;

static const char *form_name(int form)
{
    static const char *const names[] = { "strsm", "strsm+inv", "inv-tf32", "inv-fp32",
                                         "inv-lowp" };
    return names[form + 1];
}

/* S = D (B B^T / n + I / 4) D with a unit diagonal (|s_ij| <= 1, modest
 * condition) in the lower triangle of lds x n; NaN above it and in the
 * padding rows, which nothing may read. */
static void make_s(const lcase_t *c, float *S, uint64_t seed)
{
    const int64_t n = c->n, lds = n + c->pad;
    double *B = malloc((size_t)(n * n) * sizeof(double)), *A = malloc((size_t)(n * n) * sizeof(double));
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 12345;
    for (int64_t i = 0; i < n * n; ++i) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        B[i] = (double)(x >> 11) / 9007199254740992.0 * 2 - 1;
    }
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)n, (int)n, 1.0 / (double)n, B,
                (int)n, 0.0, A, (int)n);
    for (int64_t j = 0; j < lds * n; ++j) S[j] = NAN;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = j; i < n; ++i) {
            const double aii = A[i + i * n] + 0.25, ajj = A[j + j * n] + 0.25;
            S[i + j * lds] = i == j ? 1.0f : (float)(A[i + j * n] / sqrt(aii * ajj));
        }
    if (c->defect) {
        const int64_t k0 = 3 * c->nb, kb = n - k0 < c->nb ? n - k0 : c->nb;
        const int64_t p = k0 + (kb > 5 ? 5 : kb - 1);
        S[p + p * lds] = -1.0f;
    }
    free(B);
    free(A);
}

/* max |W - inv(L)| / max |inv(L)| over block column k's kb x kb block
 * (L in Lsrc, ld lds; W in inv, ld nb), and W's strictly upper part 0. */
static double inverse_error(const float *Lsrc, int64_t lds, const float *inv, int64_t nb,
                            int64_t k, int64_t kb)
{
    double *R = calloc((size_t)(kb * kb), sizeof(double));
    for (int64_t j = 0; j < kb; ++j)
        for (int64_t i = j; i < kb; ++i) R[i + j * kb] = Lsrc[(k + i) + (k + j) * lds];
    LAPACKE_dtrtri(LAPACK_COL_MAJOR, 'L', 'N', (lapack_int)kb, R, (lapack_int)kb);
    double diff = 0, big = 0;
    for (int64_t j = 0; j < kb; ++j)
        for (int64_t i = 0; i < kb; ++i) {
            const double w = inv[i + (k + j) * nb];
            if (i < j) {
                if (w != 0) diff = INFINITY;
                continue;
            }
            diff = fmax(diff, fabs(w - R[i + j * kb]));
            if (isnan(w)) diff = INFINITY;
            big = fmax(big, fabs(R[i + j * kb]));
        }
    free(R);
    return diff / big;
}

typedef struct {
    double lerr, berr, ierr; /* vs LAPACK's L, ||S - L L^T|| / ||S||, inverses */
} errors_t;

/* One run of the case under an order; why[] empty when it passes. */
static void run_once(const lcase_t *c, const float *S0, const float *Lref, int64_t info_ref,
                     order_t order, int exact, uint64_t seed, errors_t *err, char *why,
                     size_t why_len)
{
    const int64_t n = c->n, nb = c->nb, lds = n + c->pad;
    float *S = malloc((size_t)(lds * n) * sizeof(float));
    memcpy(S, S0, (size_t)(lds * n) * sizeof(float));
    float *inv = NULL;
    reset_mocks(order, exact, seed);
    add_region(S, (size_t)(lds * n) * sizeof(float), 0);
    if (c->form >= 0) {
        inv = malloc((size_t)(nb * n) * sizeof(float));
        for (int64_t i = 0; i < nb * n; ++i) inv[i] = NAN;
        add_region(inv, (size_t)(nb * n) * sizeof(float), 0);
    }
    const gchol_lowp_plan_t plan = { nb, inv, c->form > 0 ? c->form : 0, c->lookahead, c->leaf };
    int64_t info = -77;
    const int64_t st = gchol_spotrf_lowp(n, S, lds, c->bf16, &plan, &info, &g_queue);
    run_streams(-1); /* what is still queued: the frees */
    why[0] = 0;
    memset(err, 0, sizeof *err);
    int streams_left = 0, events_left = 0, unfreed = 0;
    for (int s = 2; s < MAX_STREAMS; ++s) streams_left += g_streams[s].live;
    for (int e = 0; e < MAX_EVENTS; ++e) events_left += g_events[e].live;
    for (int r = 0; r < g_nregions; ++r) unfreed += g_regions[r].library && !g_regions[r].freed;
    if (g_error[0])
        snprintf(why, why_len, "%s", g_error);
    else if (st != 0)
        snprintf(why, why_len, "status %lld", (long long)st);
    else if (streams_left || events_left || unfreed)
        snprintf(why, why_len, "left behind: %d streams, %d events, %d buffers", streams_left,
                 events_left, unfreed);
    else if (g_handle_stream[0] != 0 || g_handle_stream[1] != 1 ||
             g_handle_mode[0] != CUBLAS_POINTER_MODE_HOST ||
             g_handle_mode[1] != CUBLAS_POINTER_MODE_HOST)
        snprintf(why, why_len, "a handle left on another stream or in device pointer mode");
    else if (info != info_ref)
        snprintf(why, why_len, "info %lld, LAPACK's %lld", (long long)info, (long long)info_ref);
    /* outside the lower triangle and the diagonal blocks, and the padding: as given */
    for (int64_t j = 0; j < n && !why[0]; ++j)
        for (int64_t i = 0; i < lds; ++i) {
            const int inside = i < n && (i >= j || i / nb == j / nb);
            if (!inside && memcmp(&S[i + j * lds], &S0[i + j * lds], sizeof(float))) {
                snprintf(why, why_len, "S(%lld, %lld) written", (long long)i, (long long)j);
                break;
            }
        }
    if (!why[0] && info_ref > 0 && !(S[(info - 1) * (lds + 1)] <= 0))
        snprintf(why, why_len, "the failed pivot S(%lld, %lld) = %g", (long long)info - 1,
                 (long long)info - 1, (double)S[(info - 1) * (lds + 1)]);
    if (!why[0] && info_ref == 0) {
        double big = 0, rnorm = 0, snorm = 0;
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = j; i < n; ++i) {
                const double l = S[i + j * lds], r = Lref[i + j * lds];
                err->lerr = fmax(err->lerr, isnan(l) ? INFINITY : fabs(l - r));
                big = fmax(big, fabs(r));
                double s = 0; /* (L L^T)(i, j) */
                for (int64_t p = 0; p <= j; ++p) s += (double)S[i + p * lds] * S[j + p * lds];
                const double d = S0[i + j * lds] - s, w = i == j ? 1 : 2;
                rnorm += w * d * d;
                snorm += w * (double)S0[i + j * lds] * S0[i + j * lds];
            }
        err->lerr /= big;
        err->berr = isnan(rnorm) ? INFINITY : sqrt(rnorm / snorm);
        /* the inverses: of LAPACK's blocks when exact, of the factor's own when rounded */
        for (int64_t k = 0; inv && k < n; k += nb) {
            const int64_t kb = n - k < nb ? n - k : nb;
            err->ierr = fmax(err->ierr, inverse_error(exact ? Lref : S, lds, inv, nb, k, kb));
        }
        /* exact: single's rounding (seen: 2e-7); rounded: FP16's and BF16's
         * (seen: 2e-4 and 1e-3), with room */
        const double ltol = exact ? 1e-5 : c->bf16 ? 1e-2 : 2e-3;
        const double btol = exact ? 1e-6 : c->bf16 ? 1e-2 : 2e-3;
        const double itol = exact ? 1e-4 : 1e-5;
        if (!(err->lerr <= ltol))
            snprintf(why, why_len, "max |L - LAPACK's| / max |L| %.2e > %.0e", err->lerr, ltol);
        else if (!(err->berr <= btol))
            snprintf(why, why_len, "||S - L L^T|| / ||S|| %.2e > %.0e", err->berr, btol);
        else if (!(err->ierr <= itol))
            snprintf(why, why_len, "inverses off by %.2e > %.0e", err->ierr, itol);
    }
    for (int r = 0; r < g_nregions; ++r)
        if (g_regions[r].library) {
            free(g_regions[r].base);
            free(g_regions[r].shadow);
        }
    g_nregions = 0;
    free(S);
    free(inv);
}

/* Three runs: exact under either order, rounded at random. */
static void run_case(const lcase_t *c, uint64_t seed)
{
    const int64_t n = c->n, lds = n + c->pad;
    float *S0 = malloc((size_t)(lds * n) * sizeof(float));
    float *Lref = malloc((size_t)(lds * n) * sizeof(float));
    make_s(c, S0, seed);
    memcpy(Lref, S0, (size_t)(lds * n) * sizeof(float));
    const int64_t info_ref = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)n, Lref,
                                                 (lapack_int)lds);
    char why[200] = "", msg[240] = "";
    errors_t ex = { 0, 0, 0 }, ro = { 0, 0, 0 };
    static const order_t orders[3] = { ORDER_MAIN_FIRST, ORDER_SIDE_FIRST, ORDER_RANDOM };
    for (int r = 0; r < 3 && !why[0]; ++r) {
        errors_t e;
        run_once(c, S0, Lref, info_ref, orders[r], r < 2, seed + (uint64_t)r, &e, why, sizeof why);
        if (why[0]) snprintf(msg, sizeof msg, ": %s, %s: %s", r < 2 ? "exact" : "rounded",
                             kOrderName[orders[r]], why);
        if (r < 2) {
            ex.lerr = fmax(ex.lerr, e.lerr);
            ex.ierr = fmax(ex.ierr, e.ierr);
        } else {
            ro = e;
        }
    }
    char errs[120] = "";
    if (!why[0] && info_ref == 0)
        snprintf(errs, sizeof errs, "  exact %.1e inv %.1e, rounded %.1e berr %.1e", ex.lerr,
                 ex.ierr, ro.lerr, ro.berr);
    else if (!why[0])
        snprintf(errs, sizeof errs, "  info %lld", (long long)info_ref);
    testing_expect(!why[0], "n=%-3lld nb=%-2lld ld=n+%lld %-9s lookahead %d leaf %-2lld %s%s%s%s",
                   (long long)n, (long long)c->nb, (long long)c->pad, form_name(c->form),
                   c->lookahead, (long long)c->leaf, c->bf16 ? "bf16" : "fp16",
                   c->defect ? " not SPD" : "", errs, msg);
    free(S0);
    free(Lref);
}

/* The converters against values whose rounding is known. */
static void check_converters(void)
{
    static const struct { float f; uint16_t half, bf16; } table[] = {
        { 1.0f, 0x3c00, 0x3f80 },
        { -2.0f, 0xc000, 0xc000 },
        { 65504.0f, 0x7bff, 0x4780 },            /* BF16: 0xe000 past 0x477f, up */
        { 65520.0f, 0x7c00, 0x4780 },           /* FP16: past the largest, Inf */
        { 5.9604645e-08f, 0x0001, 0x3380 },     /* 2^-24: FP16's least subnormal */
        { 1.00048828125f, 0x3c00, 0x3f80 },     /* 1 + 2^-11: a tie, to even */
        { 1.00146484375f, 0x3c02, 0x3f80 },     /* 1 + 3 2^-11: a tie, to even */
        { 1.00390625f, 0x3c04, 0x3f80 },        /* 1 + 2^-8: BF16's tie, to even */
        { 1.01171875f, 0x3c0c, 0x3f82 },        /* 1 + 3 2^-8: BF16's tie, up */
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        bad += float_to_half(table[i].f) != table[i].half;
        bad += float_to_bf16(table[i].f) != table[i].bf16;
        if (table[i].half != 0x7c00) bad += half_to_float(table[i].half) != table[i].f &&
                                            float_to_half(half_to_float(table[i].half)) != table[i].half;
    }
    bad += round_tf32(1.00048828125f) != 1.0f || round_tf32(1.0009765625f) != 1.0009765625f;
    testing_expect(!bad, "FP16 / BF16 / TF32 rounding of the mocks (%d wrong)", bad);
}

/* gchol_lowp_plan_for reads the device's table. */
static void check_plan_for(void)
{
    memset(&g_tune, 0, sizeof g_tune);
    g_tune.lowp_nb_small = 128;
    g_tune.lowp_nb_large_from = 4096;
    g_tune.lowp_nb_large = 256;
    g_tune.lowp_panel_inverse = 3;
    g_tune.lowp_lookahead = 3;
    g_tune.lowp_update_leaf = 1024;
    int64_t nb1, nb2, nb3, leaf;
    int keep, pinv, la;
    gchol_lowp_plan_for(100, &nb1, &keep, &pinv, &la, &leaf);
    gchol_lowp_plan_for(2000, &nb2, &keep, &pinv, &la, &leaf);
    gchol_lowp_plan_for(5000, &nb3, &keep, &pinv, &la, &leaf);
    testing_expect(nb1 == 100 && nb2 == 128 && nb3 == 256 && keep == 1 && pinv == 3 && la == 3 &&
                   leaf == 1024, "gchol_lowp_plan_for from the table (nb %lld %lld %lld)",
                   (long long)nb1, (long long)nb2, (long long)nb3);
    memset(&g_tune, 0, sizeof g_tune);
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: testing_lowp_host (no options)\n");
        return 2;
    }
    openblas_set_num_threads(1); /* LAPACK on small blocks: threads only wait */
    printf("testing_lowp_host  (src/potrf_lowp.c, cuBLAS, CUDA and launchers mocked, "
           "LAPACK's factors)\n");
    check_converters();
    check_plan_for();
    /* nb 32: block columns odd and even in number, the last whole or partial */
    static const int64_t ns[] = { 97, 128, 160, 200, 224, 257 };
    uint64_t seed = 1;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i)
        for (int form = -1; form <= 3; ++form)
            for (int la = 0; la <= 3; ++la)
                for (int leaf = 0; leaf < (la == 3 ? 1 : 2); ++leaf) /* pairs: no split */
                    for (int bf16 = 0; bf16 < 2; ++bf16) {
                        const lcase_t c = { ns[i], 32, (int64_t)(seed % 3) * 5, form, la,
                                            leaf ? 64 : 0, bf16, 0 };
                        run_case(&c, seed++);
                    }
    /* nb 48, not a power of two: 4 blocks whole, 5 with a partial one */
    for (int k = 0; k < 2; ++k)
        for (int form = -1; form <= 3; ++form)
            for (int la = 1; la <= 3; la += 2) {
                const lcase_t c = { k ? 200 : 192, 48, 3, form, la, la == 1 ? 96 : 0, k, 0 };
                run_case(&c, seed++);
            }
    /* nb 16, 11 and 13 block columns: a pair's panels rewritten while the bulk
     * of two pairs back still reads rows of them; splits down to one block
     * column */
    for (int k = 0; k < 2; ++k)
        for (int form = -1; form <= 3; ++form)
            for (int la = 1; la <= 3; ++la) {
                const lcase_t c = { k ? 200 : 176, 16, 2 * k, form, la, la == 3 ? 0 : 16 << (la - 1),
                                    (form + la) % 2 != 0, 0 };
                run_case(&c, seed++);
            }
    /* too few block columns for the lookahead (n <= 2 nb): the plain loop */
    static const int64_t small[][2] = { { 20, 32 }, { 33, 32 }, { 64, 32 }, { 128, 64 } };
    for (int k = 0; k < 4; ++k)
        for (int form = -1; form <= 3; form += 4)
            for (int la = 0; la <= 3; la += 3) {
                /* nb > n: the driver's own clamp without inverses; with them the
                 * caller's nb is at most n, as gchol_lowp_plan_for gives it (inv's
                 * leading dimension) */
                const int64_t nb = form >= 0 && small[k][1] > small[k][0] ? small[k][0] : small[k][1];
                const lcase_t c = { small[k][0], nb, 1, form, la, 0, k % 2, 0 };
                run_case(&c, seed++);
            }
    /* a negative pivot in block column 3: LAPACK's info, the rest factored anyway */
    static const int64_t bad_ns[] = { 97, 160, 200 };
    for (int k = 0; k < 3; ++k)
        for (int form = -1; form <= 3; form += 4)
            for (int la = 0; la <= 3; ++la) {
                const lcase_t c = { bad_ns[k], 32, 2, form, la, la == 1 ? 64 : 0, (k + la) % 2, 1 };
                run_case(&c, seed++);
            }
    printf("  (%ld products)\n", g_products);
    return testing_summary();
}
