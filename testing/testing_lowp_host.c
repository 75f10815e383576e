/*
 * testing_lowp_host.c -- host-side test of the FP16 / BF16 Cholesky of the
 * mixed-precision solve (src/potrf_lowp.c) with cuBLAS, the CUDA runtime
 * and gchol's launchers mocked, LAPACK as the reference: the driver's
 * offsets, operands and its order over two streams are checked without a
 * GPU, so in CI.
 *
 * The mocks queue each call on its stream (a handle's: the one it is bound
 * to) and run nothing until the host synchronizes; then the streams run in
 * an order that their events allow, favouring the queue's stream, the
 * other streams, or at random. A missing wait then reads stale data or
 * data not yet written (new buffers hold NaN) and shows in the factor.
 * Each buffer's use is checked against its extent and its free; host
 * scalars are read when called (pointer mode host), device ones when run.
 * The products sum in double; the diagonal blocks are LAPACK's; FP16 and
 * BF16 round to nearest even, TF32 to 10 bits.
 *
 * Every case runs three times: twice with the low-precision copies exact
 * (each converter also keeps the float it rounded, which the products
 * read, and TF32 keeps 23 bits), once ordered each way, where the factor
 * must be LAPACK's spotrf's to single's rounding, so that a wrong offset
 * or order is an O(1) error; once rounded, at random, with the backward
 * error of FP16 / BF16. The inverses kept (nb x n) are checked against
 * the inverted diagonal blocks, the failed pivot's info against LAPACK's,
 * and nothing outside the lower triangle and the diagonal blocks written.
 */
#include "../src/potrf_lowp.h"
#include "../src/queue.h"
#include "../src/tune/tune.h"
#include "util.h"

#include "../kernels/gchol_kernels.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- FP16, BF16 and TF32 rounding (to nearest, ties to even) --------------- */
static uint32_t float_bits(float f) { uint32_t x; memcpy(&x, &f, 4); return x; }
static float bits_float(uint32_t x) { float f; memcpy(&f, &x, 4); return f; }

static uint16_t float_to_half(float f)
{
    const uint32_t x = float_bits(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);   /* NaN */
    if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);  /* >= 65520: Inf */
    if (ax < 0x38800000u) /* below 2^-14: a multiple of 2^-24 (subnormal), scaled exactly */
        return (uint16_t)(sign | (uint32_t)nearbyintf(bits_float(ax) * 16777216.0f));
    uint32_t h = ((ax >> 23) - 112) << 10 | (ax & 0x7fffffu) >> 13;
    const uint32_t rest = ax & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h; /* a carry reaches the exponent */
    return (uint16_t)(sign | h);
}

static float half_to_float(uint16_t h)
{
    const int e = (h >> 10) & 0x1f;
    const uint32_t m = h & 0x3ffu;
    const float v = e == 0 ? ldexpf((float)m, -24)
                  : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 0x400u), e - 25);
    return h & 0x8000u ? -v : v;
}

static uint16_t float_to_bf16(float f)
{
    const uint32_t x = float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
}

static float bf16_to_float(uint16_t b) { return bits_float((uint32_t)b << 16); }

static float round_tf32(float f)
{
    const uint32_t x = float_bits(f);
    if ((x & 0x7f800000u) == 0x7f800000u) return f;
    return bits_float((x + 0xfffu + ((x >> 13) & 1)) & ~0x1fffu);
}

/* ---- the mocks' state ------------------------------------------------------- */
/* The order in which the queued work of the streams runs. */
typedef enum { ORDER_MAIN_FIRST, ORDER_SIDE_FIRST, ORDER_RANDOM } order_t;
static const char *const kOrderName[] = { "queue's stream first", "other streams first",
                                          "random order" };

static order_t  g_order;
static int      g_exact; /* low-precision copies and TF32 operands exact */
static uint64_t g_rng;
static char     g_error[200]; /* the first misuse the mocks saw */

