/*
 * testing_rfp_index.c -- tests of the RFP layout kernels/rfp_index.h
 * describes, against LAPACKE_dtrttf (OpenBLAS): gchol_rfp_offset and
 * gchol_rfp_blocks for n = 1..40 in each (transr, uplo) and parity of n
 * (LAPACK's eight RFP cases); the realigned layout of transr 'N', even n
 * (gchol_rfp_blocks_realigned, gchol_rfp_realign_shift) that pftrf's fused
 * form factors on; and, with a GPU, the column rotation that realigns
 * (gchol_?rotate_columns_launch, kernels/rfp_realign.cu) against a CPU
 * reference. The layout tests run without a GPU.
 *
 *   testing_rfp_index [--quick]     (--quick: the same cases, for make sanitize)
 *
 * Ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <lapacke.h>

#include "gchol.h"
#include "opts.h"
#include "util.h"
#include "../kernels/gchol_kernels.h"
#include "../kernels/rfp_index.h"

/* ---------------------------------------------------------------------------
 * The layout against LAPACKE_dtrttf: n = 1..40 in each (transr, uplo) and
 * parity of n, i.e. LAPACK's eight RFP cases.
 * ------------------------------------------------------------------------- */

/* A distinct value for each symmetric element (i, j). */
static double rfp_value(int64_t i, int64_t j)
{
    int64_t hi = i > j ? i : j, lo = i > j ? j : i;
    return 1.0 + (double)(hi * 64 + lo);
}

/* 1 if arf[off] exists and holds the value of (i, j). */
static int rfp_at(const double *arf, int64_t nt, int64_t off, int64_t i, int64_t j)
{
    return off >= 0 && off < nt && arf[off] == rfp_value(i, j);
}

/* Offset of element (r, c) of a block stored as is (t = 0) or transposed. */
static int64_t blk(int64_t off, int t, int64_t ld, int64_t r, int64_t c)
{
    return off + (t ? c + r * ld : r + c * ld);
}

static void test_rfp_index(void)
{
    enum { NMAX = 40 };
    static double A[NMAX * NMAX], arf[NMAX * (NMAX + 1) / 2];
    printf("-- rfp_index.h against LAPACKE_dtrttf (n = 1..%d) --\n", NMAX);
    for (int t = 0; t < 2; t++)
        for (int u = 0; u < 2; u++)
            for (int parity = 1; parity >= 0; parity--) {
                char transr = t ? 'T' : 'N', uplo = u ? 'U' : 'L';
                int ok_off = 1, ok_blk = 1;
                char first[160] = "";
                for (int64_t n = parity ? 1 : 2; n <= NMAX; n += 2) {
                    int64_t nt = n * (n + 1) / 2;
                    gchol_rfp_blocks_t b = gchol_rfp_blocks(t, u, n);
                    for (int64_t j = 0; j < n; j++)
                        for (int64_t i = 0; i < n; i++)
                            A[i + j * n] = rfp_value(i, j);
                    for (int64_t p = 0; p < nt; p++)
                        arf[p] = -1;
                    LAPACKE_dtrttf(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)n, A,
                                   (lapack_int)n, arf);
                    /* every element's offset */
                    for (int64_t j = 0; j < n; j++)
                        for (int64_t i = j; i < n; i++)
                            if (!rfp_at(arf, nt, gchol_rfp_offset(t, u, n, i, j), i, j)) {
                                if (ok_off)
                                    snprintf(first, sizeof(first), "offset n=%lld (%lld,%lld)",
                                             (long long)n, (long long)i, (long long)j);
                                ok_off = 0;
                            }
                    /* the block descriptor: split, then L11, L21, L22 */
                    if (b.n1 + b.n2 != n || b.n1 != (u ? n / 2 : (n + 1) / 2)) {
                        if (ok_blk)
                            snprintf(first, sizeof(first), "split n=%lld n1=%lld n2=%lld",
                                     (long long)n, (long long)b.n1, (long long)b.n2);
                        ok_blk = 0;
                    }
                    for (int64_t c = 0; c < b.n1; c++)
                        for (int64_t r = c; r < b.n1; r++)
                            ok_blk &= rfp_at(arf, nt, blk(b.off11, b.t11, b.ld, r, c), r, c);
                    for (int64_t c = 0; c < b.n1; c++)
                        for (int64_t r = 0; r < b.n2; r++)
                            ok_blk &= rfp_at(arf, nt, blk(b.off21, b.t21, b.ld, r, c),
                                             b.n1 + r, c);
                    for (int64_t c = 0; c < b.n2; c++)
                        for (int64_t r = c; r < b.n2; r++)
                            ok_blk &= rfp_at(arf, nt, blk(b.off22, b.t22, b.ld, r, c),
                                             b.n1 + r, b.n1 + c);
                    if (!ok_blk && !first[0])
                        snprintf(first, sizeof(first), "blocks n=%lld", (long long)n);
                }
                testing_expect(ok_off, "gchol_rfp_offset  transr %c uplo %c, %s n: every "
                               "element where LAPACKE_dtrttf puts it%s%s", transr, uplo,
                               parity ? "odd" : "even", ok_off ? "" : " -- first: ", ok_off ? "" : first);
                testing_expect(ok_blk, "gchol_rfp_blocks  transr %c uplo %c, %s n: split and "
                               "L11, L21, L22 blocks%s%s", transr, uplo, parity ? "odd" : "even",
                               ok_blk ? "" : " -- first: ", ok_blk ? "" : first);
            }
}

