// Session 28: session 27's chain-step profile (below), and, with GCHOL_TILED_HELPER=0, the chain
// block alone's step in parts. Chain-step profile of the one-kernel tiled Cholesky with the chain
// block's helper (session 27):
// the twelfth session's harness (docs/results/s12/src/chainprof.cu, its run<T>() without its print)
// and, per step k >= 2, the chain block's and the helper's %globaltimer stamps:
//   chain  [total + k]:      0 panel ready (W(k) from the helper), 1 potf2 done, 2 published
//   helper [total + nt + k]: 0 P, W(k+1) loaded, 1 last eight columns done, 2 W(k+1) delivered, 3 L(k+1,k) published
// nvcc -DGCHOL_TILED_PROFILE=20000 -Ikernels -Iinclude ... docs/results/s27/src/chainprof.cu
#include <cstdlib>
#define main chainprof_s12_main
#include "../../s12/src/chainprof.cu"
#undef main
template <typename T> void profile(int n, char prec, int upper)
{
    run<T>(n, n, prec, upper, false);
    int nt = (n + 63) / 64, total = worker_items(nt);
    std::vector<unsigned long long> p((size_t)(total + 3 * nt) * 6);
    CK(cudaMemcpyFromSymbol(p.data(), g_tiled_prof, sizeof(unsigned long long) * 6 * (total + 3 * nt)));
    auto us = [&](int t, int ph) { return p[t * 6 + ph] / 1000.0; };
    const char *env = getenv("GCHOL_TILED_HELPER");
    if (env && env[0] == '0') { /* the chain block alone: stamps 1 before potf2, 2 after, 3 published */
        /* chain item k: 0 P, W put, 1 before potf2, 2 after, 3 published; its solve item nt + k:
         * 0 product, 1 X in shared memory, 2 X stored, 3 W -= X X^T done */
        double step = 0, potf2 = 0, post = 0, prod = 0, xsm = 0, xst = 0, upd = 0, ident = 0; int cnt = 0;
        for (int k = 2; k + 2 < nt; k++) {
            int c = total + k, s = total + nt + k;
            step += us(c + 1, 1) - us(c, 1); potf2 += us(c, 2) - us(c, 1); post += us(c + 1, 0) - us(c, 2);
            prod += us(s, 0) - us(c, 0); xsm += us(s, 1) - us(s, 0); xst += us(s, 2) - us(s, 1);
            upd += us(s, 3) - us(s, 2); ident += us(c, 1) - us(s, 3); cnt++;
        }
        printf("%c%c n=%d chain alone, avg over %d steps (us): step %.2f, potf2 %.2f; after potf2 to the next P, W put %.2f; "
               "product %.2f, X to shared %.2f, X stored %.2f, W -= X X^T %.2f, identity and publish %.2f\n",
               prec, upper ? 'U' : 'L', n, cnt, step / cnt, potf2 / cnt, post / cnt, prod / cnt, xsm / cnt, xst / cnt, upd / cnt, ident / cnt);
        return;
    }
    double step = 0, potf2 = 0, post = 0, wait = 0, hload = 0, hchunks = 0, hdeliver = 0, hpub = 0, p1s = 0, p1d = 0;
    int cnt = 0;
    double arr[6] = { 0 };
    for (int k = 2; k + 2 < nt; k++)
        for (int b = 0; b < 6; b++) arr[b] += us(total + 2 * nt + k, b) - us(total + k, 0);
    if (p[(size_t)(total + 2 * nt + 2) * 6] != 0) /* stamped only by call 6's kernel */
    printf("   columns 0-7, 8-15, 16-23, 32-39, 48-55, 56-63 seen by the helper (us after potf2 start): %.2f %.2f %.2f %.2f %.2f %.2f\n",
           arr[0] / (nt - 4), arr[1] / (nt - 4), arr[2] / (nt - 4), arr[3] / (nt - 4), arr[4] / (nt - 4), arr[5] / (nt - 4));
    for (int k = 2; k + 2 < nt; k++) {
        int c = total + k, h = total + nt + k;
        step += us(c + 1, 0) - us(c, 0); potf2 += us(c, 1) - us(c, 0); post += us(c, 2) - us(c, 1);
        wait += us(c + 1, 0) - us(c, 2); hload += us(h, 0) - us(c, 0); hchunks += us(h, 1) - us(c, 1);
        hdeliver += us(h, 2) - us(c, 1); hpub += us(h, 3) - us(c, 1); p1s += us(h, 4) - us(c, 1); p1d += us(h, 5) - us(h, 4); cnt++;
    }
    printf("%c%c n=%d helper profile, avg over %d steps (us): step %.2f = potf2 %.2f + stores/publish %.2f + wait %.2f | "
           "helper: P,W loaded %.2f after potf2 start; after potf2 end: chunks done %.2f, W delivered %.2f, L(k+1,k) published %.2f; first pass starts %.2f, lasts %.2f\n",
           prec, upper ? 'U' : 'L', n, cnt, step / cnt, potf2 / cnt, post / cnt, wait / cnt, hload / cnt, hchunks / cnt, hdeliver / cnt, hpub / cnt, p1s / cnt, p1d / cnt);
}
int main()
{
    { double *x; CK(cudaMalloc(&x, 1 << 28)); for (int i = 0; i < 200; i++) CK(cudaMemset(x, i, 1 << 28)); CK(cudaDeviceSynchronize()); cudaFree(x); }
    for (int n : {1024, 2048})
        for (int r = 0; r < 1; ++r) {
            profile<double>(n, 'd', 0); profile<double>(n, 'd', 1);
            profile<float>(n, 's', 0); profile<float>(n, 's', 1);
        }
    return 0;
}
