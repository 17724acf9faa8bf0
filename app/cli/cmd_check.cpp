// `tirx check FILE [--arch sm_90] [--json]`: runs the front end (parse + sema) on a script and
// prints its diagnostics, gcc style (`FILE:LINE:COL: error: MSG [CODE]` plus note lines) or as
// JSON. Exit status: 1 when there is an error, 0 otherwise (warnings alone still exit 0), 2 for
// usage errors and unreadable files. Documented in docs/cli.md ("tirx check").
#include <nlohmann/json.hpp>
#include <ostream>

#include "app/cli/cli.h"
#include "core/sema/sema.h"

namespace tirx::cli {

namespace {
const char* kCheckUsage = "usage: tirx check FILE [--arch sm_90] [--json]\n";

nlohmann::json spanJson(const SourceSpan& s) {
  return {{"line", s.line}, {"col", s.col}, {"length", s.length}};
}
}  // namespace

int cmdCheck(const Args& args, std::ostream& out, std::ostream& err) {
  const Options o = parseOptions(args, {"--arch"}, {"--json", "--help"});
  if (o.has("--help")) {
    out << kCheckUsage;
    return 0;
  }
  if (!o.error.empty() || o.positional.size() != 1) {
    err << "tirx check: " << (o.error.empty() ? "expected exactly one FILE" : o.error) << "\n"
        << kCheckUsage;
    return 2;
  }
  SemaOptions options;
  const std::string arch = o.get("--arch", "sm_90");
  options.sm = parseArch(arch);
  if (options.sm == 0) {
    err << "tirx check: malformed --arch '" << arch << "' (expected e.g. sm_90 or sm_100a)\n";
    return 2;
  }
  const std::string& path = o.positional[0];
  std::string source;
  if (!readFile(path, source, err)) return 2;
  const FrontEndResult r = checkScript(source, path, options);
  if (o.has("--json")) {
    nlohmann::json diags = nlohmann::json::array();
    for (const auto& d : r.diagnostics) {
      nlohmann::json notes = nlohmann::json::array();
      for (const auto& n : d.notes) {
        nlohmann::json nj = spanJson(n.span);
        nj["message"] = n.message;
        notes.push_back(nj);
      }
      nlohmann::json dj = spanJson(d.span);
      dj["severity"] = std::string(severityName(d.severity));
      dj["code"] = d.code;
      dj["message"] = d.message;
      dj["notes"] = notes;
      diags.push_back(dj);
    }
    nlohmann::json doc = {{"file", path},
                          {"arch", "sm_" + std::to_string(options.sm)},
                          {"ok", r.ok()},
                          {"diagnostics", diags}};
    out << doc.dump(2) << "\n";
  } else {
    out << formatGcc(r.diagnostics, path);
  }
  return r.ok() ? 0 : 1;
}

}  // namespace tirx::cli
