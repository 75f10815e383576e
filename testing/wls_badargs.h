/*
 * wls_badargs.h -- testing_wls's argument checks and quick returns (they
 * never touch the device).
 * Part of testing_wls.c, which includes it once.
 */
#ifndef GCHOL_TESTING_WLS_BADARGS_H
#define GCHOL_TESTING_WLS_BADARGS_H

/* ===========================================================================
 * Argument checks and quick returns: never touch the device.
 * ========================================================================= */
typedef enum { F_DWLS, F_SWLS, F_DSWLS, F_DSWLS_X, F_DWLS_RFP, F_SWLS_RFP, F_COUNT } form_t;
static const char *const form_name[F_COUNT] = { "dwls_gpu", "swls_gpu", "dswls_gpu",
                                                "dswls_expert", "dwls_rfp_gpu", "swls_rfp_gpu" };

enum { P_A = 1, P_D = 2, P_B = 4, P_C = 8, P_Y = 16, P_ITER = 32, P_INFO = 64, P_QUEUE = 128,
       P_OPTS = 256 };
/* opts of the expert form: OPTS_FP16 / OPTS_BF16 are legal there only */
enum { BAD_OPTS_NONE, BAD_OPTS_PRODUCTS, BAD_OPTS_PRODUCTS_4, BAD_OPTS_TRACE, OPTS_FP16,
       OPTS_BF16 };

typedef struct {
    const char *what;
    char        transr;   /* the RFP forms */
    char        uplo;
    int64_t     m, n, nrhs, ldda, lddb, lddc, lddy;
    unsigned    nulls;    /* P_* bits: pointers passed as NULL */
    int         bad_opts; /* expert form: an invalid opts      */
    int64_t     expect;   /* the return value and *info        */
} argcase_t;

#define ARG_BUF 64 /* elements of each argument buffer (doubles) */

static argcase_t base_case(const char *what, int64_t expect)
{
    argcase_t c = { what, 'N', 'L', 4, 6, 2, 4, 6, 4, 4, 0, BAD_OPTS_NONE, expect };
    return c;
}

/* Runs one argument case on buffers that must stay untouched: device buffers
 * with a GPU, host buffers (and a fake queue) without one. */
