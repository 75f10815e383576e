/*
 * bench_pftrf_maxn.h -- bench_pftrf's --max-n mode: the largest order each
 * storage factors in the device's memory, RFP against full.
 * Part of bench_pftrf.c, which includes it once.
 */
#ifndef GCHOL_BENCH_PFTRF_MAXN_H
#define GCHOL_BENCH_PFTRF_MAXN_H

/* ---------------------------------------------------------------------------
 * --max-n
 *
 * For one storage: a fresh queue; a small warm-up factorization (loads the
 * kernels, which take device memory under lazy loading); F = free bytes from
 * cudaMemGetInfo; n = the largest multiple of 32 whose array fits in
 * F - margin (n(n+1)/2 elements in RFP, n*n with ldda = n in full storage).
 * Then the array is allocated, filled ON THE DEVICE and factored once (CUDA
 * events). When the allocation or the factorization runs out of memory
 * (GCHOL_ERR_DEVICE_ALLOC), n shrinks by 1% and it tries again, 5 times at most.
 *
 * The matrix: a host vector v of 2^24 entries uniform(0, 1) is uploaded into
 * the start of the array, which is then tiled with it by doubling device
 * copies (a_k = v[k mod 2^24] for every stored element k); the diagonal is
 * then overwritten with n + uniform(0, 1). The symmetric matrix defined by the
 * stored triangle has off-diagonal entries in (0, 1) and diagonal > n, so it
 * is strictly diagonally dominant, hence SPD.
 *
 * Check without a copy of A (no memory for one): the last row of A = L L^T
 * gives sum_k L(n-1,k)^2 = a(n-1,n-1), known on the host; the last row of L
 * (n elements) is gathered back and
 *   |sum_k L(n-1,k)^2 - a(n-1,n-1)| / (n eps a(n-1,n-1)) < 30
 * is required. This row depends on every step of the factorization.
 * ------------------------------------------------------------------------- */
#define MAXN_TILE ((int64_t) 1 << 24)
#define MAXN_ATTEMPTS 6                    /* the first try and 5 retries */

typedef struct {
    int     rfp;              /* 1: RFP (pftrf), 0: full (potrf, uplo L) */
    char    transr, uplo;     /* RFP variant                             */
    int64_t n, n_first;       /* factored / first tried                  */
    size_t  bytes, free_bytes, used_bytes;
    double  seconds, wall, check;
    int64_t info;             /* LAPACK info, or the last error           */
    int     attempts, ok;
    char    status[96];
} maxn_t;

/* Offset of element (i, j), i >= j, of the symmetric matrix in the storage. */
static int64_t maxn_offset(const maxn_t *r, int64_t n, int64_t i, int64_t j)
{
    return r->rfp ? gchol_rfp_offset(r->transr == 'T', r->uplo == 'U', n, i, j) : i + j * n;
}

static size_t maxn_bytes(int rfp, char prec, int64_t n)
{
    return (size_t) (rfp ? rfp_elements(n) : n * n) * testing_elsize(prec);
}

/* Largest multiple of 32 whose array fits in budget bytes. */
static int64_t maxn_fit(int rfp, char prec, double budget)
{
    if (budget <= 0) return 0;
    const double elements = budget / testing_elsize(prec);
    int64_t n = (int64_t) (rfp ? (sqrt(1.0 + 8.0 * elements) - 1.0) / 2.0 : sqrt(elements));
    n = n / 32 * 32;
    while (n > 0 && (double) maxn_bytes(rfp, prec, n) > budget) n -= 32;
    while ((double) maxn_bytes(rfp, prec, n + 32) <= budget) n += 32;
    return n;
}

/* Copies count elements between the device array (at the given offsets) and a
 * contiguous vector (device vector for scatter, host vector for gather), one
 * cudaMemcpy2D per run of offsets with a constant positive stride. Returns the
 * number of runs; *stride0, *stride1: the strides of the first two runs. */
static int64_t maxn_strided_copy(char prec, void *dArray, const int64_t *offsets, int64_t count,
                                 void *vec, int scatter, int64_t *stride0, int64_t *stride1)
{
    const size_t es = testing_elsize(prec);
    int64_t runs = 0;
    for (int64_t start = 0; start < count;) {
        int64_t len = 1, stride = 1;
        if (start + 1 < count && offsets[start + 1] > offsets[start]) {
            stride = offsets[start + 1] - offsets[start];
            while (start + len < count && offsets[start + len] - offsets[start + len - 1] == stride)
                ++len;
        }
        char *a = (char *) dArray + (size_t) offsets[start] * es;
        char *x = (char *) vec + (size_t) start * es;
        if (scatter)
            BENCH_CUDA(cudaMemcpy2D(a, stride * es, x, es, es, len, cudaMemcpyDeviceToDevice));
        else
            BENCH_CUDA(cudaMemcpy2D(x, es, a, stride * es, es, len, cudaMemcpyDeviceToHost));
        if (runs == 0 && stride0) *stride0 = len > 1 ? stride : 0;
        if (runs == 1 && stride1) *stride1 = len > 1 ? stride : 0;
        ++runs;
        start += len;
    }
    return runs;
}

