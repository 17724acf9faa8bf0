// Myers' difference algorithm, linear-space variant. Overview: after interning lines to integers
// and removing the common prefix and suffix, `split` finds the middle snake of the remaining box —
// the furthest-reaching forward and backward D-paths run towards each other one edit at a time
// until they overlap on a diagonal — and a point on an optimal path through it; the two boxes on
// either side of that point are solved recursively. Each level uses O(N+M) memory; the recursion
// depth is O(log D) in practice and bounded by D. Correctness (minimality) is tested against the
// O(N·M) LCS dynamic programme on random inputs (tests/core/tst_diff.cpp).
#include "core/diff/line_diff.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace tirx::diff {

std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.emplace_back(line);
    start = end + 1;
  }
  return out;
}

namespace {

class Myers {
 public:
  Myers(std::vector<int> a, std::vector<int> b) : m_a(std::move(a)), m_b(std::move(b)) {}

  std::vector<LineEdit> run() {
    solve(0, int(m_a.size()), 0, int(m_b.size()));
    return std::move(m_out);
  }

 private:
  void equal(int x, int y) { m_out.push_back({EditKind::Equal, x + 1, y + 1}); }

  void solve(int a0, int a1, int b0, int b1) {
    // Common prefix; the common suffix is emitted after the middle part.
    while (a0 < a1 && b0 < b1 && m_a[size_t(a0)] == m_b[size_t(b0)]) equal(a0++, b0++);
    int suffix = 0;
    while (a0 < a1 - suffix && b0 < b1 - suffix &&
           m_a[size_t(a1 - 1 - suffix)] == m_b[size_t(b1 - 1 - suffix)])
      ++suffix;
    a1 -= suffix;
    b1 -= suffix;
    if (a0 == a1 || b0 == b1) {
      for (int x = a0; x < a1; ++x) m_out.push_back({EditKind::Delete, x + 1, 0});
      for (int y = b0; y < b1; ++y) m_out.push_back({EditKind::Insert, 0, y + 1});
    } else {
      int x = 0, y = 0;
      split(a0, a1, b0, b1, x, y);
      if ((x == a0 && y == b0) || (x == a1 && y == b1)) {
        // Cannot happen for a stripped box with both sides non-empty (D ≥ 2 there); kept so that a
        // bug degrades to a correct but longer script instead of endless recursion.
        for (int i = a0; i < a1; ++i) m_out.push_back({EditKind::Delete, i + 1, 0});
        for (int j = b0; j < b1; ++j) m_out.push_back({EditKind::Insert, 0, j + 1});
      } else {
        solve(a0, x, b0, y);
        solve(x, a1, y, b1);
      }
    }
    for (int i = 0; i < suffix; ++i) equal(a1 + i, b1 + i);
  }

  /// A point (x, y) on a shortest edit path of the box, at the end of its middle snake.
  void split(int a0, int a1, int b0, int b1, int& outX, int& outY) {
    const int n = a1 - a0, m = b1 - b0, delta = n - m;
    const bool odd = (delta & 1) != 0;
    const int maxD = (n + m + 1) / 2;
    const int off = maxD + 1;
    std::vector<int> vf(size_t(2 * maxD + 3), 0), vb(size_t(2 * maxD + 3), 0);
    auto A = [&](int i) { return m_a[size_t(a0 + i)]; };
    auto B = [&](int j) { return m_b[size_t(b0 + j)]; };
    for (int d = 0; d <= maxD; ++d) {
      for (int k = -d; k <= d; k += 2) {
        int x = (k == -d || (k != d && vf[size_t(off + k - 1)] < vf[size_t(off + k + 1)]))
                    ? vf[size_t(off + k + 1)]
                    : vf[size_t(off + k - 1)] + 1;
        int y = x - k;
        while (x < n && y < m && A(x) == B(y)) ++x, ++y;
        vf[size_t(off + k)] = x;
        const int kb = delta - k;  // the same diagonal in backward coordinates
        if (odd && kb >= -(d - 1) && kb <= d - 1 && x + vb[size_t(off + kb)] >= n) {
          outX = a0 + x;
          outY = b0 + y;
          return;
        }
      }
      for (int k = -d; k <= d; k += 2) {
        int x = (k == -d || (k != d && vb[size_t(off + k - 1)] < vb[size_t(off + k + 1)]))
                    ? vb[size_t(off + k + 1)]
                    : vb[size_t(off + k - 1)] + 1;
        int y = x - k;
        while (x < n && y < m && A(n - 1 - x) == B(m - 1 - y)) ++x, ++y;
        vb[size_t(off + k)] = x;
        const int kf = delta - k;
        if (!odd && kf >= -d && kf <= d && x + vf[size_t(off + kf)] >= n) {
          outX = a0 + n - x;
          outY = b0 + m - y;
          return;
        }
      }
    }
    outX = a0;  // unreachable: the paths meet by d = ⌈(N+M)/2⌉
    outY = b0;
  }

