/*
 * lowp_mock_api.h -- the CUDA runtime, cuBLAS and gchol's launchers as
 * src/potrf_lowp.c calls them, mocked: each call is checked and queued on
 * its stream (lowp_mock_state.h), run by lowp_mock_exec.h. Part of
 * testing_lowp_host.c, which includes it once, after lowp_mock_exec.h.
 */
#ifndef GCHOL_TESTING_LOWP_MOCK_API_H
#define GCHOL_TESTING_LOWP_MOCK_API_H

/* ---- the CUDA runtime -------------------------------------------------------------- */
cudaError_t gchol_dev_malloc_async(void **p, size_t bytes, cudaMemPool_t pool, cudaStream_t s)
{
    (void)pool;
    if (stream_index(s) != 0) mock_error("an allocation ordered on a stream not the queue's");
    *p = malloc(bytes ? bytes : 1);
    if (!*p) return cudaErrorMemoryAllocation;
    memset(*p, 0xff, bytes); /* NaN in every format until written */
    add_region(*p, bytes ? bytes : 1, 1);
    return cudaSuccess;
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
    const op_t op = { .kind = OP_FREE, .dst = p };
    enqueue(stream_index(s), &op);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t s)
{
    const op_t op = { .kind = OP_MEMSET, .dst = p, .value = value, .bytes = bytes };
    enqueue(stream_index(s), &op);
    return cudaSuccess;
}

cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t s)
{
    if (width > pitch) return cudaErrorInvalidValue;
    const op_t op = { .kind = OP_MEMSET2D, .dst = p, .pitch = pitch, .value = value,
                      .width = width, .height = height };
    enqueue(stream_index(s), &op);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t s)
{
    if (kind != cudaMemcpyDeviceToHost) {
        mock_error("a copy other than device to host");
        return cudaErrorInvalidValue;
    }
    const op_t op = { .kind = OP_COPY, .dst = dst, .a = src, .bytes = bytes };
    enqueue(stream_index(s), &op);
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    const int i = stream_index(s);
    if (i >= 0) run_streams(i);
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    (void)flags;
    for (int i = 2; i < MAX_STREAMS; ++i)
        if (!g_streams[i].live && g_streams[i].count == 0) {
            g_streams[i].live = 1;
            *s = (cudaStream_t)(void *)&g_stream_tok[i];
            return cudaSuccess;
        }
    mock_error("too many streams");
    return cudaErrorInvalidValue;
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    const int i = stream_index(s);
    if (i < 2) { mock_error("a stream destroyed that is not the driver's own"); return cudaErrorInvalidValue; }
    g_streams[i].live = 0; /* what it holds still runs */
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    (void)flags;
    for (int i = 0; i < MAX_EVENTS; ++i)
        if (!g_events[i].live) {
            g_events[i].live = 1;
            g_events[i].last_record = 0;
            *e = (cudaEvent_t)(void *)&g_event_tok[i];
            return cudaSuccess;
        }
    mock_error("too many events");
    return cudaErrorInvalidValue;
}

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    const int i = event_index(e);
    if (i >= 0) g_events[i].live = 0;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    const int i = event_index(e);
    if (i < 0) return cudaErrorInvalidValue;
    if (g_nrecords + 2 > g_record_cap) {
        g_record_cap = g_record_cap ? 2 * g_record_cap : 1024;
        g_record_done = realloc(g_record_done, (size_t)g_record_cap);
    }
    const long id = ++g_nrecords;
    g_record_done[id] = 0;
    g_events[i].last_record = id;
    const op_t op = { .kind = OP_RECORD, .record = id };
    enqueue(stream_index(s), &op);
    return cudaSuccess;
}

/* The wait is on the event's latest record when called, as CUDA's. */
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags)
{
    const int i = event_index(e);
    if (i < 0 || flags != 0) return cudaErrorInvalidValue;
    const op_t op = { .kind = OP_WAIT, .record = g_events[i].last_record };
    enqueue(stream_index(s), &op);
    return cudaSuccess;
}