/* Fills the array as described above; hv: the 2^24-entry host tile, hdiag: the
 * n diagonal values. Returns 0, or -1 when the small diagonal buffer could not
 * be allocated (out of memory). */
static int maxn_fill(const maxn_t *r, char prec, int64_t n, void *dA, const void *hv,
                     const void *hdiag, int verbose)
{
    const size_t es = testing_elsize(prec);
    const int64_t count = r->rfp ? rfp_elements(n) : n * n;
    int64_t first = count < MAXN_TILE ? count : MAXN_TILE;
    BENCH_CUDA(cudaMemcpy(dA, hv, (size_t) first * es, cudaMemcpyHostToDevice));
    for (int64_t done = first; done < count; done *= 2) {
        int64_t chunk = count - done < done ? count - done : done;
        BENCH_CUDA(cudaMemcpy((char *) dA + (size_t) done * es, dA, (size_t) chunk * es,
                              cudaMemcpyDeviceToDevice));
    }

    void *ddiag = NULL;
    if (cudaMalloc(&ddiag, (size_t) n * es) != cudaSuccess) {
        (void) cudaGetLastError();
        return -1;
    }
    BENCH_CUDA(cudaMemcpy(ddiag, hdiag, (size_t) n * es, cudaMemcpyHostToDevice));
    int64_t *offsets = bench_malloc((size_t) n * sizeof(int64_t));
    for (int64_t i = 0; i < n; ++i) offsets[i] = maxn_offset(r, n, i, i);
    int64_t stride0 = 0, stride1 = 0;
    int64_t runs = maxn_strided_copy(prec, dA, offsets, n, ddiag, 1, &stride0, &stride1);
    if (verbose) {
        const int64_t ld = r->rfp ? gchol_rfp_blocks(r->transr == 'T', r->uplo == 'U', n).ld : n;
        printf("#   diagonal: %lld run(s) of constant stride, strides %lld, %lld (ld + 1 = %lld)\n",
               (long long) runs, (long long) stride0, (long long) stride1, (long long) (ld + 1));
    }
    free(offsets);
    BENCH_CUDA(cudaDeviceSynchronize());
    BENCH_CUDA(cudaFree(ddiag));
    return 0;
}

/* The last-row check of the factor in dA (see above). */
static double maxn_check(const maxn_t *r, char prec, int64_t n, const void *dA, double a_last)
{
    const size_t es = testing_elsize(prec);
    int64_t *offsets = bench_malloc((size_t) n * sizeof(int64_t));
    void *row = bench_malloc((size_t) n * es);
    for (int64_t k = 0; k < n; ++k) offsets[k] = maxn_offset(r, n, n - 1, k);
    maxn_strided_copy(prec, (void *) dA, offsets, n, row, 0, NULL, NULL);
    double sum = 0.0;
    for (int64_t k = 0; k < n; ++k) {
        double l = prec == 'd' ? ((double *) row)[k] : (double) ((float *) row)[k];
        sum += l * l;
    }
    free(row);
    free(offsets);
    double check = fabs(sum - a_last) / (n * testing_eps(prec) * a_last);
    return isfinite(check) ? check : INFINITY;
}

/* Host diagonal n + uniform(0, 1) for order n. */
static void *maxn_diagonal(char prec, int64_t n, uint64_t seed)
{
    void *h = bench_random_host(prec, n, 1, n, seed, 0.0, 1.0);
    for (int64_t i = 0; i < n; ++i) {
        if (prec == 'd') ((double *) h)[i] += (double) n;
        else             ((float *) h)[i] += (float) n;
    }
    return h;
}

static double maxn_diag_value(char prec, const void *h, int64_t i)
{
    return prec == 'd' ? ((const double *) h)[i] : (double) ((const float *) h)[i];
}

/* One attempt at order n: allocate, fill, factor, check. Fills r (n, info:
 * the LAPACK info or the error, ...). Returns 0 when the factorization ran,
 * 1 when out of device memory (try smaller), -1 on another error. */
