/*
 * options.c -- defaults and the automatic choice of variant, nb, recursion
 * size and lookahead, from a measured sweep (see the table's comment).
 */
#include "internal.h"

#include "../kernels/gchol_kernels.h"

void gchol_options_default(gchol_options_t *opts)
{
    if (opts == NULL) return;
    opts->variant   = GCHOL_VARIANT_AUTO;
    opts->nb        = 0;
    opts->recnb     = 0;
    opts->lookahead = GCHOL_LOOKAHEAD_AUTO;
    opts->trace     = NULL;
    opts->upper     = GCHOL_UPPER_AUTO;
    opts->products  = GCHOL_PRODUCTS_ACCURATE;
}

int gchol_options_valid(const gchol_options_t *opts)
{
    if (opts == NULL) return 1;
    if (opts->variant < GCHOL_VARIANT_AUTO || opts->variant > GCHOL_VARIANT_TILED) return 0;
    if (opts->lookahead < GCHOL_LOOKAHEAD_AUTO || opts->lookahead > GCHOL_LOOKAHEAD_ON) return 0;
    if (opts->upper < GCHOL_UPPER_AUTO || opts->upper > GCHOL_UPPER_SWAP) return 0;
    if (opts->products < GCHOL_PRODUCTS_ACCURATE || opts->products > GCHOL_PRODUCTS_TF32) return 0;
    if (opts->nb < 0 || opts->recnb < 0) return 0;
    if (opts->trace != NULL && opts->trace->capacity > 0 && opts->trace->events == NULL) return 0;
    return 1;
}

/* One row of the automatic table: used for n < n_below. */
typedef struct {
    int64_t n_below;
    int     variant;
    int64_t nb;
    int64_t recnb;
    int     lookahead;
} auto_row_t;