  std::vector<int> m_a, m_b;
  std::vector<LineEdit> m_out;
};

}  // namespace

std::vector<LineEdit> diffLines(const std::vector<std::string>& a,
                                const std::vector<std::string>& b) {
  std::unordered_map<std::string_view, int> ids;
  auto intern = [&](const std::vector<std::string>& lines) {
    std::vector<int> out;
    out.reserve(lines.size());
    for (const std::string& l : lines) out.push_back(ids.emplace(l, int(ids.size())).first->second);
    return out;
  };
  std::vector<int> ia = intern(a), ib = intern(b);
  std::vector<LineEdit> edits = Myers(std::move(ia), std::move(ib)).run();
  // Within each change, deletions first (the recursion may interleave them).
  for (size_t i = 0; i < edits.size();) {
    size_t j = i;
    while (j < edits.size() && edits[j].kind != EditKind::Equal) ++j;
    std::stable_sort(edits.begin() + long(i), edits.begin() + long(j),
                     [](const LineEdit& x, const LineEdit& y) {
                       return x.kind == EditKind::Delete && y.kind == EditKind::Insert;
                     });
    i = j == i ? i + 1 : j;
  }
  return edits;
}

namespace {

std::vector<std::string> tokens(const std::string& line) {
  std::vector<std::string> out;
  for (size_t i = 0; i < line.size();) {
    const auto word = [&](size_t k) {
      return std::isalnum(static_cast<unsigned char>(line[k])) || line[k] == '_';
    };
    if (line[i] == ' ' || line[i] == '\t') {
      ++i;
    } else if (word(i)) {
      size_t j = i;
      while (j < line.size() && word(j)) ++j;
      out.push_back(line.substr(i, j - i));
      i = j;
    } else {
      out.push_back(line.substr(i, 1));
      ++i;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

double dice(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.empty() && b.empty()) return 1;
  size_t common = 0;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j])
      ++common, ++i, ++j;
    else if (a[i] < b[j])
      ++i;
    else
      ++j;
  }
  return 2.0 * double(common) / double(a.size() + b.size());
}

}  // namespace

std::vector<std::pair<int, int>> pairChangedLines(const std::vector<std::string>& del,
                                                  const std::vector<std::string>& ins) {
  const int n = int(del.size()), m = int(ins.size());
  std::vector<std::pair<int, int>> matches;
  if (n > 256 || m > 256) {
    for (int k = 0; k < std::min(n, m); ++k) matches.emplace_back(k, k);
  } else {
    std::vector<std::vector<std::string>> td, ti;
    for (const auto& l : del) td.push_back(tokens(l));
    for (const auto& l : ins) ti.push_back(tokens(l));
    std::vector<double> sim(size_t(n * m));
    std::vector<double> best(size_t((n + 1) * (m + 1)), 0.0);
    auto at = [&](int i, int j) -> double& { return best[size_t(i * (m + 1) + j)]; };
    for (int i = 1; i <= n; ++i)
      for (int j = 1; j <= m; ++j) {
        const double s = dice(td[size_t(i - 1)], ti[size_t(j - 1)]);
        sim[size_t((i - 1) * m + (j - 1))] = s;
        at(i, j) = std::max({at(i - 1, j), at(i, j - 1), s >= 0.5 ? at(i - 1, j - 1) + s : 0.0});
      }
    for (int i = n, j = m; i > 0 && j > 0;) {
      const double s = sim[size_t((i - 1) * m + (j - 1))];
      if (s >= 0.5 && at(i, j) == at(i - 1, j - 1) + s) {
        matches.emplace_back(i - 1, j - 1);
        --i, --j;
      } else if (at(i, j) == at(i - 1, j)) {
        --i;
      } else {
        --j;
      }
    }
    std::reverse(matches.begin(), matches.end());
  }
  std::vector<std::pair<int, int>> out;
  int i = 0, j = 0;
  for (const auto& [mi, mj] : matches) {
    for (; i < mi; ++i) out.emplace_back(i, -1);
    for (; j < mj; ++j) out.emplace_back(-1, j);
    out.emplace_back(i++, j++);
  }
  for (; i < n; ++i) out.emplace_back(i, -1);
  for (; j < m; ++j) out.emplace_back(-1, j);
  return out;
}

