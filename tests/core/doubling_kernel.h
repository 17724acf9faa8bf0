// The smallest script that check code can run against, shared by the harness tests: kernel `k`
// doubles four float32s (A into B), then `import numpy as np`. Check code appended to it starts at
// line 8 (line 9 after one more import line).
#pragma once

inline constexpr const char* kDoublingKernel =
    "from tvm.script import tirx as T\n"
    "@T.function\n"
    "def k(A: T.Tensor((4,), \"float32\"), B: T.Tensor((4,), \"float32\")):\n"
    "    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=4))\n"
    "    tid = T.cuda.thread_idx(\"x\")\n"
    "    B[tid] = A[tid] * T.float32(2)\n"
    "import numpy as np\n";
