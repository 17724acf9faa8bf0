// Which threads touch one element of a memory buffer, in which tile op: for every thread-level
// ld/st tile op on the buffer (ir::tileOpUses), the logical coordinates of the op whose memory
// operand lands on the element, and the thread and register slot its register operand gives
// them (every owner of a replicated register layout). The studio's layout view shows these for a
// global or shared tensor's cell; it is the layouts' own arithmetic (CompiledLayout), evaluated
// where the region start is static. Ops whose region start depends on run-time values (block
// index, loop variable) are listed apart, unresolved, rather than guessed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/ir.h"

namespace tirx::ir {

/// One (thread, register) of one tile op on the element.
struct ElementTouch {
  const Stmt* stmt = nullptr;  ///< the tile op (into the kernel's body)
  std::string opcode;
  bool write = false;   ///< the op stores to the element
  int64_t thread = -1;  ///< linear thread in the CTA; -1 when the register tile has no
                        ///< thread axes (every thread of the op's group holds it)
  int regBuffer = -1;   ///< the register operand's buffer
  int64_t slot = 0;     ///< its register slot in that thread
};

struct ElementTouches {
  std::vector<ElementTouch> touches;    ///< program order, then thread
  std::vector<const Stmt*> unresolved;  ///< ld/st ops on the buffer with a run-time region start
  bool truncated = false;               ///< more than `maxTouches` touches; the rest are dropped
};

/// The thread-level ld/st touches (ops of up to 65,536 elements; larger ones are unresolved) of
/// element `element` (in elements of the buffer's dtype, before a swizzle: the layout's `m`) of
/// `buffer`. Collective ops (ldmatrix, cp.async, TMA, wgmma) and element loads/stores are not tile
/// ops of this kind and are not listed.
ElementTouches elementTouches(const Kernel& kernel, int buffer, int64_t element,
                              size_t maxTouches = 64);

}  // namespace tirx::ir