std::vector<AlignedLine> alignEdits(const std::vector<LineEdit>& edits,
                                    const std::vector<std::string>& a,
                                    const std::vector<std::string>& b) {
  std::vector<AlignedLine> out;
  for (size_t i = 0; i < edits.size();) {
    if (edits[i].kind == EditKind::Equal) {
      out.push_back({edits[i].a, edits[i].b, true});
      ++i;
      continue;
    }
    std::vector<int> del, ins;
    std::vector<std::string> delText, insText;
    for (; i < edits.size() && edits[i].kind != EditKind::Equal; ++i) {
      if (edits[i].kind == EditKind::Delete) {
        del.push_back(edits[i].a);
        delText.push_back(a[size_t(edits[i].a - 1)]);
      } else {
        ins.push_back(edits[i].b);
        insText.push_back(b[size_t(edits[i].b - 1)]);
      }
    }
    for (const auto& [d, n] : pairChangedLines(delText, insText))
      out.push_back({d < 0 ? 0 : del[size_t(d)], n < 0 ? 0 : ins[size_t(n)], false});
  }
  return out;
}

EditCounts countEdits(const std::vector<LineEdit>& edits) {
  EditCounts c;
  for (const LineEdit& e : edits) {
    c.deleted += e.kind == EditKind::Delete ? 1 : 0;
    c.inserted += e.kind == EditKind::Insert ? 1 : 0;
  }
  return c;
}

std::vector<Hunk> unifiedHunks(const std::vector<LineEdit>& edits, int context) {
  std::vector<Hunk> out;
  const int n = int(edits.size());
  int i = 0;
  while (i < n) {
    while (i < n && edits[size_t(i)].kind == EditKind::Equal) ++i;
    if (i == n) break;
    int begin = std::max(0, i - context), end = i;
    // Extend over changes separated by at most 2·context equal lines.
    for (;;) {
      while (end < n && edits[size_t(end)].kind != EditKind::Equal) ++end;
      int next = end;
      while (next < n && edits[size_t(next)].kind == EditKind::Equal) ++next;
      if (next < n && next - end <= 2 * context) {
        end = next;
        continue;
      }
      end = std::min(n, end + context);
      break;
    }
    Hunk h;
    h.edits.assign(edits.begin() + begin, edits.begin() + end);
    // Start lines: the first line of each side in the hunk, or the line before an empty side.
    int lastA = 0, lastB = 0;
    for (int k = 0; k < begin; ++k) {
      lastA = edits[size_t(k)].a ? edits[size_t(k)].a : lastA;
      lastB = edits[size_t(k)].b ? edits[size_t(k)].b : lastB;
    }
    for (const LineEdit& e : h.edits) {
      if (e.a) {
        if (!h.aStart) h.aStart = e.a;
        ++h.aCount;
      }
      if (e.b) {
        if (!h.bStart) h.bStart = e.b;
        ++h.bCount;
      }
    }
    if (!h.aCount) h.aStart = lastA;
    if (!h.bCount) h.bStart = lastB;
    out.push_back(std::move(h));
    i = end;
  }
  return out;
}

}  // namespace tirx::diff
