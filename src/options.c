/*
 * options.c -- the options' defaults and checks, and the automatic choice of
 * variant, nb, recursion size, lookahead and how 'U' runs, from the tuning
 * table (src/tune/) of the queue's device.
 */
#include "options_ext.h"
#include "tune/tune.h"

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

int64_t gchol_left_auto_from_tuned(const gchol_tune_t *t, char precision)
{
    return gchol_tune_prec(t, precision)->io_tiled_below;
}

/* The table of sm_90, for callers without a queue. */
int64_t gchol_left_auto_from(char precision)
{
    return gchol_left_auto_from_tuned(gchol_tune_select(9, 0), precision);
}

void gchol_options_resolve_tuned(gchol_options_t *opts, const gchol_tune_t *t, char precision,
                                 int64_t n)
{
    if (opts == NULL) return;
    const gchol_prec_tune_t *p = gchol_tune_prec(t, precision);
    const gchol_auto_row_t *row = p->auto_rows;
    /* up to the row whose n_below is INT64_MAX (the table's last) */
    while (row->n_below != INT64_MAX && row + 1 < p->auto_rows + GCHOL_TUNE_AUTO_ROWS &&
           n >= row->n_below)
        ++row;
    const int upper_auto = opts->upper == GCHOL_UPPER_AUTO;
    if (upper_auto) opts->upper = GCHOL_UPPER_VIEW;
    if (opts->variant == GCHOL_VARIANT_AUTO)
        opts->variant = n < p->tiled_below ? GCHOL_VARIANT_TILED : row->variant;
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
    if (upper_auto && n >= p->upper_swap_from && gchol_options_left_lookahead(opts, n))
        opts->upper = GCHOL_UPPER_SWAP;
}

void gchol_options_resolve_host_tuned(gchol_options_t *opts, const gchol_tune_t *t,
                                      char precision, int64_t n)
{
    if (opts == NULL) return;
    const gchol_prec_tune_t *p = gchol_tune_prec(t, precision);
    if (opts->variant == GCHOL_VARIANT_AUTO && n >= p->io_tiled_below)
        opts->variant = GCHOL_VARIANT_LEFT;
    if (opts->nb <= 0 && n >= p->io_nb_from && opts->variant == GCHOL_VARIANT_LEFT)
        opts->nb = p->io_nb;
    gchol_options_resolve_tuned(opts, t, precision, n);
}

/* The public forms: the table of the current device. */
void gchol_options_resolve(gchol_options_t *opts, char precision, int64_t n)
{
    gchol_options_resolve_tuned(opts, gchol_tune_current(), precision, n);
}

void gchol_options_resolve_host(gchol_options_t *opts, char precision, int64_t n)
{
    gchol_options_resolve_host_tuned(opts, gchol_tune_current(), precision, n);
}

int gchol_options_left_lookahead(const gchol_options_t *opts, int64_t n)
{
    /* the driver's block: nb, and at least its leaf (recnb, up to potf2's) */
    const int64_t leaf = opts->recnb < GCHOL_POTF2_MAX_N ? opts->recnb : GCHOL_POTF2_MAX_N;
    const int64_t nb = opts->nb > leaf ? opts->nb : leaf;
    return opts->variant == GCHOL_VARIANT_LEFT && opts->lookahead == GCHOL_LOOKAHEAD_ON && n > nb;
}
