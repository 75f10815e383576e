/* Run-to-run spread of the staged host interface: 9 factorizations of the same
 * pageable matrix per thread count, each wall time printed; host memcpy of the
 * same bytes for reference. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gchol.h"
static double now(void){ struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec + 1e-9*t.tv_nsec; }
static int cmp(const void*a,const void*b){ double x=*(const double*)a,y=*(const double*)b; return x<y?-1:x>y; }
int main(int argc, char **argv){
  int64_t n = argc > 1 ? atoll(argv[1]) : 16384; size_t N=(size_t)n*n;
  double *A0 = malloc(N*8), *A = malloc(N*8);
  unsigned s=1; for (size_t i=0;i<N;i++){ s = s*1664525u+1013904223u; A0[i] = (s>>8)/16777216.0-0.5; }
  for (int64_t j=0;j<n;j++){ for(int64_t i=0;i<j;i++) A0[i+j*n]=A0[j+i*n]; A0[j+j*n]+=n; }
  memcpy(A, A0, N*8);
  double t[9];
  for (int r=0;r<9;r++){ double t0=now(); memcpy(A, A0, N*8); t[r]=now()-t0; }
  qsort(t,9,8,cmp); printf("host memcpy %.2f GB: min %.1f med %.1f max %.1f ms\n", N*8/1e9, t[0]*1e3, t[4]*1e3, t[8]*1e3);
  for (int a=2; a<argc; ++a) {
    setenv("GCHOL_HOST_THREADS", argv[a], 1);
    gchol_queue_t q; if (gchol_queue_create(0, &q)) { printf("queue failed\n"); return 1; }
    int64_t info=0; memcpy(A, A0, N*8); gchol_dpotrf_expert('L', n, A, n, &info, NULL, q); /* warm: stager, workspace */
    printf("threads %s:", argv[a]);
    for (int r=0;r<9;r++){ memcpy(A, A0, N*8); double t0=now(); int64_t st=gchol_dpotrf_expert('L', n, A, n, &info, NULL, q); t[r]=now()-t0; if (st||info) printf(" [st %lld info %lld]", (long long)st, (long long)info); printf(" %.1f", t[r]*1e3); }
    qsort(t,9,8,cmp); printf(" | min %.1f med %.1f max %.1f ms\n", t[0]*1e3, t[4]*1e3, t[8]*1e3);
    gchol_queue_destroy(q);
  }
  return 0; }
