/*
 * lowp_mock_state.h -- the state of testing_lowp_host's mocks: FP16, BF16
 * and TF32 rounding, the "device" buffers (each checked against its extent
 * and its free), the streams' queued work, the events, the cuBLAS handles
 * and the queue. Part of testing_lowp_host.c, which includes it once,
 * first.
 */
#ifndef GCHOL_TESTING_LOWP_MOCK_STATE_H
#define GCHOL_TESTING_LOWP_MOCK_STATE_H

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

#endif
