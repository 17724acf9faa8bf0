// The T.* builtins with signatures and one-line descriptions. The calls' shapes follow the
// checker's checkCallShape() calls (sema_kernel.cpp, sema_tensor.cpp, sema_tile.cpp, sema_expr.cpp,
// sema_warp.cpp); the asynchronous statements come from sema_async.cpp's own spelling table.
#include "core/sema/builtin_docs.h"

#include <algorithm>

#include "core/sema/sema_internal.h"

namespace tirx {

namespace {

std::vector<BuiltinDoc> makeDocs() {
  std::vector<BuiltinDoc> v = {
      {"T.function", "@T.function(private=False, check_well_formed=, persistent=)",
       "decorate a kernel (tensor parameters) or a private scalar function"},
      {"T.macro", "@T.macro(hygienic=True)",
       "decorate a module-level macro: its body is inlined at each statement-level call "
       "`name(args)` in a kernel (arguments: tiles, layouts, dtypes, constants, scalar "
       "expressions)"},
      {"T.Tensor", "T.Tensor(shape, dtype, align=, layout=, strides=, scope=, elem_offset=)",
       "a kernel parameter: a global tensor of static (or T.dynamic) shape"},
      {"T.device_entry",
       "T.device_entry(launch=T.cuda.LaunchConfig(...), kernel_attrs=, backend_config=)",
       "the kernel's launch: the first statement of a kernel"},
      {"T.cuda.LaunchConfig",
       "T.cuda.LaunchConfig(grid=, block=, cluster=, preferred_cluster=, dynamic_smem_bytes=, "
       "stream=, cooperative=, priority=)",
       "grid and block sizes (ints or tuples) of a launch"},
      {"T.alloc_local", "T.alloc_local(shape, dtype, scope=, align=, layout=, annotations=)",
       "a register tile; layout= gives each element's thread and register"},
      {"T.alloc_shared", "T.alloc_shared(shape, dtype, scope=, align=, layout=, annotations=)",
       "a shared-memory tile of the CTA (layout= may swizzle)"},
      {"T.cuda.tile.apply",
       "T.cuda.tile.apply(instruction, dst, *srcs, scope=, pred=, preserve_dst=, loc=, "
       "chunk_bytes=, src_size=, ignore_src=)",
       "apply a PTX instruction (T.ptx[\"...\"]) tile-wide: each thread issues it on its atoms"},
      {"T.cuda.tile.ewise", "T.cuda.tile.ewise(func, dst, *srcs, scope=, loc=)",
       "apply a scalar T.function element-wise over tiles of the same layout"},
      {"T.ptx", "T.ptx[\"opcode\"]",
       "a PTX instruction spelling from the supported table (docs/ptx.md)"},
      {"T.cuda.thread_idx", "T.cuda.thread_idx(\"x\")", "threadIdx.x / .y / .z"},
      {"T.cuda.block_idx", "T.cuda.block_idx(\"x\")", "blockIdx.x / .y / .z"},
      {"T.cuda.block_dim", "T.cuda.block_dim(\"x\")", "blockDim.x / .y / .z"},
      {"T.cuda.grid_dim", "T.cuda.grid_dim(\"x\")", "gridDim.x / .y / .z"},
      {"T.cuda.lane_id", "T.cuda.lane_id()", "the thread's lane in its warp (0–31)"},
      {"T.cuda.warp_id", "T.cuda.warp_id()", "the thread's warp in the CTA"},
      {"T.cuda.linear_thread_id", "T.cuda.linear_thread_id()",
       "the thread's linear index in the CTA"},
      {"T.cuda.cta_sync", "T.cuda.cta_sync()",
       "__syncthreads(): every thread of the CTA waits here"},
      {"T.cuda.warp_sync", "T.cuda.warp_sync()", "__syncwarp(): the threads of the warp wait here"},
      {"T.cuda.warpgroup_sync", "T.cuda.warpgroup_sync(id)",
       "bar.sync id, 128: the four warps of the thread's warpgroup wait here"},
      {"T.ptx.bar.sync", "T.ptx.bar.sync(id, count)",
       "bar.sync: wait at named barrier id (0..15) until count threads (a multiple of 32; none: "
       "the "
       "whole CTA) have arrived"},
      {"T.ptx.bar.arrive", "T.ptx.bar.arrive(id, count)",
       "bar.arrive: count this warp's threads at named barrier id without waiting (a producer's "
       "signal to bar.sync waiters)"},
      {"T.cuda.elect_sync", "T.cuda.elect_sync()",
       "true in one lane of the warp (elect.sync); all 32 lanes must execute it"},
      {"T.ptx.setmaxnreg", "T.ptx.setmaxnreg(inc, n)",
       "raise (inc=True) or lower (False) the warp's registers per thread to n: 24 to 256 in "
       "steps of 8 (sm_90a)"},
      {"T.cuda.__shfl_sync", "T.cuda.__shfl_sync(mask, value, src_lane, width=32)",
       "read `value` from lane `src_lane` of the warp"},
      {"T.cuda.__shfl_xor_sync", "T.cuda.__shfl_xor_sync(mask, value, lane_mask, width=32)",
       "read `value` from lane (lane ^ lane_mask)"},
      {"T.cuda.__shfl_up_sync", "T.cuda.__shfl_up_sync(mask, value, delta, width=32)",
       "read `value` from lane (lane - delta)"},
      {"T.cuda.__shfl_down_sync", "T.cuda.__shfl_down_sync(mask, value, delta, width=32)",
       "read `value` from lane (lane + delta)"},
      {"T.ComposeLayout", "T.ComposeLayout(swizzle, layout)",
       "a layout followed by a shared-memory swizzle"},
      {"T.serial", "T.serial(stop) / T.serial(start, stop, step=)",
       "a sequential loop (like range)"},
      {"T.unroll", "T.unroll(stop) / T.unroll(start, stop, step=)", "a loop unrolled by codegen"},
      {"T.exp", "T.exp(x)", "e to the power x"},
      {"T.exp2", "T.exp2(x)", "2 to the power x"},
      {"T.log", "T.log(x)", "natural logarithm"},
      {"T.log2", "T.log2(x)", "base-2 logarithm"},
      {"T.sqrt", "T.sqrt(x)", "square root"},
      {"T.rsqrt", "T.rsqrt(x)", "reciprocal square root, 1 / sqrt(x)"},
      {"T.tanh", "T.tanh(x)", "hyperbolic tangent"},
      {"T.sigmoid", "T.sigmoid(x)", "1 / (1 + exp(-x))"},
      {"T.abs", "T.abs(x)", "absolute value"},
      {"T.fabs", "T.fabs(x)", "absolute value of a float"},
      {"T.floor", "T.floor(x)", "round toward minus infinity"},
      {"T.ceil", "T.ceil(x)", "round toward plus infinity"},
      {"T.round", "T.round(x)", "round to nearest, ties to even"},
      {"T.sin", "T.sin(x)", "sine (radians)"},
      {"T.cos", "T.cos(x)", "cosine (radians)"},
      {"T.pow", "T.pow(x, y)", "x to the power y"},
      {"T.max", "T.max(a, b)", "the larger of two values"},
      {"T.min", "T.min(a, b)", "the smaller of two values"},
      {"T.if_then_else", "T.if_then_else(cond, a, b)", "a if cond else b, as one select"},
      {"T.ceildiv", "T.ceildiv(a, b)",
       "ceil(a / b), exact on integers (static or runtime, signed or unsigned)"},
      {"T.dynamic", "T.dynamic(\"name\", dtype=)",
       "a symbolic extent, bound from the call's arguments"},
      {"T.Cast", "T.Cast(dtype, x)", "convert x to dtype"},
      {"T.cast", "T.cast(x, dtype)", "convert x to dtype"},
      {"T.TileLayout", "T.TileLayout(S[shape : strides])",
       "a layout: logical shape onto threads and registers"},
      {"T.S", "T.S[(shape) : (strides)]",
       "the shape : stride part of a TileLayout (axes such as 1@laneid)"},
      {"T.R", "T.R[(shape) : (strides)]", "the replicated part of a TileLayout"},
  };
  struct DType {
    const char *name, *alias, *what;
  };
  const DType dtypes[] = {
      {"float32", "f32", "32-bit IEEE float"},      {"float16", "f16", "16-bit IEEE float"},
      {"bfloat16", "bf16", "16-bit brain float"},   {"float64", "f64", "64-bit IEEE float"},
      {"int8", "i8", "8-bit signed integer"},       {"int16", "i16", "16-bit signed integer"},
      {"int32", "i32", "32-bit signed integer"},    {"int64", "i64", "64-bit signed integer"},
      {"uint8", "u8", "8-bit unsigned integer"},    {"uint16", "u16", "16-bit unsigned integer"},
      {"uint32", "u32", "32-bit unsigned integer"}, {"uint64", "u64", "64-bit unsigned integer"},
  };
  for (const DType& d : dtypes) {
    v.push_back({std::string("T.") + d.name, std::string("T.") + d.name + "(x)",
                 std::string("the ") + d.what + " type; called, converts x"});
    v.push_back({std::string("T.") + d.alias, std::string("T.") + d.alias + "(x)",
                 std::string("short for T.") + d.name});
  }
  v.push_back({"T.bool", "T.bool(x)", "the boolean type; called, converts x"});
  for (sema::AsyncStatementDoc& a : sema::asyncStatementDocs())
    v.push_back({std::move(a.name), std::move(a.signature), std::move(a.doc)});
  std::sort(v.begin(), v.end(),
            [](const BuiltinDoc& a, const BuiltinDoc& b) { return a.name < b.name; });
  return v;
}

}  // namespace

const std::vector<BuiltinDoc>& builtinDocs() {
  static const std::vector<BuiltinDoc> docs = makeDocs();
  return docs;
}

const BuiltinDoc* findBuiltinDoc(std::string_view name) {
  const auto& docs = builtinDocs();
  auto it = std::lower_bound(docs.begin(), docs.end(), name,
                             [](const BuiltinDoc& d, std::string_view n) { return d.name < n; });
  return it != docs.end() && it->name == name ? &*it : nullptr;
}

const std::vector<std::string>& knownBuiltinNames() {
  return sema::knownBuiltins();
}

}  // namespace tirx