static testing_result_t run_argcase(form_t f, const argcase_t *c)
{
    const int gpu = testing_have_gpu() && g_queue;
    double host[5][ARG_BUF], saved[5][ARG_BUF];
    void *buf[5] = { NULL, NULL, NULL, NULL, NULL }; /* A, d, B, C, Y */
    gchol_queue_t q = gpu ? g_queue : testing_fake_queue();
    int64_t iter = INFO_POISON, info = INFO_POISON, ret = INFO_POISON;
    gchol_trace_event_t events[4];
    gchol_trace_t trace = { events, LEN(events), 0 };
    gchol_options_t o;
    int ok = 1;

    testing_fill_nan('d', 5 * ARG_BUF, host);
    memcpy(saved, host, sizeof host);
    for (int k = 0; k < 5; k++) {
        if (gpu) {
            if (!(buf[k] = dev_upload(host[k], sizeof host[k]))) ok = 0;
        } else {
            buf[k] = host[k];
        }
    }
    gchol_options_default(&o);
    if (c->bad_opts == BAD_OPTS_PRODUCTS) o.products = 7;
    if (c->bad_opts == BAD_OPTS_PRODUCTS_4) o.products = GCHOL_PRODUCTS_BF16 + 1;
    if (c->bad_opts == OPTS_FP16) o.products = GCHOL_PRODUCTS_FP16;
    if (c->bad_opts == OPTS_BF16) o.products = GCHOL_PRODUCTS_BF16;
    if (c->bad_opts == BAD_OPTS_TRACE) o.trace = &trace;

    const void *A = c->nulls & P_A ? NULL : buf[0], *d = c->nulls & P_D ? NULL : buf[1];
    const void *B = c->nulls & P_B ? NULL : buf[2];
    void *C = c->nulls & P_C ? NULL : buf[3], *Y = c->nulls & P_Y ? NULL : buf[4];
    int64_t *piter = c->nulls & P_ITER ? NULL : &iter, *pinfo = c->nulls & P_INFO ? NULL : &info;
    const gchol_options_t *po = c->nulls & P_OPTS ? NULL : &o;
    if (c->nulls & P_QUEUE) q = NULL;

    if (ok) {
        switch (f) {
        case F_DWLS:
            ret = gchol_dwls_gpu(c->uplo, c->m, c->n, c->nrhs, A, c->ldda, d, B, c->lddb, C,
                                 c->lddc, Y, c->lddy, pinfo, q);
            break;
        case F_SWLS:
            ret = gchol_swls_gpu(c->uplo, c->m, c->n, c->nrhs, A, c->ldda, d, B, c->lddb, C,
                                 c->lddc, Y, c->lddy, pinfo, q);
            break;
        case F_DSWLS:
            ret = gchol_dswls_gpu(c->m, c->n, c->nrhs, A, c->ldda, d, B, c->lddb, Y, c->lddy,
                                  piter, pinfo, q);
            break;
        case F_DWLS_RFP:
            ret = gchol_dwls_rfp_gpu(c->transr, c->uplo, c->m, c->n, c->nrhs, A, c->ldda, d, B,
                                     c->lddb, C, Y, c->lddy, pinfo, q);
            break;
        case F_SWLS_RFP:
            ret = gchol_swls_rfp_gpu(c->transr, c->uplo, c->m, c->n, c->nrhs, A, c->ldda, d, B,
                                     c->lddb, C, Y, c->lddy, pinfo, q);
            break;
        default:
            ret = gchol_dswls_expert_gpu(c->m, c->n, c->nrhs, A, c->ldda, d, B, c->lddb, Y,
                                         c->lddy, piter, pinfo, po, q);
            break;
        }
    }
    for (int k = 0; k < 5 && gpu; k++)
        if (!buf[k] || dev_download(host[k], buf[k], sizeof host[k])) ok = 0;
    const int untouched = memcmp(host, saved, sizeof host) == 0;
    const int is_dswls = f == F_DSWLS || f == F_DSWLS_X;
    /* iter: 0 on the quick returns; not specified after -i */
    const int iter_ok = !is_dswls || c->expect != 0 || !piter || iter == 0;
    ok = ok && ret == c->expect && (!pinfo || info == c->expect) && untouched && iter_ok;
    for (int k = 0; k < 5 && gpu; k++) cudaFree(buf[k]);
    return testing_expect(ok, "%-12s %-58s ret %lld (want %lld) info %lld%s%s", form_name[f],
                          c->what, (long long)ret, (long long)c->expect,
                          (long long)(pinfo ? info : ret), untouched ? "" : " BUFFERS WRITTEN",
                          iter_ok ? "" : " iter not 0");
}

/* The host forms gchol_dwls (rfp = 0) and gchol_swls_rfp (rfp = 1) on host
 * buffers that must stay untouched: every argument position, the m = 0
 * quick return, and (without a GPU) a legal call: GCHOL_ERR_NO_DEVICE. */
