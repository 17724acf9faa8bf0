// JSON of the conformance run: the report (`--json`), the recorded device answers
// (`--record FILE`) and the reader of recorded files. A recorded case stores the generator
// version, a digest of its input vectors (regenerated on reading) and the result bits in base64
// (little-endian, the result's width per vector); memory cases store whether the device copied
// the inputs. Hand-derived files may list explicit vectors instead: "explicit":
// [["0x…" (sources…), "0x…" (result)], …].
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/conform/conform_internal.h"
#include "core/ptx/ptx_rows.h"
#include "core/sim/sim_numerics.h"

namespace tirx::conform {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "tirx-ptx-conform-record";
const char* kB64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

bool parseHex(const json& j, uint64_t& out) {
  if (!j.is_string()) return false;
  const std::string s = j.get<std::string>();
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
  out = 0;
  for (size_t i = 2; i < s.size(); ++i) {
    const char c = s[i];
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return false;
    out = out << 4 | static_cast<uint64_t>(d);
  }
  return true;
}

json caseJson(const CaseResult& c) {
  json j = {{"op", c.opcode}, {"arity", c.arity}, {"verdict", std::string(verdictName(c.verdict))}};
  if (!c.reason.empty()) j["reason"] = c.reason;
  if (c.differing) j["differing"] = c.differing;
  json ex = json::array();
  for (const VectorDiff& d : c.examples) {
    json in = json::array();
    for (int k = 0; k < c.sources && k < 3; ++k)
      in.push_back(hex(d.inputs[static_cast<size_t>(k)]));
    ex.push_back(
        {{"inputs", in}, {"simulator", hex(d.model)}, {"device", hex(d.device)}, {"note", d.note}});
  }
  if (!ex.empty()) j["examples"] = ex;
  return j;
}

const PtxConformCase* findCase(const std::vector<PtxConformCase>& cs, const std::string& op,
                               int arity) {
  for (const PtxConformCase& c : cs)
    if (c.opcode == op && c.arity == arity) return &c;
  return nullptr;
}

}  // namespace

std::string base64(const std::vector<uint8_t>& in) {
  std::string out;
  for (size_t i = 0; i < in.size(); i += 3) {
    const uint32_t v = (uint32_t{in[i]} << 16) |
                       (i + 1 < in.size() ? uint32_t{in[i + 1]} << 8 : 0) |
                       (i + 2 < in.size() ? in[i + 2] : 0);
    out += kB64[(v >> 18) & 63];
    out += kB64[(v >> 12) & 63];
    out += i + 1 < in.size() ? kB64[(v >> 6) & 63] : '=';
    out += i + 2 < in.size() ? kB64[v & 63] : '=';
  }
  return out;
}

bool unbase64(std::string_view text, std::vector<uint8_t>& out) {
  out.clear();
  if (text.size() % 4 != 0) return false;
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t v = 0;
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = text[i + k];
      const char* p = c == '=' ? nullptr : std::strchr(kB64, c);
      if (c == '=')
        ++pad;
      else if (!p || c == '\0' || pad)
        return false;
      v = v << 6 | (p ? static_cast<uint32_t>(p - kB64) : 0);
    }
    out.push_back(static_cast<uint8_t>(v >> 16));
    if (pad < 2) out.push_back(static_cast<uint8_t>(v >> 8));
    if (pad < 1) out.push_back(static_cast<uint8_t>(v));
  }
  return true;
}

std::string reportJson(const ConformReport& r) {
  json counts = json::object();
  for (Verdict v : {Verdict::Match, Verdict::WithinBound, Verdict::Mismatch, Verdict::BeyondBound,
                    Verdict::Skipped, Verdict::Failed}) {
    std::string key(verdictName(v));  // "within-bound" → "within_bound": JSON keys are snake_case
    std::replace(key.begin(), key.end(), '-', '_');
    counts[key] = r.count(v);
  }
  json cases = json::array();
  for (const CaseResult& c : r.cases)
    if (c.verdict != Verdict::Match) cases.push_back(caseJson(c));
  return json{{"device", r.device},   {"sm", r.sm},
              {"kernels", r.kernels}, {"cases", static_cast<int>(r.cases.size())},
              {"counts", counts},     {"passed", r.passed()},
              {"not_matching", cases}}
      .dump(2);
}

