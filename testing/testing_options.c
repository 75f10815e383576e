/*
 * testing_options.c -- host-side tests of gchol's options and status codes:
 * gchol_strerror, gchol_options_default, the automatic choices of
 * gchol_options_resolve and gchol_options_resolve_host (variant, block
 * sizes, lookahead, how 'U' runs): valid on this machine's table, and as
 * the sm_90 table has them (src/tune/sm90.c; what the resolve functions use
 * without a GPU); options outside their ranges rejected as argument 6, and
 * queue creation. Runs without a GPU (and with one).
 *
 *   testing_options
 *
 * Ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "gchol.h"
#include "opts.h"
#include "util.h"
#include "tune/tune.h" /* the sm_90 table */

#define LEN(a) TESTING_LEN(a)

/* ---------------------------------------------------------------------------
 * gchol_strerror.
 * ------------------------------------------------------------------------- */
static void test_strerror(void)
{
    static const int64_t lib[] = { GCHOL_SUCCESS, GCHOL_ERR_NO_DEVICE,
        GCHOL_ERR_DEVICE_ALLOC, GCHOL_ERR_HOST_ALLOC, GCHOL_ERR_CUDA,
        GCHOL_ERR_CUBLAS, GCHOL_ERR_INVALID_QUEUE, GCHOL_ERR_INVALID_VALUE,
        GCHOL_ERR_DRIVER_TOO_OLD, GCHOL_ERR_COMM };
    static const int64_t other[] = { -1, -7, 1, 12345, -99, -109, -603, -100000 };
    int distinct = 1;
    printf("-- gchol_strerror --\n");
    for (int i = 0; i < LEN(lib); i++) {
        const char *s = gchol_strerror(lib[i]);
        testing_expect(s && *s, "strerror(%lld) = \"%s\"", (long long)lib[i], s ? s : "(null)");
        for (int j = 0; j < i && s; j++) {
            const char *t = gchol_strerror(lib[j]);
            distinct &= !(t && !strcmp(s, t));
        }
    }
    testing_expect(distinct, "library codes have distinct strings");
    for (int i = 0; i < LEN(other); i++) {
        const char *s = gchol_strerror(other[i]);
        testing_expect(s && *s, "strerror(%lld) = \"%s\"", (long long)other[i], s ? s : "(null)");
    }
}

/* ---------------------------------------------------------------------------
 * Options.
 * ------------------------------------------------------------------------- */

/* gchol_options_resolve and _resolve_host on the sm_90 table, whatever GPU
 * this machine has. */
static void resolve_sm90(gchol_options_t *o, char prec, int64_t n)
{
    gchol_options_resolve_tuned(o, gchol_tune_select(9, 0), prec, n);
}

static void resolve_host_sm90(gchol_options_t *o, char prec, int64_t n)
{
    gchol_options_resolve_host_tuned(o, gchol_tune_select(9, 0), prec, n);
}

/* What auto resolves to for (precision, n): variant and block sizes. */
typedef struct {
    char    prec;
    int64_t n;
    int     variant;
    int64_t nb, recnb;
} resolved_t;

/* What auto must resolve to on table t for (precision, n), from the table's
 * own words: the host interface's switch to left-looking (io_tiled_below,
 * its nb io_nb from io_nb_from) when host; the tiled kernel below
 * tiled_below (its nb 64, lookahead off); otherwise the automatic table's
 * row that holds n. */
static void expected_auto(const gchol_prec_tune_t *p, int64_t n, int host, resolved_t *w,
                          int *lookahead)
{
    const gchol_auto_row_t *row = p->auto_rows;
    while (row->n_below != INT64_MAX && row + 1 < p->auto_rows + GCHOL_TUNE_AUTO_ROWS &&
           n >= row->n_below)
        ++row;
    w->n = n;
    if (!(host && n >= p->io_tiled_below) && n < p->tiled_below) {
        w->variant = GCHOL_VARIANT_TILED;
        w->nb = w->recnb = 64;
        *lookahead = GCHOL_LOOKAHEAD_OFF;
        return;
    }
    w->variant = host && n >= p->io_tiled_below ? GCHOL_VARIANT_LEFT : row->variant;
    w->nb = host && n >= p->io_nb_from && w->variant == GCHOL_VARIANT_LEFT ? p->io_nb : row->nb;
    w->recnb = row->recnb;
    *lookahead = row->lookahead;
}