static void run_host_arg_checks(int rfp)
{
    const int64_t s = rfp; /* the RFP form's arguments 2-11 are the full form's 1-10 */
    argcase_t list[24];
    int k = 0;
    argcase_t c;
    if (rfp) { c = base_case("arg 1: transr = 'C'", -1); c.transr = 'C'; list[k++] = c; }
    c = base_case("uplo = 'X'", -(1 + s)); c.uplo = 'X'; list[k++] = c;
    c = base_case("m = -1", -(2 + s)); c.m = -1; list[k++] = c;
    c = base_case("n = -1", -(3 + s)); c.n = -1; list[k++] = c;
    c = base_case("nrhs = -1", -(4 + s)); c.nrhs = -1; list[k++] = c;
    c = base_case("A = NULL", -(5 + s)); c.nulls = P_A; list[k++] = c;
    c = base_case("lda = m - 1", -(6 + s)); c.ldda = 3; list[k++] = c;
    c = base_case("B = NULL", -(8 + s)); c.nulls = P_B; list[k++] = c;
    c = base_case("ldb = n - 1", -(9 + s)); c.lddb = 5; list[k++] = c;
    c = base_case("C = NULL", -(10 + s)); c.nulls = P_C; list[k++] = c;
    if (!rfp) { c = base_case("ldc = m - 1", -11); c.lddc = 3; list[k++] = c; }
    c = base_case("Y = NULL", -12); c.nulls = P_Y; list[k++] = c;
    c = base_case("ldy = m - 1", -13); c.lddy = 3; list[k++] = c;
    c = base_case("info = NULL", -14); c.nulls = P_INFO; list[k++] = c;
    c = base_case("quick return m = 0 (A, C, Y NULL)", 0);
    c.m = 0; c.ldda = c.lddc = c.lddy = 1; c.nulls = P_A | P_C | P_Y; list[k++] = c;
    if (!testing_have_gpu()) {
        c = base_case("legal, no GPU: GCHOL_ERR_NO_DEVICE", GCHOL_ERR_NO_DEVICE); list[k++] = c;
    }
    for (int i = 0; i < k; i++) {
        double host[5][ARG_BUF], saved[5][ARG_BUF];
        testing_fill_nan('d', 5 * ARG_BUF, host);
        memcpy(saved, host, sizeof host);
        const argcase_t *a = &list[i];
        int64_t info = INFO_POISON, ret;
        int64_t *pinfo = a->nulls & P_INFO ? NULL : &info;
        void *A = a->nulls & P_A ? NULL : host[0], *d = host[1];
        void *B = a->nulls & P_B ? NULL : host[2], *C = a->nulls & P_C ? NULL : host[3];
        void *Y = a->nulls & P_Y ? NULL : host[4];
        if (rfp)
            ret = gchol_swls_rfp(a->transr, a->uplo, a->m, a->n, a->nrhs, A, a->ldda, d, B,
                                 a->lddb, C, Y, a->lddy, pinfo);
        else
            ret = gchol_dwls(a->uplo, a->m, a->n, a->nrhs, A, a->ldda, d, B, a->lddb, C, a->lddc,
                             Y, a->lddy, pinfo);
        const int untouched = memcmp(host, saved, sizeof host) == 0;
        testing_expect(ret == a->expect && (!pinfo || info == a->expect) && untouched,
                       "%-12s %-58s ret %lld (want %lld) info %lld%s", rfp ? "swls_rfp" : "dwls",
                       a->what, (long long)ret, (long long)a->expect,
                       (long long)(pinfo ? info : ret), untouched ? "" : " BUFFERS WRITTEN");
    }
}

