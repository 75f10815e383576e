/*
 * potrf_badargs.h -- testing_?potrf's argument checks, the n = 0 quick
 * return and the host forms without a GPU.
 * Part of testing_potrf.c, which includes it once (its types, the running
 * of one case and the precision macros come first).
 */
#ifndef GCHOL_TESTING_POTRF_BADARGS_H
#define GCHOL_TESTING_POTRF_BADARGS_H

/* ---------------------------------------------------------------------------
 * Argument checks, n = 0 quick return.
 * ------------------------------------------------------------------------- */
typedef struct {
    int     iface;
    int     argno;   /* the illegal argument; 0: none (n = 0 quick return) */
    int64_t n;       /* n used when argno is not 2                          */
} badarg_t;

/* Calls an interface with explicit arguments; ptr_info is the host info for
 * the synchronous forms and the device word for async. */
static int64_t call_iface(int iface, char uplo, int64_t n, FLOAT *A, int64_t lda,
                          int64_t *ptr_info, const gchol_options_t *o, gchol_queue_t q)
{
    switch (iface) {
    case IF_GPU:        return GCHOL(potrf_gpu)(uplo, n, A, lda, ptr_info, q);
    case IF_EXPERT_GPU: return GCHOL(potrf_expert_gpu)(uplo, n, A, lda, ptr_info, o, q);
    case IF_ASYNC:      return GCHOL(potrf_async)(uplo, n, A, lda, ptr_info, o, q);
    case IF_HOST:       return GCHOL(potrf)(uplo, n, A, lda, ptr_info);
    default:            return GCHOL(potrf_expert)(uplo, n, A, lda, ptr_info, o, q);
    }
}

/* Number of the queue argument of an interface (0: none). */
static int queue_argno(int iface)
{
    return iface == IF_GPU ? 6 : iface == IF_HOST ? 0 : 7;
}

/* Runs one argument-check case. The matrix is an 8 x 8 NaN-filled buffer,
 * on the device for device forms when a GPU exists, else on the host (it
 * must never be touched either way); without a GPU the queue is a fake one
 * that must never be used. Expected: return -argno (0 for n = 0), the same in
 * *info, and the buffer and the device info word untouched. */
static testing_result_t run_badarg(const badarg_t *b)
{
    const int64_t nn = 8;
    int gpu = testing_have_gpu(), dev = gpu && is_device_iface(b->iface);
    FLOAT hbuf[8 * 8], saved[8 * 8], *A = hbuf, *dbuf = NULL;
    int64_t hinfo = INFO_POISON, dinfo_val = INFO_POISON, *pinfo = &hinfo;
    int64_t n = b->argno == 2 ? -1 : b->n, lda = b->argno == 4 ? (n > 0 ? n - 1 : 0) : (n > 0 ? n : 1);
    int64_t expect = -b->argno, ret;
    char uplo = b->argno == 1 ? 'X' : 'L';
    gchol_options_t o;
    gchol_queue_t q = gpu ? g_queue : testing_fake_queue();
    int ok = 1;

    gchol_options_default(&o);
    testing_fill_nan(PREC, nn * nn, hbuf);
    memcpy(saved, hbuf, sizeof(hbuf));
    if (gpu && !g_queue)
        ok = 0;
    if (dev && ok) {
        if (TESTING_CUDA(cudaMalloc((void **)&dbuf, sizeof(hbuf))) ||
            TESTING_CUDA(cudaMemcpy(dbuf, hbuf, sizeof(hbuf), cudaMemcpyHostToDevice)) ||
            poison_dinfo())
            ok = 0;
        A = dbuf;
    }
    if (b->iface == IF_ASYNC) /* the info argument is a device word */
        pinfo = gpu ? g_dinfo : &dinfo_val;
    if (b->argno == 3 || (b->argno == 0 && b->n == 0))
        A = NULL;
    if (b->argno == 5)
        pinfo = NULL;
    if (b->argno != 0 && b->argno == queue_argno(b->iface))
        q = NULL;

    ret = ok ? call_iface(b->iface, uplo, n, A, lda, pinfo, &o, q) : INFO_POISON;
    if (b->iface == IF_ASYNC && ok && gpu) {
        /* info word: poisoned after -i, 0 after the n = 0 quick return */
        if (ret == 0 && TESTING_CUDA(cudaStreamSynchronize(gchol_queue_stream(q))))
            ok = 0;
        if (TESTING_CUDA(cudaMemcpy(&dinfo_val, g_dinfo, sizeof(int64_t), cudaMemcpyDeviceToHost)))
            ok = 0;
    }
    if (dev && dbuf && TESTING_CUDA(cudaMemcpy(hbuf, dbuf, sizeof(hbuf), cudaMemcpyDeviceToHost)))
        ok = 0;
    /* Without a device, async cannot write its device info word for n = 0. */
    if (b->iface == IF_ASYNC && !gpu && b->argno == 0 && ret == GCHOL_ERR_NO_DEVICE)
        expect = ret;
    ok = ok && ret == expect && memcmp(hbuf, saved, sizeof(hbuf)) == 0;
    if (b->iface == IF_ASYNC)
        ok = ok && (b->argno == 0 ? (!gpu || dinfo_val == 0) : dinfo_val == INFO_POISON);
    else if (pinfo)
        ok = ok && hinfo == expect;
    cudaFree(dbuf);
    return testing_expect(ok, "%-11s %s arg %d: ret=%lld (expected %lld) info=%lld",
                          iface_name[b->iface], b->argno ? "illegal" : "n=0 quick return",
                          b->argno, (long long)ret, (long long)expect,
                          (long long)(b->iface == IF_ASYNC ? dinfo_val : hinfo));
}

/* All argument cases: every illegal argument of every form (arg 6 = opts of
 * the expert forms cannot be illegal), ldda = 0 with n = 0, and n = 0. */
static void run_badargs(void)
{
    static const int nargs[IF_COUNT] = { 6, 7, 7, 5, 7, 0 };
    printf("\n-- argument checks (%s) --\n", PREC_NAME);
    for (int iface = 0; iface < IF_STREAM; iface++) {
        badarg_t quick = { iface, 0, 0 }, ld0 = { iface, 4, 0 };
        for (int a = 1; a <= nargs[iface]; a++) {
            badarg_t b = { iface, a, 8 };
            if (a == 6 && iface != IF_GPU)
                continue;
            run_badarg(&b);
        }
        run_badarg(&ld0);
        run_badarg(&quick);
    }
}

/* Without a GPU the host interface reports GCHOL_ERR_NO_DEVICE and leaves A
 * alone. */
static void run_host_no_device(void)
{
    FLOAT A[64], saved[64];
    int64_t info = INFO_POISON, ret;
    if (!testing_no_gpu_section("host interface without a GPU"))
        return;
    testing_generate_spd(PREC, 'A', 8, A, 8, 1);
    memcpy(saved, A, sizeof(A));
    ret = GCHOL(potrf)(PREC == 'd' ? 'L' : 'U', 8, A, 8, &info);
    testing_expect(ret == GCHOL_ERR_NO_DEVICE && info == ret && !memcmp(A, saved, sizeof(A)),
                   "gchol_%cpotrf without GPU: ret %lld info %lld", PREC, (long long)ret,
                   (long long)info);
}

#endif
