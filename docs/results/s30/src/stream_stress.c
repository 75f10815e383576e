/* session 30: stress for the c13 failure (testing_spotrf's "stream" case, n = 257 lower: info = 1
 * on an SPD matrix, once). Each round: the matrix poisoned (0xFF) and copied in on the queue's
 * stream, gchol_?potrf_async, info read back. Modes: 0 the default queue (blocking stream),
 * 1 a queue from a non-blocking stream (the failing case), 2 the same with a fresh queue every
 * 100 rounds. Prints the rounds whose info != 0, and a summary line.
 *   stream_stress PREC N ROUNDS MODE */
#include <gchol.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s: %s\n", #x, cudaGetErrorString(e_)); exit(2); } } while (0)

int main(int argc, char **argv)
{
    if (argc < 5) { printf("usage: stream_stress d|s N ROUNDS MODE\n"); return 2; }
    const int single = argv[1][0] == 's';
    const int64_t n = atoll(argv[2]);
    const long rounds = atol(argv[3]);
    const int mode = atoi(argv[4]);
    const size_t es = single ? sizeof(float) : sizeof(double), bytes = (size_t)n * n * es;
    /* SPD: diagonally dominant with random entries */
    void *h = malloc(bytes);
    srand(7);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            double v = (double)rand() / RAND_MAX - 0.5;
            if (i == j) v = n;
            if (single) ((float *)h)[i + j * n] = (float)v; else ((double *)h)[i + j * n] = v;
        }
    for (int64_t j = 0; j < n; j++)  /* symmetric */
        for (int64_t i = 0; i < j; i++) {
            if (single) ((float *)h)[i + j * n] = ((float *)h)[j + i * n];
            else ((double *)h)[i + j * n] = ((double *)h)[j + i * n];
        }
    void *dA, *dB;
    int64_t *dinfo;
    CK(cudaMalloc(&dA, bytes));
    CK(cudaMalloc(&dB, bytes));
    CK(cudaMalloc((void **)&dinfo, 2 * sizeof(int64_t)));
    CK(cudaMemcpy(dB, h, bytes, cudaMemcpyHostToDevice));
    cudaStream_t s = NULL;
    gchol_queue_t q = NULL;
    gchol_options_t o;
    gchol_options_default(&o);
    long bad = 0;
    for (long r = 0; r < rounds; r++) {
        if (!q || (mode == 2 && r % 100 == 0)) {
            if (q) { gchol_queue_destroy(q); q = NULL; }
            if (s) { CK(cudaStreamDestroy(s)); s = NULL; }
            int64_t st;
            if (mode == 0) st = gchol_queue_create(-1, &q);
            else {
                CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
                st = gchol_queue_create_from_stream(-1, s, &q);
            }
            if (st) { printf("queue: %lld\n", (long long)st); return 2; }
        }
        cudaStream_t qs = gchol_queue_stream(q);
        int64_t poison[2] = { -987654321, -987654321 };
        CK(cudaMemcpy(dinfo, poison, sizeof(poison), cudaMemcpyHostToDevice));
        CK(cudaMemsetAsync(dA, 0xFF, bytes, qs));
        CK(cudaMemcpyAsync(dA, dB, bytes, cudaMemcpyDeviceToDevice, qs));
        int64_t ret = single ? gchol_spotrf_async('L', n, (float *)dA, n, dinfo, &o, q)
                             : gchol_dpotrf_async('L', n, (double *)dA, n, dinfo, &o, q);
        CK(cudaMemcpyAsync(dinfo + 1, dinfo, sizeof(int64_t), cudaMemcpyDeviceToDevice, qs));
        CK(cudaStreamSynchronize(qs));
        int64_t info = 0;
        CK(cudaMemcpy(&info, dinfo + 1, sizeof(info), cudaMemcpyDeviceToHost));
        if (ret != 0 || info != 0) {
            if (bad < 20) printf("round %ld: ret %lld info %lld\n", r, (long long)ret, (long long)info);
            bad++;
        }
    }
    printf("STRESS %c n=%lld rounds=%ld mode=%d bad=%ld\n", single ? 's' : 'd', (long long)n, rounds, mode, bad);
    gchol_queue_destroy(q);
    return bad ? 1 : 0;
}