/* Checks resolve (host = 0) or resolve_host (1) at n against the table. */
static void expect_table_at(const gchol_prec_tune_t *p, char prec, int64_t n, int host)
{
    resolved_t w = { prec, n, 0, 0, 0 };
    int lookahead;
    gchol_options_t o;
    expected_auto(p, n, host, &w, &lookahead);
    gchol_options_default(&o);
    (host ? resolve_host_sm90 : resolve_sm90)(&o, prec, n);
    const int upper = n >= p->upper_swap_from && o.variant == GCHOL_VARIANT_LEFT &&
                      o.lookahead == GCHOL_LOOKAHEAD_ON && n > o.nb
                    ? GCHOL_UPPER_SWAP : GCHOL_UPPER_VIEW;
    gchol_options_default(&o);
    o.upper = GCHOL_UPPER_AUTO;
    (host ? resolve_host_sm90 : resolve_sm90)(&o, prec, n);
    testing_expect(o.variant == w.variant && o.nb == w.nb && o.recnb == w.recnb &&
                       o.lookahead == lookahead && o.upper == upper,
                   "%s('%c', %lld): variant %d nb %lld recnb %lld lookahead %d upper %d (want "
                   "%d, %lld, %lld, %d, %d)", host ? "resolve_host" : "resolve", prec,
                   (long long)n, o.variant, (long long)o.nb, (long long)o.recnb, o.lookahead,
                   o.upper, w.variant, (long long)w.nb, (long long)w.recnb, lookahead, upper);
}

/* auto on the sm_90 table at both ends of every range the table defines:
 * the tiled switch, each row of the automatic table, the swap of 'U', the
 * host interface's switch and nb; and pftrf's fused form from the host
 * interface's switch. */
static void test_table(char prec)
{
    const gchol_tune_t *t = gchol_tune_select(9, 0);
    const gchol_prec_tune_t *p = gchol_tune_prec(t, prec);
    int64_t lo = 1;
    for (int r = 0; r < GCHOL_TUNE_AUTO_ROWS; r++) {
        const gchol_auto_row_t *row = &p->auto_rows[r];
        const int64_t hi = row->n_below == INT64_MAX ? lo + 40960 : row->n_below - 1;
        if (lo <= hi) {
            expect_table_at(p, prec, lo, 0);
            if (hi > lo) expect_table_at(p, prec, hi, 0);
        }
        if (row->n_below == INT64_MAX)
            break;
        lo = row->n_below;
    }
    static const int64_t from_host[] = { -1, 0 };
    const int64_t edges[] = { p->tiled_below, p->upper_swap_from, p->io_tiled_below,
                              p->io_nb_from };
    for (int e = 0; e < LEN(edges); e++)
        for (int k = 0; k < LEN(from_host); k++)
            if (edges[e] != INT64_MAX && edges[e] + from_host[k] >= 1)
                for (int host = 0; host < 2; host++)
                    expect_table_at(p, prec, edges[e] + from_host[k], host);
    testing_expect(gchol_left_auto_from_tuned(t, prec) == p->io_tiled_below,
                   "left_auto_from('%c'): %lld (want the host interface's switch, %lld)", prec,
                   (long long)gchol_left_auto_from_tuned(t, prec), (long long)p->io_tiled_below);
}

