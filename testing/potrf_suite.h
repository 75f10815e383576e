/*
 * potrf_suite.h -- testing_?potrf's suite: the case lists (sizes around
 * every block and tile boundary, every interface, variant and defect), the
 * triangle swap kernel alone, and run_suite.
 * Part of testing_potrf.c, which includes it once (its types, the running
 * of one case and the precision macros come first).
 */
#ifndef GCHOL_TESTING_POTRF_SUITE_H
#define GCHOL_TESTING_POTRF_SUITE_H

/* ---------------------------------------------------------------------------
 * The suite.
 * ------------------------------------------------------------------------- */
typedef struct {
    case_t *v;
    int64_t count, cap;
} case_list_t;

static void add(case_list_t *l, int64_t n, int64_t pad, char uplo, int iface,
                int variant, int lookahead, int defect, int64_t k)
{
    case_t c = { n, pad, uplo, iface, variant, lookahead, 0, 0, defect, k, GCHOL_UPPER_AUTO };
    l->v = testing_grow(l->v, l->count, &l->cap, sizeof(case_t));
    l->v[l->count++] = c;
}

/* The last case added, with an explicit way of running 'U'. */
static void set_upper(case_list_t *l, int upper)
{
    l->v[l->count - 1].upper = upper;
}

/* The last case added, with explicit block sizes. */
static void set_blocks(case_list_t *l, int64_t nb, int64_t recnb)
{
    l->v[l->count - 1].nb = nb;
    l->v[l->count - 1].recnb = recnb;
}

