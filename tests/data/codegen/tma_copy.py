# Codegen checks for TMA (spec TC §5.3): the tensor maps are __grid_constant__ CUtensorMap
# parameters after the script's, one per distinct (tensor, box, swizzle); a load passes the shared
# destination and the mbarrier as 32-bit shared addresses and the coordinates as .s32, innermost
# first; a store puts the tensor map first. ptxas turns them into UTMALDG / UTMASTG.
# CHECK: typedef struct alignas(64) CUtensorMap_st { unsigned long long opaque[16]; } CUtensorMap;
# CHECK: tma_copy(unsigned short* __restrict__ A, unsigned short* __restrict__ B, int row, const __grid_constant__ CUtensorMap tirx_tmap0, const __grid_constant__ CUtensorMap tirx_tmap1) {
# CHECK: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"((unsigned)__cvta_generic_to_shared(&As[0])), "l"(&tirx_tmap0), "r"((int)(0)), "r"((int)(row)), "r"((unsigned)__cvta_generic_to_shared(&bar[0])) : "memory");
# CHECK: asm volatile("cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"((unsigned)__cvta_generic_to_shared(&As[2048])), "l"(&tirx_tmap0), "r"((int)(0)), "r"((int)(tirx_wadd(row, 32))), "r"((unsigned)__cvta_generic_to_shared(&bar[1])) : "memory");
# CHECK: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tirx_tmap1), "r"((int)(0)), "r"((int)(32)), "r"((unsigned)__cvta_generic_to_shared(&As[2048])) : "memory");
# CHECK-NOT: tirx_tmap2
# CHECK-PTX-COUNT-2: cp.async.bulk.tensor.2d.shared::
# CHECK-PTX-COUNT-1: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, ComposeLayout

SW128 = ComposeLayout(3, 3, 3, TileLayout(S[64, 64]))


@T.function
def tma_copy(A: T.Tensor((128, 64), "float16"), B: T.Tensor((64, 64), "float16"), row: T.int32):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=128))
    As = T.alloc_shared((64, 64), "float16", layout=SW128, align=1024)
    bar = T.alloc_shared((2,), "uint64")
    if T.cuda.thread_idx("x") == 0:
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"], As[0:32, 0:64], A, box=[32, 64], coords=[row, 0], mbar=bar.ptr_to([0]), swizzle=3)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"], As[32:64, 0:64], A, box=[32, 64], coords=[row + 32, 0], mbar=bar.ptr_to([1]), swizzle=3)
        T.cuda.tile.apply(T.ptx["cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"], B, As[32:64, 0:64], box=[32, 64], coords=[32, 0], swizzle=3)
