/*
 * swap_triangles.cu -- A(i, j) <-> A(j, i) for the pairs i > j of an n x n
 * column-major matrix in a range of columns or of rows of its lower
 * triangle, in place; over all columns the strictly lower triangle becomes
 * the transpose of the strictly upper one and the other way round, the
 * diagonal and the padding rows untouched. Every pair swapped twice is
 * restored bit for bit (elements move as unsigned integers, so even a NaN's
 * payload survives).
 *
 * potrf 'U' uses it to run the lower factorization on the transposed
 * matrix, whose accesses are contiguous where upper's are strided: each
 * block column is swapped just before its update, each block row back once
 * nothing reads it any more, so the memory-bound swaps run beside the
 * factorization's compute-bound work.
 */
#include "gchol_kernels.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

namespace {

constexpr int kRowsPerPass = 8; /* block: 32 x 8 threads */

/* Which pairs a launch swaps: (i, j), i > j, with i in [ilo, ihi) and j in
 * [jlo, jhi) (0 <= ilo, jlo and ihi, jhi <= n). */
struct PairRange {
    int64_t n, ilo, ihi, jlo, jhi;
    __device__ bool has(int64_t i, int64_t j) const
    {
        return i > j && i >= ilo && i < ihi && j >= jlo && j < jhi;
    }
};

/* V consecutive elements of a column, moved as one access where they are
 * all wanted (then aligned: see the launcher). */
template <typename Bits, int V>
struct __align__(sizeof(Bits) * V) Run { Bits v[V]; };

/* The pair (max(x, y), min(x, y)) of element (x, y), if it is in the range:
 * exactly the elements a launch reads and writes (the factorization may be
 * working on the others, on another stream). */
__device__ inline bool wanted(const PairRange &pr, int64_t x, int64_t y)
{
    return x > y ? pr.has(x, y) : pr.has(y, x);
}

/* dst[v] = A(x + v, y) for the wanted elements, as one access when all V
 * are wanted. */
template <typename Bits, int V>
__device__ inline void load_run(const Bits *A, int64_t lda, const PairRange &pr, int64_t x,
                                int64_t y, Bits *dst)
{
    bool want[V], all = true;
    for (int v = 0; v < V; ++v) {
        want[v] = wanted(pr, x + v, y);
        all = all && want[v];
    }
    const Bits *p = A + x + y * lda;
    if (all) {
        const Run<Bits, V> r = *reinterpret_cast<const Run<Bits, V> *>(p);
        for (int v = 0; v < V; ++v) dst[v] = r.v[v];
    } else {
        for (int v = 0; v < V; ++v)
            if (want[v]) dst[v] = p[v];
    }
}

/* p[v] = run.v[v] for the wanted elements, as one access when all V are. */
template <typename Bits, int V>
__device__ inline void store_run(Bits *p, const Run<Bits, V> &run, const bool (&want)[V])
{
    bool all = true;
    for (int v = 0; v < V; ++v) all = all && want[v];
    if (all) {
        *reinterpret_cast<Run<Bits, V> *>(p) = run;
    } else {
        for (int v = 0; v < V; ++v)
            if (want[v]) p[v] = run.v[v];
    }
}

/* Tiles of kT x kT, anchored at (o + a kT, o + b kT) for the lower one and
 * the transposed place for its mirror, o = jlo; block (x, y) takes a = a0 +
 * x, b = y, and tiles above the diagonal (b > a) have nothing to do. A warp moves
 * 32 runs of V rows of one column (256 bytes with 8-byte elements or V =
 * 2: 4-byte elements one by one reach only ~2/3 of the copy bandwidth).
 * Bits is the unsigned integer type of the element's size. */
template <typename Bits, int kT, int V>
__global__ void __launch_bounds__(32 * kRowsPerPass)
swap_triangles_kernel(Bits *__restrict__ A, int64_t lda, int64_t a0, PairRange pr)
{
    static_assert(2 * kT * (kT + 1) * sizeof(Bits) <= 48 * 1024, "static shared memory");
    __shared__ Bits lower[kT][kT + 1], upper[kT][kT + 1];
    const int64_t a = a0 + blockIdx.x, b = blockIdx.y, o = pr.jlo;
    if (b > a) return;
    const int64_t r0 = o + a * kT, c0 = o + b * kT; /* lower tile: rows r0.., columns c0.. */
    const bool self = a == b;                       /* a diagonal tile is its own mirror */
    /* a tile pair wholly inside the range and the matrix (most of them):
     * no masks; a > b puts the lower tile strictly below the diagonal */
    const bool whole = !self && r0 >= pr.ilo && r0 + kT <= pr.ihi && c0 >= pr.jlo &&
                       c0 + kT <= pr.jhi;
    if (whole) {
        for (int c = threadIdx.y; c < kT; c += kRowsPerPass)
            for (int r = V * threadIdx.x; r < kT; r += 32 * V) {
                const Run<Bits, V> l = *reinterpret_cast<const Run<Bits, V> *>(
                                       A + (r0 + r) + (c0 + c) * lda),
                                   u = *reinterpret_cast<const Run<Bits, V> *>(
                                       A + (c0 + r) + (r0 + c) * lda);
                for (int v = 0; v < V; ++v) {
                    lower[c][r + v] = l.v[v];
                    upper[c][r + v] = u.v[v];
                }
            }
        __syncthreads();
        for (int c = threadIdx.y; c < kT; c += kRowsPerPass)
            for (int r = V * threadIdx.x; r < kT; r += 32 * V) {
                Run<Bits, V> l, u;
                for (int v = 0; v < V; ++v) {
                    u.v[v] = upper[r + v][c];
                    l.v[v] = lower[r + v][c];
                }
                *reinterpret_cast<Run<Bits, V> *>(A + (r0 + r) + (c0 + c) * lda) = u;
                *reinterpret_cast<Run<Bits, V> *>(A + (c0 + r) + (r0 + c) * lda) = l;
            }
        return;
    }

    /* lower[c][r] = A(r0 + r, c0 + c); upper[c][r] = A(c0 + r, r0 + c):
     * runs go down a column, the contiguous direction; only elements of
     * pairs in the range are read, and written below. */
    for (int c = threadIdx.y; c < kT; c += kRowsPerPass)
        for (int r = V * threadIdx.x; r < kT; r += 32 * V) {
            load_run<Bits, V>(A, lda, pr, r0 + r, c0 + c, &lower[c][r]);
            if (!self) load_run<Bits, V>(A, lda, pr, c0 + r, r0 + c, &upper[c][r]);
        }
    __syncthreads();
    /* A(r0 + r, c0 + c) := A(c0 + c, r0 + r) = upper[r][c] (a diagonal
     * tile: lower[r][c]), and the mirror A(c0 + r, r0 + c) := A(r0 + c,
     * c0 + r) = lower[r][c]: each element whose pair is in the range. */
    for (int c = threadIdx.y; c < kT; c += kRowsPerPass)
        for (int r = V * threadIdx.x; r < kT; r += 32 * V) {
            Run<Bits, V> run;
            bool want[V];
            for (int v = 0; v < V; ++v) {
                want[v] = wanted(pr, r0 + r + v, c0 + c);
                run.v[v] = self ? lower[r + v][c] : upper[r + v][c];
            }
            store_run<Bits, V>(A + (r0 + r) + (c0 + c) * lda, run, want);
            if (self) continue;
            for (int v = 0; v < V; ++v) {
                want[v] = wanted(pr, c0 + r + v, r0 + c);
                run.v[v] = lower[r + v][c];
            }
            store_run<Bits, V>(A + (c0 + r) + (r0 + c) * lda, run, want);
        }
}

template <typename Bits, int kT, int V>
int launch_tiles(Bits *A, int64_t lda, const PairRange &pr, cudaStream_t stream)
{
    /* tiles anchored at the first column; rows below it only (i > j) */
    const int64_t o = pr.jlo, first_row = pr.ilo > o ? pr.ilo : o;
    const int64_t a0 = (first_row - o) / kT;
    const int64_t a1 = (pr.ihi - o + kT - 1) / kT;
    const int64_t b_end = (pr.jhi - o + kT - 1) / kT, b1 = b_end < a1 ? b_end : a1; /* b <= a */
    if (a1 <= a0 || b1 <= 0) return cudaSuccess;
    /* An error left pending by earlier work would be taken for this
     * launch's; the caller counts a range as swapped only on success, so
     * report it and launch nothing. */
    const cudaError_t pending = cudaPeekAtLastError();
    if (pending != cudaSuccess) return pending;
    if (a1 - a0 > 0x7fffffff || b1 > 65535) return cudaErrorInvalidValue;
    swap_triangles_kernel<Bits, kT, V>
        <<<dim3((unsigned)(a1 - a0), (unsigned)b1), dim3(32, kRowsPerPass), 0, stream>>>(
            A, lda, a0, pr);
    return cudaGetLastError();
}

/* 8-byte elements one by one in 32 x 32 tiles (97% of a device-to-device
 * copy's bandwidth); 4-byte elements in pairs in 64 x 64 tiles where every
 * pair is 8-byte aligned (even lda, base and first column), else one by
 * one in 64 x 64 tiles (faster than 32 x 32 for them).
 * gchol_dswap_triangles_launch, gchol_sswap_triangles_launch. */
template <typename Bits>
int swap_triangles_launch(int64_t n, Bits *A, int64_t lda, int64_t ilo, int64_t ihi, int64_t jlo,
                          int64_t jhi, cudaStream_t stream)
{
    if (n < 0 || lda < (n > 1 ? n : 1) || ilo < 0 || jlo < 0 || ihi > n || jhi > n)
        return cudaErrorInvalidValue;
    if (n <= 1 || ihi <= ilo || jhi <= jlo) return cudaSuccess;
    const PairRange pr = { n, ilo, ihi, jlo, jhi };
    if constexpr (sizeof(Bits) == 8) {
        return launch_tiles<Bits, 32, 1>(A, lda, pr, stream);
    } else {
        if (lda % 2 == 0 && jlo % 2 == 0 && reinterpret_cast<uintptr_t>(A) % 8 == 0)
            return launch_tiles<Bits, 64, 2>(A, lda, pr, stream);
        return launch_tiles<Bits, 64, 1>(A, lda, pr, stream);
    }
}

} // namespace

extern "C" int gchol_dswap_triangles_launch(int64_t n, double *dA, int64_t ldda, int64_t ilo,
                                            int64_t ihi, int64_t jlo, int64_t jhi,
                                            cudaStream_t stream)
{
    return swap_triangles_launch(n, reinterpret_cast<unsigned long long *>(dA), ldda, ilo, ihi,
                                 jlo, jhi, stream);
}

extern "C" int gchol_sswap_triangles_launch(int64_t n, float *dA, int64_t ldda, int64_t ilo,
                                            int64_t ihi, int64_t jlo, int64_t jhi,
                                            cudaStream_t stream)
{
    return swap_triangles_launch(n, reinterpret_cast<unsigned int *>(dA), ldda, ilo, ihi, jlo,
                                 jhi, stream);
}
