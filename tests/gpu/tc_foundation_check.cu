// H200 check of the tensor-core foundation points that spec/tc-verify did not run (docs/decisions.md,
// "Tensor-core foundation"). Build and run on an sm_90a GPU (one group per process, as tc-verify):
//
//   nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a tests/gpu/tc_foundation_check.cu -o tcf
//   for t in ldsm wgmma; do ./tcf $t; done
//   ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum ./tcf banks
//
// Groups:
//  ldsm   ldmatrix .x1/.x2 with an invalid address in every lane PTX ignores (x1: 8-31, x2: 16-31):
//         no fault and the fragment map of core/ptx/fragments.cpp.
//  wgmma  m64n64k16 f16 SS with the descriptors tst_wgmma_descriptor derives: MN-major A and B
//         (imm-trans 1) without swizzle (LBO 1024, SBO 128) and with 128B swizzle (SBO 1024),
//         K-major 64B swizzle (K = 32, SBO 512, start + 32 B per k16) and 32B swizzle (SBO 256).
//  banks  LDS.64 / LDS.128 with every word live (bank.cu's were split into LDS.32 by ptxas), for
//         ncu; the bank model predicts the wavefronts printed beside each kernel name.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1);} } while (0)

__device__ __forceinline__ uint32_t s2u(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

static int g_fail = 0;
static void report(const char* name, long bad, long total) {
  printf("[%s] %s: %ld/%ld mismatches\n", bad ? "FAIL" : "PASS", name, bad, total);
  if (bad) g_fail++;
}

// ---------------- ldmatrix .x1 / .x2: ignored address lanes ----------------
template <int COUNT>
__global__ void k_ldsm_partial(uint32_t* out) {
  __shared__ alignas(128) uint16_t S[4][8][8];
  int l = threadIdx.x;
  for (int i = l; i < 256; i += 32) (&S[0][0][0])[i] = (uint16_t)i;  // 64 m + 8 r + c
  __syncwarp();
  // Lanes 8*COUNT.. give an address far outside the shared window.
  uint32_t addr = l < 8 * COUNT ? s2u(&S[l / 8][l % 8][0]) : 0xFFFFFFF0u;
  uint32_t r[4] = {0, 0, 0, 0};
  if (COUNT == 1)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
  for (int i = 0; i < 4; ++i) out[l * 4 + i] = r[i];
}

static void test_ldsm() {
  uint32_t* d; CK(cudaMalloc(&d, 512));
  for (int count : {1, 2}) {
    if (count == 1) k_ldsm_partial<1><<<1, 32>>>(d); else k_ldsm_partial<2><<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("[FAIL] ldmatrix.x%d with invalid ignored-lane addresses: %s\n", count, cudaGetErrorString(e)); g_fail++; exit(2); }
    uint32_t h[128]; CK(cudaMemcpy(h, d, 512, cudaMemcpyDeviceToHost));
    long bad = 0;
    for (int l = 0; l < 32; ++l) for (int i = 0; i < count; ++i) {
      uint32_t lo = i * 64 + (l / 4) * 8 + 2 * (l % 4), want = lo | ((lo + 1) << 16);  // ldmatrixSource
      bad += h[l * 4 + i] != want;
    }
    report(count == 1 ? "ldmatrix.x1, lanes 8-31 address 0xFFFFFFF0 (ignored)" : "ldmatrix.x2, lanes 16-31 address 0xFFFFFFF0 (ignored)", bad, 32 * count);
  }
  cudaFree(d);
}

// ---------------- wgmma descriptors: MN-major and 32B/64B K-major ----------------
__device__ __forceinline__ uint64_t make_desc(uint32_t saddr, uint32_t lbo, uint32_t sbo, uint32_t layout) {
  uint64_t d = 0;
  d |= (uint64_t)((saddr & 0x3FFFF) >> 4);
  d |= (uint64_t)((lbo & 0x3FFFF) >> 4) << 16;
  d |= (uint64_t)((sbo & 0x3FFFF) >> 4) << 32;
  d |= (uint64_t)layout << 62;
  return d;
}

#define D32 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}"
#define DOUT(d) "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])

template <int TRANS>
__device__ __forceinline__ void wgmma_ss(float* d, uint64_t da, uint64_t db, int scaleD) {
  if (TRANS)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " D32 ", %32, %33, p, 1, 1, 1, 1;\n}\n"
                 : DOUT(d) : "l"(da), "l"(db), "r"(scaleD));
  else
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " D32 ", %32, %33, p, 1, 1, 0, 0;\n}\n"
                 : DOUT(d) : "l"(da), "l"(db), "r"(scaleD));
}

