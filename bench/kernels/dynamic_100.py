# 100 kernels with dynamic shapes for bench_check (docs/benchmarks.md, "Front end with dynamic
# shapes"): symbolic extents from T.dynamic and from int parameters, grids computed from them,
# guards, cta-scope tiles on regions with static extents, and shared-memory reductions. Generated
# once (25 groups of the same four kernel shapes with different constants); checks clean.
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout, laneid, warpid

n = T.dynamic("n")
reg = TileLayout(S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)])


@T.function
def add_0(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    i = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(1) + b[i]


@T.function
def relu_rows_0(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(0), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_0(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(0.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_0(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_1(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(2) + b[i]


@T.function
def relu_rows_1(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-1), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_1(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(1.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_1(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_2(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 256), block=256))
    i = T.cuda.block_idx("x") * 256 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(3) + b[i]


@T.function
def relu_rows_2(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-2), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_2(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(2.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_2(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_3(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    i = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(4) + b[i]


@T.function
def relu_rows_3(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-3), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_3(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(3.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_3(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_4(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(5) + b[i]


@T.function
def relu_rows_4(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-4), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_4(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(4.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_4(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_5(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 256), block=256))
    i = T.cuda.block_idx("x") * 256 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(6) + b[i]


@T.function
def relu_rows_5(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-5), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_5(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(5.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_5(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_6(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    i = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(7) + b[i]


@T.function
def relu_rows_6(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-6), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_6(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(6.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_6(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_7(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(8) + b[i]


@T.function
def relu_rows_7(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-7), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_7(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(7.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_7(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_8(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 256), block=256))
    i = T.cuda.block_idx("x") * 256 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(9) + b[i]


@T.function
def relu_rows_8(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-8), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_8(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(8.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_8(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_9(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    i = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(10) + b[i]


@T.function
def relu_rows_9(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-9), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_9(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(9.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_9(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_10(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(11) + b[i]


@T.function
def relu_rows_10(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-10), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_10(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(10.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_10(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_11(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 256), block=256))
    i = T.cuda.block_idx("x") * 256 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(12) + b[i]


@T.function
def relu_rows_11(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-11), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_11(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(11.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_11(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_12(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    i = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(13) + b[i]


@T.function
def relu_rows_12(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-12), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_12(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(12.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_12(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_13(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(14) + b[i]


@T.function
def relu_rows_13(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-13), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_13(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(13.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_13(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_14(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 256), block=256))
    i = T.cuda.block_idx("x") * 256 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(15) + b[i]


@T.function
def relu_rows_14(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-14), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_14(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(14.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_14(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_15(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    i = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(16) + b[i]


@T.function
def relu_rows_15(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-15), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_15(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(15.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_15(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_16(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(17) + b[i]


@T.function
def relu_rows_16(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-16), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_16(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(16.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_16(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_17(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 256), block=256))
    i = T.cuda.block_idx("x") * 256 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(18) + b[i]


@T.function
def relu_rows_17(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-17), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_17(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(17.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_17(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_18(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    i = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(19) + b[i]


@T.function
def relu_rows_18(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-18), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_18(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(18.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_18(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_19(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(20) + b[i]


@T.function
def relu_rows_19(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-19), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_19(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(19.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_19(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_20(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 256), block=256))
    i = T.cuda.block_idx("x") * 256 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(21) + b[i]


@T.function
def relu_rows_20(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-20), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_20(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(20.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_20(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_21(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    i = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(22) + b[i]


@T.function
def relu_rows_21(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-21), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_21(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(21.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_21(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_22(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(23) + b[i]


@T.function
def relu_rows_22(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-22), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_22(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(22.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_22(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_23(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 256), block=256))
    i = T.cuda.block_idx("x") * 256 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(24) + b[i]


@T.function
def relu_rows_23(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-23), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_23(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(23.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_23(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]


@T.function
def add_24(a: T.Tensor((n,), "float32"), b: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 64), block=64))
    i = T.cuda.block_idx("x") * 64 + T.cuda.thread_idx("x")
    if i < n:
        c[i] = a[i] * T.float32(25) + b[i]


@T.function
def relu_rows_24(rows: T.int32, A: T.Tensor((rows, 32, 4), "float32"), B: T.Tensor((rows, 32, 4), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(rows, 2), block=64))
    bx = T.cuda.block_idx("x")
    R = T.alloc_local((2, 32, 4), "float32", layout=reg)
    if bx * 2 + 2 <= rows:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, A[bx * 2 : bx * 2 + 2, :, :], scope="cta")
        s = R.view(2, 32, 4, 1)
        T.cuda.tile.apply(T.ptx["max.f32"], s, s, T.float32(-24), scope="cta")
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], B[bx * 2 : bx * 2 + 2, :, :], R, scope="cta")


@T.function
def vec4_24(a: T.Tensor((n,), "float32"), c: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 512), block=128))
    i = T.cuda.block_idx("x") * 128 + T.cuda.thread_idx("x")
    R = T.alloc_local((4,), "float32")
    if i * 4 + 4 <= n:
        T.cuda.tile.apply(T.ptx["ld.global.v4.b32"], R, a[i * 4 : i * 4 + 4])
        T.cuda.tile.apply(T.ptx["mul.f32"], R.view(4, 1), R.view(4, 1), T.float32(24.5))
        T.cuda.tile.apply(T.ptx["st.global.v4.b32"], c[i * 4 : i * 4 + 4], R)


@T.function
def block_sum_24(x: T.Tensor((n,), "float32"), sums: T.Tensor((n,), "float32")):
    T.device_entry(launch=T.cuda.LaunchConfig(grid=T.ceildiv(n, 128), block=128))
    tx = T.cuda.thread_idx("x")
    i = T.cuda.block_idx("x") * 128 + tx
    part = T.alloc_shared((128,), "float32")
    part[tx] = T.float32(0)
    if i < n:
        part[tx] = x[i]
    T.cuda.cta_sync()
    stride = 64
    while stride > 0:
        if tx < stride:
            part[tx] = part[tx] + part[tx + stride]
        T.cuda.cta_sync()
        stride = stride // 2
    if tx == 0:
        sums[T.cuda.block_idx("x")] = part[0]