static void test_options(void)
{
    static const int64_t ns[] = { 0, 1, 2, 31, 64, 100, 129, 1000, 4096, 10000, 46500 };
    static const char precs[] = { 'd', 's' };
    gchol_options_t o;
    gchol_trace_t dummy;
    printf("-- options --\n");
    memset(&o, 0x5A, sizeof(o));
    gchol_options_default(&o);
    testing_expect(o.variant == GCHOL_VARIANT_AUTO && o.nb == 0 && o.recnb == 0 &&
                   o.lookahead == GCHOL_LOOKAHEAD_AUTO && o.trace == NULL,
                   "options_default: variant %d nb %lld recnb %lld lookahead %d trace %p",
                   o.variant, (long long)o.nb, (long long)o.recnb, o.lookahead, (void *)o.trace);
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < LEN(ns); i++) {
            gchol_options_default(&o);
            gchol_options_resolve(&o, precs[p], ns[i]);
            testing_expect((o.variant == GCHOL_VARIANT_LEFT || o.variant == GCHOL_VARIANT_RIGHT ||
                            (o.variant == GCHOL_VARIANT_TILED && o.nb == 64 && ns[i] <= 16384)) &&
                           o.nb >= 1 && o.recnb >= 1 &&
                           (o.lookahead == GCHOL_LOOKAHEAD_ON || o.lookahead == GCHOL_LOOKAHEAD_OFF) &&
                           o.trace == NULL,
                           "resolve('%c', n=%lld): variant %d nb %lld recnb %lld lookahead %d",
                           precs[p], (long long)ns[i], o.variant, (long long)o.nb,
                           (long long)o.recnb, o.lookahead);
        }
    /* explicit choices are kept */
    gchol_options_default(&o);
    o.variant = GCHOL_VARIANT_LEFT;
    o.nb = 256;
    o.recnb = 32;
    o.lookahead = GCHOL_LOOKAHEAD_ON;
    o.trace = &dummy;
    gchol_options_resolve(&o, 'd', 5000);
    testing_expect(o.variant == GCHOL_VARIANT_LEFT && o.nb == 256 && o.recnb == 32 &&
                   o.lookahead == GCHOL_LOOKAHEAD_ON && o.trace == &dummy,
                   "resolve keeps explicit choices (left, nb 256, recnb 32, lookahead on)");
    /* the tiled kernel: kept up to its largest n, left-looking above */
    for (int p = 0; p < 2; p++) {
        gchol_options_default(&o);
        o.variant = GCHOL_VARIANT_TILED;
        gchol_options_resolve(&o, precs[p], 16384);
        testing_expect(o.variant == GCHOL_VARIANT_TILED && o.nb == 64 &&
                       o.lookahead == GCHOL_LOOKAHEAD_OFF,
                       "resolve('%c', tiled, n=16384) stays tiled (variant %d nb %lld)", precs[p],
                       o.variant, (long long)o.nb);
        gchol_options_default(&o);
        o.variant = GCHOL_VARIANT_TILED;
        gchol_options_resolve(&o, precs[p], 16385);
        testing_expect(o.variant == GCHOL_VARIANT_LEFT && o.nb >= 128,
                       "resolve('%c', tiled, n=16385) falls back to left-looking (variant %d nb %lld)",
                       precs[p], o.variant, (long long)o.nb);
    }
    /* the automatic choices: those the sm_90 table describes (test_table) */
    test_table('d');
    test_table('s');
    /* a variant asked for is kept by the host interface's auto */
    gchol_options_default(&o);
    o.variant = GCHOL_VARIANT_TILED;
    gchol_options_resolve_host(&o, 's', 7000);
    testing_expect(o.variant == GCHOL_VARIANT_TILED, "resolve_host('s', 7000, tiled asked): "
                   "variant %d (want tiled)", o.variant);
    /* products: accurate by default; values outside the enum, and FP16 and
     * BF16 (gchol_dswls_expert_gpu's only), are argument 6 */
    {
        double a = 1.0;
        int64_t info = 0;
        gchol_options_default(&o);
        testing_expect(o.products == GCHOL_PRODUCTS_ACCURATE, "options_default: products %d (want "
                       "accurate)", o.products);
        static const int bad[] = { -1, GCHOL_PRODUCTS_FP16, GCHOL_PRODUCTS_BF16,
                                   GCHOL_PRODUCTS_BF16 + 1 };
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            const int v = bad[k];
            o.products = v;
            int64_t r = gchol_dpotrf_expert_gpu('L', 1, &a, 1, &info, &o, NULL);
            testing_expect(r == -6 && info == -6, "potrf_expert_gpu with products %d: %lld (want -6)",
                           v, (long long)r);
        }
    }
    /* a variant past the last one is argument 6 */
    {
        double a = 1.0;
        int64_t info = 0;
        gchol_options_default(&o);
        o.variant = GCHOL_VARIANT_TILED + 1;
        int64_t r = gchol_dpotrf_expert_gpu('L', 1, &a, 1, &info, &o, NULL);
        testing_expect(r == -6 && info == -6, "potrf_expert_gpu with variant %d: %lld (want -6)",
                       o.variant, (long long)r);
    }
    /* how 'U' runs: auto by default, the swap from the table's n on (single
     * only), explicit choices kept, values outside the enum are argument 6 */
    {
        gchol_options_default(&o);
        testing_expect(o.upper == GCHOL_UPPER_AUTO, "options_default: upper %d (want auto)",
                       o.upper);
        /* auto swaps only where it was measured: left-looking with lookahead */
        const int64_t big = 40960;
        static const int forced[] = { GCHOL_VARIANT_RIGHT, GCHOL_VARIANT_TILED };
        for (int i = 0; i < LEN(forced); i++) {
            gchol_options_default(&o);
            o.variant = forced[i];
            resolve_sm90(&o, 's', forced[i] == GCHOL_VARIANT_TILED ? 8192 : big);
            testing_expect(o.upper == GCHOL_UPPER_VIEW, "resolve('s', variant %d): upper %d "
                           "(want the view)", forced[i], o.upper);
        }
        gchol_options_default(&o);
        o.lookahead = GCHOL_LOOKAHEAD_OFF;
        resolve_sm90(&o, 's', big);
        testing_expect(o.upper == GCHOL_UPPER_VIEW, "resolve('s', %lld, lookahead off): upper %d "
                       "(want the view)", (long long)big, o.upper);
        for (int u = GCHOL_UPPER_VIEW; u <= GCHOL_UPPER_SWAP; u++) {
            gchol_options_default(&o);
            o.upper = u;
            gchol_options_resolve(&o, 's', u == GCHOL_UPPER_VIEW ? 40960 : 100);
            testing_expect(o.upper == u, "resolve keeps upper %d", u);
        }
        static const int bad[] = { GCHOL_UPPER_AUTO - 1, GCHOL_UPPER_SWAP + 1 };
        for (int i = 0; i < LEN(bad); i++) {
            double a = 1.0;
            int64_t info = 0;
            gchol_options_default(&o);
            o.upper = bad[i];
            int64_t r = gchol_dpotrf_expert_gpu('U', 1, &a, 1, &info, &o, NULL);
            testing_expect(r == -6 && info == -6 && a == 1.0,
                           "potrf_expert_gpu with upper %d: %lld (want -6)", o.upper, (long long)r);
        }
    }
}