/* From the H100 sweeps of 2026-11-22 (docs/performance.md; the fourth
 * session's measurements are in docs/results/s4/).
 * - Left-looking with lookahead won above the switch in both precisions:
 *   bulk gemm on the main stream; the last term and the panel, by the tiled
 *   kernel in panel mode, on the panel stream.
 * - nb, lower, ms, nb = 512 / 768 / 1024 / 1536 / 2048, panels unsplit:
 *   double  8192  5.81 / 5.80 / 5.52 / 5.87 / 5.66
 *          16384  33.7 / 34.6 / 32.8 / 34.4 / 36.4
 *   single  8192  6.92 / 6.84 / 6.64 / 6.61 / 6.61
 *          16384  36.0 / 36.7 / 36.4 / 37.0 / 37.2
 *   Wider block columns give the bulk gemm a better shape (n x nb x j:
 *   the sum of cuBLAS dgemm times over one factorization at n = 16384 is
 *   31.7 ms for nb = 256, 25.6 for 1024); the panel grows with them.
 * - recnb, the widest panel one tiled launch factors (wider panels split
 *   in two around cuBLAS syrk + gemm), nb = 1024, recnb = 1024 / 512 / 256
 *   / 128: double 6144 2.93 / 3.04 / 3.32 / 3.74, 8192 5.37 / 5.35 / 5.80
 *   / 6.41, 12288 15.3 / 14.0 / 14.6 / 15.7, 16384 33.6 / 31.5 / 31.6 /
 *   33.2, 24576 122 / 112 / 109 / 112; single 8192 6.77 / 7.02 / 7.42 /
 *   8.06, 16384 37.5 / 36.8 / 37.2 / 38.6.
 *   Large n, nb / recnb = 512 / 512, 512 / 256, 1024 / 512, 1024 / 256:
 *   double 32768 260 / 259 / 253 / 249, 40960 502 / 503 / 495 / 485;
 *   single 32768 248 / 245 / 249 / 246, 40960 470 / 465 / 471 / 467.
 * - Below the switch the single-kernel tiled factorization wins (ms, tiled
 *   / left with nb = 1024): double 4096 1.32 / 1.44, 4608 1.76 / 1.73,
 *   5120 2.31 / 2.08; single 6656 4.24 / 4.37, 7168 5.07 / 5.00, 7680
 *   6.14 / 5.83.
 * - Single precision since its bulk update runs on the 3xTF32 kernel
 *   (eighth session, docs/results/s8/c12/; one call, median of 5, lower /
 *   upper, ms): nb / recnb 1024 / 1024, 1024 / 512, 768 / 768, 1536 / 1024,
 *   2048 / 1024, 512 / 512 at 8192: 5.89 / 6.54, 6.13 / 6.87, 6.33 / 6.79,
 *   5.99 / 6.56, 5.81 / 6.40, 6.55 / 6.68; at 16384: 31.0 / 36.6, 29.9 /
 *   34.9, 31.4 / 36.5, 29.8 / 35.1, 29.8 / 35.6, 31.2 / 35.9; at 32768
 *   (median of 3) 512 / 256, 1024 / 256, 1024 / 512: 201 / 241, 195 / 235,
 *   199 / 240. So single now takes double's rows. (Left 1024 / 1024 also
 *   beat tiled at 6144 in that call, 3.25 / 3.67 against 3.40 / 3.70: the
 *   switch was not moved on one measurement.)
 * - Single's switch moved to 6144 in the ninth session (docs/results/s9/c8/,
 *   two runs, median of 7, ms, tiled / left 1024 / 1024, lower): 5120 2.24
 *   / 2.30 and 2.14 / 2.27, 5632 2.72 / 2.83 and 2.71 / 2.87, 6144 3.40 /
 *   3.29 and 3.36 / 3.29, 6656 4.19 / 3.85 and 4.18 / 3.88, 7167 5.14 /
 *   4.42 and 5.10 / 4.41 (upper, tiled's view / left's swap: 6144 3.68 /
 *   3.40 and 3.67 / 3.37).
 * - And to 8192 in the tenth, once the tiled kernel's tile products ran on
 *   3xTF32 (docs/results/s10/c9/, c10/; median of 7, ms, tiled / left 1024
 *   / 1024 with the swap for upper): lower 6144 2.63 / 3.16, 7168 3.97 /
 *   4.15, 7680 4.78 / 4.80, 8192 5.71 / 5.50; upper 7168 3.88 / 4.40, 7680
 *   4.68 / 5.17, 8192 5.61 / 5.64, 9216 7.81 / 7.37.
 * - And to 8448 in the eleventh, once the tiled kernel's blocks waited less
 *   (docs/results/s11/c9/; two runs, median of 5, ms, tiled / auto, which
 *   was left 1024 / 1024 with the swap for upper): lower 8192 5.24, 5.28 /
 *   5.39, 5.42; 8193 5.36, 5.40 / 5.45, 5.44; 8704 6.28, 6.25 / 6.22, 6.18;
 *   upper 8192 5.10, 5.12 / 5.53, 5.62; 8193 5.23, 5.21 / 5.87, 5.81; 8704
 *   6.04, 6.04 / 6.58, 6.55; 9216 7.12, 7.09 / 7.24, 7.25; 10240 9.57, 9.52
 *   / 9.97, 9.93. Upper would gain up to 10240 at least, but the options
 *   are resolved without the triangle.
 * - Double's moved from 4608 to 5376 in the eleventh, with the tiled kernel
 *   at one block per SM up to that n (docs/results/s11/c11/; ms, tiled at
 *   one block per SM / auto, which was left 1024 / 1024, lower, upper):
 *   4608 1.52, 1.55 / 1.72, 1.73; 5120 1.97, 2.03 / 2.01, 2.07; at 6144
 *   left stays faster (2.82, 2.88 against 3.00, 3.15 tiled).
 * - Double's moved back to 4864 in the fourteenth, once potf2 and the
 *   chain's W -= L L^T were faster in both paths (the left-looking panels
 *   are tiled launches too; docs/results/s14/c7/, c8/; two runs, median of
 *   5, ms, tiled / left 1024 / 1024, lower, upper): 4096 1.087, 1.092 /
 *   1.233, 1.282; 4608 1.444, 1.456 / 1.510, 1.512 (upper 1.465, 1.469 /
 *   1.508); 5120 1.909, 1.937 / 1.794, 1.838 (upper 1.928, 1.956 / 1.871,
 *   1.820); 6144 2.80, 2.79 / 2.57, 2.58. Single's stays: lower / upper at
 *   7680 4.33 / 4.16 tiled against 4.28 / 4.65 left, 8192 5.18 / 4.98
 *   against 5.04 / 5.17.
 * - Block sizes again in the twenty-third session, with the faster tiled
 *   panels and single's 3xTF32 updates (docs/results/s23/c5/, c6/; median
 *   of 3 / 5, ms, left with lookahead). Double keeps its rows: 1024 / 512
 *   was fastest of nb 768..2048 x recnb 256..1024 at 12288 / 16384 / 20480
 *   (13.4 / 30.5 / 59.8), 1024 / 256 at 24576 / 40960 (99.1 / 443), and at
 *   32768 within 0.6% of the best (237.8 against 1536 / 256's 236.3).
 *   Single takes wider block columns (c6, lower / upper; the old row's pair
 *   first): 12288 1024 / 512 13.76 / 14.33, 1536 / 1024 12.73 / 13.46;
 *   16384 28.08 / 29.88, 1536 / 1024 27.65 / 29.11 (2048 / 1024 27.39 /
 *   28.82); 20480 1024 / 256 52.05 / 54.10, 2048 / 512 50.62 / 52.41; 24576
 *   85.64 / 88.60, 84.18 / 87.03; 32768 191.9 / 200.0, 190.3 / 197.7; 40960
 *   368.9 / 378.4, 369.1 / 376.6 (c5: 12288 13.73 -> 12.64 lower with
 *   1536 / 1024, 32768 192.1 -> 190.3 with 2048 / 512).
 * - Double from 24576 takes 2048 / 256 in the thirtieth session, once its
 *   lower updates ran on cublasLt's 128 x 128 tiles from ld 18432 (prec.h;
 *   docs/results/s30/c6/-c8/, left with lookahead, lower, median of 3,
 *   ms, 1024 / 256 against 2048 / 256 in one process, two rounds): 24576
 *   97.4, 99.6 / 94.9, 95.6; 32768 229.3, 229.2 / 225.0, 222.0; 36864
 *   324.5, 321.1 / 316.8, 317.4; 40960 444.7, 440.5 / 431.2, 434.1; but
 *   28672 150.9, 151.1 / 153.1, 157.3. At 20480 the two tie (56.4, 56.5 /
 *   56.3, 57.0); 1536 and 3072 were slower, recnb 128 / 512 no better.
 * - 27648 <= n < 30720 keeps 1024 / 256 (thirty-first session,
 *   docs/results/s31/c2/, c3/; same form, two processes, ms, 1024 / 1536
 *   / 2048): 27648 133.3, 137.7 / 142.7, 139.9 / 133.7, 134.6; 28672
 *   149.2, 149.7 / 157.9, 157.1 / 152.2, 149.6 (the thirtieth session's
 *   c12: 151.7 / 156.2 with 1024 / 2048); 29696 164.6, 166.0 / 173.4,
 *   171.7 / 170.0, 169.1; and 30720 185.98 / 184.67 (s30 c12), 26624
 *   127.7 / 124.0 on either side take 2048. Checked at sizes it was not
 *   fitted on (c3, three processes, 1024 / 2048): 28160 144.8-146.1 /
 *   147.8-149.9, 29184 160.7-161.1 / 165.6-167.3, 30208 176.3-176.9 /
 *   176.2-179.4; outside, 27136 and 31232 tie or favour 2048.
 */