/* CPU reference of the column rotation (kernels/rfp_realign.cu): column j
 * of ncols columns, len long, left by (s0 + ds*j) mod len. */
static void rotate_columns_ref(double *A, int64_t len, int64_t ncols, int64_t s0, int64_t ds)
{
    double *tmp = malloc((size_t)len * sizeof(double));
    for (int64_t j = 0; tmp && j < ncols; j++) {
        const int64_t s = ((s0 + ds * j) % len + len) % len;
        double *p = A + j * len;
        for (int64_t i = 0; i < len; i++) tmp[i] = p[(i + s) % len];
        memcpy(p, tmp, (size_t)len * sizeof(double));
    }
    free(tmp);
}

/* The GPU rotation on long columns (20001: moves of several 8192-element
 * chunks, reversals of several passes), the saved piece being the head or
 * the tail, shifts growing and shrinking, both methods, against the CPU
 * reference. */
static void test_rotate_long_columns(int gpu)
{
    enum { LEN = 20001, NCOLS = 6 };
    static const int64_t shifts[][2] = { { 7, 1 }, { 15000, -1 }, { 9999, 1 }, { LEN - 1, -3 } };
    if (!gpu) {
        printf("  skipped gchol_drotate_columns_launch  long columns (no GPU)\n");
        testing_record(TESTING_SKIPPED);
        return;
    }
    const size_t bytes = (size_t)LEN * NCOLS * sizeof(double);
    double *h0 = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes), *d = NULL;
    int ok = h0 && ref && got && !TESTING_CUDA(cudaMalloc((void **)&d, bytes));
    for (int64_t p = 0; ok && p < (int64_t)LEN * NCOLS; p++) h0[p] = (double)p;
    for (int m = GCHOL_ROTATE_REVERSALS; ok && m <= GCHOL_ROTATE_SMEM; m++)
        for (size_t t = 0; ok && t < sizeof(shifts) / sizeof(shifts[0]); t++) {
            memcpy(ref, h0, bytes);
            rotate_columns_ref(ref, LEN, NCOLS, shifts[t][0], shifts[t][1]);
            ok = !TESTING_CUDA(cudaMemcpy(d, h0, bytes, cudaMemcpyHostToDevice)) &&
                 !TESTING_CUDA(gchol_drotate_columns_launch(d, LEN, NCOLS, shifts[t][0],
                                                            shifts[t][1], m, 0)) &&
                 !TESTING_CUDA(cudaMemcpy(got, d, bytes, cudaMemcpyDeviceToHost)) &&
                 memcmp(got, ref, bytes) == 0;
        }
    testing_expect(ok, "gchol_drotate_columns_launch  long columns (%d), both methods, head and "
                   "tail saved: equals the CPU reference", LEN);
    cudaFree(d);
    free(h0); free(ref); free(got);
}

/* pftrf's realigned layout of transr = 'N', even n (rfp_index.h): after the
 * rotation every element sits where gchol_rfp_blocks_realigned says (leading
 * dimension n, L11 at 0, L21 at n/2, L22^T at n), and the inverse rotation
 * restores LAPACKE_dtrttf's array bit for bit. With a GPU, the kernel must
 * give the reference's result for both directions. */
