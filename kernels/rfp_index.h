/*
 * rfp_index.h -- where LAPACK's Rectangular Full Packed format keeps each
 * element, and how an RFP array splits into two triangles and a rectangle.
 * Plain C (host drivers, tests) and CUDA (kernels) share this one copy.
 *
 * Coordinates are those of the LOWER triangle of the symmetric matrix: (i, j)
 * with i >= j. For uplo = 'U' the stored element is U(j, i) = A(j, i), the
 * same value, so one function serves both triangles.
 */
#ifndef GCHOL_RFP_INDEX_H
#define GCHOL_RFP_INDEX_H

#include <stdint.h>

#ifdef __CUDACC__
#define GCHOL_HD __host__ __device__ __forceinline__
#else
#define GCHOL_HD static inline
#endif

/*
 * Offset of symmetric element (i, j), i >= j, in the RFP array of order n.
 * transposed: transr = 'T'; upper: uplo = 'U'. The formulas are LAPACK's
 * dtrttf, 0-based (docs/design.md derives them); testing_host checks them
 * against LAPACKE_dtrttf for n = 1..40 in all eight variants.
 */
GCHOL_HD int64_t gchol_rfp_offset(int transposed, int upper, int64_t n, int64_t i, int64_t j)
{
    const int64_t s = (n % 2 == 0);
    if (!upper) {
        const int64_t n1 = (n + 1) / 2; /* ceil(n/2) */
        int64_t r, c;
        if (j < n1) { r = i + s;  c = j; }
        else        { r = j - n1; c = i - n1 + 1 - s; }
        return transposed ? c + r * n1 : r + c * (n + s);
    } else {
        /* U(p, q) with p = j <= q = i */
        const int64_t m = n / 2, p = j, q = i;
        int64_t r, c;
        if (q >= m) { r = p;         c = q - m; }
        else        { r = q + m + 1; c = p; }
        return transposed ? c + r * (n - m) : r + c * (n + s);
    }
}

/*
 * The block structure that dpftrf and dpftrs work on. With L the lower
 * Cholesky factor (L = U^T for uplo = 'U'), split at n1:
 *       [ L11      ]   L11 n1 x n1, L21 n2 x n1, L22 n2 x n2.
 *   L = [ L21  L22 ]
 * Each block is an ordinary column-major block of the RFP array with leading
 * dimension ld, stored either as is or transposed:
 *   t11 / t22 = 0: the block's lower triangle holds L11 / L22;
 *             = 1: its upper triangle holds the transpose;
 *   t21 = 0: an n2 x n1 block holds L21; 1: an n1 x n2 block holds L21^T.
 */
typedef struct {
    int64_t n1, n2, ld;
    int64_t off11, off21, off22;
    int     t11, t21, t22;
} gchol_rfp_blocks_t;

GCHOL_HD gchol_rfp_blocks_t gchol_rfp_blocks(int transposed, int upper, int64_t n)
{
    gchol_rfp_blocks_t b;
    const int64_t s = (n % 2 == 0);
    if (!upper) {
        /* L11 at (s,0), L21 at (n1+s,0), L22^T above at ((1-s) ld_N, 0) */
        b.n1 = (n + 1) / 2;
        b.n2 = n - b.n1;
        if (!transposed) {
            b.ld = n + s;
            b.off11 = s;                 b.t11 = 0;
            b.off21 = b.n1 + s;          b.t21 = 0;
            b.off22 = (1 - s) * b.ld;    b.t22 = 1;
        } else {
            b.ld = b.n1;
            b.off11 = s * b.ld;          b.t11 = 1;
            b.off21 = (b.n1 + s) * b.ld; b.t21 = 1;
            b.off22 = 1 - s;             b.t22 = 0;
        }
    } else {
        const int64_t m = n / 2;
        b.n1 = m;
        b.n2 = n - m;
        if (!transposed) {
            b.ld = n + s;
            b.off11 = m + 1;             b.t11 = 0; /* U11^T = L11, lower */
            b.off21 = 0;                 b.t21 = 1; /* U12 = L21^T        */
            b.off22 = m;                 b.t22 = 1; /* U22 = L22^T, upper */
        } else {
            b.ld = n - m;
            b.off11 = (m + 1) * b.ld;    b.t11 = 1;
            b.off21 = 0;                 b.t21 = 0;
            b.off22 = m * b.ld;          b.t22 = 0;
        }
    }
    return b;
}

/*
 * The realigned layout of a transr = 'N' array of even order n. There the
 * leading dimension n + 1 is odd, so every other column starts off a 16-byte
 * boundary in double and cuBLAS's gemm, trsm and syrk lose 10-25%. Each
 * column of the array (n + 1 elements) is two pieces, one of each triangle:
 *   uplo 'L', column j: [ L22^T(0:j, j) (j+1) | L(j:n-1, j) (n-j) ]
 *   uplo 'U', column j: [ U12(:, j), U22(0:j, j) (k+j+1) | U11(j, j:k-1)^T (k-j) ]
 * (k = n/2). Swapping the two pieces of every column in place (a rotation
 * left by gchol_rfp_realign_shift) gives, for the same n(n+1)/2 elements,
 * three blocks with leading dimension n, at offsets 0, k and n:
 *   'L': L11 lower at 0, L21 at k, L22^T upper at n (column j+1, rows 0..j);
 *   'U': U11^T lower at 0, U12 at k, U22 upper at n.
 * The last block's last column is the array's last k elements.
 */
GCHOL_HD gchol_rfp_blocks_t gchol_rfp_blocks_realigned(int upper, int64_t n)
{
    gchol_rfp_blocks_t b;
    b.n1 = n / 2;
    b.n2 = n - b.n1;
    b.ld = n;
    b.off11 = 0;    b.t11 = 0;
    b.off21 = b.n1; b.t21 = upper ? 1 : 0;
    b.off22 = n;    b.t22 = 1;
    return b;
}

/* How far left column j (of n + 1 elements) rotates into the realigned
 * layout: past the first piece. Back: n + 1 minus that. */
GCHOL_HD int64_t gchol_rfp_realign_shift(int upper, int64_t n, int64_t j)
{
    return upper ? n / 2 + 1 + j : j + 1;
}

#endif
