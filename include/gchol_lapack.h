/*
 * gchol_lapack.h -- the LAPACK shim (lib/libgchol_lapack.so).
 *
 * The shim defines LAPACK's own Fortran symbols for the Cholesky routines
 * (dpotrf_, spotrf_, dpotrs_, spotrs_, dposv_, sposv_, dsposv_, dpftrf_,
 * spftrf_, dpftrs_, spftrs_), so that an unchanged LAPACK program (or
 * LAPACKE, which calls them) runs them on the GPU:
 *
 *   cc app.o -L$PREFIX/lib -lgchol_lapack -llapacke -lopenblas   (shim first)
 *   LD_PRELOAD=$PREFIX/lib/libgchol_lapack.so ./app               (no relink)
 *
 * Each call goes to the GPU (gchol's host-memory forms) or to the CPU LAPACK:
 * GCHOL_LAPACK_CPU_LIB if set, else the library the program would have
 * called without the shim (dlsym RTLD_NEXT), else any loaded library that
 * defines the routine, else liblapack.so.3 / libopenblas.so.0 / libmkl_rt.
 *  - illegal arguments go to the CPU LAPACK, which calls xerbla and sets
 *    info = -i exactly as it would have without the shim;
 *  - small problems stay on the CPU: factorizations of order n < min_n
 *    (default 128), solves of order n < min_n_solve (default 2048: a solve
 *    moves the factor's triangle for 2 n^2 nrhs flops);
 *  - calls that CPU LAPACK routines make to these symbols stay on the CPU;
 *  - with no usable GPU, or when the GPU call fails before it has written
 *    any of the caller's input arrays (no device or driver, a driver too old,
 *    out of device or pinned memory), the call is redone on the CPU: nothing
 *    is lost;
 *  - if the GPU fails after it began writing an input array back (a device
 *    error during the download), or neither a GPU nor a CPU LAPACK can run
 *    the call, info is the gchol status (<= -100, see gchol_strerror; one
 *    lower through LAPACKE) and a line goes to stderr. LAPACK itself never
 *    returns such a value.
 *
 * The shim links no CUDA library. Its GPU side, gchol with cuBLAS and the
 * CUDA runtime, is lib/libgchol_lapack_gpu.so, opened at the first call
 * routed to the GPU (the file beside the shim's real path if it exists, else
 * by dlopen's search: LD_LIBRARY_PATH, the shim's own directory, the loader's
 * cache; GCHOL_LAPACK_GPU_LIB names another file). If it cannot be opened,
 * one line goes to stderr and, for the rest of the process, the calls run on
 * the CPU LAPACK (with no CPU LAPACK either, info = GCHOL_ERR_NO_DEVICE).
 *
 * Environment (read at the first call; GCHOL_LAPACK_GPU_LIB at the first call
 * routed to the GPU): GCHOL_LAPACK=auto|gpu|cpu (gpu: every call the
 * exceptions above leave goes to the GPU), GCHOL_LAPACK_MIN_N,
 * GCHOL_LAPACK_MIN_N_SOLVE, GCHOL_LAPACK_CPU_LIB, GCHOL_LAPACK_GPU_LIB,
 * GCHOL_LAPACK_VERBOSE=1 (one line per call on stderr: routine, size, info,
 * where it ran, seconds).
 *
 * Integers: dpotrf_ & co. take LAPACK's LP64 `int`. The same routines with
 * 64-bit integers are defined under reference LAPACK's ILP64 names (since
 * LAPACK 3.9.1: the symbol suffix 64_, int64_t arguments, info and iter
 * int64_t): dpotrf_64_, spotrf_64_, dpotrs_64_, spotrs_64_, dposv_64_,
 * sposv_64_, dsposv_64_, dpftrf_64_, spftrf_64_, dpftrs_64_, spftrs_64_, for
 * ILP64 programs (LAPACKE built with LAPACK_ILP64 and that suffix, Julia,
 * NumPy's ILP64 builds). An ILP64 call routes as the LP64 one. Its CPU
 * routine is the CPU LAPACK's own ILP64 symbol (GCHOL_LAPACK_CPU_LIB, the
 * loaded objects, else liblapack64.so.3 / libopenblas64.so.0 /
 * libopenblas64_.so.0) if there is one; else the LP64 routine with the
 * integers narrowed, when every integer argument fits in an int; else the
 * call has no CPU routine: it runs on the GPU, and an illegal argument gets
 * info = -i and the xerbla line from the shim itself.
 *
 * Trailing hidden string lengths (gfortran ABI) are accepted and ignored;
 * calls from C without them are fine.
 */
#ifndef GCHOL_LAPACK_H
#define GCHOL_LAPACK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the shim sends each call (gchol_lapack_route). */
typedef enum {
    GCHOL_LAPACK_AUTO = 0, /* GPU from min_n (solves: min_n_solve)         */
    GCHOL_LAPACK_GPU  = 1, /* GPU for every non-empty call                  */
    GCHOL_LAPACK_CPU  = 2  /* CPU LAPACK only                               */
} gchol_lapack_mode_t;

/* Where the calling thread's last shim call ran (gchol_lapack_last_path). */
typedef enum {
    GCHOL_LAPACK_RAN_NONE     = 0,   /* no call yet on this thread            */
    GCHOL_LAPACK_RAN_GPU      = 'G', /* on the GPU                            */
    GCHOL_LAPACK_RAN_CPU      = 'C', /* on the CPU by choice (size, mode,
                                        illegal argument, n = 0)              */
    GCHOL_LAPACK_RAN_FALLBACK = 'F', /* on the CPU after the GPU could not
                                        run it (no device, out of memory)     */
    GCHOL_LAPACK_RAN_FAILED   = 'E'  /* info <= -100: the GPU failed after
                                        writing an input array, or nothing
                                        could run the call                    */
} gchol_lapack_path_t;

/* Sets the routing for the whole process, overriding the environment: mode
 * (a gchol_lapack_mode_t), min_n and min_n_solve; a negative value keeps that
 * setting as it is. Also forgets an earlier "no device" (not a GPU engine
 * that could not be opened: that is final). Thread-safe. */
void gchol_lapack_route(int mode, int64_t min_n, int64_t min_n_solve);

/* The current routing (any pointer may be NULL). */
void gchol_lapack_get_route(int *mode, int64_t *min_n, int64_t *min_n_solve);

/* Where the calling thread's last shim call ran: a gchol_lapack_path_t. */
int gchol_lapack_last_path(void);

/* Frees the shim's library-owned queue: its device buffer (the largest
 * matrix so far), pinned staging buffers and copy threads. The next GPU call
 * makes a new one. */
void gchol_lapack_finalize(void);

/* The LAPACK routines themselves are not declared here: use LAPACK's own
 * lapack.h (or a Fortran interface), whose declarations they match. */

#ifdef __cplusplus
}
#endif

#endif
