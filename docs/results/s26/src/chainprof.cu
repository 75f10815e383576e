// Chain-step profile of the one-kernel tiled Cholesky, session 26: the twelfth session's harness
// (docs/results/s12/src/chainprof.cu, its run<T>()) with a main that profiles both triangles at
// n = 1024 and 2048, two rounds.
// nvcc -DGCHOL_TILED_PROFILE=20000 -Ikernels -Iinclude ... docs/results/s26/src/chainprof.cu
#define main chainprof_s12_main
#include "../../s12/src/chainprof.cu"
#undef main
int main()
{
    // warm the clocks
    { double *x; CK(cudaMalloc(&x, 1 << 28)); for (int i = 0; i < 200; i++) CK(cudaMemset(x, i, 1 << 28)); CK(cudaDeviceSynchronize()); cudaFree(x); }
    for (int n : {1024, 2048})
        for (int r = 0; r < 2; ++r) {
            run<double>(n, n, 'd', 0, true); run<double>(n, n, 'd', 1, true);
            run<float>(n, n, 's', 0, true); run<float>(n, n, 's', 1, true);
        }
    return 0;
}
