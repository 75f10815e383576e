/*
 * matrix.c -- matrix generators, poison and padding checks of the testing
 * library (util.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "util.h"

/* Rows of column j inside the referenced triangle: [*lo, *hi). */
static void triangle_rows(char uplo, int64_t n, int64_t j, int64_t *lo, int64_t *hi)
{
    if (uplo == 'L' || uplo == 'l') {
        *lo = j;
        *hi = n;
    } else {
        *lo = 0;
        *hi = j + 1;
    }
}

/* ===========================================================================
 * Generators.
 * ========================================================================= */
typedef struct {
    char     prec, uplo;
    int64_t  m, n, lda;
    uint64_t seed;
    double   lo, hi;
    void    *A;
} gen_job_t;

/* Value of the SPD test matrix at (i, j): symmetric in (i, j). */
static double spd_entry(uint64_t seed, int64_t n, int64_t i, int64_t j)
{
    int64_t hi = i > j ? i : j, lo = i > j ? j : i;
    return testing_hash_uniform(seed, hi, lo) + (i == j ? (double)n : 0.0);
}

/* Columns [j0, j1) of the SPD matrix. */
static void spd_columns(void *p, int64_t j0, int64_t j1)
{
    const gen_job_t *g = p;
    for (int64_t j = j0; j < j1; j++) {
        int64_t lo = 0, hi = g->lda;
        if (g->uplo != 'A')
            triangle_rows(g->uplo, g->n, j, &lo, &hi);
        for (int64_t i = lo; i < hi; i++)
            testing_set(g->prec, g->A, g->lda, i, j, i < g->n ? spd_entry(g->seed, g->n, i, j) : 0.0);
    }
}

void testing_generate_spd(char prec, char uplo, int64_t n, void *A, int64_t lda,
                          uint64_t seed)
{
    gen_job_t g = { prec, uplo, n, n, lda, seed, 0, 0, A };
    testing_parallel_for(n, spd_columns, &g);
}

/* Columns [j0, j1) of the random matrix. */
static void random_columns(void *p, int64_t j0, int64_t j1)
{
    const gen_job_t *g = p;
    const double half = 0.5 * (g->hi - g->lo), mid = g->lo + half;
    for (int64_t j = j0; j < j1; j++)
        for (int64_t i = 0; i < g->lda; i++) {
            double v = 0.0;
            if (i < g->m) {
                v = mid + half * testing_hash_uniform(g->seed, i, j);
                if (!(v > g->lo && v < g->hi)) /* keep the interval open */
                    v = mid;
            }
            testing_set(g->prec, g->A, g->lda, i, j, v);
        }
}

void testing_generate_random(char prec, int64_t m, int64_t n, void *A, int64_t lda,
                             uint64_t seed, double lo, double hi)
{
    gen_job_t g = { prec, 'A', m, n, lda, seed, lo, hi, A };
    testing_parallel_for(n, random_columns, &g);
}

/* A = B*B^T/rank + mu*I, B n x rank uniform(-1,1), formed in double and
 * written to `part`: 'L' or 'U' (that triangle, diagonal included) or 'B'
 * (both). Returns 0, or -1 if out of memory. */
static int gram_into(char prec, char part, int64_t n, void *A, int64_t lda, int64_t rank,
                     double mu, uint64_t seed)
{
    double *B, *G;
    if (n <= 0)
        return 0;
    if (rank < 1)
        rank = 1;
    B = malloc((size_t)(n * rank) * sizeof(double));
    G = calloc((size_t)(n * n), sizeof(double));
    if (!B || !G) {
        free(B);
        free(G);
        return -1;
    }
    for (int64_t j = 0; j < rank; j++)
        for (int64_t i = 0; i < n; i++)
            B[i + j * n] = testing_hash_uniform(seed, i, j);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (blasint)n, (blasint)rank,
                1.0 / (double)rank, B, (blasint)n, 0.0, G, (blasint)n);
    for (int64_t j = 0; j < n; j++) {
        G[j + j * n] += mu;
        for (int64_t i = j; i < n; i++) {
            if (part != 'U')
                testing_set(prec, A, lda, i, j, G[i + j * n]);
            if (part != 'L')
                testing_set(prec, A, lda, j, i, G[i + j * n]);
        }
    }
    free(B);
    free(G);
    return 0;
}