static void test_rfp_realigned(int gpu)
{
    enum { NMAX = 40 };
    static double A[NMAX * NMAX], arf[NMAX * (NMAX + 1) / 2], rot[NMAX * (NMAX + 1) / 2],
        back[NMAX * (NMAX + 1) / 2];
    printf("-- the realigned layout of transr 'N', even n = 2..%d --\n", NMAX);
    for (int u = 0; u < 2; u++) {
        const char uplo = u ? 'U' : 'L';
        int ok_blk = 1, ok_back = 1, ok_gpu = 1, gpu_err = 0;
        char first[160] = "";
        for (int64_t n = 2; n <= NMAX; n += 2) {
            const int64_t nt = n * (n + 1) / 2, len = n + 1, s0 = gchol_rfp_realign_shift(u, n, 0);
            const gchol_rfp_blocks_t b = gchol_rfp_blocks_realigned(u, n);
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < n; i++)
                    A[i + j * n] = rfp_value(i, j);
            LAPACKE_dtrttf(LAPACK_COL_MAJOR, 'N', uplo, (lapack_int)n, A, (lapack_int)n, arf);
            memcpy(rot, arf, (size_t)nt * sizeof(double));
            rotate_columns_ref(rot, len, n / 2, s0, 1);
            int ok = b.ld == n && b.n1 == n / 2 && b.n2 == n / 2;
            for (int64_t c = 0; c < b.n1; c++)
                for (int64_t r = c; r < b.n1; r++)
                    ok &= rfp_at(rot, nt, blk(b.off11, b.t11, b.ld, r, c), r, c);
            for (int64_t c = 0; c < b.n1; c++)
                for (int64_t r = 0; r < b.n2; r++)
                    ok &= rfp_at(rot, nt, blk(b.off21, b.t21, b.ld, r, c), b.n1 + r, c);
            for (int64_t c = 0; c < b.n2; c++)
                for (int64_t r = c; r < b.n2; r++)
                    ok &= rfp_at(rot, nt, blk(b.off22, b.t22, b.ld, r, c), b.n1 + r, b.n1 + c);
            if (!ok && ok_blk) snprintf(first, sizeof(first), "blocks n=%lld", (long long)n);
            ok_blk &= ok;
            memcpy(back, rot, (size_t)nt * sizeof(double));
            rotate_columns_ref(back, len, n / 2, len - s0, -1);
            ok_back &= memcmp(back, arf, (size_t)nt * sizeof(double)) == 0;
            for (int m = GCHOL_ROTATE_REVERSALS; gpu && m <= GCHOL_ROTATE_SMEM; m++) {
                double *dR = NULL;
                int e = TESTING_CUDA(cudaMalloc((void **)&dR, (size_t)nt * sizeof(double)));
                if (!e) e = TESTING_CUDA(cudaMemcpy(dR, arf, (size_t)nt * sizeof(double),
                                                    cudaMemcpyHostToDevice));
                if (!e) e = TESTING_CUDA(gchol_drotate_columns_launch(dR, len, n / 2, s0, 1, m, 0));
                if (!e) e = TESTING_CUDA(cudaMemcpy(back, dR, (size_t)nt * sizeof(double),
                                                    cudaMemcpyDeviceToHost));
                if (!e) ok_gpu &= memcmp(back, rot, (size_t)nt * sizeof(double)) == 0;
                if (!e) e = TESTING_CUDA(
                            gchol_drotate_columns_launch(dR, len, n / 2, len - s0, -1, m, 0));
                if (!e) e = TESTING_CUDA(cudaMemcpy(back, dR, (size_t)nt * sizeof(double),
                                                    cudaMemcpyDeviceToHost));
                if (!e) ok_gpu &= memcmp(back, arf, (size_t)nt * sizeof(double)) == 0;
                cudaFree(dR);
                gpu_err |= e;
            }
        }
        testing_expect(ok_blk, "gchol_rfp_blocks_realigned  uplo %c: rotated columns put L11, "
                       "L21, L22 where the descriptor says%s%s", uplo, ok_blk ? "" : " -- first: ",
                       ok_blk ? "" : first);
        testing_expect(ok_back, "gchol_rfp_realign_shift  uplo %c: the inverse rotation restores "
                       "LAPACKE_dtrttf's array", uplo);
        if (gpu)
            testing_expect(ok_gpu && !gpu_err, "gchol_drotate_columns_launch  uplo %c: GPU "
                           "rotation both ways, both methods, equals the CPU reference", uplo);
        else {
            printf("  skipped gchol_drotate_columns_launch  uplo %c (no GPU)\n", uplo);
            testing_record(TESTING_SKIPPED);
        }
    }
}

int main(int argc, char **argv)
{
    int quick = 0;
    const opt_t opts[] = {
        OPT("--quick", OPT_FLAG, &quick, NULL, "accepted for make sanitize: the same cases"),
        OPT_END
    };
    const opts_program_t prog = { "[--quick]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    const int gpu = testing_have_gpu();
    printf("testing_rfp_index (%s)\n", gpu ? "GPU present" : "no GPU");
    test_rfp_index();
    test_rfp_realigned(gpu);
    test_rotate_long_columns(gpu);
    if (gpu)
        gchol_finalize();
    return testing_summary();
}