static void mock_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void mock_error(const char *fmt, ...)
{
    if (g_error[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_error, sizeof g_error, fmt, ap);
    va_end(ap);
}

static uint64_t next_random(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

/* "Device" buffers: the library's allocations (with a float shadow per
 * 2-byte element, what the exact mode's products read) and the caller's
 * S and inv. */
enum { MAX_REGIONS = 64 };
typedef struct {
    char   *base;
    size_t  bytes;
    float  *shadow;
    int     library, freed;
} region_t;
static region_t g_regions[MAX_REGIONS];
static int      g_nregions;

static region_t *add_region(void *base, size_t bytes, int library)
{
    if (g_nregions == MAX_REGIONS) { mock_error("too many buffers"); return NULL; }
    region_t *r = &g_regions[g_nregions++];
    r->base = base;
    r->bytes = bytes;
    r->library = library;
    r->freed = 0;
    r->shadow = NULL;
    if (library) {
        r->shadow = malloc((bytes / 2 + 1) * sizeof(float));
        for (size_t i = 0; i < bytes / 2 + 1; ++i) r->shadow[i] = NAN;
    }
    return r;
}

static region_t *region_of(const void *p)
{
    const uintptr_t a = (uintptr_t)p;
    for (int i = 0; i < g_nregions; ++i)
        if (a >= (uintptr_t)g_regions[i].base && a < (uintptr_t)g_regions[i].base + g_regions[i].bytes)
            return &g_regions[i];
    return NULL;
}

/* The rows x cols matrix at p (ld, es bytes an element) lies in one live
 * buffer: returns that buffer, or NULL after a mock error. */
static region_t *check_matrix(const char *what, const void *p, int64_t rows, int64_t cols,
                              int64_t ld, size_t es)
{
    region_t *r = region_of(p);
    if (!r) { mock_error("%s (%p) outside every buffer", what, p); return NULL; }
    if (r->freed) { mock_error("%s in a freed buffer", what); return NULL; }
    if (rows <= 0 || cols <= 0) return r;
    const uintptr_t end = (uintptr_t)p + ((size_t)(rows - 1) + (size_t)(cols - 1) * (size_t)ld) * es + es;
    if (end > (uintptr_t)r->base + r->bytes) {
        mock_error("%s (%lld x %lld, ld %lld) past its buffer's end", what, (long long)rows,
                   (long long)cols, (long long)ld);
        return NULL;
    }
    return r;
}

/* The shadow of the 2-byte element at p (its buffer r). */
static float *shadow_at(const region_t *r, const void *p)
{
    const size_t off = (size_t)((const char *)p - r->base);
    if (off % 2) { mock_error("a 2-byte operand at an odd address"); return NULL; }
    return r->shadow ? r->shadow + off / 2 : NULL;
}

/* Queued work. */
typedef enum {
    OP_MEMSET, OP_MEMSET2D, OP_COPY, OP_GEMM, OP_TRSM, OP_TILED, OP_POTRF, OP_ADD_DIAG,
    OP_TO_LOWP, OP_INV_TO_LOWP, OP_RECORD, OP_WAIT, OP_FREE
} op_kind_t;

typedef struct {
    op_kind_t    kind;
    void        *dst;   /* written: C, B, S, P, Wh, the memset's or copy's target */
    const void  *a, *b; /* read: A and B, the panel, W, the copy's source         */
    float       *copy;  /* panel_to_lowp's copy of S                              */
    void        *words; /* inverse_to_lowp's                                      */
    int64_t     *dinfo;
    int64_t      m, n, k, lda, ldb, ldc, col0;
    int          ta, tb, side, uplo, atype, btype, tf32, bf16, value, device_scalars;
    float        alpha, beta, scale;
    const float *dalpha, *dbeta;
    size_t       bytes, pitch, width, height;
    long         record; /* OP_RECORD: its number; OP_WAIT: the one waited for */
} op_t;

enum { MAX_STREAMS = 6, MAX_EVENTS = 24 };
typedef struct {
    op_t *ops;
    int   count, head, cap, live;
} stream_t;
typedef struct {
    int  live;
    long last_record; /* 0: never recorded */
} event_t;

static stream_t g_streams[MAX_STREAMS];
static event_t  g_events[MAX_EVENTS];
static char     g_stream_tok[MAX_STREAMS], g_event_tok[MAX_EVENTS], g_handle_tok[2];
static char    *g_record_done;
static long     g_nrecords, g_record_cap;
static int      g_handle_stream[2];
static cublasPointerMode_t g_handle_mode[2];
static int      g_tiled_stream;
static long     g_products;

static struct gchol_queue_s g_queue;
static gchol_tune_t         g_tune;
static char                 g_scratch_tok[2]; /* the queue's dscratch: never read here */
static int                  g_sync_tok;

static int stream_index(cudaStream_t s)
{
    const ptrdiff_t i = (const char *)s - g_stream_tok;
    if (i < 0 || i >= MAX_STREAMS || !g_streams[i].live) {
        mock_error("work on a stream that does not exist");
        return -1;
    }
    return (int)i;
}

static int event_index(cudaEvent_t e)
{
    const ptrdiff_t i = (const char *)e - g_event_tok;
    if (i < 0 || i >= MAX_EVENTS || !g_events[i].live) {
        mock_error("an event that does not exist");
        return -1;
    }
    return (int)i;
}

static int handle_index(cublasHandle_t h)
{
    const ptrdiff_t i = (const char *)h - g_handle_tok;
    if (i < 0 || i >= 2) {
        mock_error("a cuBLAS handle that is not the queue's");
        return -1;
    }
    return (int)i;
}

static void execute(const op_t *op);

static int runnable(int s)
{
    const stream_t *t = &g_streams[s];
    if (t->head == t->count) return 0;
    const op_t *op = &t->ops[t->head];
    return op->kind != OP_WAIT || op->record == 0 || g_record_done[op->record];
}

/* Runs queued work until stream `target` (-1: every stream) is empty. */
static void run_streams(int target)
{
    for (;;) {
        int pending = 0, ready[MAX_STREAMS], nready = 0;
        for (int s = 0; s < MAX_STREAMS; ++s) {
            pending |= g_streams[s].head < g_streams[s].count;
            if (runnable(s)) ready[nready++] = s;
        }
        if (target >= 0 ? g_streams[target].head == g_streams[target].count : !pending) return;
        if (!nready) {
            mock_error("the streams wait on each other");
            for (int s = 0; s < MAX_STREAMS; ++s) g_streams[s].head = g_streams[s].count;
            return;
        }
        const int pick = g_order == ORDER_MAIN_FIRST ? ready[0]
                       : g_order == ORDER_SIDE_FIRST ? ready[nready - 1]
                       : ready[next_random() % (uint64_t)nready];
        stream_t *t = &g_streams[pick];
        const op_t op = t->ops[t->head++];
        execute(&op);
    }
}

static void enqueue(int s, const op_t *op)
{
    if (s < 0) return;
    stream_t *t = &g_streams[s];
    if (t->count == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->ops = realloc(t->ops, (size_t)t->cap * sizeof(op_t));
    }
    t->ops[t->count++] = *op;
}

static void reset_mocks(order_t order, int exact, uint64_t seed)
{
    g_order = order;
    g_exact = exact;
    g_rng = seed | 1;
    g_error[0] = 0;
    g_nregions = 0;
    for (int s = 0; s < MAX_STREAMS; ++s) {
        g_streams[s].count = g_streams[s].head = 0;
        g_streams[s].live = s < 2; /* the queue's stream and panel stream */
    }
    memset(g_events, 0, sizeof g_events);
    g_nrecords = 0;
    g_handle_stream[0] = 0;
    g_handle_stream[1] = 1;
    g_handle_mode[0] = g_handle_mode[1] = CUBLAS_POINTER_MODE_HOST;
    g_tiled_stream = -1;
    memset(&g_queue, 0, sizeof g_queue);
    g_queue.tune = &g_tune;
    g_queue.stream = (cudaStream_t)(void *)&g_stream_tok[0];
    g_queue.panel_stream = (cudaStream_t)(void *)&g_stream_tok[1];
    g_queue.blas = (cublasHandle_t)(void *)&g_handle_tok[0];
    g_queue.panel_blas = (cublasHandle_t)(void *)&g_handle_tok[1];
    g_queue.dscratch[0] = &g_scratch_tok[0];
    g_queue.dscratch[1] = &g_scratch_tok[1];
    g_queue.dtile_sync = &g_sync_tok;
}

/* ---- execution of the queued work --------------------------------------------- */
/* Element idx of a product's operand X (type t, buffer r). */
static double operand(const void *X, cudaDataType t, const region_t *r, int tf32, size_t idx)
{
    if (t == CUDA_R_32F) {
        const float v = ((const float *)X)[idx];
        return tf32 && !g_exact ? round_tf32(v) : v;
    }
    const float *sh = g_exact ? shadow_at(r, X) : NULL;
    if (sh) return sh[idx];
    const uint16_t h = ((const uint16_t *)X)[idx];
    return t == CUDA_R_16F ? half_to_float(h) : bf16_to_float(h);
}

static void execute_gemm(const op_t *op)
{
    const int64_t m = op->m, n = op->n, k = op->k;
    const int an = op->ta == CUBLAS_OP_N, bn = op->tb == CUBLAS_OP_N;
    const size_t ea = op->atype == CUDA_R_32F ? 4 : 2, eb = op->btype == CUDA_R_32F ? 4 : 2;
    const region_t *ra = check_matrix("gemm's A", op->a, an ? m : k, an ? k : m, op->lda, ea);
    const region_t *rb = check_matrix("gemm's B", op->b, bn ? k : n, bn ? n : k, op->ldb, eb);
    if (!ra || !rb || !check_matrix("gemm's C", op->dst, m, n, op->ldc, 4)) return;
    if (op->device_scalars && (!check_matrix("gemm's alpha", op->dalpha, 1, 1, 1, 4) ||
                               !check_matrix("gemm's beta", op->dbeta, 1, 1, 1, 4)))
        return;
    /* op(A) by rows and op(B) by columns, k contiguous */
    double *a = malloc((size_t)(m * k + 1) * sizeof(double));
    double *b = malloc((size_t)(n * k + 1) * sizeof(double));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t l = 0; l < k; ++l)
            a[i * k + l] = operand(op->a, op->atype, ra, op->tf32,
                                   (size_t)(an ? i + l * op->lda : l + i * op->lda));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t l = 0; l < k; ++l)
            b[j * k + l] = operand(op->b, op->btype, rb, op->tf32,
                                   (size_t)(bn ? l + j * op->ldb : j + l * op->ldb));
    const double alpha = op->device_scalars ? *op->dalpha : op->alpha;
    const double beta = op->device_scalars ? *op->dbeta : op->beta;
    float *C = op->dst;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            double s = 0;
            for (int64_t l = 0; l < k; ++l) s += a[i * k + l] * b[j * k + l];
            float *c = &C[i + j * op->ldc];
            /* beta from the device is applied even when 0 (C must hold numbers),
             * a host 0 leaves C unread, as cuBLAS */
            *c = (float)(alpha * s + (op->device_scalars || beta != 0 ? beta * (double)*c : 0));
        }
    free(a);
    free(b);
    g_products++;
}