void testing_generate_rhs(char prec, int64_t n, int64_t nrhs, void *B, int64_t ldb,
                          uint64_t seed)
{
    testing_fill_nan(prec, ldb * nrhs, B);
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < n; i++)
            testing_set(prec, B, ldb, i, j, testing_hash_uniform(seed, i, j));
}

int testing_generate_gram_spd(char prec, int64_t n, void *A, int64_t lda, double mu,
                              uint64_t seed)
{
    return gram_into(prec, 'B', n, A, lda, n, mu, seed);
}

/* The kept Gram matrix and its key. */
static struct {
    void    *A;
    char     prec;
    int64_t  n;
    double   mu;
    uint64_t seed;
} g_gram;

const void *testing_gram_cached(char prec, int64_t n, double mu, uint64_t seed)
{
    if (g_gram.A && g_gram.prec == prec && g_gram.n == n && g_gram.mu == mu &&
        g_gram.seed == seed)
        return g_gram.A;
    testing_gram_release();
    const int64_t ld = n > 1 ? n : 1;
    void *A = malloc((size_t)(ld * ld) * testing_elsize(prec));
    if (!A || testing_generate_gram_spd(prec, n, A, ld, mu, seed)) {
        free(A);
        return NULL;
    }
    g_gram.A = A;
    g_gram.prec = prec;
    g_gram.n = n;
    g_gram.mu = mu;
    g_gram.seed = seed;
    return A;
}

void testing_gram_release(void)
{
    free(g_gram.A);
    g_gram.A = NULL;
}

int testing_generate_lowrank_spd(char prec, char uplo, int64_t n, void *A, int64_t lda,
                                 int64_t rank, double mu, uint64_t seed)
{
    return gram_into(prec, uplo == 'U' ? 'U' : 'L', n, A, lda, rank, mu, seed);
}

/* G := H G H with H = I - 2 u u^T / (u^T u), G symmetric n x n (ld n),
 * in O(n^2): G - (2/s)(u v^T + v u^T) + (4 c / s^2) u u^T, v = G u, c = u^T v. */
static void reflect_both_sides(int64_t n, double *G, const double *u, double *v)
{
    double s = 0, c = 0;
    for (int64_t i = 0; i < n; i++) s += u[i] * u[i];
    cblas_dsymv(CblasColMajor, CblasLower, (blasint)n, 1.0, G, (blasint)n, u, 1, 0.0, v, 1);
    for (int64_t i = 0; i < n; i++) c += u[i] * v[i];
    const double a = 2 / s, b = 4 * c / (s * s);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++)
            G[i + j * n] += -a * (u[i] * v[j] + v[i] * u[j]) + b * u[i] * u[j];
}

int testing_generate_cond_spd(char prec, int64_t n, void *A, int64_t lda, double kappa,
                              uint64_t seed)
{
    enum { kReflectors = 3 };
    if (n <= 0)
        return 0;
    double *G = calloc((size_t)(n * n), sizeof(double));
    double *u = malloc((size_t)n * sizeof(double)), *v = malloc((size_t)n * sizeof(double));
    if (!G || !u || !v) {
        free(G); free(u); free(v);
        return -1;
    }
    /* eigenvalues kappa^(-i/(n-1)), i = 0..n-1: from 1 down to 1/kappa */
    for (int64_t i = 0; i < n; i++)
        G[i + i * n] = n > 1 ? pow(kappa, -(double)i / (double)(n - 1)) : 1.0;
    for (int r = 0; r < kReflectors; r++) {
        for (int64_t i = 0; i < n; i++) u[i] = testing_hash_uniform(seed + (uint64_t)r, i, 7);
        reflect_both_sides(n, G, u, v);
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            testing_set(prec, A, lda, i, j, G[i + j * n]);
            testing_set(prec, A, lda, j, i, G[i + j * n]);
        }
    free(G); free(u); free(v);
    return 0;
}

/* ===========================================================================
 * Poison and comparisons.
 * ========================================================================= */
void testing_fill_nan(char prec, int64_t count, void *A)
{
    for (int64_t i = 0; i < count; i++) {
        const uint64_t tag = ((uint64_t)i * 2654435761u) ^ ((uint64_t)i >> 7);
        if (prec == 's') {
            const uint32_t bits = 0x7fc00000u | (uint32_t)(tag & 0x3fffffu);
            memcpy((float *)A + i, &bits, sizeof bits);
        } else {
            const uint64_t bits = 0x7ff8000000000000ull | (tag & 0x7ffffffffffffull);
            memcpy((double *)A + i, &bits, sizeof bits);
        }
    }
}