static int in_list(int64_t x, const int64_t *v, int len)
{
    for (int i = 0; i < len; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

#define LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char uplos[] = { 'L', 'U' };
static const int  variants[] = { GCHOL_VARIANT_LEFT, GCHOL_VARIANT_RIGHT, GCHOL_VARIANT_TILED };
static const int  lookaheads[] = { GCHOL_LOOKAHEAD_ON, GCHOL_LOOKAHEAD_OFF };

/* Every option combination (uplo x variant x lookahead) of one matrix. */
static void add_cross(case_list_t *l, int64_t n, int64_t pad, int defect, int64_t k)
{
    for (int u = 0; u < 2; u++)
        for (int v = 0; v < LEN(variants); v++)
            for (int a = 0; a < 2; a++)
                add(l, n, pad, uplos[u], IF_EXPERT_GPU, variants[v], lookaheads[a], defect, k);
}

/* A list of sizes (or columns) with its length. */
typedef struct {
    const int64_t *v;
    int len;
} list_t;
#define LIST(a) { a, LEN(a) }

/* The suite's parameters; the quick set (for the sanitizers) is smaller. */
typedef struct {
    list_t  sizes, cross, iface_n, pad_n, neg_k, boundary_k, nan_k;
    int64_t nd;      /* order of the non-SPD / NaN matrices              */
    int     thin;    /* 1: one variant per (uplo, k) instead of all      */
} suite_t;

static const int64_t sizes_full[] = { 0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129,
    255, 256, 257, 511, 512, 513, 1000, 1023, 1025, 2049, 3001 };
static const int64_t sizes_quick[] = { 0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129,
    255, 256, 257 };
static const int64_t cross_full[] = { 1, 3, 65, 129, 257, 513, 1025, 2049, 3001 };
static const int64_t cross_quick[] = { 65, 257 };
static const int64_t iface_full[] = { 1, 33, 257, 1025 }, iface_quick[] = { 257 };
static const int64_t pad_full[] = { 65, 513, 1000 }, pad_quick[] = { 65 };
static const int64_t neg_full[] = { 1, 37, 100, 550, 1100 }, neg_quick[] = { 1, 37, 150, 300 };
static const int64_t bnd_full[] = { 64, 65, 128, 129, 256, 257, 512, 513 };
static const int64_t bnd_quick[] = { 64, 65, 128, 129, 256, 257 };
static const int64_t nan_full[] = { 1, 129, 550, 1100 }, nan_quick[] = { 129 };

static const suite_t suite_full = { LIST(sizes_full), LIST(cross_full), LIST(iface_full),
    LIST(pad_full), LIST(neg_full), LIST(bnd_full), LIST(nan_full), 1100, 0 };
static const suite_t suite_quick = { LIST(sizes_quick), LIST(cross_quick), LIST(iface_quick),
    LIST(pad_quick), LIST(neg_quick), LIST(bnd_quick), LIST(nan_quick), 300, 1 };

/* One matrix with a defect: all variants (x lookahead if cross), or in thin
 * mode one variant and lookahead chosen by `pick`. */
static void add_defect(case_list_t *l, const suite_t *s, char uplo, int defect, int64_t k,
                       int cross, int pick)
{
    for (int v = 0; v < LEN(variants); v++)
        for (int a = 0; a < (cross ? 2 : 1); a++)
            if (!s->thin || (v == pick % LEN(variants) && a == (cross ? pick / LEN(variants) % 2 : 0)))
                add(l, s->nd, 0, uplo, IF_EXPERT_GPU, variants[v],
                    cross ? lookaheads[a] : GCHOL_LOOKAHEAD_AUTO, defect, k);
}

/* Builds the case list. */
static void build_suite(case_list_t *l, int quick)
{
    static const int ifaces[] = { IF_ASYNC, IF_HOST, IF_HOST_EXPERT, IF_STREAM };
    static const int bad_values[] = { DEF_NAN_DIAG, DEF_INF_DIAG, DEF_NAN_OFF };
    static const int64_t pads[] = { 3, 64 };
    const suite_t *s = quick ? &suite_quick : &suite_full;
    int pick = 0;

    /* sizes: full option cross product for a subset, defaults for the rest */
    for (int i = 0; i < s->sizes.len; i++) {
        int64_t n = s->sizes.v[i];
        if (in_list(n, s->cross.v, s->cross.len))
            add_cross(l, n, 0, DEF_NONE, 0);
        else
            for (int u = 0; u < (quick ? 1 : 2); u++)
                add(l, n, 0, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
    }
    /* the other interfaces */
    for (int i = 0; i < s->iface_n.len; i++)
        for (int u = 0; u < 2; u++)
            for (int f = 0; f < LEN(ifaces); f++)
                add(l, s->iface_n.v[i], 0, uplos[u], ifaces[f], 0, GCHOL_LOOKAHEAD_AUTO,
                    DEF_NONE, 0);
    /* lda > n with NaN padding */
    for (int i = 0; i < s->pad_n.len; i++)
        for (int p = 0; p < LEN(pads); p++)
            for (int u = 0; u < 2; u++) {
                int64_t n = s->pad_n.v[i];
                add(l, n, pads[p], uplos[u], IF_EXPERT_GPU, variants[p], lookaheads[p], DEF_NONE, 0);
                add(l, n, pads[p], uplos[u], IF_ASYNC, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
                add(l, n, pads[p], uplos[u], IF_HOST_EXPERT, variants[1 - p],
                    GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
                add(l, n, pads[p], uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
                    GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
            }
    /* not SPD at column k: tiny, through every interface, first / inside the
     * recursion / middle / last, and at block boundaries */
    for (int u = 0; u < 2; u++) {
        add(l, 1, 0, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 1);
        add(l, 2, 0, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 2);
        add(l, 3, 1, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 2);
        for (int f = 0; f < LEN(ifaces); f++)
            add(l, s->nd, 5, uplos[u], ifaces[f], 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 100);
        for (int i = 0; i < s->neg_k.len; i++)
            add_defect(l, s, uplos[u], DEF_NEG, s->neg_k.v[i], 0, pick++);
        for (int i = 0; i < s->boundary_k.len; i++)
            add_defect(l, s, uplos[u], DEF_NEG, s->boundary_k.v[i], 1, pick++);
    }
    /* NaN / Inf: info as reference LAPACK, no hang */
    for (int d = 0; d < LEN(bad_values); d++)
        for (int u = 0; u < 2; u++) {
            for (int i = 0; i < s->nan_k.len; i++)
                if (!(bad_values[d] == DEF_NAN_OFF && s->nan_k.v[i] < 2))
                    add_defect(l, s, uplos[u], bad_values[d], s->nan_k.v[i], 0, pick++);
            if (!quick)
                add(l, 100, 0, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, bad_values[d], 50);
        }
    /* pivots near underflow and overflow: every variant, and the tiled
     * kernel alone at a size of two blocks per SM */
    static const int scaled[] = { DEF_TINY, DEF_HUGE, DEF_GRADED_TINY, DEF_GRADED_HUGE };
    for (int q = 0; q < LEN(scaled); q++)
        for (int u = 0; u < 2; u++) {
            add_defect(l, s, uplos[u], scaled[q], 0, 0, pick++);
            add(l, quick ? 200 : 3000, 1, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
                GCHOL_LOOKAHEAD_AUTO, scaled[q], 0);
        }
    for (int u = 0; u < 2; u++) {
        add_defect(l, s, uplos[u], DEF_SUB_PIVOT, 37, 0, pick++);
        add(l, quick ? 200 : 3000, 1, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
            GCHOL_LOOKAHEAD_AUTO, DEF_SUB_PIVOT, quick ? 100 : 1500);
        /* k, k + 1 in one 8-column block of potf2 (k = 37, 1501) */
        add_defect(l, s, uplos[u], DEF_SQ_UNDER, 37, 0, pick++);
        add(l, quick ? 200 : 3000, 1, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
            GCHOL_LOOKAHEAD_AUTO, DEF_SQ_UNDER, quick ? 101 : 1501);
    }
    /* blocked drivers with panels wider than recnb: split around a syrk and
     * gemm, tiled leaves (and the recursive fallback, nb not a multiple of
     * the tiles); a pivot failure inside a split panel */
    {
        static const int64_t blk_full[] = { 1025, 3001 }, blk_quick[] = { 1025 };
        static const int64_t nbs[][2] = { { 512, 128 }, { 320, 192 }, { 200, 128 } };
        const int64_t *blk = quick ? blk_quick : blk_full;
        const int nblk = quick ? LEN(blk_quick) : LEN(blk_full);
        for (int i = 0; i < nblk; i++)
            for (int u = 0; u < 2; u++)
                for (int v = 0; v < 2; v++)
                    for (int b = 0; b < LEN(nbs); b++) {
                        add(l, blk[i], 0, uplos[u], IF_EXPERT_GPU, variants[v], lookaheads[b % 2],
                            DEF_NONE, 0);
                        set_blocks(l, nbs[b][0], nbs[b][1]);
                    }
        for (int u = 0; u < 2; u++)
            for (int v = 0; v < 2; v++) {
                add(l, 1025, 0, uplos[u], IF_EXPERT_GPU, variants[v], GCHOL_LOOKAHEAD_ON, DEF_NEG,
                    700);
                set_blocks(l, 512, 128);
            }
        /* the automatic table's widest pair (2048 / 256, double): eight
         * tiled leaves per block column, a failure in the second one */
        if (!quick)
            for (int u = 0; u < 2; u++) {
                add(l, 5000, 3, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NONE, 0);
                set_blocks(l, 2048, 256);
                add(l, 4500, 0, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NEG, 2400);
                set_blocks(l, 2048, 256);
            }
        /* the host interface with its transfers interleaved (left-looking
         * with lookahead): NaN padding and other triangle, a failure; from
         * pageable memory (staged copies) and from pinned memory (direct) */
        static const int host_ifaces[] = { IF_HOST_EXPERT, IF_HOST_PINNED };
        for (int h = 0; h < 2; h++)
            for (int u = 0; u < 2; u++) {
                add(l, 1025, 7, uplos[u], host_ifaces[h], GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NONE, 0);
                set_blocks(l, 128, 128);
                add(l, 1025, 7, uplos[u], host_ifaces[h], GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NEG, 700);
                set_blocks(l, 256, 128);
            }
        /* the bulk update on the single-precision 3xTF32 syrk kernel (used
         * where its tiles fill 3/4 of the waves: here 132 or more tiles);
         * ld a multiple of 4 (16-byte copies) and odd (element copies) */
        for (int u = 0; u < 2; u++) {
            add(l, 2500, 0, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                DEF_NONE, 0);
            set_blocks(l, 1024, 512);
            if (!quick) {
                add(l, 4099, 1, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_OFF,
                    DEF_NONE, 0);
                set_blocks(l, 512, 256);
                add(l, 4099, 2, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NEG, 3000);
                set_blocks(l, 512, 256);
                add(l, 5000, 0, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_AUTO,
                    DEF_ILLCOND, 0);
                set_blocks(l, 1024, 512);
            }
        }
        if (!quick) {
            for (int u = 0; u < 2; u++) {
                add(l, 3001, 5, uplos[u], IF_HOST_EXPERT, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NONE, 0);
                set_blocks(l, 1024, 512);
                /* copies of more than one 16 MB staging buffer each */
                add(l, 6000, 9, uplos[u], IF_HOST_EXPERT, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
                    DEF_NONE, 0);
                set_blocks(l, 1024, 512);
                /* the host interface's own auto: left-looking (transfers
                 * interleaved) from its own switch (io_tiled_below of the
                 * tuning table), below the device routines' tiled switch */
                add(l, 7000, 0, uplos[u], IF_HOST, GCHOL_VARIANT_AUTO, GCHOL_LOOKAHEAD_AUTO,
                    DEF_NONE, 0);
                /* the tiled kernel on a whole matrix: single upper's
                 * 3xTF32 worker update at one block per SM, and auto's
                 * sizes around its switch (tiled_below of the tuning
                 * table); two blocks per SM above the table's one-block
                 * limit; a failed pivot there */
                add(l, 4000, 3, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
                    GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
                add(l, 5300, 1, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 4400);
                add(l, 6500, 0, uplos[u], IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
                add(l, 6500, 1, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_TILED,
                    GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 5000);
            }
            /* updates taller than the tuning table's gemm_upper_chunk
             * (single, 'U') and gemm_lower_chunk ('L') go in pieces (4096
             * and 8192 rows on sm_90) */
            add(l, 4700, 3, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON, DEF_NONE, 0);
            set_blocks(l, 256, 256);
            add(l, 8800, 3, 'L', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON, DEF_NONE, 0);
            set_blocks(l, 512, 256);
            /* lda >= the tuning table's gemm_wide_tile_ld (double, 18432
             * on sm_90): the updates run on cublasLt's 128 x 128 tiles
             * (src/gemm_lt.c) where the columns are 16-byte aligned (not
             * lda 18433); a failure past them */
            for (int u = 0; u < 2; u++) {
                add(l, 3000, 18436 - 3000, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT,
                    GCHOL_LOOKAHEAD_ON, DEF_NONE, 0);
                set_blocks(l, 512, 256);
                add(l, 3001, 18433 - 3001, uplos[u], IF_EXPERT_GPU, GCHOL_VARIANT_LEFT,
                    GCHOL_LOOKAHEAD_ON, DEF_NEG, 2500);
                set_blocks(l, 512, 512);
            }
            add(l, 2900, 18440 - 2900, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_RIGHT,
                GCHOL_LOOKAHEAD_ON, DEF_NONE, 0);
            set_blocks(l, 512, 256);
            add(l, 12000, 36868 - 12000, 'L', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT,
                GCHOL_LOOKAHEAD_ON, DEF_NONE, 0);
            set_blocks(l, 1024, 512);
            add(l, 12000, 36870 - 12000, 'L', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT,
                GCHOL_LOOKAHEAD_OFF, DEF_NEG, 11000);
            set_blocks(l, 1024, 256);
        }
    }
    /* 'U' by swapping the triangles (the default for large single): every
     * variant, odd sizes, padding, the interfaces, pivot failures and NaN
     * (the other triangle, tagged NaNs, must come back bit for bit); the
     * host interface falls back to the view. And the view where auto swaps. */
    {
        static const int64_t sw_full[] = { 2, 3, 33, 65, 257, 1025, 3001 },
                             sw_quick[] = { 2, 65, 257 };
        const int64_t *sw = quick ? sw_quick : sw_full;
        const int nsw = quick ? LEN(sw_quick) : LEN(sw_full);
        for (int i = 0; i < nsw; i++)
            for (int v = 0; v < LEN(variants); v++) {
                add(l, sw[i], i % 3, 'U', IF_EXPERT_GPU, variants[v], lookaheads[i % 2], DEF_NONE,
                    0);
                set_upper(l, GCHOL_UPPER_SWAP);
            }
        static const int sw_ifaces[] = { IF_ASYNC, IF_STREAM, IF_HOST_EXPERT };
        for (int f = 0; f < LEN(sw_ifaces); f++) {
            add(l, quick ? 257 : 1025, 5, 'U', sw_ifaces[f], 0, GCHOL_LOOKAHEAD_AUTO, DEF_NONE, 0);
            set_upper(l, GCHOL_UPPER_SWAP);
        }
        for (int v = 0; v < LEN(variants); v++) {
            add(l, s->nd, 3, 'U', IF_EXPERT_GPU, variants[v], GCHOL_LOOKAHEAD_AUTO, DEF_NEG,
                s->nd / 2 + 1);
            set_upper(l, GCHOL_UPPER_SWAP);
            add(l, s->nd, 0, 'U', IF_EXPERT_GPU, variants[v], GCHOL_LOOKAHEAD_AUTO, DEF_NAN_OFF,
                s->nd / 3);
            set_upper(l, GCHOL_UPPER_SWAP);
        }
        add(l, 1025, 0, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON, DEF_NEG, 700);
        set_blocks(l, 512, 128);
        set_upper(l, GCHOL_UPPER_SWAP);
        /* block by block (left-looking lookahead): block columns not a
         * multiple of the swap's tiles, odd lda */
        add(l, quick ? 1001 : 2049, 1, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_LEFT, GCHOL_LOOKAHEAD_ON,
            DEF_NONE, 0);
        set_blocks(l, 200, 128);
        set_upper(l, GCHOL_UPPER_SWAP);
        if (!quick) {
            /* the sizes where auto swaps in single: swapped and not */
            add(l, 8500, 1, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_AUTO, GCHOL_LOOKAHEAD_AUTO, DEF_NONE,
                0);
            add(l, 8500, 1, 'U', IF_EXPERT_GPU, GCHOL_VARIANT_AUTO, GCHOL_LOOKAHEAD_AUTO, DEF_NONE,
                0);
            set_upper(l, GCHOL_UPPER_VIEW);
            add(l, 8500, 0, 'U', IF_GPU, 0, GCHOL_LOOKAHEAD_AUTO, DEF_NEG, 5000);
        }
    }
    /* ill-conditioned SPD: the residual of the tiled kernel (explicit
     * inverses of its diagonal tiles) and of the blocked drivers */
    {
        static const int64_t ill_full[] = { 300, 1000, 2049 }, ill_quick[] = { 300 };
        const int64_t *ill = quick ? ill_quick : ill_full;
        const int nill = quick ? LEN(ill_quick) : LEN(ill_full);
        for (int i = 0; i < nill; i++)
            for (int u = 0; u < 2; u++)
                for (int v = 0; v < LEN(variants); v++)
                    add(l, ill[i], 0, uplos[u], IF_EXPERT_GPU, variants[v], GCHOL_LOOKAHEAD_AUTO,
                        DEF_ILLCOND, 0);
    }
}

/* ---------------------------------------------------------------------------
 * The triangle swap kernel behind uplo = 'U' with GCHOL_UPPER_SWAP, alone:
 * forward by block columns of width w, the result checked against the
 * whole transpose (bit for bit, padding and a guard element before the
 * array included), then back by block rows of width w2, checked against
 * the original; misaligned bases (odd offsets) and odd lda take the
 * element-by-element path.
 * ------------------------------------------------------------------------- */
static testing_result_t run_swap_case(int64_t n, int64_t pad, int64_t off, int64_t w, int64_t w2)
{
    const int64_t lda = n + pad > 1 ? n + pad : 1, cnt = lda * n + off;
    BITS *h = malloc((size_t)cnt * sizeof(BITS)), *g = malloc((size_t)cnt * sizeof(BITS));
    BITS *d = NULL;
    int64_t bad = -1;
    if (!testing_case_in_part()) {
        free(h); free(g);
        return TESTING_SKIPPED;
    }
    if (!testing_have_gpu()) {
        printf("  skipped swap_triangles n=%-5lld lda=%-5lld off=%lld (no GPU)\n", (long long)n,
               (long long)lda, (long long)off);
        free(h); free(g);
        return testing_record(TESTING_SKIPPED);
    }
    if (h && g && !TESTING_CUDA(cudaMalloc((void **)&d, (size_t)cnt * sizeof(BITS)))) {
        for (int64_t i = 0; i < cnt; i++) h[i] = (BITS)((uint64_t)i * 2654435761ull + 977);
        FLOAT *dA = (FLOAT *)(d + off);
        int err = TESTING_CUDA(cudaMemcpy(d, h, (size_t)cnt * sizeof(BITS), cudaMemcpyHostToDevice));
        for (int64_t j = 0; !err && j < n; j += w)
            err = TESTING_CUDA(SWAP_TRIANGLES(n, dA, lda, 0, n, j, j + w < n ? j + w : n, 0));
        if (!err) err = TESTING_CUDA(cudaMemcpy(g, d, (size_t)cnt * sizeof(BITS), cudaMemcpyDeviceToHost));
        if (!err) {
            bad = 0;
            for (int64_t k = 0; k < cnt; k++) {
                const int64_t q = k - off, i = q >= 0 ? q % lda : n, j = q >= 0 ? q / lda : 0;
                const int64_t src = i < n && i != j ? off + j + i * lda : k;
                bad += g[k] != h[src];
            }
        }
        for (int64_t i = 0; !err && i < n; i += w2)
            err = TESTING_CUDA(SWAP_TRIANGLES(n, dA, lda, i, i + w2 < n ? i + w2 : n, 0, n, 0));
        if (!err) err = TESTING_CUDA(cudaMemcpy(g, d, (size_t)cnt * sizeof(BITS), cudaMemcpyDeviceToHost));
        if (err) bad = -1;
        else for (int64_t k = 0; k < cnt; k++) bad += g[k] != h[k];
    }
    testing_result_t res = testing_record(bad == 0 ? TESTING_PASSED : TESTING_FAILED);
    printf("  %-7s swap_triangles n=%-5lld lda=%-5lld off=%lld columns by %lld, rows back by %lld: "
           "%lld wrong%s\n", testing_result_name(res), (long long)n, (long long)lda, (long long)off,
           (long long)w, (long long)w2, (long long)bad, bad < 0 ? " (CUDA error)" : "");
    cudaFree(d);
    free(h);
    free(g);
    return res;
}

static void run_swap_cases(int quick)
{
    static const int64_t ns_full[] = { 1, 2, 3, 31, 64, 65, 129, 200, 1000, 1001 };
    static const int64_t ns_quick[] = { 2, 65, 200 };
    const int64_t *ns = quick ? ns_quick : ns_full;
    const int nn = quick ? 3 : 10;
    printf("\n-- swap_triangles kernel (uplo = 'U' by swapping) --\n");
    for (int i = 0; i < nn; i++)
        for (int64_t pad = 0; pad <= 1; pad++)
            for (int64_t off = 0; off <= 1; off++) {
                const int64_t n = ns[i];
                run_swap_case(n, pad, off, n > 8 ? 1 + (n * 7) / 23 + off : n, n > 8 ? 1 + (n * 5) / 17 : n);
            }
    /* an invalid range is refused, nothing launched */
    testing_result_t res = testing_record(
        SWAP_TRIANGLES(10, NULL, 10, 0, 11, 0, 10, 0) != 0 && SWAP_TRIANGLES(10, NULL, 9, 0, 10, 0, 10, 0) != 0
            ? TESTING_PASSED : TESTING_FAILED);
    printf("  %-7s swap_triangles: range past n and lda < n refused\n", testing_result_name(res));
}

static void run_suite(int quick)
{
    case_list_t l = { NULL, 0, 0 };
    printf("testing_%cpotrf --suite%s  (%s precision, %s)\n", PREC, quick ? " --quick" : "",
           PREC_NAME, testing_have_gpu() ? "GPU present" : "no GPU");
    run_badargs();
    run_host_no_device();
    run_swap_cases(quick);
    build_suite(&l, quick);
    printf("\n-- factorizations: %lld cases --\n", (long long)l.count);
    for (int64_t i = 0; i < l.count; i++)
        run_case(&l.v[i]);
    free(l.v);
}

#endif
