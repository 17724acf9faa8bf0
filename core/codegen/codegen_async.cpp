// Lowering of the asynchronous-protocol statements (ir::AsyncOp; spec TC §2.4, §3.3): one inline
// asm each with a "memory" clobber, so the compiler neither hoists loads of copied data above a
// wait nor sinks stores below an arrive. mbarrier addresses are 32-bit shared-window values
// (`__cvta_generic_to_shared`); the blocking parity wait is a C loop around one
// `mbarrier.try_wait.parity` with the 10 ms suspend hint TIRx uses (0x989680 ns).
#include "core/codegen/codegen_internal.h"

namespace tirx::codegen::detail {

namespace {
std::string asmLine(const std::string& text, const std::string& inputs) {
  return "asm volatile(\"" + text + "\" ::" + (inputs.empty() ? std::string() : " " + inputs) +
         " : \"memory\");";
}
}  // namespace

void Emitter::emitAsync(const ir::Stmt& s) {
  const ir::AsyncOp& a = *s.async;
  using K = ir::AsyncKind;
  std::string bar;
  if (a.barrier) {
    std::vector<std::string> idx;
    for (const auto& e : a.barIndex) idx.push_back(expr(e));
    bar = "\"r\"((unsigned)__cvta_generic_to_shared(&" +
          element(*a.barrier, offsetExpr(*a.barrier, idx)) + "))";
  }
  const std::string value = a.value ? "\"r\"((unsigned)(" + expr(a.value) + "))" : "";
  switch (a.kind) {
    case K::CpAsyncCommit:
      stmt(s.span, asmLine("cp.async.commit_group;", ""));
      return;
    case K::CpAsyncWait:
      stmt(s.span, asmLine("cp.async.wait_group " + std::to_string(a.n) + ";", ""));
      return;
    case K::BulkCommit:
      stmt(s.span, asmLine("cp.async.bulk.commit_group;", ""));
      return;
    case K::BulkWait:
      stmt(s.span, asmLine(std::string("cp.async.bulk.wait_group") + (a.readOnly ? ".read " : " ") +
                               std::to_string(a.n) + ";",
                           ""));
      return;
    case K::MbarInit:
      stmt(s.span, asmLine("mbarrier.init.shared::cta.b64 [%0], %1;", bar + ", " + value));
      return;
    case K::MbarArrive:
      if (a.value)
        stmt(s.span, asmLine("mbarrier.arrive.shared::cta.b64 _, [%0], %1;", bar + ", " + value));
      else
        stmt(s.span, asmLine("mbarrier.arrive.shared::cta.b64 _, [%0];", bar));
      return;
    case K::MbarArriveExpectTx:
      stmt(s.span,
           asmLine("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;", bar + ", " + value));
      return;
    case K::MbarExpectTx:
      stmt(s.span,
           asmLine("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;", bar + ", " + value));
      return;
    case K::MbarWait: {
      const std::string ok = "_mbar_ok" + std::to_string(m_tmp++);
      begin(s.span);
      line(indent() + "{");
      line(indent() + "  unsigned " + ok + " = 0;");
      line(indent() + "  do {");
      line(indent() +
           "    asm volatile(\"{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], "
           "%2, 0x989680; "
           "selp.u32 %0, 1, 0, p; }\" : \"=r\"(" +
           ok + ") : " + bar + ", " + value + " : \"memory\");");
      line(indent() + "  } while (!" + ok + ");");
      line(indent() + "}");
      end();
      return;
    }
    case K::FenceProxyAsync:
      stmt(s.span, asmLine("fence.proxy.async.shared::cta;", ""));
      return;
    case K::FenceMbarrierInit:
      stmt(s.span, asmLine("fence.mbarrier_init.release.cluster;", ""));
      return;
    case K::WgmmaFence:
      m_usesSm90a = true;
      stmt(s.span, asmLine("wgmma.fence.sync.aligned;", ""));
      return;
    case K::WgmmaCommit:
      m_usesSm90a = true;
      stmt(s.span, asmLine("wgmma.commit_group.sync.aligned;", ""));
      return;
    case K::WgmmaWait:
      m_usesSm90a = true;
      // The wait is where accumulators become readable: pin them here so that no plain code
      // that reads them (arithmetic tile ops are non-volatile asm) is hoisted above it.
      begin(s.span);
      line(indent() + asmLine("wgmma.wait_group.sync.aligned " + std::to_string(a.n) + ";", ""));
      pinRegisters(m_wgmmaAccumulators);
      end();
      return;
    case K::SetMaxNReg:
      m_usesSm90a = true;
      stmt(s.span, asmLine(std::string("setmaxnreg.") + (a.increase ? "inc" : "dec") +
                               ".sync.aligned.u32 " + std::to_string(a.n) + ";",
                           ""));
      return;
    case K::MbarInval:
      stmt(s.span, asmLine("mbarrier.inval.shared::cta.b64 [%0];", bar));
      return;
  }
}

}  // namespace tirx::codegen::detail