/* B := alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right), A's uplo
 * triangle only, non-unit diagonal; in double. */
static void execute_trsm(const op_t *op)
{
    const int left = op->side == CUBLAS_SIDE_LEFT;
    const int64_t ka = left ? op->m : op->n;
    if (!check_matrix("trsm's A", op->a, ka, ka, op->lda, 4) ||
        !check_matrix("trsm's B", op->dst, op->m, op->n, op->ldb, 4))
        return;
    const float *A = op->a;
    float *B = op->dst;
    double *M = calloc((size_t)(ka * ka), sizeof(double)); /* op(A), dense */
    for (int64_t j = 0; j < ka; ++j)
        for (int64_t i = 0; i < ka; ++i)
            if (op->uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j) {
                const double v = A[i + j * op->lda];
                if (op->ta == CUBLAS_OP_N) M[i + j * ka] = v; else M[j + i * ka] = v;
            }
    const int lower = (op->uplo == CUBLAS_FILL_MODE_LOWER) == (op->ta == CUBLAS_OP_N);
    /* left: M x = b per column of B; right: x M = b per row, that is M^T x^T = b^T */
    const int sys_lower = left ? lower : !lower;
    const int64_t count = left ? op->n : op->m;
    double *x = malloc((size_t)ka * sizeof(double));
    for (int64_t c = 0; c < count; ++c) {
        for (int64_t i = 0; i < ka; ++i)
            x[i] = (double)op->alpha * (left ? B[i + c * op->ldb] : B[c + i * op->ldb]);
        for (int64_t t = 0; t < ka; ++t) {
            const int64_t i = sys_lower ? t : ka - 1 - t;
            double s = x[i];
            for (int64_t l = 0; l < ka; ++l) {
                if (sys_lower ? l >= i : l <= i) continue;
                s -= (left ? M[i + l * ka] : M[l + i * ka]) * x[l];
            }
            x[i] = s / M[i + i * ka];
        }
        for (int64_t i = 0; i < ka; ++i) {
            if (left) B[i + c * op->ldb] = (float)x[i];
            else B[c + i * op->ldb] = (float)x[i];
        }
    }
    free(x);
    free(M);
}