std::string recordJson(const ConformReport& r) {
  const std::vector<PtxConformCase> all = ptxConformCases();
  json cases = json::array();
  int memoryCopied = 0;
  for (const CaseResult& c : r.cases) {
    if (c.deviceBits.empty()) continue;
    const PtxConformCase* pc = findCase(all, c.opcode, c.arity);
    if (!pc) continue;
    const int bits = resultBits(*pc);
    json j = {{"op", c.opcode},
              {"arity", c.arity},
              {"vectors", c.inputs.size()},
              {"inputs", hex(ptxVectorsDigest(c.inputs, static_cast<int>(pc->srcTypes.size())))}};
    if (c.memory) {
      bool copied = true;
      for (size_t i = 0; i < c.inputs.size(); ++i)
        copied &= (c.deviceBits[i] ^ c.inputs[i][0]) << (64 - bits) == 0;
      if (copied) {  // the expected outcome: counted, not listed
        ++memoryCopied;
        continue;
      }
      j["copied"] = false;
    } else {
      j["outputs"] = hex(ptxResultsDigest(c.deviceBits, bits));
      if (c.verdict != Verdict::Match) {  // approximate, or not the simulator's bits: keep them
        std::vector<uint8_t> bytes;
        for (uint64_t v : c.deviceBits)
          for (int b = 0; b < bits / 8; ++b) bytes.push_back(static_cast<uint8_t>(v >> (8 * b)));
        j["bits"] = base64(bytes);
      }
    }
    cases.push_back(std::move(j));
  }
  // One case per line: the file is diffable and small (about 60 bytes per matched case).
  std::string out = json{{"format", kFormat},  {"version", 1}, {"generator", kPtxConformGenerator},
                         {"device", r.device}, {"sm", r.sm},   {"memoryCasesCopied", memoryCopied}}
                        .dump();
  out.pop_back();
  out += ",\n\"cases\": [";
  for (size_t i = 0; i < cases.size(); ++i) out += (i ? ",\n" : "\n") + cases[i].dump();
  return out + "\n]}";
}

uint64_t ptxResultsDigest(const std::vector<uint64_t>& results, int bits) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint64_t v : results)
    for (int b = 0; b < bits / 8; ++b) h = (h ^ ((v >> (8 * b)) & 0xff)) * 0x100000001b3ull;
  return h;
}

CaseResult replayCase(const PtxConformCase& c, const RecordedCase& rc) {
  if (rc.memory) {
    CaseResult r;
    r.opcode = c.opcode;
    r.arity = c.arity;
    r.memory = true;
    r.verdict = rc.copied ? Verdict::Match : Verdict::Mismatch;
    if (!rc.copied) r.reason = "the device did not copy the elements";
    return r;
  }
  if (!rc.outputs.empty()) return compareCase(c, rc.inputs, rc.outputs);
  // Only the digest was recorded: the device matched the simulator of that day.
  CaseResult r = compareCase(c, rc.inputs, std::vector<uint64_t>(rc.inputs.size(), 0));
  if (r.verdict == Verdict::Failed) return r;
  std::vector<uint64_t> model(rc.inputs.size(), 0);
  const int n = static_cast<int>(c.srcTypes.size());
  for (size_t j = 0; j < rc.inputs.size(); ++j)
    sim::execPtx(c.instr, std::span<const uint64_t>(rc.inputs[j].data(), static_cast<size_t>(n)),
                 model[j], nullptr);
  r.examples.clear();
  r.differing = 0;
  r.deviceBits.clear();
  const bool same = ptxResultsDigest(model, resultBits(c)) == rc.outputsDigest;
  r.verdict = same ? Verdict::Match : Verdict::Mismatch;
  if (!same) r.reason = "the simulator's results no longer have the recorded digest";
  return r;
}