static const int64_t tiled_below_double = 4864, tiled_below_single = 8448;
/* 'U' swaps its triangles (GCHOL_UPPER_SWAP) from this n on, where the
 * left-looking lookahead runs (auto from 8448 in single since the eleventh
 * session, or asked for) and swaps block by block beside its work (one call, median of 5,
 * docs/results/s9/c5/; lower / upper view / upper swap, ms: 7168 4.50 /
 * 4.96 / 4.72, 8192 5.84 / 6.44 / 5.96, 12288 14.9 / 16.3 / 15.4, 16384
 * 29.9 / 33.5 / 31.2, 32768 192 / 219 / 203; 6144 in call 8: 3.29 / 3.50 /
 * 3.40). Below, the tiled kernel's upper is within 8% of its lower and two
 * whole passes gain at most 1% (docs/results/s9/c7/, c8/).
 * Double's view is within 4% of lower from 4608 on, and there the swap lost
 * 5-25% (docs/results/s9/c4/, before the swaps left the panel's path). */
static const int64_t upper_swap_from_double = INT64_MAX, upper_swap_from_single = 6144;
/* The host interface's switch: its transfers run beside the factorization
 * only with the left-looking lookahead (before and after the tiled kernel),
 * so in single precision it keeps the ninth session's switch; so does
 * pftrf's fused form (the left-looking driver across the RFP blocks), which
 * at 6144 / 7168 took 3.4 / 4.7 ms against 7.4 / 9.2 for the four steps
 * around the tiled kernel (N,L; docs/results/s10/finalB/). Measured with
 * pageable memory (docs/results/s10/c11/, two runs, median of 5, ms, auto's
 * tiled / left 1024 / 1024): lower 6144 15.3, 20.3 / 13.9, 17.6; 7168
 * 20.6, 20.3 / 16.1, 17.4; 8191 24.6, 25.6 / 20.6, 19.4; upper 7168 19.6,
 * 19.0 / 18.0, 18.2 (the staged copies vary by a third from run to run,
 * performance.md). */
static const int64_t io_tiled_below_single = 6144;
/* In double they keep 4608, the device switch they were measured with. */
static const int64_t io_tiled_below_double = 4608;

int64_t gchol_left_auto_from(char precision)
{
    return precision == 's' || precision == 'S' ? io_tiled_below_single : io_tiled_below_double;
}
/* The first row serves a blocked variant asked for below the switch: nb =
 * 128, as measured there before the tiled kernel took over (in single from
 * 6144 on, up to the switch, left-looking runs with 1024 / 1024: the host
 * interface's auto, or a variant asked for). */
