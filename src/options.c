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
}

int gchol_options_valid(const gchol_options_t *opts)
{
    if (opts == NULL) return 1;
    if (opts->variant < GCHOL_VARIANT_AUTO || opts->variant > GCHOL_VARIANT_TILED) return 0;
    if (opts->lookahead < GCHOL_LOOKAHEAD_AUTO || opts->lookahead > GCHOL_LOOKAHEAD_ON) return 0;
    if (opts->nb < 0 || opts->recnb < 0 || opts->recnb > GCHOL_POTF2_MAX_N) return 0;
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

/* From the H100 sweeps of 2026-11-22 (docs/performance.md).
 * - Below 10240 the single-kernel tiled factorization wins. Re-measured with
 *   its chain block (third session, lower, ms, tiled / left): double 8192
 *   7.73 / 8.97, 10240 14.87 / 14.32, 12288 26.3 / 19.0; single 8192
 *   7.56 / 8.43, 10240 14.24 / 13.29. (Double upper still favours tiled at
 *   10240, 12.4 / 14.2, but the switch is kept the same for both triangles.)
 * - The same holds for both triangles: upper runs at the speed of lower
 *   since its operand tiles are copied row-major (double, n = 8192: 7.9 ms
 *   for 'U', 9.0 for 'L'); before that fix upper needed its own threshold.
 * - Above, left-looking with lookahead won at every size in both precisions:
 *   nb = 128 while the panel is the critical path, nb = 256 around
 *   n = 16384, and 512 once the gemm updates dominate (n = 32768).
 *   Re-measured after the shared-memory stride change (nb = 128 / 192 / 256
 *   / 384 / 512, ms): at n = 12288 double 21.6 / 21.1 / 19.4 / 21.7 / 20.7,
 *   single 20.5 / 22.4 / 21.5 / 22.3 / 23.8; at 16384 double 43.9 / 40.0 /
 *   39.0 / 40.1 / 39.2, single 40.5 / 43.5 / 39.8 / 41.9 / 42.5. So single
 *   keeps nb = 128 to 12288 and takes 256 between its two points. */
static const int64_t tiled_below = 10240;
static const auto_row_t auto_double[] = {
    {  12288, GCHOL_VARIANT_LEFT, 128, 128, GCHOL_LOOKAHEAD_ON },
    {  24576, GCHOL_VARIANT_LEFT, 256, 128, GCHOL_LOOKAHEAD_ON },
    { INT64_MAX, GCHOL_VARIANT_LEFT, 512, 128, GCHOL_LOOKAHEAD_ON },
};
static const auto_row_t auto_single[] = {
    {  14336, GCHOL_VARIANT_LEFT, 128, 128, GCHOL_LOOKAHEAD_ON },
    {  24576, GCHOL_VARIANT_LEFT, 256, 128, GCHOL_LOOKAHEAD_ON },
    { INT64_MAX, GCHOL_VARIANT_LEFT, 512, 128, GCHOL_LOOKAHEAD_ON },
};

void gchol_options_resolve(gchol_options_t *opts, char precision, int64_t n)
{
    if (opts == NULL) return;
    const auto_row_t *row = (precision == 's' || precision == 'S') ? auto_single : auto_double;
    while (n >= row->n_below) ++row;
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
}
