// Prints the libFuzzer dictionary of the TIRx script language (docs/testing.md): the Python
// subset's keywords and operators, the TIRx names (T.*), layout syntax, the harness's numpy/torch
// names, and every PTX family name and qualifier of the instruction table, so that a mutation can
// insert a whole token (".satfinite", "@laneid", "T.cuda.tile.ewise(") instead of byte by byte.
// The PTX part comes from core/ptx, so the dictionary follows the table as it grows.
#include <cstdio>
#include <set>
#include <string>
#include <string_view>

#include "core/ptx/ptx_rows.h"
#include "core/ptx/ptx_table.h"

namespace {

const char* const kLanguage[] = {
    // Python subset
    "def ",
    "return ",
    "for ",
    " in ",
    "range(",
    "if ",
    "elif ",
    "else:",
    "while ",
    "break",
    "continue",
    "pass",
    "import ",
    "from ",
    " as ",
    "lambda",
    "True",
    "False",
    "None",
    " and ",
    " or ",
    "not ",
    "assert ",
    "with ",
    "print(",
    "int(",
    "float(",
    "len(",
    "**",
    "//",
    "%",
    "<<",
    ">>",
    "+=",
    "-=",
    "*=",
    "/=",
    "//=",
    "%=",
    "==",
    "!=",
    "<=",
    ">=",
    "->",
    ":",
    "\n    ",
    "[:, ",
    "::",
    "...",
    "0x",
    "1e-10",
    "-0.0",
    "inf",
    "nan",
    "2147483648",
    "9223372036854775807",
    "-9223372036854775808",
    "4294967296",
    // f-strings and string formatting
    "f\"",
    "f'",
    "rf\"",
    "f\"\"\"",
    "{x}",
    "{x!r}",
    "{x=}",
    ":>8}",
    ":.3f}",
    ":{w}.{p}}",
    ":,}",
    ":#x}",
    "{{",
    "}}",
    ".format(",
    "format(",
    "repr(",
    // imports and decorators
    "from tvm.script import tirx as T\n",
    "from tvm.backend.cuda.axis import laneid, warpid\n",
    "from tvm.tirx.layout import S, TileLayout\n",
    "import numpy as np\n",
    "import torch\n",
    "import tvm\n",
    "@T.function",
    "@T.function(private=True)",
    "@T.prim_func",
    "@T.macro",
    // TIRx
    "T.Tensor(",
    "T.ptx[\"",
    "T.cuda.tile.apply(",
    "T.cuda.tile.ewise(",
    "T.device_entry(",
    "launch=T.cuda.LaunchConfig(grid=1, block=64)",
    "T.alloc_local(",
    "T.alloc_shared(",
    "layout=",
    "scope=\"cta\"",
    "scope=\"warp\"",
    "scope=\"thread\"",
    "align=16",
    "T.cuda.thread_idx(\"x\")",
    "T.cuda.block_idx(\"x\")",
    "T.cuda.lane_id()",
    "T.cuda.warp_id()",
    "T.cuda.cta_sync()",
    "T.cuda.warp_sync()",
    "T.cuda.block_dim(",
    "T.cuda.grid_dim(",
    "T.cuda.linear_thread_id()",
    "T.grid(",
    "T.serial(",
    "T.unroll(",
    "T.parallel(",
    "T.vectorized(",
    "T.cast(",
    "T.if_then_else(",
    "T.max(",
    "T.min(",
    "T.exp(",
    "T.log(",
    "T.sqrt(",
    "T.rsqrt(",
    "T.sigmoid(",
    "T.tanh(",
    "T.floor(",
    "T.ceildiv(",
    ".view(",
    "dynamic_smem_bytes=",
    "elem_offset=",
    "strides=",
    "preserve_dst=",
    "pred=",
    "\"float32\"",
    "\"float16\"",
    "\"bfloat16\"",
    "\"float64\"",
    "\"int32\"",
    "\"uint32\"",
    "\"int64\"",
    "\"uint16\"",
    "\"int8\"",
    "\"uint8\"",
    "\"bool\"",
    "T.float32",
    "T.float16",
    "T.int32",
    "T.uint32",
    "T.int64",
    "T.bool",
    // layouts
    "TileLayout(S[",
    "S[(2, 32, 4) : (1 @ warpid, 1 @ laneid, 1)]",
    "@warpid",
    "@laneid",
    " @ ",
    "R[",
    "T.ComposeLayout(",
    "\"default\"",
    "shared.dyn",
    "wgid",
    "tid_in_wg",
    // harness
    "np.testing.assert_allclose(",
    "torch.testing.assert_close(",
    "tvm.tirx.compile(",
    "target=\"cuda\"",
    "pipeline=\"tirx\"",
    "tvm.runtime.tensor(",
    "tvm.cuda()",
    ".numpy()",
    "np.zeros(",
    "np.ones(",
    "np.empty(",
    "np.full(",
    "np.arange(",
    "np.linspace(",
    "np.array(",
    ".reshape(",
    ".astype(",
    "dtype=",
    "rtol=",
    "atol=",
    "np.float32",
    "np.int32",
    "np.float16",
    "np.random.seed(",
    "np.random.rand(",
    "np.random.randn(",
    "np.maximum(",
    "np.minimum(",
    "np.where(",
    "np.roll(",
    "axis=",
    "torch.linspace(",
    "torch.empty_like(",
    "torch.tensor(",
    "torch.float32",
    ".shape",
    ".dtype",
    ".T",
    "np.sum(",
    "np.exp(",
};

void emit(std::set<std::string>& seen, std::string_view token) {
  std::string t(token);
  if (t.empty() || !seen.insert(t).second) return;
  std::string escaped;
  for (unsigned char c : t) {
    if (c == '"' || c == '\\') {
      escaped += '\\';
      escaped += static_cast<char>(c);
    } else if (c == '\n') {
      escaped += "\\x0A";
    } else {
      escaped += static_cast<char>(c);
    }
  }
  std::printf("\"%s\"\n", escaped.c_str());
}

}  // namespace

int main() {
  std::set<std::string> seen;
  for (const char* t : kLanguage) emit(seen, t);
  // Family names, every qualifier (".rn", ".v4", ".satfinite", ...) and a few whole spellings.
  for (const tirx::PtxFamilyInfo& f : tirx::ptxFamilies()) {
    emit(seen, f.name);
    for (const std::string& e : f.examples) emit(seen, e);
  }
  for (const std::string& s : tirx::ptxrows::enumerateSpellings(200)) {
    for (size_t start = s.find('.'); start != std::string::npos;) {
      const size_t next = s.find('.', start + 1);
      emit(seen, s.substr(start, next == std::string::npos ? std::string::npos : next - start));
      start = next;
    }
  }
  return 0;
}