/* gchol_dswls (host arrays): dswls_gpu's arguments 1-12, no queue. */
static void run_dswls_host_arg_checks(void)
{
    argcase_t list[24];
    int k = 0;
    argcase_t c;
    c = base_case("m = -1", -1); c.m = -1; list[k++] = c;
    c = base_case("n = -1", -2); c.n = -1; list[k++] = c;
    c = base_case("nrhs = -1", -3); c.nrhs = -1; list[k++] = c;
    c = base_case("A = NULL", -4); c.nulls = P_A; list[k++] = c;
    c = base_case("lda = m - 1", -5); c.ldda = 3; list[k++] = c;
    c = base_case("B = NULL", -7); c.nulls = P_B; list[k++] = c;
    c = base_case("ldb = n - 1", -8); c.lddb = 5; list[k++] = c;
    c = base_case("Y = NULL", -9); c.nulls = P_Y; list[k++] = c;
    c = base_case("ldy = m - 1", -10); c.lddy = 3; list[k++] = c;
    c = base_case("iter = NULL", -11); c.nulls = P_ITER; list[k++] = c;
    c = base_case("info = NULL", -12); c.nulls = P_INFO; list[k++] = c;
    c = base_case("order: lda = m - 1 and info NULL", -5); c.ldda = 3; c.nulls = P_INFO;
    list[k++] = c;
    c = base_case("quick return m = 0 (A, Y NULL)", 0);
    c.m = 0; c.ldda = c.lddy = 1; c.nulls = P_A | P_Y; list[k++] = c;
    c = base_case("quick return nrhs = 0 (B, Y NULL)", 0);
    c.nrhs = 0; c.nulls = P_B | P_Y; list[k++] = c;
    if (!testing_have_gpu()) {
        c = base_case("legal, no GPU: GCHOL_ERR_NO_DEVICE", GCHOL_ERR_NO_DEVICE); list[k++] = c;
        c = base_case("legal, d = NULL, no GPU: GCHOL_ERR_NO_DEVICE", GCHOL_ERR_NO_DEVICE);
        c.nulls = P_D; list[k++] = c;
    }
    for (int i = 0; i < k; i++) {
        double host[4][ARG_BUF], saved[4][ARG_BUF];
        testing_fill_nan('d', 4 * ARG_BUF, host);
        memcpy(saved, host, sizeof host);
        const argcase_t *a = &list[i];
        int64_t info = INFO_POISON, iter = INFO_POISON;
        int64_t *pinfo = a->nulls & P_INFO ? NULL : &info, *piter = a->nulls & P_ITER ? NULL : &iter;
        const double *A = a->nulls & P_A ? NULL : host[0], *d = a->nulls & P_D ? NULL : host[1];
        const double *B = a->nulls & P_B ? NULL : host[2];
        double *Y = a->nulls & P_Y ? NULL : host[3];
        const int64_t ret = gchol_dswls(a->m, a->n, a->nrhs, A, a->ldda, d, B, a->lddb, Y,
                                        a->lddy, piter, pinfo);
        const int untouched = memcmp(host, saved, sizeof host) == 0;
        const int iter_ok = !piter || (a->expect == 0 ? iter == 0 : 1);
        testing_expect(ret == a->expect && (!pinfo || info == a->expect) && untouched && iter_ok,
                       "%-12s %-58s ret %lld (want %lld) info %lld iter %lld%s", "dswls (host)",
                       a->what, (long long)ret, (long long)a->expect,
                       (long long)(pinfo ? info : ret), (long long)(piter ? iter : 0),
                       untouched ? "" : " BUFFERS WRITTEN");
    }
}

