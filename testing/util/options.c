/*
 * options.c -- gchol's options in the testing library (util.h): options with
 * forced choices, and the names of the choices.
 */
#include "util.h"

gchol_options_t testing_options(int variant, int lookahead, int64_t nb, int64_t recnb)
{
    gchol_options_t o;
    gchol_options_default(&o);
    o.variant = variant;
    o.lookahead = lookahead;
    o.nb = nb;
    o.recnb = recnb;
    return o;
}

const char *testing_variant_name(int variant)
{
    switch (variant) {
    case GCHOL_VARIANT_AUTO:  return "auto";
    case GCHOL_VARIANT_LEFT:  return "left";
    case GCHOL_VARIANT_RIGHT: return "right";
    case GCHOL_VARIANT_TILED: return "tiled";
    default:                  return "?";
    }
}

const char *testing_lookahead_name(int lookahead)
{
    switch (lookahead) {
    case GCHOL_LOOKAHEAD_AUTO: return "auto";
    case GCHOL_LOOKAHEAD_OFF:  return "off";
    case GCHOL_LOOKAHEAD_ON:   return "on";
    default:                   return "?";
    }
}