void testing_fill_value(char prec, int64_t count, void *A, double v)
{
    if (prec == 's') {
        float *a = A, fv = (float)v;
        for (int64_t i = 0; i < count; i++)
            a[i] = fv;
    } else {
        double *a = A;
        for (int64_t i = 0; i < count; i++)
            a[i] = v;
    }
}

/* Elements in [lo, hi) of one column whose bytes differ. */
static int64_t count_diff_range(size_t es, const unsigned char *a,
                                const unsigned char *b, int64_t lo, int64_t hi)
{
    int64_t bad = 0;
    if (hi <= lo || !memcmp(a + lo * es, b + lo * es, (size_t)(hi - lo) * es))
        return 0;
    for (int64_t i = lo; i < hi; i++)
        bad += memcmp(a + i * es, b + i * es, es) != 0;
    return bad;
}

int64_t testing_count_diff(char prec, int64_t count, const void *A, const void *B)
{
    if (count <= 0)
        return 0;
    return count_diff_range(testing_elsize(prec), (const unsigned char *)A,
                            (const unsigned char *)B, 0, count);
}

int64_t testing_count_untouched_violations(char prec, char uplo, int64_t n,
                                           const void *A, const void *saved,
                                           int64_t lda)
{
    size_t es = testing_elsize(prec);
    int64_t bad = 0;
    for (int64_t j = 0; j < n; j++) {
        const unsigned char *a = (const unsigned char *)A + (size_t)(j * lda) * es;
        const unsigned char *s = (const unsigned char *)saved + (size_t)(j * lda) * es;
        int64_t lo, hi;
        triangle_rows(uplo, n, j, &lo, &hi);
        bad += count_diff_range(es, a, s, 0, lo);   /* other triangle ('L')  */
        bad += count_diff_range(es, a, s, hi, n);   /* other triangle ('U')  */
        bad += count_diff_range(es, a, s, n, lda);  /* padding rows          */
    }
    return bad;
}

int64_t testing_count_padding_diff(char prec, int64_t n, int64_t ncols, const void *B,
                                   const void *B0, int64_t ld)
{
    const size_t es = testing_elsize(prec);
    int64_t bad = 0;
    for (int64_t j = 0; j < ncols; j++)
        bad += testing_count_diff(prec, ld - n, (const char *)B + (size_t)(j * ld + n) * es,
                                  (const char *)B0 + (size_t)(j * ld + n) * es);
    return bad;
}

void testing_to_double(char prec, int64_t m, int64_t n, const void *A, int64_t lda,
                       double *D, int64_t ldd)
{
    for (int64_t j = 0; j < n; j++) {
        double *dcol = D + j * ldd;
        if (prec == 's') {
            const float *a = (const float *)A + j * lda;
            for (int64_t i = 0; i < m; i++)
                dcol[i] = (double)a[i];
        } else {
            memcpy(dcol, (const double *)A + j * lda, (size_t)(m > 0 ? m : 0) * sizeof(double));
        }
    }
}

int64_t testing_rfp_size(int64_t n)
{
    return n > 0 ? n * (n + 1) / 2 : 0;
}

void *testing_guarded_new(char prec, const void *body, int64_t count)
{
    const size_t es = testing_elsize(prec);
    char *h = malloc((size_t)(count + 2 * TESTING_GUARD) * es);
    if (!h)
        return NULL;
    testing_fill_value(prec, count + 2 * TESTING_GUARD, h, TESTING_SENTINEL);
    if (body)
        memcpy(h + TESTING_GUARD * es, body, (size_t)count * es);
    else
        testing_fill_nan(prec, count, h + TESTING_GUARD * es);
    return h;
}

int64_t testing_guard_violations(char prec, const void *h, const void *h0, int64_t count)
{
    const size_t es = testing_elsize(prec);
    const size_t tail = (size_t)(TESTING_GUARD + count) * es;
    return testing_count_diff(prec, TESTING_GUARD, h, h0) +
           testing_count_diff(prec, TESTING_GUARD, (const char *)h + tail,
                              (const char *)h0 + tail);
}