static void run_arg_checks(void)
{
    printf("\n-- argument checks and quick returns (host side: run without a GPU too) --\n");
    run_host_arg_checks(0);
    run_host_arg_checks(1);
    run_dswls_host_arg_checks();
    for (int f = F_DWLS; f <= F_SWLS; f++) {
        argcase_t list[32];
        int k = 0;
        argcase_t c;
        c = base_case("arg 1: uplo = 'X'", -1); c.uplo = 'X'; list[k++] = c;
        c = base_case("arg 2: m = -1", -2); c.m = -1; list[k++] = c;
        c = base_case("arg 3: n = -1", -3); c.n = -1; list[k++] = c;
        c = base_case("arg 4: nrhs = -1", -4); c.nrhs = -1; list[k++] = c;
        c = base_case("arg 5: dA = NULL", -5); c.nulls = P_A; list[k++] = c;
        c = base_case("arg 6: ldda = m - 1", -6); c.ldda = 3; list[k++] = c;
        c = base_case("arg 7: dd = NULL is legal (then queue NULL: -15)", -15);
        c.nulls = P_D | P_QUEUE; list[k++] = c;
        c = base_case("arg 8: dB = NULL", -8); c.nulls = P_B; list[k++] = c;
        c = base_case("arg 9: lddb = n - 1", -9); c.lddb = 5; list[k++] = c;
        c = base_case("arg 10: dC = NULL", -10); c.nulls = P_C; list[k++] = c;
        c = base_case("arg 11: lddc = m - 1", -11); c.lddc = 3; list[k++] = c;
        c = base_case("arg 12: dY = NULL", -12); c.nulls = P_Y; list[k++] = c;
        c = base_case("arg 13: lddy = m - 1", -13); c.lddy = 3; list[k++] = c;
        c = base_case("arg 14: info = NULL", -14); c.nulls = P_INFO; list[k++] = c;
        c = base_case("arg 15: queue = NULL", -15); c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("uplo 'u' is legal (queue NULL: -15)", -15); c.uplo = 'u';
        c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("m = 0: dA, dC, dY NULL, ldda = lddc = lddy = 1 legal", -15);
        c.m = 0; c.ldda = c.lddc = c.lddy = 1; c.nulls = P_A | P_C | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("n = 0: dA, dd, dB NULL, lddb = 1 legal", -15);
        c.n = 0; c.lddb = 1; c.nulls = P_A | P_D | P_B | P_QUEUE; list[k++] = c;
        c = base_case("nrhs = 0: dB, dY NULL legal", -15);
        c.nrhs = 0; c.nulls = P_B | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("m = 0, ldda = 0 < max(1, m)", -6); c.m = 0; c.ldda = 0; list[k++] = c;
        c = base_case("n = 0, lddb = 0 < max(1, n)", -9); c.n = 0; c.lddb = 0; list[k++] = c;
        c = base_case("m = 0, lddc = 0 < max(1, m)", -11); c.m = 0; c.ldda = 1; c.lddc = 0;
        c.lddy = 1; list[k++] = c;
        c = base_case("m = 0, lddy = 0 < max(1, m)", -13); c.m = 0; c.ldda = 1; c.lddc = 1;
        c.lddy = 0; list[k++] = c;
        c = base_case("order: m = -1 and queue NULL", -2); c.m = -1; c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("order: lddc = m - 1 and info NULL", -11); c.lddc = 3; c.nulls = P_INFO;
        list[k++] = c;
        c = base_case("order: dA NULL, ldda bad, dY NULL", -5); c.ldda = 1;
        c.nulls = P_A | P_Y; list[k++] = c;
        c = base_case("quick return m = 0 (dA, dC, dY NULL)", 0);
        c.m = 0; c.ldda = c.lddc = c.lddy = 1; c.nulls = P_A | P_C | P_Y; list[k++] = c;
        c = base_case("quick return m = 0, n = 0, nrhs = 0 (all NULL)", 0);
        c.m = c.n = c.nrhs = 0; c.ldda = c.lddb = c.lddc = c.lddy = 1;
        c.nulls = P_A | P_D | P_B | P_C | P_Y; list[k++] = c;
        for (int i = 0; i < k; i++) run_argcase((form_t)f, &list[i]);
    }
    /* the RFP forms: transr first and no lddc, so arguments 2-11 are the
     * full forms' 1-10 */
    for (int f = F_DWLS_RFP; f <= F_SWLS_RFP; f++) {
        argcase_t list[32];
        int k = 0;
        argcase_t c;
        c = base_case("arg 1: transr = 'C'", -1); c.transr = 'C'; list[k++] = c;
        c = base_case("arg 2: uplo = 'X'", -2); c.uplo = 'X'; list[k++] = c;
        c = base_case("arg 3: m = -1", -3); c.m = -1; list[k++] = c;
        c = base_case("arg 4: n = -1", -4); c.n = -1; list[k++] = c;
        c = base_case("arg 5: nrhs = -1", -5); c.nrhs = -1; list[k++] = c;
        c = base_case("arg 6: dA = NULL", -6); c.nulls = P_A; list[k++] = c;
        c = base_case("arg 7: ldda = m - 1", -7); c.ldda = 3; list[k++] = c;
        c = base_case("arg 8: dd = NULL is legal (then queue NULL: -15)", -15);
        c.nulls = P_D | P_QUEUE; list[k++] = c;
        c = base_case("arg 9: dB = NULL", -9); c.nulls = P_B; list[k++] = c;
        c = base_case("arg 10: lddb = n - 1", -10); c.lddb = 5; list[k++] = c;
        c = base_case("arg 11: dC = NULL", -11); c.nulls = P_C; list[k++] = c;
        c = base_case("arg 12: dY = NULL", -12); c.nulls = P_Y; list[k++] = c;
        c = base_case("arg 13: lddy = m - 1", -13); c.lddy = 3; list[k++] = c;
        c = base_case("arg 14: info = NULL", -14); c.nulls = P_INFO; list[k++] = c;
        c = base_case("arg 15: queue = NULL", -15); c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("transr 't', uplo 'u' legal (queue NULL: -15)", -15); c.transr = 't';
        c.uplo = 'u'; c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("lddc is not an argument: 0 ignored (queue NULL: -15)", -15); c.lddc = 0;
        c.nulls = P_QUEUE; list[k++] = c;
        c = base_case("m = 0: dA, dC, dY NULL, ldda = lddy = 1 legal", -15);
        c.m = 0; c.ldda = c.lddy = 1; c.nulls = P_A | P_C | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("nrhs = 0: dB, dY NULL legal", -15);
        c.nrhs = 0; c.nulls = P_B | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("order: transr bad and m = -1", -1); c.transr = 'X'; c.m = -1; list[k++] = c;
        c = base_case("order: dC NULL and lddy bad", -11); c.nulls = P_C; c.lddy = 3; list[k++] = c;
        c = base_case("quick return m = 0, n = 0, nrhs = 0 (all NULL)", 0);
        c.m = c.n = c.nrhs = 0; c.ldda = c.lddb = c.lddy = 1;
        c.nulls = P_A | P_D | P_B | P_C | P_Y; list[k++] = c;
        for (int i = 0; i < k; i++) run_argcase((form_t)f, &list[i]);
    }
    for (int f = F_DSWLS; f <= F_DSWLS_X; f++) {
        const int x = f == F_DSWLS_X; /* expert: opts is arg 13, queue 14 */
        const int64_t qarg = x ? -14 : -13;
        argcase_t list[48]; /* 34 for the expert form */
        int k = 0;
        argcase_t c;
        c = base_case("arg 1: m = -1", -1); c.m = -1; list[k++] = c;
        c = base_case("arg 2: n = -1", -2); c.n = -1; list[k++] = c;
        c = base_case("arg 3: nrhs = -1", -3); c.nrhs = -1; list[k++] = c;
        c = base_case("arg 4: dA = NULL", -4); c.nulls = P_A; list[k++] = c;
        c = base_case("arg 5: ldda = m - 1", -5); c.ldda = 3; list[k++] = c;
        c = base_case("arg 6: dd = NULL is legal (then queue NULL)", qarg);
        c.nulls = P_D | P_QUEUE; list[k++] = c;
        c = base_case("arg 7: dB = NULL", -7); c.nulls = P_B; list[k++] = c;
        c = base_case("arg 8: lddb = n - 1", -8); c.lddb = 5; list[k++] = c;
        c = base_case("arg 9: dY = NULL", -9); c.nulls = P_Y; list[k++] = c;
        c = base_case("arg 10: lddy = m - 1", -10); c.lddy = 3; list[k++] = c;
        c = base_case("arg 11: iter = NULL", -11); c.nulls = P_ITER; list[k++] = c;
        c = base_case("arg 12: info = NULL", -12); c.nulls = P_INFO; list[k++] = c;
        c = base_case(x ? "arg 14: queue = NULL" : "arg 13: queue = NULL", qarg);
        c.nulls = P_QUEUE; list[k++] = c;
        if (x) {
            c = base_case("arg 13: opts->products = 7", -13); c.bad_opts = BAD_OPTS_PRODUCTS;
            list[k++] = c;
            c = base_case("arg 13: opts->products = BF16 + 1", -13);
            c.bad_opts = BAD_OPTS_PRODUCTS_4; list[k++] = c;
            c = base_case("arg 13: products FP16 is legal (queue NULL: -14)", -14);
            c.bad_opts = OPTS_FP16; c.nulls = P_QUEUE; list[k++] = c;
            c = base_case("arg 13: products BF16 is legal (queue NULL: -14)", -14);
            c.bad_opts = OPTS_BF16; c.nulls = P_QUEUE; list[k++] = c;
            c = base_case("products FP16, quick return m = 0", 0);
            c.bad_opts = OPTS_FP16; c.m = 0; c.ldda = c.lddy = 1; list[k++] = c;
            c = base_case("arg 13: opts->trace set", -13); c.bad_opts = BAD_OPTS_TRACE;
            list[k++] = c;
            c = base_case("arg 13: opts = NULL is legal (queue NULL: -14)", -14);
            c.nulls = P_OPTS | P_QUEUE; list[k++] = c;
            c = base_case("order: opts->trace set and queue NULL", -13);
            c.bad_opts = BAD_OPTS_TRACE; c.nulls = P_QUEUE; list[k++] = c;
        }
        c = base_case("m = 0: dA, dY NULL, ldda = lddy = 1 legal", qarg);
        c.m = 0; c.ldda = c.lddy = 1; c.nulls = P_A | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("n = 0: dA, dd, dB NULL, lddb = 1 legal", qarg);
        c.n = 0; c.lddb = 1; c.nulls = P_A | P_D | P_B | P_QUEUE; list[k++] = c;
        c = base_case("nrhs = 0: dB, dY NULL legal", qarg);
        c.nrhs = 0; c.nulls = P_B | P_Y | P_QUEUE; list[k++] = c;
        c = base_case("m = 0, ldda = 0 < max(1, m)", -5); c.m = 0; c.ldda = 0; c.lddy = 1;
        list[k++] = c;
        c = base_case("n = 0, lddb = 0 < max(1, n)", -8); c.n = 0; c.lddb = 0; list[k++] = c;
        c = base_case("m = 0, lddy = 0 < max(1, m)", -10); c.m = 0; c.ldda = 1; c.lddy = 0;
        list[k++] = c;
        c = base_case("order: n = -1 and iter NULL", -2); c.n = -1; c.nulls = P_ITER;
        list[k++] = c;
        c = base_case("order: lddy = m - 1 and info NULL", -10); c.lddy = 3; c.nulls = P_INFO;
        list[k++] = c;
        c = base_case("quick return m = 0 (dA, dY NULL)", 0);
        c.m = 0; c.ldda = c.lddy = 1; c.nulls = P_A | P_Y; list[k++] = c;
        c = base_case("quick return nrhs = 0 (dB, dY NULL)", 0);
        c.nrhs = 0; c.nulls = P_B | P_Y; list[k++] = c;
        c = base_case("quick return m = 0, n = 0, nrhs = 0 (all NULL)", 0);
        c.m = c.n = c.nrhs = 0; c.ldda = c.lddb = c.lddy = 1;
        c.nulls = P_A | P_D | P_B | P_Y; list[k++] = c;
        if (x) {
            c = base_case("quick return nrhs = 0, opts NULL", 0);
            c.nrhs = 0; c.nulls = P_B | P_Y | P_OPTS; list[k++] = c;
        }
        for (int i = 0; i < k; i++) run_argcase((form_t)f, &list[i]);
    }
}

#endif