static void execute(const op_t *op)
{
    switch (op->kind) {
    case OP_MEMSET: {
        region_t *r = check_matrix("memset", op->dst, (int64_t)op->bytes, 1, (int64_t)op->bytes, 1);
        if (!r) return;
        memset(op->dst, op->value, op->bytes);
        float *sh = op->value == 0 ? shadow_at(r, op->dst) : NULL;
        for (size_t i = 0; sh && i < op->bytes / 2; ++i) sh[i] = 0;
        return;
    }
    case OP_MEMSET2D:
        if (!check_matrix("memset2D", op->dst, (int64_t)op->width, (int64_t)op->height,
                          (int64_t)op->pitch, 1))
            return;
        for (size_t r = 0; r < op->height; ++r)
            memset((char *)op->dst + r * op->pitch, op->value, op->width);
        return;
    case OP_COPY:
        if (check_matrix("copy's source", op->a, (int64_t)op->bytes, 1, (int64_t)op->bytes, 1))
            memcpy(op->dst, op->a, op->bytes);
        return;
    case OP_GEMM: execute_gemm(op); return;
    case OP_TRSM: execute_trsm(op); return;
    case OP_TILED:
    case OP_POTRF: {
        if (!check_matrix("diagonal block", op->dst, op->n, op->n, op->lda, 4) ||
            !check_matrix("info word", op->dinfo, 1, 1, 1, 8))
            return;
        /* the tiled kernel leaves a word already set alone */
        if (op->kind == OP_TILED && *op->dinfo != 0) return;
        const lapack_int info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)op->n,
                                                    op->dst, (lapack_int)op->lda);
        if (op->kind == OP_POTRF) *op->dinfo = info;
        else if (info > 0) *op->dinfo = op->col0 + info;
        return;
    }
    case OP_ADD_DIAG: {
        if (!check_matrix("add_diag's S", op->dst, op->n, op->n, op->lda, 4)) return;
        float *S = op->dst;
        for (int64_t i = 0; i < op->n; ++i) S[i + i * op->lda] += op->scale;
        return;
    }
    case OP_TO_LOWP: {
        const region_t *rp = check_matrix("panel_to_lowp's P", op->dst, op->m, op->n, op->ldb, 2);
        if (!check_matrix("panel_to_lowp's S", op->a, op->m, op->n, op->lda, 4) || !rp ||
            (op->copy && !check_matrix("panel_to_lowp's copy", op->copy, op->m, op->n, op->ldc, 4)))
            return;
        const float *S = op->a;
        uint16_t *P = op->dst;
        float *sh = shadow_at(rp, op->dst);
        for (int64_t j = 0; j < op->n; ++j)
            for (int64_t i = 0; i < op->m; ++i) {
                const float v = S[i + j * op->lda], w = op->scale * v;
                P[i + j * op->ldb] = op->bf16 ? float_to_bf16(w) : float_to_half(w);
                if (sh) sh[i + j * op->ldb] = w;
                if (op->copy) op->copy[i + j * op->ldc] = v;
            }
        return;
    }
    case OP_INV_TO_LOWP: {
        const int64_t n = op->n;
        const region_t *rh = check_matrix("inverse_to_lowp's Wh", op->dst, n, n, op->ldb, 2);
        if (!check_matrix("inverse_to_lowp's W", op->a, n, n, op->lda, 4) || !rh ||
            !check_matrix("inverse_to_lowp's words", op->words, 3, 1, 3, 4))
            return;
        const float *W = op->a;
        uint32_t amax = 0; /* a non-negative float orders as its bits; NaN above Inf */
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < n; ++i) {
                const uint32_t x = float_bits(fabsf(W[i + j * op->lda]));
                if (x > amax) amax = x;
            }
        const float m = bits_float(amax);
        int e = 0;
        const int finite = m > 0 && m <= 3.402823466e38f;
        if (finite) (void)frexpf(m, &e);
        const int f = finite ? 15 - e : 0;
        uint16_t *Wh = op->dst;
        float *sh = shadow_at(rh, op->dst);
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < n; ++i) {
                const float w = ldexpf(W[i + j * op->lda], f);
                Wh[i + j * op->ldb] = op->bf16 ? float_to_bf16(w) : float_to_half(w);
                if (sh) sh[i + j * op->ldb] = w;
            }
        float *words = op->words;
        memcpy(&words[0], &amax, 4);
        words[1] = ldexpf(1.0f / op->scale, -f);
        words[2] = 0.0f;
        return;
    }
    case OP_RECORD: g_record_done[op->record] = 1; return;
    case OP_WAIT: return;
    case OP_FREE: {
        region_t *r = region_of(op->dst);
        if (!r || !r->library || r->base != op->dst || r->freed) {
            mock_error("cudaFreeAsync of what is not a live allocation");
            return;
        }
        r->freed = 1; /* kept, poisoned: a later use reads NaN */
        memset(r->base, 0xff, r->bytes);
        for (size_t i = 0; i < r->bytes / 2 + 1; ++i) r->shadow[i] = NAN;
        return;
    }
    }
}

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

