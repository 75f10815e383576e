/*
 * host_io.h -- the host-memory forms' transfers: 2D copies direct or through
 * the queue's stager, triangle copies, and the one trip to the GPU that the
 * solves share (host_copy.c, host_call.c). Not installed.
 */
#ifndef GCHOL_HOST_IO_H
#define GCHOL_HOST_IO_H

#include "gchol.h"
#include "host_stage.h"

#include <cuda_runtime_api.h>

/* The stager for copies to or from host memory at h: NULL when h is pinned
 * (direct copies are faster there), when staging is off
 * (GCHOL_HOST_STAGE=0) or when its pinned buffers cannot be had; the
 * caller then copies directly. Created on first use, kept by the queue. */
gchol_stage_t *gchol_queue_stager(gchol_queue_t q, const void *h);

/* cudaMemcpy2DAsync between host and device memory (kind: HostToDevice or
 * DeviceToHost), through stager st (from gchol_queue_stager for the host
 * side; the caller asks once per host array, as the lookup asks the driver
 * about the pointer), or directly when st is NULL. Uploads may return
 * before the DMA ends, as cudaMemcpy2DAsync; before reading a download,
 * synchronize s, as with cudaMemcpy2DAsync. */
cudaError_t gchol_copy_2d(gchol_stage_t *st, enum cudaMemcpyKind kind, void *dst, size_t dpitch,
                          const void *src, size_t spitch, size_t width, size_t height,
                          cudaStream_t s);

/* Copies the upper or lower triangle of an n x n array between host (h,
 * hpitch bytes per column) and device (d, dpitch) in either direction
 * (kind), through the stager (NULL: pinned host memory), in block columns
 * of GCHOL_TRI_BLOCK that include their whole diagonal block: the other
 * triangle's part of those blocks is copied too. A download therefore
 * leaves the host's other triangle as it was only if the device holds it
 * there: after a triangle upload, or after gchol_host_upload_diag_blocks.
 * Nothing outside the diagonal blocks and the triangle is written. */
cudaError_t gchol_host_copy_triangle(gchol_stage_t *stager, enum cudaMemcpyKind kind, int upper,
                                     int64_t n, size_t es, char *d, size_t dpitch, char *h,
                                     size_t hpitch, cudaStream_t s);
/* The part of that triangle in the lower view's columns [c0, c1) ('U': the
 * rows [c0, c1)), c0 and c1 multiples of GCHOL_TRI_BLOCK or n: the parts
 * of a partition of 0..n copy what the whole triangle's copy does. */
cudaError_t gchol_host_copy_triangle_part(gchol_stage_t *stager, enum cudaMemcpyKind kind,
                                          int upper, int64_t n, int64_t c0, int64_t c1, size_t es,
                                          char *d, size_t dpitch, char *h, size_t hpitch,
                                          cudaStream_t s);
/* The triangle copies' block: the granule of the parts. */
enum { GCHOL_TRI_BLOCK = 256 };
/* Uploads the GCHOL_TRI_BLOCK-square diagonal blocks of the triangle
 * copies' tiling: before a triangle download of a result that was not
 * uploaded (beta = 0), so that the download writes back the host's own
 * values outside the triangle. */
cudaError_t gchol_host_upload_diag_blocks(gchol_stage_t *stager, int64_t n, size_t es, char *d,
                                          size_t dpitch, const char *h, size_t hpitch,
                                          cudaStream_t s);

/* Set (to 1) on the calling thread once a host-memory form has begun writing
 * an array that is also its input (potrf's A, potrs's B, pftrf's A, pftrs's
 * B): from then on a failed call cannot be redone from the caller's arrays.
 * Never cleared by the library; the LAPACK shim (lapack_api/lapack_route.c)
 * clears it before each call and reads it after a failure (host_call.c). */
extern _Thread_local int gchol_host_inout_written;

/* The host forms of the solves (host_call.c): acquires the library-owned
 * queue, reserves `bytes` of its device buffer, copies each array up (from
 * `up`, unless NULL) to its offset in the buffer (device leading dimension
 * `width` bytes), runs job(q, buffer, ctx, &download) on the queue, copies
 * each array down (to `down`, unless NULL or the job cleared download),
 * waits for the queue's stream and releases it. Host leading dimension `ld`
 * and column `width` in bytes, `cols` columns; only width x cols bytes of a
 * host array are ever written. */
typedef struct {
    const void *up;
    void       *down;
    size_t      ld, width, offset;
    int64_t     cols;
    char        tri;    /* 'L' / 'U': upload only that triangle of the square
                           (cols x cols) array, with whole diagonal blocks;
                           0: the whole array                              */
    size_t      elsize; /* element size, for tri                          */
} gchol_host_array_t;
typedef int64_t (*gchol_host_job_t)(gchol_queue_t q, char *dbase, void *ctx, int *download);
int64_t gchol_host_call(const gchol_host_array_t *arrays, int count, size_t bytes,
                        gchol_host_job_t job, void *ctx);

#endif
