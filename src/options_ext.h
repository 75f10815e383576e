/*
 * options_ext.h -- what the drivers ask of the options beyond gchol.h's
 * gchol_options_default / _resolve / _resolve_host (options.c). Not
 * installed.
 */
#ifndef GCHOL_OPTIONS_EXT_H
#define GCHOL_OPTIONS_EXT_H

#include "gchol.h"

/* Checks an options struct; 1 if valid (NULL is valid), 0 if not. */
int gchol_options_valid(const gchol_options_t *opts);

/* Where the host interface's auto (gchol_options_resolve_host) leaves the
 * tiled kernel, and pftrf's auto takes its fused form; precision 'd' or 's'.
 * Chosen per GPU by the tuning module (src/tune/). */
int64_t gchol_left_auto_from(char precision);

/* Whether resolved options factor an n x n matrix with the left-looking
 * driver's lookahead over more than one block column: the only path that
 * swaps 'U' block by block beside its work, and that reports final columns
 * to the host interface (whose copies back then run beside it). */
int gchol_options_left_lookahead(const gchol_options_t *opts, int64_t n);

#endif