/* ---- the cases ------------------------------------------------------------------------ */
typedef struct {
    int64_t n, nb, pad;
    int     form; /* -1: no inverses; 0: inverses kept, panels by strsm;
                     1, 2, 3: panels through them (plan.panel_inverse) */
    int     lookahead;
    int64_t leaf;
    int     bf16;
    int     defect; /* a negative pivot planted in block column 3 */
} lcase_t;

static const char *form_name(int form)
{
    static const char *const names[] = { "strsm", "strsm+inv", "inv-tf32", "inv-fp32",
                                         "inv-lowp" };
    return names[form + 1];
}

/* S = D (B B^T / n + I / 4) D with a unit diagonal (|s_ij| <= 1, modest
 * condition) in the lower triangle of lds x n; NaN above it and in the
 * padding rows, which nothing may read. */
static void make_s(const lcase_t *c, float *S, uint64_t seed)
{
    const int64_t n = c->n, lds = n + c->pad;
    double *B = malloc((size_t)(n * n) * sizeof(double)), *A = malloc((size_t)(n * n) * sizeof(double));
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 12345;
    for (int64_t i = 0; i < n * n; ++i) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        B[i] = (double)(x >> 11) / 9007199254740992.0 * 2 - 1;
    }
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)n, (int)n, 1.0 / (double)n, B,
                (int)n, 0.0, A, (int)n);
    for (int64_t j = 0; j < lds * n; ++j) S[j] = NAN;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = j; i < n; ++i) {
            const double aii = A[i + i * n] + 0.25, ajj = A[j + j * n] + 0.25;
            S[i + j * lds] = i == j ? 1.0f : (float)(A[i + j * n] / sqrt(aii * ajj));
        }
    if (c->defect) {
        const int64_t k0 = 3 * c->nb, kb = n - k0 < c->nb ? n - k0 : c->nb;
        const int64_t p = k0 + (kb > 5 ? 5 : kb - 1);
        S[p + p * lds] = -1.0f;
    }
    free(B);
    free(A);
}

/* max |W - inv(L)| / max |inv(L)| over block column k's kb x kb block
 * (L in Lsrc, ld lds; W in inv, ld nb), and W's strictly upper part 0. */
