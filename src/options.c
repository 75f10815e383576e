/*
 * options.c -- defaults and the automatic choice of variant, nb, recursion
 * size and lookahead. The table is provisional until a sweep on the H100
 * replaces it (docs/performance.md names the sweep it comes from).
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
    if (opts->variant < GCHOL_VARIANT_AUTO || opts->variant > GCHOL_VARIANT_RIGHT) return 0;
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

static const auto_row_t auto_double[] = {
    {   2048, GCHOL_VARIANT_RIGHT, 256, 128, GCHOL_LOOKAHEAD_ON },
    {   8192, GCHOL_VARIANT_RIGHT, 512, 128, GCHOL_LOOKAHEAD_ON },
    { INT64_MAX, GCHOL_VARIANT_LEFT, 512, 128, GCHOL_LOOKAHEAD_ON },
};
static const auto_row_t auto_single[] = {
    {   2048, GCHOL_VARIANT_RIGHT, 256, 128, GCHOL_LOOKAHEAD_ON },
    {   8192, GCHOL_VARIANT_RIGHT, 512, 128, GCHOL_LOOKAHEAD_ON },
    { INT64_MAX, GCHOL_VARIANT_LEFT, 512, 128, GCHOL_LOOKAHEAD_ON },
};

void gchol_options_resolve(gchol_options_t *opts, char precision, int64_t n)
{
    if (opts == NULL) return;
    const auto_row_t *row = (precision == 's' || precision == 'S') ? auto_single : auto_double;
    while (n >= row->n_below) ++row;
    if (opts->variant == GCHOL_VARIANT_AUTO) opts->variant = row->variant;
    if (opts->nb <= 0) opts->nb = row->nb;
    if (opts->recnb <= 0) opts->recnb = row->recnb;
    if (opts->lookahead == GCHOL_LOOKAHEAD_AUTO) opts->lookahead = row->lookahead;
}
