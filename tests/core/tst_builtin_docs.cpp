// The builtin table editors show (core/sema/builtin_docs.h) covers exactly the names the checker
// accepts: every known builtin has a signature and a description, and no entry describes a name
// the checker would reject; the asynchronous statements use their Python spellings (async_, __),
// which the checker accepts.
#include <QtTest>
#include <set>

#include "core/sema/builtin_docs.h"
#include "core/sema/sema.h"

using namespace tirx;

namespace {
/// The checker's spelling of a Python path: async_ -> async, __ -> ::.
std::string normalised(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "__") == 0 && s.rfind("T.cuda.__", 0) != 0) {
      out += "::";
      ++i;
    } else if (s[i] == '_' && i + 1 < s.size() && s[i + 1] == '.') {
      continue;
    } else {
      out += s[i];
    }
  }
  return out;
}
}  // namespace

class TstBuiltinDocs : public QObject {
  Q_OBJECT
 private slots:
  void coversExactlyTheKnownNames() {
    std::set<std::string> known(knownBuiltinNames().begin(), knownBuiltinNames().end());
    std::set<std::string> documented;
    for (const BuiltinDoc& d : builtinDocs()) documented.insert(normalised(d.name));
    for (const std::string& n : known)
      QVERIFY2(documented.count(n), ("undocumented builtin " + n).c_str());
    for (const std::string& n : documented)
      QVERIFY2(known.count(n), ("documented but unknown " + n).c_str());
    QCOMPARE(builtinDocs().size(), known.size());
  }

  void entriesAreComplete() {
    std::string previous;
    for (const BuiltinDoc& d : builtinDocs()) {
      QVERIFY2(d.name > previous, d.name.c_str());  // sorted, unique
      previous = d.name;
      QVERIFY2(!d.doc.empty() && d.doc.back() != '.', d.name.c_str());
      QVERIFY2(d.signature.find(d.name) != std::string::npos, d.signature.c_str());
      QCOMPARE(findBuiltinDoc(d.name), &d);
    }
    QVERIFY(!findBuiltinDoc("T.nope"));
    QCOMPARE(findBuiltinDoc("T.exp2")->signature, std::string("T.exp2(x)"));
    QCOMPARE(findBuiltinDoc("T.ptx.cp.async_.wait_group")->signature,
             std::string("T.ptx.cp.async_.wait_group(N)"));
    QCOMPARE(findBuiltinDoc("T.ptx.mbarrier.arrive.shared__cta.b64")->signature,
             std::string("T.ptx.mbarrier.arrive.shared__cta.b64(bar, [count])"));
  }

  // the Python spellings the table offers are what the checker accepts
  void asyncSpellingsCheck() {
    const std::string script =
        "from tvm.script import tirx as T\n\n\n"
        "@T.function\n"
        "def k(A: T.Tensor((32,), \"float32\")):\n"
        "    T.device_entry(launch=T.cuda.LaunchConfig(grid=1, block=32))\n"
        "    T.ptx.cp.async_.commit_group()\n"
        "    T.ptx.cp.async_.wait_group(0)\n";
    const FrontEndResult r = checkScript(script, "k.py", {.sm = 90});
    QVERIFY2(r.ok(), r.diagnostics.empty() ? "" : r.diagnostics.front().message.c_str());
  }
};

QTEST_MAIN(TstBuiltinDocs)
#include "tst_builtin_docs.moc"