static int maxn_attempt(maxn_t *r, char prec, int64_t n, gchol_queue_t queue, const void *hv,
                        uint64_t seed, int verbose)
{
    const size_t bytes = maxn_bytes(r->rfp, prec, n);
    r->n = n;
    r->bytes = bytes;
    r->seconds = r->wall = 0.0;
    r->check = INFINITY;
    r->ok = 0;
    r->info = GCHOL_ERR_DEVICE_ALLOC;
    void *dA = NULL;
    if (cudaMalloc(&dA, bytes) != cudaSuccess) {
        (void) cudaGetLastError();                       /* not sticky: clear it */
        if (verbose) printf("#   n = %lld: cudaMalloc of %.2f GiB failed\n", (long long) n,
                            bytes / 1073741824.0);
        return 1;
    }
    void *hdiag = maxn_diagonal(prec, n, seed);
    double t0 = testing_wtime();
    if (maxn_fill(r, prec, n, dA, hv, hdiag, verbose) != 0) {
        if (verbose) printf("#   n = %lld: no device memory left for the diagonal (%.1f MB)\n",
                            (long long) n, n * testing_elsize(prec) / 1e6);
        free(hdiag);
        BENCH_CUDA(cudaFree(dA));
        return 1;
    }
    if (verbose)
        printf("#   n = %lld: %.2f GiB allocated and filled on the device in %.2f s\n",
               (long long) n, bytes / 1073741824.0, testing_wtime() - t0);

    cudaStream_t stream = gchol_queue_stream(queue);
    testing_timer_t timer;
    bench_timer_create(&timer, stream);
    int64_t info = 0;
    bench_spin_up(0.2);
    double w0 = testing_wtime();
    bench_timer_start(&timer);
    int64_t ret = r->rfp ? gchol_pftrf(prec, r->transr, r->uplo, n, dA, &info, queue)
                         : gchol_potrf(prec, 'L', n, dA, n, &info, queue);
    double seconds = bench_timer_stop(&timer);
    r->wall = testing_wtime() - w0;
    bench_timer_destroy(&timer);

    size_t free_after, total;
    BENCH_CUDA(cudaMemGetInfo(&free_after, &total));
    r->used_bytes = total - free_after;
    r->info = ret < 0 ? ret : info;
    if (ret == 0 && info == 0) {
        r->seconds = seconds;
        r->check = maxn_check(r, prec, n, dA, maxn_diag_value(prec, hdiag, n - 1));
        r->ok = r->check < CHECK_LIMIT;
    }
    if (verbose && ret < 0)
        printf("#   n = %lld: %s_gpu returned %lld (%s)\n", (long long) n,
               r->rfp ? "pftrf" : "potrf", (long long) ret, gchol_strerror(ret));
    free(hdiag);
    BENCH_CUDA(cudaFree(dA));
    return ret == GCHOL_ERR_DEVICE_ALLOC ? 1 : (ret < 0 ? -1 : 0);
}

/* The largest n of one storage; fills *r. */
static void maxn_storage(maxn_t *r, char prec, double margin, const void *hv, uint64_t seed)
{
    gchol_queue_t queue;
    BENCH_GCHOL(gchol_queue_create(-1, &queue));

    /* warm-up at a small size: kernels loaded, the spin-up buffer allocated */
    maxn_t warm = *r;
    bench_spin_up(0.1);
    if (maxn_attempt(&warm, prec, 2048, queue, hv, seed, 0) != 0 || !warm.ok) {
        printf("# %s warm-up at n = 2048 failed: info %lld (%s), check %.2g\n",
               r->rfp ? "RFP" : "full", (long long) warm.info, gchol_strerror(warm.info),
               warm.check);
        *r = warm;
        r->n = 0;
        snprintf(r->status, sizeof(r->status), "FAILED warm-up at n = 2048");
        BENCH_GCHOL(gchol_queue_destroy(queue));
        return;
    }

    size_t free_bytes, total;
    BENCH_CUDA(cudaMemGetInfo(&free_bytes, &total));
    r->free_bytes = free_bytes;
    int64_t n = maxn_fit(r->rfp, prec, (double) free_bytes - margin);
    r->n_first = n;
    printf("# %s storage: %.2f GiB free of %.2f, margin %.2f GiB -> n = %lld\n",
           r->rfp ? "RFP" : "full", free_bytes / 1073741824.0, total / 1073741824.0,
           margin / 1073741824.0, (long long) n);
    int status = 1;
    for (r->attempts = 0; n > 0 && r->attempts < MAXN_ATTEMPTS;) {
        ++r->attempts;
        status = maxn_attempt(r, prec, n, queue, hv, seed, 1);
        if (status <= 0 || r->attempts == MAXN_ATTEMPTS) break;
        n = (int64_t) (n * 0.99) / 32 * 32;
        printf("#   out of device memory: retrying with n = %lld (-1%%)\n", (long long) n);
    }
    if (n <= 0)
        snprintf(r->status, sizeof(r->status), "FAILED: nothing fits in free memory - margin");
    else if (status > 0)
        snprintf(r->status, sizeof(r->status), "FAILED: out of device memory after %d tries",
                 r->attempts);
    else if (r->info != 0)
        snprintf(r->status, sizeof(r->status), "FAILED info %lld: %s", (long long) r->info,
                 gchol_strerror(r->info));
    else if (!r->ok)
        snprintf(r->status, sizeof(r->status), "FAILED check");
    else
        snprintf(r->status, sizeof(r->status), "ok");
    BENCH_GCHOL(gchol_queue_destroy(queue));
}