struct Cfg {
  const char* name;
  int trans;          // 1: MN-major A and B
  int K;              // total K (k16 steps = K / 16)
  uint32_t lbo, sbo;  // bytes, as deriveWgmmaDescriptor gives them
  uint32_t mode;      // descriptor field: 0 none, 1 128B, 2 64B, 3 32B
  uint32_t kstep;     // start advance per k16 step, bytes
};

// Element offset (f16) of logical A[row][k] (or B[row][k]) in shared memory, per configuration.
static int placement(int cfg, int row, int k) {
  switch (cfg) {
    case 0: return (k / 8) * 512 + (k % 8) * 8 + (row / 8) * 64 + row % 8;  // MN none: S[(2,8,8,8):(512,8,64,1)] over (k, row)
    case 1: {  // MN 128B: ComposeLayout(3, 3, 3, S[16, 64]) over (k, row)
      int byte = (k * 64 + row) * 2;
      return (byte ^ (((byte >> 7) & 7) << 4)) / 2;
    }
    case 2: {  // K 64B, K = 32: ComposeLayout(3, 2, 3, S[64, 32]) over (row, k)
      int byte = (row * 32 + k) * 2;
      return (byte ^ (((byte >> 7) & 3) << 4)) / 2;
    }
    default: {  // K 32B, K = 16: ComposeLayout(3, 1, 3, S[64, 16]) over (row, k)
      int byte = (row * 16 + k) * 2;
      return (byte ^ (((byte >> 7) & 1) << 4)) / 2;
    }
  }
}

__global__ void k_wgmma(const __half* A, const __half* B, const int* offA, float* D, int K, int trans,
                        uint32_t lbo, uint32_t sbo, uint32_t mode, uint32_t kstep) {
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  uint8_t* base = smem_raw + ((1024 - (s2u(smem_raw) & 1023)) & 1023);
  __half* As = (__half*)base;
  __half* Bs = (__half*)(base + 8192);
  int tid = threadIdx.x;
  for (int i = tid; i < 64 * K; i += 128) {
    As[offA[i]] = A[i];
    Bs[offA[i]] = B[i];
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  float d[32];
  for (int i = 0; i < 32; ++i) d[i] = 0.f;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  uint32_t a0 = s2u(As), b0 = s2u(Bs);
  for (int kk = 0; kk < K / 16; ++kk) {
    uint64_t da = make_desc(a0 + kstep * kk, lbo, sbo, mode), db = make_desc(b0 + kstep * kk, lbo, sbo, mode);
    if (trans) wgmma_ss<1>(d, da, db, kk > 0); else wgmma_ss<0>(d, da, db, kk > 0);
  }
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  int w = tid / 32, l = tid % 32, g = l >> 2, t = l & 3;
  for (int i = 0; i < 32; ++i) D[(16 * w + g + 8 * ((i >> 1) & 1)) * 64 + 8 * (i >> 2) + 2 * t + (i & 1)] = d[i];
}

static void test_wgmma() {
  // MN-major: one k16 step; the start advance is unused. K-major 64B: K = 32 in two steps of 32 B.
  const Cfg cfgs[4] = {{"wgmma SS MN-major (trans 1) no swizzle, LBO 1024, SBO 128", 1, 16, 1024, 128, 0, 0},
                       {"wgmma SS MN-major (trans 1) 128B swizzle, SBO 1024", 1, 16, 0, 1024, 1, 0},
                       {"wgmma SS K-major 64B swizzle, K=32, SBO 512, start+32B per k16", 0, 32, 16, 512, 2, 32},
                       {"wgmma SS K-major 32B swizzle, K=16, SBO 256", 0, 16, 16, 256, 3, 32}};
  CK(cudaFuncSetAttribute(k_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, 17408));
  for (int c = 0; c < 4; ++c) {
    const Cfg& cfg = cfgs[c];
    const int K = cfg.K;
    std::vector<__half> A(64 * K), B(64 * K);
    std::vector<float> Af(64 * K), Bf(64 * K), D(64 * 64);
    std::vector<int> off(64 * K);
    srand(20 + c);
    for (int i = 0; i < 64 * K; ++i) {
      float a = (rand() % 5) - 2, b = (rand() % 5) - 2;
      A[i] = __float2half(a); Af[i] = a; B[i] = __float2half(b); Bf[i] = b;
      off[i] = placement(c, i / K, i % K);  // logical [row][k]
    }
    __half *dA, *dB; int* dOff; float* dD;
    CK(cudaMalloc(&dA, A.size() * 2)); CK(cudaMalloc(&dB, B.size() * 2)); CK(cudaMalloc(&dOff, off.size() * 4)); CK(cudaMalloc(&dD, 64 * 64 * 4));
    CK(cudaMemcpy(dA, A.data(), A.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B.data(), B.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dOff, off.data(), off.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dD, 0, 64 * 64 * 4));
    k_wgmma<<<1, 128, 17408>>>(dA, dB, dOff, dD, K, cfg.trans, cfg.lbo, cfg.sbo, cfg.mode, cfg.kstep);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("[FAIL] %s: CUDA error %s\n", cfg.name, cudaGetErrorString(e)); g_fail++; exit(2); }
    CK(cudaMemcpy(D.data(), dD, 64 * 64 * 4, cudaMemcpyDeviceToHost));
    long bad = 0; int shown = 0;
    for (int m = 0; m < 64; ++m) for (int n = 0; n < 64; ++n) {
      float r = 0;
      for (int k = 0; k < K; ++k) r += Af[m * K + k] * Bf[n * K + k];
      if (r != D[m * 64 + n]) { bad++; if (shown++ < 3) printf("    mismatch m=%d n=%d ref=%g got=%g\n", m, n, r, D[m * 64 + n]); }
    }
    report(cfg.name, bad, 64 * 64);
    cudaFree(dA); cudaFree(dB); cudaFree(dOff); cudaFree(dD);
  }
}

