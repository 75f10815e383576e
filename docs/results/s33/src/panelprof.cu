// Session 33: where a worker item's time goes when the tiled kernel factors a panel (the
// blocked driver's block column: h rows, ncols columns), alone on the GPU. Per item,
// %globaltimer stamps (GCHOL_TILED_PROFILE): 0 item decoded, 1 update loop done (C landed),
// 2 U(tj) landed (solve items; with the cp.async form also the subtraction), 3 product by U
// done, 4 published; slot 5 the block. Per block the gap between an item's publish and the
// next item's stamp 0 is the ticket and the item's decode.
// nvcc -DGCHOL_TILED_PROFILE=140000 -I<dir of potrf_tiled.cu> -Ikernels -Iinclude ... panelprof.cu
#include "potrf_tiled.cu"
#include <cstdio>
#include <vector>
#include <algorithm>
#include <map>
/* the kernel's worker_item, on the host */
static void item_of(int t, int nt, int &ti, int &tj, int &col, ItemKind &kind) {
  int i0 = 0, j = 0; const int u = t + 2;
  while (j + 1 < nt && (j + 1) * nt - (j + 1) * j / 2 <= u) ++j;
  col = j; i0 = j + (u - (j * nt - j * (j - 1) / 2));
  const int p = i0 - col;
  kind = p == 0 ? kPanelItem : p == 1 ? kDiagItem : kSolveItem;
  ti = p <= 1 ? col + 1 : col + p; tj = p == 1 ? col + 1 : col;
}
#define CK(x) do{cudaError_t e=(cudaError_t)(x); if(e){printf("%s:%d %s\n",__FILE__,__LINE__,cudaGetErrorString(e)); exit(1);} }while(0)
template <typename T> void run(int h, int ncols, const char *tag) {
  size_t N=(size_t)h*h; std::vector<T> a(N);
  srand(1); for(size_t i=0;i<N;i++) a[i]=(T)(rand()/(double)RAND_MAX*2-1);
  for(int j=0;j<h;j++) for(int i=0;i<j;i++) a[i+(size_t)j*h]=a[j+(size_t)i*h];
  for(int i=0;i<h;i++) a[i+(size_t)i*h]+=h;
  T *dA0,*dA; int64_t *di; int *ds; void *dw; CK(cudaMalloc(&dA0,N*sizeof(T))); CK(cudaMalloc(&dA,N*sizeof(T)));
  CK(cudaMalloc(&di,8)); CK(cudaMalloc(&ds,GCHOL_TILED_SYNC_WORDS*4)); CK(cudaMalloc(&dw,GCHOL_TILED_WORK_ELEMS*8));
  CK(cudaMemcpy(dA0,a.data(),N*sizeof(T),cudaMemcpyHostToDevice));
  cudaEvent_t e0,e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<float> ts;
  for(int it=0;it<12;it++){
    CK(cudaMemcpy(dA,dA0,N*sizeof(T),cudaMemcpyDeviceToDevice)); CK(cudaMemset(di,0,8));
    cudaEventRecord(e0); CK(potrf_tiled_launch<T>(h,ncols,dA,h,0,0,di,ds,(T*)dw,0)); cudaEventRecord(e1);
    CK(cudaEventSynchronize(e1)); float ms; cudaEventElapsedTime(&ms,e0,e1); if (it >= 2) ts.push_back(ms);
  }
  int64_t info; CK(cudaMemcpy(&info,di,8,cudaMemcpyDeviceToHost));
  std::sort(ts.begin(),ts.end());
  const int nt=(h+63)/64, ntc=ncols/64, total=worker_items(nt,ntc);
  std::vector<unsigned long long> p((size_t)total*6);
  CK(cudaMemcpyFromSymbol(p.data(), g_tiled_prof, sizeof(unsigned long long)*6*total));
  unsigned long long t0=~0ull, t1=0;
  for(int t=0;t<total;t++) if (p[t*6]) { t0=std::min(t0,p[t*6]); t1=std::max(t1,p[t*6+4]); }
  auto us=[&](int t,int ph){ return (p[t*6+ph]-t0)/1000.0; };
  double upd=0,uw=0,prod=0,pub=0,item=0; int ns=0; double upd_k[64]={0}; int cnt_k[64]={0};
  std::map<int,std::vector<int>> byblock;
  for(int t=0;t<total;t++){
    if (!p[t*6]) continue;
    byblock[(int)p[t*6+5]].push_back(t);
    int ti,tj,col; ItemKind kind; item_of(t,nt,ti,tj,col,kind);
    if (kind!=kSolveItem) continue;
    upd+=us(t,1)-us(t,0); uw+=us(t,2)-us(t,1); prod+=us(t,3)-us(t,2); pub+=us(t,4)-us(t,3); item+=us(t,4)-us(t,0); ns++;
    if (col<64){ upd_k[col]+=us(t,1)-us(t,0); cnt_k[col]++; }
  }
  double busy=0,gap=0; int ngap=0;
  for(auto &kv:byblock){ auto &v=kv.second; std::sort(v.begin(),v.end(),[&](int x,int y){return p[x*6]<p[y*6];});
    for(size_t i=0;i<v.size();i++){ busy+=us(v[i],4)-us(v[i],0); if(i){ gap+=us(v[i],0)-us(v[i-1],4); ngap++; } } }
  double span=(t1-t0)/1000.0;
  printf("%s h=%d ncols=%d: median %.4f ms (min %.4f) info %lld; %d items on %zu blocks, span %.1f us, items busy %.1f%% of blocks x span\n",
         tag,h,ncols,ts[ts.size()/2],ts[0],(long long)info,total,byblock.size(),span,100.0*busy/(byblock.size()*span));
  printf("   solve item avg (us): %.2f = update %.2f + U wait/copy %.2f + product %.2f + store/publish %.2f; gap between items %.2f\n",
         item/ns,upd/ns,uw/ns,prod/ns,pub/ns,ngap?gap/ngap:0.0);
  printf("   update by column (us, steps = column):");
  for(int k=0;k<ntc && k<64;k++) if(cnt_k[k]) printf(" %d:%.2f",k,upd_k[k]/cnt_k[k]);
  printf("\n");
  cudaFree(dA);cudaFree(dA0);cudaFree(di);cudaFree(ds);cudaFree(dw);
}
int main(int argc,char**argv){
  const char *tag = argc > 1 ? argv[1] : "";
  { double *x; CK(cudaMalloc(&x, 1<<28)); for (int i=0;i<200;i++) CK(cudaMemset(x, i, 1<<28)); CK(cudaDeviceSynchronize()); cudaFree(x); }
  for (int h : {16384, 8192, 4096}) run<double>(h, 512, tag);
  run<double>(16384, 1024, tag);
  return 0; }