static void maxn_report(const maxn_t *r, char prec, double margin, FILE *csv)
{
    double tf = bench_potrf_tflops(r->n, r->seconds);
    const char *status = r->status;
    printf("%-4s %c %c %c | %7lld %7lld | %8.2f | %8.2f %8.2f %7.2f | %4lld | %7.2f | %4d | %9.2g | %s\n",
           r->rfp ? "RFP" : "full", prec, r->rfp ? r->transr : '-', r->rfp ? r->uplo : 'L',
           (long long) r->n, (long long) r->n_first, r->bytes / 1073741824.0, r->seconds,
           r->wall, tf, (long long) r->info, r->used_bytes / 1073741824.0, r->attempts,
           r->check, status);
    fflush(stdout);
    if (csv) {
        fprintf(csv, "%s,%c,%c,%c,%lld,%lld,%zu,%zu,%.0f,", r->rfp ? "rfp" : "full", prec,
                r->rfp ? r->transr : '-', r->rfp ? r->uplo : 'L', (long long) r->n,
                (long long) r->n_first, r->bytes, r->free_bytes, margin);
        bench_csv_num(csv, r->seconds);
        bench_csv_num(csv, tf);
        fprintf(csv, "%lld,%d,%zu,%.3g,\"%s\"\n", (long long) r->info, r->attempts, r->used_bytes,
                r->check, status);
        fflush(csv);
    }
}

static int maxn(const args_t *args)
{
    const double margin = args->margin_gb * 1073741824.0;
    FILE *csv = NULL;
    if (args->csv) {
        csv = fopen(args->csv, "w");
        if (csv == NULL) { perror(args->csv); exit(EXIT_FAILURE); }
        fprintf(csv, "storage,precision,transr,uplo,n,n_first,bytes,free_bytes,margin_bytes,"
                     "seconds,tflops,info,attempts,used_bytes,check,status\n");
    }
    printf("# --max-n: largest n (multiple of 32) whose array fits in free memory - %.2f GiB;\n"
           "# generated on the device (tiled uniform(0,1), diagonal n + uniform(0,1)), factored "
           "once\n# check = |sum_k L(n-1,k)^2 - a(n-1,n-1)| / (n eps a(n-1,n-1)) < %g\n",
           args->margin_gb, CHECK_LIMIT);
    int failures = 0;
    for (const char *p = args->precs; *p; ++p) {
        const char prec = *p;
        void *hv = bench_random_host(prec, MAXN_TILE, 1, MAXN_TILE, args->seed, 0.0, 1.0);
        maxn_t rfp = { .rfp = 1, .transr = args->transr, .uplo = args->uplo };
        maxn_t full = { .rfp = 0, .transr = 'N', .uplo = 'L' };
        printf("\n# %s\n", testing_prec_name(prec));
        maxn_storage(&rfp, prec, margin, hv, args->seed + 1);
        failures += !rfp.ok;
        if (args->max_n == 1) {
            maxn_storage(&full, prec, margin, hv, args->seed + 1);
            failures += !full.ok;
        }
        printf("\n# stor p t u |       n n first | GiB      | event s    wall s    TF/s | info |"
               " used GiB | try | check     | status\n");
        maxn_report(&rfp, prec, margin, csv);
        if (args->max_n == 1) maxn_report(&full, prec, margin, csv);

        /* the ratio, measured or (with --max-n-rfp-only) predicted from the RFP run's free memory */
        int64_t n_full = args->max_n == 1 ? full.n
                       : maxn_fit(0, prec, (double) rfp.free_bytes - margin);
        if (n_full > 0 && rfp.ok && (args->max_n == 2 || full.ok))
            printf("# %s: n_rfp = %lld, n_full = %lld%s: ratio %.3f (target >= 1.35; "
                   "sqrt(2) = 1.414 up to rounding n to 32)\n", testing_prec_name(prec), (long long) rfp.n,
                   (long long) n_full, args->max_n == 1 ? "" : " (predicted, not run)",
                   (double) rfp.n / (double) n_full);
        free(hv);
    }
    if (csv) fclose(csv);
    if (failures) printf("\n# %d factorization(s) failed\n", failures);
    return failures;
}

#endif
