/*
 * potrf_right.c -- the right-looking blocked driver (potrf_driver.h).
 * Precision-generic (see prec.h).
 */
#include "prec.h"
#include "potrf_driver.h"

#include "status.h"

/*
 * gchol_dpotrf_right, gchol_spotrf_right: factor the panel (op_panel),
 * update the whole trailing matrix. With lookahead the panel stream updates
 * and factors block column k+1 (syrk + gemm from panel k, then its panel)
 * while the main stream applies panel k to the rest of the trailing matrix;
 * the two write disjoint columns and meet through two events only.
 */
int64_t PFX(potrf_right)(fact_t *f, int64_t n, int64_t nb, int lookahead)
{
    int64_t st = GCHOL_SUCCESS;
    if (!lookahead) {
        for (int64_t j = 0; j < n; j += nb) {
            const int64_t jb = n - j < nb ? n - j : nb, m = n - j - jb;
            PANEL(MAIN, j, jb, m);
            if (m > 0) SYRK(MAIN, j + jb, m, j, jb);
        }
        return GCHOL_SUCCESS;
    }
    const int64_t jb0 = n < nb ? n : nb;
    PANEL(PANEL, 0, jb0, n - jb0);
    RECORD(ev_panel, PANEL);
    for (int64_t j = 0; j + nb < n; j += nb) {
        const int64_t j1 = j + nb, jb1 = n - j1 < nb ? n - j1 : nb, j2 = j1 + jb1;
        WAIT(MAIN, ev_panel);                /* panel k is solved            */
        if (j > 0) WAIT(PANEL, ev_update);   /* step k-1 reached column k+1  */
        SYRK(PANEL, j1, jb1, j, nb);
        if (j2 < n) GEMM(PANEL, j2, j1, n - j2, jb1, j, nb);
        PANEL(PANEL, j1, jb1, n - j2);
        RECORD(ev_panel, PANEL);
        if (j2 < n) SYRK(MAIN, j2, n - j2, j, nb);
        RECORD(ev_update, MAIN);
    }
done:
    return st;
}
