// Line-based diff of two texts: Myers' O((N+M)·D) algorithm in its linear-space form (the middle
// snake, divide and conquer; E. W. Myers, "An O(ND) Difference Algorithm and Its Variations",
// 1986), after stripping the common prefix and suffix. The result is a shortest edit script: the
// equal lines form a longest common subsequence. Lines compare by exact text (interned to ids
// first, so the inner loop compares integers). `unifiedHunks` groups the edits with context for
// printing, like `diff -u`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tirx::diff {

enum class EditKind { Equal, Delete, Insert };

/// One line of the edit script; `a`/`b` are 1-based line numbers in the old/new text (0 where the
/// line is not in that text: `a` is 0 for an Insert, `b` for a Delete).
struct LineEdit {
  EditKind kind = EditKind::Equal;
  int a = 0, b = 0;
  bool operator==(const LineEdit&) const = default;
};

/// Split on '\n' (a trailing newline ends the last line; "\r\n" loses its '\r'). "" has no lines.
std::vector<std::string> splitLines(std::string_view text);

/// The shortest edit script turning `a` into `b`: every line of `a` and of `b` appears exactly
/// once, in order; deletions of a change come before its insertions.
std::vector<LineEdit> diffLines(const std::vector<std::string>& a,
                                const std::vector<std::string>& b);

/// How the deleted and inserted lines of one change face each other: (i, j) indices into `del`
/// and `ins`, -1 for a line that faces nothing, in order of both. Lines pair when their tokens are
/// alike (Dice coefficient of the token multisets ≥ 0.5), the pairing chosen to maximise the total
/// likeness (an alignment over the change; by position past 256 lines a side), so that an edited
/// line faces its edit and a new comment faces nothing.
std::vector<std::pair<int, int>> pairChangedLines(const std::vector<std::string>& del,
                                                  const std::vector<std::string>& ins);

/// One row of two texts side by side: 1-based line positions, 0 on the side where the line is
/// missing; `equal` for an Equal edit (else a changed, deleted or inserted line).
struct AlignedLine {
  int a = 0, b = 0;
  bool equal = false;
  bool operator==(const AlignedLine&) const = default;
};

/// `edits` over the texts `a` and `b` as rows: each Equal edit as it is, each run of changes as
/// pairChangedLines faces its deleted and inserted lines, in order. The Diff dock's rows and the
/// script-line pairs of a code diff both walk the edits this way.
std::vector<AlignedLine> alignEdits(const std::vector<LineEdit>& edits,
                                    const std::vector<std::string>& a,
                                    const std::vector<std::string>& b);

/// Count of Delete and Insert edits.
struct EditCounts {
  int deleted = 0, inserted = 0;
};
EditCounts countEdits(const std::vector<LineEdit>& edits);

/// A run of edits with up to `context` equal lines around each change (unified-diff hunks).
struct Hunk {
  int aStart = 0, aCount = 0, bStart = 0, bCount = 0;  ///< 1-based start, as `@@ -a,n +b,m @@`
  std::vector<LineEdit> edits;
};
std::vector<Hunk> unifiedHunks(const std::vector<LineEdit>& edits, int context = 3);

}  // namespace tirx::diff