static const auto_row_t auto_double[] = {
    {   4608, GCHOL_VARIANT_LEFT,  128,  128, GCHOL_LOOKAHEAD_ON },
    {  10240, GCHOL_VARIANT_LEFT, 1024, 1024, GCHOL_LOOKAHEAD_ON },
    {  20480, GCHOL_VARIANT_LEFT, 1024,  512, GCHOL_LOOKAHEAD_ON },
    {  24576, GCHOL_VARIANT_LEFT, 1024,  256, GCHOL_LOOKAHEAD_ON },
    {  27648, GCHOL_VARIANT_LEFT, 2048,  256, GCHOL_LOOKAHEAD_ON },
    {  30720, GCHOL_VARIANT_LEFT, 1024,  256, GCHOL_LOOKAHEAD_ON },
    { INT64_MAX, GCHOL_VARIANT_LEFT, 2048, 256, GCHOL_LOOKAHEAD_ON },
};
static const auto_row_t auto_single[] = {
    {   6144, GCHOL_VARIANT_LEFT,  128,  128, GCHOL_LOOKAHEAD_ON },
    {  10240, GCHOL_VARIANT_LEFT, 1024, 1024, GCHOL_LOOKAHEAD_ON },
    {  20480, GCHOL_VARIANT_LEFT, 1536, 1024, GCHOL_LOOKAHEAD_ON },
    { INT64_MAX, GCHOL_VARIANT_LEFT, 2048, 512, GCHOL_LOOKAHEAD_ON },
};

void gchol_options_resolve(gchol_options_t *opts, char precision, int64_t n)
{
    if (opts == NULL) return;
    const int single = precision == 's' || precision == 'S';
    const auto_row_t *row = single ? auto_single : auto_double;
    const int64_t tiled_below = single ? tiled_below_single : tiled_below_double;
    while (n >= row->n_below) ++row;
    const int upper_auto = opts->upper == GCHOL_UPPER_AUTO;
    if (upper_auto) opts->upper = GCHOL_UPPER_VIEW;
    if (opts->variant == GCHOL_VARIANT_AUTO)
        opts->variant = n < tiled_below ? GCHOL_VARIANT_TILED : row->variant;
    /* The tiled kernel's flags cover GCHOL_TILED_MAX_N; above, left-looking. */
    if (opts->variant == GCHOL_VARIANT_TILED && n > GCHOL_TILED_MAX_N)
        opts->variant = GCHOL_VARIANT_LEFT;
    if (opts->variant == GCHOL_VARIANT_TILED) {
        opts->nb = GCHOL_TILED_NB; /* fixed by the kernel */
        opts->lookahead = GCHOL_LOOKAHEAD_OFF;
        if (opts->recnb <= 0) opts->recnb = GCHOL_TILED_NB;
        return;
    }
    if (opts->nb <= 0) opts->nb = row->nb;
    if (opts->recnb <= 0) opts->recnb = row->recnb;
    if (opts->lookahead == GCHOL_LOOKAHEAD_AUTO) opts->lookahead = row->lookahead;
    /* the swap where it was measured: block by block beside the lookahead */
    if (upper_auto && n >= (single ? upper_swap_from_single : upper_swap_from_double) &&
        gchol_options_left_lookahead(opts, n))
        opts->upper = GCHOL_UPPER_SWAP;
}

int gchol_options_left_lookahead(const gchol_options_t *opts, int64_t n)
{
    /* the driver's block: nb, and at least its leaf (recnb, up to potf2's) */
    const int64_t leaf = opts->recnb < GCHOL_POTF2_MAX_N ? opts->recnb : GCHOL_POTF2_MAX_N;
    const int64_t nb = opts->nb > leaf ? opts->nb : leaf;
    return opts->variant == GCHOL_VARIANT_LEFT && opts->lookahead == GCHOL_LOOKAHEAD_ON && n > nb;
}

/* The host interface keeps nb 1024 in double where the device table widens
 * it to 2048 (from 24576): its copies interleave with the block columns, and
 * 2048 ran 3-6% slower there from pinned memory (docs/results/s30/c17/,
 * left with lookahead, recnb 256, two rounds, ms, 1024 / 2048: 24576 107.3,
 * 106.7 / 113.4, 113.8; 32768 237.8, 234.9 / 242.8, 242.4). */
static const int64_t io_nb_double = 1024, io_nb_double_from = 24576;

void gchol_options_resolve_host(gchol_options_t *opts, char precision, int64_t n)
{
    if (opts == NULL) return;
    if (opts->variant == GCHOL_VARIANT_AUTO && n >= gchol_left_auto_from(precision))
        opts->variant = GCHOL_VARIANT_LEFT;
    const int single = precision == 's' || precision == 'S';
    if (!single && opts->nb <= 0 && n >= io_nb_double_from && opts->variant == GCHOL_VARIANT_LEFT)
        opts->nb = io_nb_double;
    gchol_options_resolve(opts, precision, n);
}