/* ---- cuBLAS ------------------------------------------------------------------------------ */
cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t s)
{
    const int i = handle_index(h), j = stream_index(s);
    if (i < 0 || j < 0) return CUBLAS_STATUS_INVALID_VALUE;
    g_handle_stream[i] = j;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t mode)
{
    const int i = handle_index(h);
    if (i < 0) return CUBLAS_STATUS_INVALID_VALUE;
    g_handle_mode[i] = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGemmEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                               int64_t m, int64_t n, int64_t k, const void *alpha, const void *A,
                               cudaDataType Atype, int64_t lda, const void *B, cudaDataType Btype,
                               int64_t ldb, const void *beta, void *C, cudaDataType Ctype,
                               int64_t ldc, cublasComputeType_t compute, cublasGemmAlgo_t algo)
{
    (void)algo;
    const int hi = handle_index(h);
    if (hi < 0) return CUBLAS_STATUS_NOT_INITIALIZED;
    const int low = Atype == CUDA_R_16F || Atype == CUDA_R_16BF;
    if (Atype != Btype || Ctype != CUDA_R_32F || !(low || Atype == CUDA_R_32F) ||
        !(compute == CUBLAS_COMPUTE_32F || (compute == CUBLAS_COMPUTE_32F_FAST_TF32 && !low))) {
        mock_error("gemm of types %d, %d, %d, compute %d", (int)Atype, (int)Btype, (int)Ctype,
                   (int)compute);
        return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    const int an = ta == CUBLAS_OP_N, bn = tb == CUBLAS_OP_N;
    if (m < 0 || n < 0 || k < 0 || lda < (an ? m : k) || lda < 1 || ldb < (bn ? k : n) ||
        ldb < 1 || ldc < m || ldc < 1) {
        mock_error("gemm m %lld n %lld k %lld lda %lld ldb %lld ldc %lld", (long long)m,
                   (long long)n, (long long)k, (long long)lda, (long long)ldb, (long long)ldc);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    op_t op = { .kind = OP_GEMM, .dst = C, .a = A, .b = B, .m = m, .n = n, .k = k, .lda = lda,
                .ldb = ldb, .ldc = ldc, .ta = ta, .tb = tb, .atype = Atype, .btype = Btype,
                .tf32 = compute == CUBLAS_COMPUTE_32F_FAST_TF32 };
    if (g_handle_mode[hi] == CUBLAS_POINTER_MODE_DEVICE) { /* read when it runs */
        op.device_scalars = 1;
        op.dalpha = alpha;
        op.dbeta = beta;
    } else {
        op.alpha = *(const float *)alpha;
        op.beta = *(const float *)beta;
    }
    enqueue(g_handle_stream[hi], &op);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasStrsm_v2_64(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                                 cublasOperation_t trans, cublasDiagType_t diag, int64_t m,
                                 int64_t n, const float *alpha, const float *A, int64_t lda,
                                 float *B, int64_t ldb)
{
    const int hi = handle_index(h);
    if (hi < 0) return CUBLAS_STATUS_NOT_INITIALIZED;
    const int64_t ka = side == CUBLAS_SIDE_LEFT ? m : n;
    if (diag != CUBLAS_DIAG_NON_UNIT || g_handle_mode[hi] != CUBLAS_POINTER_MODE_HOST ||
        m < 0 || n < 0 || lda < ka || lda < 1 || ldb < m || ldb < 1) {
        mock_error("trsm m %lld n %lld lda %lld ldb %lld", (long long)m, (long long)n,
                   (long long)lda, (long long)ldb);
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    const op_t op = { .kind = OP_TRSM, .dst = B, .a = A, .m = m, .n = n, .lda = lda, .ldb = ldb,
                      .side = side, .uplo = uplo, .ta = trans, .alpha = *alpha };
    enqueue(g_handle_stream[hi], &op);
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- gchol's launchers and the rest the object needs -------------------------------- */
const gchol_tune_t *gchol_tune_current(void) { return &g_tune; }
void gchol_options_default(gchol_options_t *opts) { memset(opts, 0, sizeof *opts); }

/* As kernels/gchol_kernels.h: the whole n x n matrix here (ncols = n); its
 * scratch that of the stream it runs on, its sync words the queue's, one
 * stream for every launch. */
int gchol_spotrf_tiled_launch(int64_t n, int64_t ncols, float *dA, int64_t ldda, int upper,
                              int64_t col0, int64_t *dinfo, int *dsync, float *dwork,
                              const gchol_kernel_tune_t *kt, cudaStream_t stream)
{
    const int s = stream_index(stream);
    if (s < 0) return cudaErrorInvalidValue;
    if (upper || ncols != n || n > GCHOL_TILED_MAX_N || dsync != g_queue.dtile_sync ||
        kt != &g_tune.kernel || s > 1 || (void *)dwork != g_queue.dscratch[s] ||
        (g_tiled_stream >= 0 && g_tiled_stream != s)) {
        mock_error("tiled kernel: n %lld ncols %lld upper %d on stream %d, with %s scratch",
                   (long long)n, (long long)ncols, upper, s,
                   (void *)dwork == g_queue.dscratch[0] ? "the queue stream's"
                   : (void *)dwork == g_queue.dscratch[1] ? "the panel stream's" : "other");
        return cudaErrorInvalidValue;
    }
    g_tiled_stream = s;
    const op_t op = { .kind = OP_TILED, .dst = dA, .n = n, .lda = ldda, .col0 = col0,
                      .dinfo = dinfo };
    enqueue(s, &op);
    return cudaSuccess;
}

int64_t gchol_spotrf_async(char uplo, int64_t n, float *dA, int64_t ldda, int64_t *dinfo,
                           const gchol_options_t *opts, gchol_queue_t queue)
{
    (void)opts;
    if (uplo != 'L' || queue != &g_queue || n < 0 || ldda < n) {
        mock_error("spotrf_async uplo %c n %lld", uplo, (long long)n);
        return -1;
    }
    const op_t op = { .kind = OP_POTRF, .dst = dA, .n = n, .lda = ldda, .dinfo = dinfo };
    enqueue(0, &op);
    return 0;
}

int gchol_s_add_diag_launch(int64_t n, float *S, int64_t lds, float shift, cudaStream_t stream)
{
    const op_t op = { .kind = OP_ADD_DIAG, .dst = S, .n = n, .lda = lds, .scale = shift };
    if (n > 0) enqueue(stream_index(stream), &op);
    return cudaSuccess;
}

int gchol_panel_to_lowp_launch(int64_t m, int64_t n, const float *S, int64_t lds, void *P,
                               int64_t ldp, int bf16, float scale, float *copy, int64_t ldc,
                               cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return cudaSuccess;
    if (lds < m || ldp < m || (copy && ldc < m)) {
        mock_error("panel_to_lowp m %lld lds %lld ldp %lld ldc %lld", (long long)m,
                   (long long)lds, (long long)ldp, (long long)ldc);
        return cudaErrorInvalidValue;
    }
    const op_t op = { .kind = OP_TO_LOWP, .dst = P, .a = S, .copy = copy, .m = m, .n = n,
                      .lda = lds, .ldb = ldp, .ldc = ldc, .bf16 = bf16, .scale = scale };
    enqueue(stream_index(stream), &op);
    return cudaSuccess;
}

int gchol_inverse_to_lowp_launch(int64_t n, const float *W, int64_t ldw, void *Wh, int64_t ldh,
                                 int bf16, float panel_scale, void *words, cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    if (ldw < n || ldh < n) {
        mock_error("inverse_to_lowp n %lld ldw %lld ldh %lld", (long long)n, (long long)ldw,
                   (long long)ldh);
        return cudaErrorInvalidValue;
    }
    const op_t op = { .kind = OP_INV_TO_LOWP, .dst = Wh, .a = W, .words = words, .n = n,
                      .lda = ldw, .ldb = ldh, .bf16 = bf16, .scale = panel_scale };
    enqueue(stream_index(stream), &op);
    return cudaSuccess;
}

#endif