static double inverse_error(const float *Lsrc, int64_t lds, const float *inv, int64_t nb,
                            int64_t k, int64_t kb)
{
    double *R = calloc((size_t)(kb * kb), sizeof(double));
    for (int64_t j = 0; j < kb; ++j)
        for (int64_t i = j; i < kb; ++i) R[i + j * kb] = Lsrc[(k + i) + (k + j) * lds];
    LAPACKE_dtrtri(LAPACK_COL_MAJOR, 'L', 'N', (lapack_int)kb, R, (lapack_int)kb);
    double diff = 0, big = 0;
    for (int64_t j = 0; j < kb; ++j)
        for (int64_t i = 0; i < kb; ++i) {
            const double w = inv[i + (k + j) * nb];
            if (i < j) {
                if (w != 0) diff = INFINITY;
                continue;
            }
            diff = fmax(diff, fabs(w - R[i + j * kb]));
            if (isnan(w)) diff = INFINITY;
            big = fmax(big, fabs(R[i + j * kb]));
        }
    free(R);
    return diff / big;
}

typedef struct {
    double lerr, berr, ierr; /* vs LAPACK's L, ||S - L L^T|| / ||S||, inverses */
} errors_t;

/* One run of the case under an order; why[] empty when it passes. */
static void run_once(const lcase_t *c, const float *S0, const float *Lref, int64_t info_ref,
                     order_t order, int exact, uint64_t seed, errors_t *err, char *why,
                     size_t why_len)
{
    const int64_t n = c->n, nb = c->nb, lds = n + c->pad;
    float *S = malloc((size_t)(lds * n) * sizeof(float));
    memcpy(S, S0, (size_t)(lds * n) * sizeof(float));
    float *inv = NULL;
    reset_mocks(order, exact, seed);
    add_region(S, (size_t)(lds * n) * sizeof(float), 0);
    if (c->form >= 0) {
        inv = malloc((size_t)(nb * n) * sizeof(float));
        for (int64_t i = 0; i < nb * n; ++i) inv[i] = NAN;
        add_region(inv, (size_t)(nb * n) * sizeof(float), 0);
    }
    const gchol_lowp_plan_t plan = { nb, inv, c->form > 0 ? c->form : 0, c->lookahead, c->leaf };
    int64_t info = -77;
    const int64_t st = gchol_spotrf_lowp(n, S, lds, c->bf16, &plan, &info, &g_queue);
    run_streams(-1); /* what is still queued: the frees */
    why[0] = 0;
    memset(err, 0, sizeof *err);
    int streams_left = 0, events_left = 0, unfreed = 0;
    for (int s = 2; s < MAX_STREAMS; ++s) streams_left += g_streams[s].live;
    for (int e = 0; e < MAX_EVENTS; ++e) events_left += g_events[e].live;
    for (int r = 0; r < g_nregions; ++r) unfreed += g_regions[r].library && !g_regions[r].freed;
    if (g_error[0])
        snprintf(why, why_len, "%s", g_error);
    else if (st != 0)
        snprintf(why, why_len, "status %lld", (long long)st);
    else if (streams_left || events_left || unfreed)
        snprintf(why, why_len, "left behind: %d streams, %d events, %d buffers", streams_left,
                 events_left, unfreed);
    else if (g_handle_stream[0] != 0 || g_handle_stream[1] != 1 ||
             g_handle_mode[0] != CUBLAS_POINTER_MODE_HOST ||
             g_handle_mode[1] != CUBLAS_POINTER_MODE_HOST)
        snprintf(why, why_len, "a handle left on another stream or in device pointer mode");
    else if (info != info_ref)
        snprintf(why, why_len, "info %lld, LAPACK's %lld", (long long)info, (long long)info_ref);
    /* outside the lower triangle and the diagonal blocks, and the padding: as given */
    for (int64_t j = 0; j < n && !why[0]; ++j)
        for (int64_t i = 0; i < lds; ++i) {
            const int inside = i < n && (i >= j || i / nb == j / nb);
            if (!inside && memcmp(&S[i + j * lds], &S0[i + j * lds], sizeof(float))) {
                snprintf(why, why_len, "S(%lld, %lld) written", (long long)i, (long long)j);
                break;
            }
        }
    if (!why[0] && info_ref > 0 && !(S[(info - 1) * (lds + 1)] <= 0))
        snprintf(why, why_len, "the failed pivot S(%lld, %lld) = %g", (long long)info - 1,
                 (long long)info - 1, (double)S[(info - 1) * (lds + 1)]);
    if (!why[0] && info_ref == 0) {
        double big = 0, rnorm = 0, snorm = 0;
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = j; i < n; ++i) {
                const double l = S[i + j * lds], r = Lref[i + j * lds];
                err->lerr = fmax(err->lerr, isnan(l) ? INFINITY : fabs(l - r));
                big = fmax(big, fabs(r));
                double s = 0; /* (L L^T)(i, j) */
                for (int64_t p = 0; p <= j; ++p) s += (double)S[i + p * lds] * S[j + p * lds];
                const double d = S0[i + j * lds] - s, w = i == j ? 1 : 2;
                rnorm += w * d * d;
                snorm += w * (double)S0[i + j * lds] * S0[i + j * lds];
            }
        err->lerr /= big;
        err->berr = isnan(rnorm) ? INFINITY : sqrt(rnorm / snorm);
        /* the inverses: of LAPACK's blocks when exact, of the factor's own when rounded */
        for (int64_t k = 0; inv && k < n; k += nb) {
            const int64_t kb = n - k < nb ? n - k : nb;
            err->ierr = fmax(err->ierr, inverse_error(exact ? Lref : S, lds, inv, nb, k, kb));
        }
        /* exact: single's rounding (seen: 2e-7); rounded: FP16's and BF16's
         * (seen: 2e-4 and 1e-3), with room */
        const double ltol = exact ? 1e-5 : c->bf16 ? 1e-2 : 2e-3;
        const double btol = exact ? 1e-6 : c->bf16 ? 1e-2 : 2e-3;
        const double itol = exact ? 1e-4 : 1e-5;
        if (!(err->lerr <= ltol))
            snprintf(why, why_len, "max |L - LAPACK's| / max |L| %.2e > %.0e", err->lerr, ltol);
        else if (!(err->berr <= btol))
            snprintf(why, why_len, "||S - L L^T|| / ||S|| %.2e > %.0e", err->berr, btol);
        else if (!(err->ierr <= itol))
            snprintf(why, why_len, "inverses off by %.2e > %.0e", err->ierr, itol);
    }
    for (int r = 0; r < g_nregions; ++r)
        if (g_regions[r].library) {
            free(g_regions[r].base);
            free(g_regions[r].shadow);
        }
    g_nregions = 0;
    free(S);
    free(inv);
}

