/*
 * bench_mp_source.h -- bench_mp_potrf's matrices (included once, by
 * bench_mp_potrf.c): this rank's block-cyclic part of the SPD matrix
 * A(i,j) = u(max(i,j), min(i,j)) + n [i = j] (u uniform in (-1,1) from
 * (i, j): testing_generate_spd's matrix, both triangles), and where each run
 * starts from (source_t):
 *
 *   device  a pristine copy on the GPU, where two parts fit there;
 *   host    a pristine copy in page-locked host memory (pageable where the
 *           host refuses to lock it): about 106 GB a rank at the weak-
 *           scaling orders, so P ranks of one host need P times that;
 *   gen     no copy: each run regenerates the part through two 1 GiB
 *           page-locked buffers, filling one while the other uploads, so
 *           that host memory does not bound the ranks of one host.
 *
 * Each run's copy lies outside the timed region.
 */
#ifndef GCHOL_BENCH_MP_SOURCE_H
#define GCHOL_BENCH_MP_SOURCE_H

typedef struct {
    void   *A; /* columns col0.. of the part (double, or float with single) */
    int     single;
    int64_t n, nb, lld, nprow, npcol, myrow, mycol, locr, locc;
    uint64_t seed;
    double *colsum; /* per local column, the sum of its local entries' magnitudes */
    int64_t col0;   /* the part's column that A's first column holds */
} fill_t;

/* Global row (or column) of local index l: block-cyclic, source 0. */
static int64_t global_index(int64_t l, int64_t nb, int64_t nprocs, int64_t me)
{
    return ((l / nb) * nprocs + me) * nb + l % nb;
}

/* columns col0 + [begin, end) of this rank's part, into A's columns [begin, end) */
static void fill_cols(void *arg, int64_t begin, int64_t end)
{
    const fill_t *f = arg;
    for (int64_t c = begin; c < end; ++c) {
        const int64_t lj = f->col0 + c;
        const int64_t gj = global_index(lj, f->nb, f->npcol, f->mycol);
        double sum = 0;
        for (int64_t li = 0; li < f->locr; ++li) {
            const int64_t gi = global_index(li, f->nb, f->nprow, f->myrow);
            const int64_t hi = gi > gj ? gi : gj, lo = gi > gj ? gj : gi;
            const double a = testing_hash_uniform(f->seed, hi, lo) + (gi == gj ? (double)f->n : 0);
            if (f->single) {
                ((float *)f->A)[li + c * f->lld] = (float)a;
                sum += fabs((double)(float)a);
            } else {
                ((double *)f->A)[li + c * f->lld] = a;
                sum += fabs(a);
            }
        }
        f->colsum[lj] = sum;
    }
}

enum { SOURCE_DEVICE, SOURCE_HOST, SOURCE_GEN };
static const char *const source_name[] = { "device", "host", "gen" };

typedef struct {
    int     mode;
    void   *dev, *host; /* device, host */
    size_t  bytes;
    const fill_t *fill; /* gen: the part, its buffers and their stream */
    void   *buf[2];
    int64_t buf_cols;
    cudaStream_t stream;
    cudaEvent_t done[2];
    int     pinned; /* host: page-locked */
} source_t;

/* Whether `copies` arrays of `bytes` fit in the current GPU's free memory
 * with `spare` bytes over (the factorization's workspace). */
static int fits(int copies, size_t bytes, size_t spare)
{
    size_t freeb = 0, total = 0;
    BENCH_CUDA(cudaMemGetInfo(&freeb, &total));
    return (double)copies * (double)bytes + (double)spare < (double)freeb;
}

/* Page-locks a host array, so that each run's upload moves at the link's
 * rate; where the host refuses, the upload stays pageable. */
static int pin(void *host, size_t bytes)
{
    if (cudaHostRegister(host, bytes, cudaHostRegisterDefault) == cudaSuccess) return 1;
    (void)cudaGetLastError();
    return 0;
}

/* gen: the part's columns chunk by chunk, into dA when dA is set (fill_cols
 * also refreshes the column sums) */