// ---------------- wide shared loads for ncu ----------------
__device__ __forceinline__ uint32_t off(int r, int c, int mode) {
  if (mode == 0) return r * 128 + c * 16;
  if (mode == 1) return r * 128 + ((c ^ (r % 8)) * 16);
  return r * 144 + c * 16;
}

// 16 B per lane, chunk 0 of row l: model predicts 32 / 4 / 4 wavefronts (quarter-warp phases).
template <int MODE>
__global__ void k_v4_col(uint32_t* out) {
  __shared__ alignas(1024) uint8_t S[64 * 144];
  int l = threadIdx.x;
  for (int i = l; i < 64 * 144 / 16; i += 32) ((uint4*)S)[i] = make_uint4(i, i + 1, i + 2, i + 3);
  __syncwarp();
  uint32_t x, y, z, w;
  asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(s2u(S + off(l, 0, MODE))));
  out[l] = x ^ (y << 1) ^ (z << 2) ^ (w << 3);
}

// 16 B per lane, consecutive (lane l at 16 l): model 4.
__global__ void k_v4_rows(uint32_t* out) {
  __shared__ alignas(1024) uint8_t S[64 * 144];
  int l = threadIdx.x;
  for (int i = l; i < 64 * 144 / 16; i += 32) ((uint4*)S)[i] = make_uint4(i, i + 1, i + 2, i + 3);
  __syncwarp();
  uint32_t x, y, z, w;
  asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(s2u(S + 16 * l)));
  out[l] = x ^ (y << 1) ^ (z << 2) ^ (w << 3);
}

// 8 B per lane, first 8 bytes of chunk 0 of row l: model 32 / 4 / 4 (half-warp phases, 16 lanes:
// mode 0 16-way per phase; modes 1 and 2 two rows per bank pair in a phase -> 2 each).
template <int MODE>
__global__ void k_v2_col(uint32_t* out) {
  __shared__ alignas(1024) uint8_t S[64 * 144];
  int l = threadIdx.x;
  for (int i = l; i < 64 * 144 / 16; i += 32) ((uint4*)S)[i] = make_uint4(i, i + 1, i + 2, i + 3);
  __syncwarp();
  uint32_t x, y;
  asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "r"(s2u(S + off(l, 0, MODE))));
  out[l] = x ^ (y << 1);
}

static void test_banks() {
  uint32_t* d; CK(cudaMalloc(&d, 128));
  printf("bank model predictions: k_v4_col<0> 32, <1> 4, <2> 4; k_v4_rows 4; k_v2_col<0> 32, <1> 4, <2> 4\n");
  k_v4_col<0><<<1, 32>>>(d); k_v4_col<1><<<1, 32>>>(d); k_v4_col<2><<<1, 32>>>(d);
  k_v4_rows<<<1, 32>>>(d);
  k_v2_col<0><<<1, 32>>>(d); k_v2_col<1><<<1, 32>>>(d); k_v2_col<2><<<1, 32>>>(d);
  CK(cudaDeviceSynchronize());
  cudaFree(d);
}

int main(int argc, char** argv) {
  const char* w = argc > 1 ? argv[1] : "all";
  auto on = [&](const char* n) { return !strcmp(w, "all") || !strcmp(w, n); };
  if (on("ldsm")) test_ldsm();
  if (on("wgmma")) test_wgmma();
  if (on("banks")) test_banks();
  printf("TOTAL FAILED GROUPS: %d\n", g_fail);
  return g_fail ? 1 : 0;
}