/* Three runs: exact under either order, rounded at random. */
static void run_case(const lcase_t *c, uint64_t seed)
{
    const int64_t n = c->n, lds = n + c->pad;
    float *S0 = malloc((size_t)(lds * n) * sizeof(float));
    float *Lref = malloc((size_t)(lds * n) * sizeof(float));
    make_s(c, S0, seed);
    memcpy(Lref, S0, (size_t)(lds * n) * sizeof(float));
    const int64_t info_ref = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)n, Lref,
                                                 (lapack_int)lds);
    char why[200] = "", msg[240] = "";
    errors_t ex = { 0, 0, 0 }, ro = { 0, 0, 0 };
    static const order_t orders[3] = { ORDER_MAIN_FIRST, ORDER_SIDE_FIRST, ORDER_RANDOM };
    for (int r = 0; r < 3 && !why[0]; ++r) {
        errors_t e;
        run_once(c, S0, Lref, info_ref, orders[r], r < 2, seed + (uint64_t)r, &e, why, sizeof why);
        if (why[0]) snprintf(msg, sizeof msg, ": %s, %s: %s", r < 2 ? "exact" : "rounded",
                             kOrderName[orders[r]], why);
        if (r < 2) {
            ex.lerr = fmax(ex.lerr, e.lerr);
            ex.ierr = fmax(ex.ierr, e.ierr);
        } else {
            ro = e;
        }
    }
    char errs[120] = "";
    if (!why[0] && info_ref == 0)
        snprintf(errs, sizeof errs, "  exact %.1e inv %.1e, rounded %.1e berr %.1e", ex.lerr,
                 ex.ierr, ro.lerr, ro.berr);
    else if (!why[0])
        snprintf(errs, sizeof errs, "  info %lld", (long long)info_ref);
    testing_expect(!why[0], "n=%-3lld nb=%-2lld ld=n+%lld %-9s lookahead %d leaf %-2lld %s%s%s%s",
                   (long long)n, (long long)c->nb, (long long)c->pad, form_name(c->form),
                   c->lookahead, (long long)c->leaf, c->bf16 ? "bf16" : "fp16",
                   c->defect ? " not SPD" : "", errs, msg);
    free(S0);
    free(Lref);
}

/* The converters against values whose rounding is known. */
static void check_converters(void)
{
    static const struct { float f; uint16_t half, bf16; } table[] = {
        { 1.0f, 0x3c00, 0x3f80 },
        { -2.0f, 0xc000, 0xc000 },
        { 65504.0f, 0x7bff, 0x4780 },            /* BF16: 0xe000 past 0x477f, up */
        { 65520.0f, 0x7c00, 0x4780 },           /* FP16: past the largest, Inf */
        { 5.9604645e-08f, 0x0001, 0x3380 },     /* 2^-24: FP16's least subnormal */
        { 1.00048828125f, 0x3c00, 0x3f80 },     /* 1 + 2^-11: a tie, to even */
        { 1.00146484375f, 0x3c02, 0x3f80 },     /* 1 + 3 2^-11: a tie, to even */
        { 1.00390625f, 0x3c04, 0x3f80 },        /* 1 + 2^-8: BF16's tie, to even */
        { 1.01171875f, 0x3c0c, 0x3f82 },        /* 1 + 3 2^-8: BF16's tie, up */
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        bad += float_to_half(table[i].f) != table[i].half;
        bad += float_to_bf16(table[i].f) != table[i].bf16;
        if (table[i].half != 0x7c00) bad += half_to_float(table[i].half) != table[i].f &&
                                            float_to_half(half_to_float(table[i].half)) != table[i].half;
    }
    bad += round_tf32(1.00048828125f) != 1.0f || round_tf32(1.0009765625f) != 1.0009765625f;
    testing_expect(!bad, "FP16 / BF16 / TF32 rounding of the mocks (%d wrong)", bad);
}

