/*
 * potrf_matrix.h -- testing_?potrf's matrix of a case: a random SPD matrix
 * of the case's order and storage, its defect planted (a negative or NaN
 * pivot, Inf, NaN off the diagonal, ill conditioning, ...), the info LAPACK
 * gives it and the factor's tolerance.
 * Part of testing_potrf.c, which includes it once (its types and the
 * precision macros come first).
 */
#ifndef GCHOL_TESTING_POTRF_MATRIX_H
#define GCHOL_TESTING_POTRF_MATRIX_H

/* Zeroes row and column k of the referenced triangle but the diagonal. */
static void zero_row_col(const case_t *c, FLOAT *A, int64_t lda, int64_t k)
{
    int lower = c->uplo == 'L';
    for (int64_t i = 0; i < c->n; i++)
        if (i != k)
            testing_set(PREC, A, lda, lower == (i > k) ? i : k, lower == (i > k) ? k : i, 0.0);
}

/* Writes the case's defect into the referenced triangle of A. */
static void apply_defect(const case_t *c, FLOAT *A, int64_t lda)
{
    int64_t k = c->k - 1, j = (c->k - 1) / 2;
    int lower = c->uplo == 'L';
    switch (c->defect) {
    case DEF_NEG:      testing_set(PREC, A, lda, k, k, -1.0);     break;
    case DEF_NAN_DIAG: testing_set(PREC, A, lda, k, k, NAN);      break;
    case DEF_INF_DIAG: testing_set(PREC, A, lda, k, k, INFINITY); break;
    case DEF_NAN_OFF:
        testing_set(PREC, A, lda, lower ? k : j, lower ? j : k, NAN);
        break;
    case DEF_SUB_PIVOT:
        zero_row_col(c, A, lda, k);
        testing_set(PREC, A, lda, k, k, SUBNORMAL_PIVOT);
        break;
    case DEF_SQ_UNDER:
        zero_row_col(c, A, lda, k);
        zero_row_col(c, A, lda, k + 1);
        testing_set(PREC, A, lda, k, k, SQ_UNDER_P);
        testing_set(PREC, A, lda, lower ? k + 1 : k, lower ? k : k + 1, SQ_UNDER_A);
        testing_set(PREC, A, lda, k + 1, k + 1, SQ_UNDER_B);
        break;
    default: break;
    }
}

/* Host matrix of a case: NaN everywhere (padding and the other triangle),
 * then the SPD referenced triangle and the defect. NULL if out of memory. */
static FLOAT *make_matrix(const case_t *c)
{
    int64_t lda = case_lda(c);
    FLOAT *A = malloc(case_bytes(c));
    if (!A)
        return NULL;
    testing_fill_nan(PREC, lda * (c->n > 0 ? c->n : 1), A);
    if (c->defect == DEF_ILLCOND) {
        if (testing_generate_lowrank_spd(PREC, c->uplo, c->n, A, lda, c->n / 2 > 0 ? c->n / 2 : 1,
                                         ILLCOND_MU, 0x111Cull + (uint64_t)c->n) != 0) {
            free(A);
            return NULL;
        }
        return A;
    }
    testing_generate_spd(PREC, c->uplo, c->n, A, lda, 0x5EEDull + (uint64_t)c->n);
    apply_defect(c, A, lda);
    if (c->defect == DEF_GRADED_TINY || c->defect == DEF_GRADED_HUGE) {
        double g = c->defect == DEF_GRADED_TINY ? GRADE_TINY : GRADE_HUGE;
        for (int64_t j = 0; j < c->n; j++)
            for (int64_t i = 0; i < lda; i++)
                A[i + j * lda] = (FLOAT)(A[i + j * lda] * ((i & 1) ? g : 1.0) * ((j & 1) ? g : 1.0));
    }
    if (c->defect == DEF_TINY || c->defect == DEF_HUGE) {
        /* the NaN padding and other triangle stay NaN */
        double scale = c->defect == DEF_TINY ? SCALE_TINY : SCALE_HUGE;
        for (int64_t i = 0; i < lda * c->n; i++)
            A[i] = (FLOAT)(A[i] * scale);
    }
    return A;
}

/* The info the case must return (reference-LAPACK semantics). */
static int64_t expected_info(const case_t *c, const FLOAT *A)
{
    switch (c->defect) {
    case DEF_NONE: return 0;
    case DEF_NEG:  return c->k;
    default:       return testing_reference_info(PREC, c->uplo, c->n, A, case_lda(c));
    }
}

/* Tolerance of the relative factor difference against the reference. */
static double factor_tol(int64_t n)
{
    return TESTING_TOL * (double)(n > 1 ? n : 1) * testing_eps(PREC);
}

#endif
