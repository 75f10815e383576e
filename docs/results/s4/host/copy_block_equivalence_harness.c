/* Runs io_need / download of one potrf_host.c with CUDA mocked: prints
 * every 2D copy as offsets, so two versions can be compared by diff. */
#include SRC
#include <stdio.h>
#include <stdlib.h>
static FLOAT *gA, *gdA;
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dp, const void *src, size_t sp, size_t wd, size_t h,
                              enum cudaMemcpyKind k, cudaStream_t s)
{
    long dofs = k == cudaMemcpyHostToDevice ? (FLOAT *)dst - gdA : ((FLOAT *)dst - gA);
    long sofs = k == cudaMemcpyHostToDevice ? (const FLOAT *)src - gA : ((const FLOAT *)src - gdA);
    if (k == cudaMemcpyDeviceToHost && (FLOAT *)dst >= (FLOAT *)0 && ((FLOAT*)dst < gA || (FLOAT*)dst > gA + 100000000)) dofs = -1; /* stage */
    printf("cp k=%d dst=%ld dp=%zu src=%ld sp=%zu w=%zu h=%zu s=%p\n", (int)k, dofs, dp, sofs, sp, wd, h, (void *)s);
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) { printf("rec %p\n", (void*)s); return cudaSuccess; }
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned f) { printf("wait %p\n", (void*)s); return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t s) { return cudaSuccess; }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned f) { return cudaSuccess; }
cudaError_t cudaEventDestroy(cudaEvent_t e) { return cudaSuccess; }
int64_t gchol_queue_reserve_host(gchol_queue_t q, size_t b) { return 0; }
int64_t gchol_queue_reserve_device(gchol_queue_t q, size_t b) { return 0; }
int64_t gchol_queue_enter(gchol_queue_t q, int *p) { return 0; }
void gchol_queue_leave(int p) {}
int64_t gchol_default_queue_acquire(gchol_queue_t *q) { return 0; }
void gchol_default_queue_release(void) {}
int gchol_options_valid(const gchol_options_t *o) { return 1; }
int64_t PFX(potrf_io)(char u, int64_t n, FLOAT *dA, int64_t ldda, const gchol_options_t *o,
                      const gchol_host_io_t *io, gchol_queue_t q) { return 0; }
int main(void)
{
    static struct gchol_queue_s q;
    q.up_stream = (cudaStream_t)0x10; q.down_stream = (cudaStream_t)0x20;
    q.stream = (cudaStream_t)0x30; q.panel_stream = (cudaStream_t)0x40;
    q.hstage = malloc(kCopyNb * kCopyNb * sizeof(FLOAT));
    const int64_t ns[] = { 1, 2, 100, 257, 1000, 3001, 5000 };
    const int64_t steps[] = { 0, 128, 1024, 700 };
    for (int up = 0; up < 2; up++)
        for (int a = 0; a < 7; a++)
            for (int b = 0; b < 4; b++) {
                int64_t n = ns[a], lda = n + 5, ldda = (n + 31) / 32 * 32;
                gA = calloc((size_t)lda * n, sizeof(FLOAT)); gdA = calloc((size_t)ldda * n, sizeof(FLOAT));
                host_io_t io = { .q = &q, .upper = up, .n = n, .lda = lda, .ldda = ldda, .A = gA, .dA = gdA };
                printf("== up=%d n=%ld step=%ld\n", up, (long)n, (long)steps[b]);
                if (steps[b] == 0) { io_need(&io, n); download(&io, n); }
                else for (int64_t c = steps[b]; ; c += steps[b]) {
                    int64_t cc = c < n ? c : n;
                    io_need(&io, cc);
                    if (cc - steps[b] > 0) download(&io, cc - steps[b]);
                    if (cc == n) { download(&io, n); break; }
                }
                free(gA); free(gdA);
            }
    return 0;
}