static void generate(const source_t *src, void *dA)
{
    const fill_t *f = src->fill;
    const size_t es = f->single ? sizeof(float) : sizeof(double);
    for (int64_t c0 = 0, k = 0; c0 < f->locc; c0 += src->buf_cols, ++k) {
        const int64_t cols = f->locc - c0 < src->buf_cols ? f->locc - c0 : src->buf_cols;
        BENCH_CUDA(cudaEventSynchronize(src->done[k & 1])); /* its last upload is done */
        fill_t part = *f;
        part.A = src->buf[k & 1];
        part.col0 = c0;
        testing_parallel_for(cols, fill_cols, &part);
        if (dA) {
            BENCH_CUDA(cudaMemcpyAsync((char *)dA + (size_t)(c0 * f->lld) * es, part.A,
                                       (size_t)(cols * f->lld) * es, cudaMemcpyHostToDevice,
                                       src->stream));
            BENCH_CUDA(cudaEventRecord(src->done[k & 1], src->stream));
        }
    }
    BENCH_CUDA(cudaStreamSynchronize(src->stream));
}

/* The part's source, as asked (auto: device where two parts fit with 4 GiB
 * over, else host), and its column sums in f->colsum. */
static void source_open(source_t *src, fill_t *f, const char *asked, size_t bytes, int rank)
{
    memset(src, 0, sizeof *src);
    src->bytes = bytes;
    src->mode = !strcmp(asked, "gen")    ? SOURCE_GEN
                : !strcmp(asked, "host") ? SOURCE_HOST
                : fits(2, bytes, (size_t)4 << 30) ? SOURCE_DEVICE : SOURCE_HOST;
    const size_t es = f->single ? sizeof(float) : sizeof(double);
    if (src->mode == SOURCE_GEN) {
        const int64_t col_bytes = f->lld * (int64_t)es;
        src->fill = f;
        src->buf_cols = ((int64_t)1 << 30) / col_bytes > 1 ? ((int64_t)1 << 30) / col_bytes : 1;
        if (src->buf_cols > f->locc) src->buf_cols = f->locc > 0 ? f->locc : 1;
        for (int b = 0; b < 2; ++b) {
            BENCH_CUDA(cudaMallocHost(&src->buf[b], (size_t)(src->buf_cols * col_bytes)));
            BENCH_CUDA(cudaEventCreateWithFlags(&src->done[b], cudaEventDisableTiming));
        }
        BENCH_CUDA(cudaStreamCreateWithFlags(&src->stream, cudaStreamNonBlocking));
        generate(src, NULL);
        return;
    }
    f->A = malloc(bytes);
    if (!f->A) {
        fprintf(stderr, "rank %d: no host memory for %zu bytes (--source gen needs none)\n", rank,
                bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    f->col0 = 0;
    testing_parallel_for(f->locc, fill_cols, f);
    if (src->mode == SOURCE_HOST) {
        src->host = f->A;
        src->pinned = pin(f->A, bytes);
    } else {
        BENCH_CUDA(cudaMalloc(&src->dev, bytes));
        BENCH_CUDA(cudaMemcpy(src->dev, f->A, bytes, cudaMemcpyHostToDevice));
        free(f->A);
        f->A = NULL;
    }
}

static void source_close(source_t *src, fill_t *f)
{
    if (src->dev) BENCH_CUDA(cudaFree(src->dev));
    if (src->pinned) BENCH_CUDA(cudaHostUnregister(src->host));
    for (int b = 0; b < 2; ++b) {
        if (src->buf[b]) BENCH_CUDA(cudaFreeHost(src->buf[b]));
        if (src->done[b]) BENCH_CUDA(cudaEventDestroy(src->done[b]));
    }
    if (src->stream) BENCH_CUDA(cudaStreamDestroy(src->stream));
    free(f->A);
    f->A = NULL;
    memset(src, 0, sizeof *src);
}

/* A run's start: dA holds the pristine part, and the device is idle. */
static void fresh(const source_t *src, void *dA)
{
    if (src->mode == SOURCE_GEN) generate(src, dA);
    else BENCH_CUDA(cudaMemcpy(dA, src->dev ? src->dev : src->host, src->bytes,
                               src->dev ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaDeviceSynchronize());
}

#endif