/* gchol_lowp_plan_for reads the device's table. */
static void check_plan_for(void)
{
    memset(&g_tune, 0, sizeof g_tune);
    g_tune.lowp_nb_small = 128;
    g_tune.lowp_nb_large_from = 4096;
    g_tune.lowp_nb_large = 256;
    g_tune.lowp_panel_inverse = 3;
    g_tune.lowp_lookahead = 3;
    g_tune.lowp_update_leaf = 1024;
    int64_t nb1, nb2, nb3, leaf;
    int keep, pinv, la;
    gchol_lowp_plan_for(100, &nb1, &keep, &pinv, &la, &leaf);
    gchol_lowp_plan_for(2000, &nb2, &keep, &pinv, &la, &leaf);
    gchol_lowp_plan_for(5000, &nb3, &keep, &pinv, &la, &leaf);
    testing_expect(nb1 == 100 && nb2 == 128 && nb3 == 256 && keep == 1 && pinv == 3 && la == 3 &&
                   leaf == 1024, "gchol_lowp_plan_for from the table (nb %lld %lld %lld)",
                   (long long)nb1, (long long)nb2, (long long)nb3);
    memset(&g_tune, 0, sizeof g_tune);
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: testing_lowp_host (no options)\n");
        return 2;
    }
    openblas_set_num_threads(1); /* LAPACK on small blocks: threads only wait */
    printf("testing_lowp_host  (src/potrf_lowp.c, cuBLAS, CUDA and launchers mocked, "
           "LAPACK's factors)\n");
    check_converters();
    check_plan_for();
    /* nb 32: block columns odd and even in number, the last whole or partial */
    static const int64_t ns[] = { 97, 128, 160, 200, 224, 257 };
    uint64_t seed = 1;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; ++i)
        for (int form = -1; form <= 3; ++form)
            for (int la = 0; la <= 3; ++la)
                for (int leaf = 0; leaf < (la == 3 ? 1 : 2); ++leaf) /* pairs: no split */
                    for (int bf16 = 0; bf16 < 2; ++bf16) {
                        const lcase_t c = { ns[i], 32, (int64_t)(seed % 3) * 5, form, la,
                                            leaf ? 64 : 0, bf16, 0 };
                        run_case(&c, seed++);
                    }
    /* nb 48, not a power of two: 4 blocks whole, 5 with a partial one */
    for (int k = 0; k < 2; ++k)
        for (int form = -1; form <= 3; ++form)
            for (int la = 1; la <= 3; la += 2) {
                const lcase_t c = { k ? 200 : 192, 48, 3, form, la, la == 1 ? 96 : 0, k, 0 };
                run_case(&c, seed++);
            }
    /* nb 16, 11 and 13 block columns: a pair's panels rewritten while the bulk
     * of two pairs back still reads rows of them; splits down to one block
     * column */
    for (int k = 0; k < 2; ++k)
        for (int form = -1; form <= 3; ++form)
            for (int la = 1; la <= 3; ++la) {
                const lcase_t c = { k ? 200 : 176, 16, 2 * k, form, la, la == 3 ? 0 : 16 << (la - 1),
                                    (form + la) % 2 != 0, 0 };
                run_case(&c, seed++);
            }
    /* too few block columns for the lookahead (n <= 2 nb): the plain loop */
    static const int64_t small[][2] = { { 20, 32 }, { 33, 32 }, { 64, 32 }, { 128, 64 } };
    for (int k = 0; k < 4; ++k)
        for (int form = -1; form <= 3; form += 4)
            for (int la = 0; la <= 3; la += 3) {
                /* nb > n: the driver's own clamp without inverses; with them the
                 * caller's nb is at most n, as gchol_lowp_plan_for gives it (inv's
                 * leading dimension) */
                const int64_t nb = form >= 0 && small[k][1] > small[k][0] ? small[k][0] : small[k][1];
                const lcase_t c = { small[k][0], nb, 1, form, la, 0, k % 2, 0 };
                run_case(&c, seed++);
            }
    /* a negative pivot in block column 3: LAPACK's info, the rest factored anyway */
    static const int64_t bad_ns[] = { 97, 160, 200 };
    for (int k = 0; k < 3; ++k)
        for (int form = -1; form <= 3; form += 4)
            for (int la = 0; la <= 3; ++la) {
                const lcase_t c = { bad_ns[k], 32, 2, form, la, la == 1 ? 64 : 0, (k + la) % 2, 1 };
                run_case(&c, seed++);
            }
    printf("  (%ld products)\n", g_products);
    return testing_summary();
}