/* ---------------------------------------------------------------------------
 * Queues.
 * ------------------------------------------------------------------------- */
static void test_queues(void)
{
    gchol_queue_t q = NULL;
    int64_t ret;
    printf("-- queues --\n");
    testing_expect(gchol_queue_destroy(NULL) == 0, "gchol_queue_destroy(NULL) returns 0");
    ret = gchol_queue_create(-1, &q);
    if (!testing_have_gpu()) {
        testing_expect(ret == GCHOL_ERR_NO_DEVICE, "queue_create without GPU: %lld", (long long)ret);
        ret = gchol_queue_create_from_stream(-1, NULL, &q);
        testing_expect(ret == GCHOL_ERR_NO_DEVICE, "queue_create_from_stream without GPU: %lld",
                       (long long)ret);
        return;
    }
    testing_expect(ret == 0 && q != NULL, "queue_create: %lld", (long long)ret);
    if (ret == 0) {
        testing_expect(gchol_queue_stream(q) != NULL, "queue_stream is the queue's own stream");
        testing_expect(gchol_queue_sync(q) == 0, "queue_sync");
        testing_expect(gchol_queue_destroy(q) == 0, "queue_destroy");
    }
    {
        cudaStream_t s = NULL;
        q = NULL;
        if (!TESTING_CUDA(cudaStreamCreate(&s))) {
            ret = gchol_queue_create_from_stream(-1, s, &q);
            testing_expect(ret == 0 && gchol_queue_stream(q) == s,
                           "queue_create_from_stream: %lld, stream kept", (long long)ret);
            if (ret == 0) {
                testing_expect(gchol_queue_sync(q) == 0, "queue_sync (own stream)");
                testing_expect(gchol_queue_destroy(q) == 0, "queue_destroy (own stream)");
            }
            testing_expect(cudaStreamSynchronize(s) == cudaSuccess,
                           "caller's stream still valid after queue_destroy");
            cudaStreamDestroy(s);
        } else {
            testing_record(TESTING_FAILED);
        }
    }
}

int main(int argc, char **argv)
{
    const opt_t opts[] = { OPT_END };
    const opts_program_t prog = { "", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    printf("testing_options (%s)\n", testing_have_gpu() ? "GPU present" : "no GPU");
    test_strerror();
    test_options();
    test_queues();
    if (testing_have_gpu())
        gchol_finalize();
    return testing_summary();
}