Result<Record> readRecord(std::string_view text) {
  const json doc = json::parse(text, nullptr, false);
  auto bad = [](const std::string& why) { return Status{"record", why, 0}; };
  if (doc.is_discarded() || !doc.is_object()) return bad("not a JSON object");
  if (doc.value("format", std::string()) != kFormat)
    return bad(std::string("\"format\" is not \"") + kFormat + "\"");
  Record rec;
  rec.device = doc.value("device", std::string());
  rec.source = doc.value("source", std::string());
  rec.sm = doc.value("sm", 0);
  rec.memoryCasesCopied = doc.value("memoryCasesCopied", 0);
  const int generator = doc.value("generator", 0);
  const json& cases = doc.contains("cases") ? doc["cases"] : json();
  if (!cases.is_array()) return bad("\"cases\" is not an array");
  const std::vector<PtxConformCase> all = ptxConformCases();
  for (const json& j : cases) {
    if (!j.is_object() || !j.contains("op") || !j["op"].is_string())
      return bad("a case without \"op\"");
    RecordedCase rc;
    rc.opcode = j["op"].get<std::string>();
    rc.arity = j.value("arity", 0);
    const PtxConformCase* pc = findCase(all, rc.opcode, rc.arity);
    if (!pc)
      return bad("'" + rc.opcode + "' with " + std::to_string(rc.arity) +
                 " operands is not a spelling of the table");
    rc.memory = pc->instr.isMemory();
    const int nsrc = static_cast<int>(pc->srcTypes.size());
    const int bits = resultBits(*pc);
    if (j.contains("explicit")) {  // hand-derived: explicit sources and result per vector
      if (!j["explicit"].is_array()) return bad(rc.opcode + ": \"explicit\" is not an array");
      for (const json& v : j["explicit"]) {
        if (!v.is_array() || static_cast<int>(v.size()) != nsrc + 1)
          return bad(rc.opcode + ": a vector needs " + std::to_string(nsrc + 1) + " hex words");
        PtxVector in{};
        uint64_t out = 0;
        for (int k = 0; k < nsrc; ++k)
          if (!parseHex(v[static_cast<size_t>(k)], in[static_cast<size_t>(k)]))
            return bad(rc.opcode + ": malformed hex word");
        if (!parseHex(v[static_cast<size_t>(nsrc)], out))
          return bad(rc.opcode + ": malformed hex word");
        rc.inputs.push_back(in);
        rc.outputs.push_back(out);
      }
      rec.cases.push_back(std::move(rc));
      continue;
    }
    if (generator != kPtxConformGenerator)
      return bad("recorded with vector generator " + std::to_string(generator) +
                 ", this build has " + std::to_string(kPtxConformGenerator) +
                 ": record the device again");
    const int count = j.value("vectors", 0);
    if (count <= 0 || count > 1 << 16) return bad(rc.opcode + ": bad \"vectors\"");
    rc.inputs = ptxConformVectors(*pc, count);
    uint64_t digest = 0;
    if (!j.contains("inputs") || !parseHex(j["inputs"], digest) ||
        digest != ptxVectorsDigest(rc.inputs, nsrc))
      return bad(rc.opcode + ": the input digest does not match this build's vectors");
    if (rc.memory) {
      rc.copied = j.value("copied", false);
    } else {
      if (!j.contains("outputs") || !parseHex(j["outputs"], rc.outputsDigest))
        return bad(rc.opcode + ": no \"outputs\" digest");
      if (j.contains("bits")) {
        std::vector<uint8_t> bytes;
        if (!j["bits"].is_string() || !unbase64(j["bits"].get<std::string>(), bytes) ||
            bytes.size() != static_cast<size_t>(count) * (bits / 8))
          return bad(rc.opcode + ": \"bits\" is not " + std::to_string(count) +
                     " results in base64");
        for (int i = 0; i < count; ++i) {
          uint64_t v = 0;
          for (int b = 0; b < bits / 8; ++b)
            v |= uint64_t{bytes[static_cast<size_t>(i * (bits / 8) + b)]} << (8 * b);
          rc.outputs.push_back(v);
        }
        if (ptxResultsDigest(rc.outputs, bits) != rc.outputsDigest)
          return bad(rc.opcode + ": \"bits\" do not match the \"outputs\" digest");
      }
    }
    rec.cases.push_back(std::move(rc));
  }
  return rec;
}

}  // namespace tirx::conform
