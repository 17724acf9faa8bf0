// Include layering, checked on the sources: core/ never includes views/, app/ or Qt; each core
// module includes only itself and the modules it links (transitively), as core/CMakeLists.txt
// declares them with tirx_core_module(NAME DEPS ...); views/ never includes app/. views/ is split
// by role: every file lies in views/engine/ (adapters to the engine), views/models/ (models and
// presentation logic) or views/widgets/ (widgets, docks, dialogs); engine/ and models/ include no
// header of Qt's widget modules (QtWidgets, Qt Charts, QScintilla…: the names are listed in
// tests/data/layering/qt_widget_headers.txt) and nothing from views/widgets/. A violation names
// the file, the line and the include. The checker is also run on made-up files, so a test
// that cannot see the tree (or a broken rule) fails instead of passing empty.
// The front door (core/driver/device.h): app/ and views/ neither construct executors (CudaExecutor,
// sim::Simulator and their options) nor read device text ("cuda:", "ssh://", startsWith("cuda"),
// dev == "sim"): they call driver::parseDevice and driver::makeExecutor. In core, only
// core/driver/device.cpp constructs the GPU executor.
#include <QtTest>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace {

using Graph = std::map<std::string, std::set<std::string>>;

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Module -> direct module dependencies, from the tirx_core_module(...) calls (EXTRA ignored).
Graph parseModules(const std::string& cmake) {
  Graph g;
  static const std::regex call("tirx_core_module\\((\\w+)([^)]*)\\)");
  static const std::regex dep("tirx_(\\w+)");
  for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), call);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    std::string rest = (*it)[2];
    if (const size_t extra = rest.find("EXTRA"); extra != std::string::npos) rest.resize(extra);
    auto& deps = g[name];
    for (auto d = std::sregex_iterator(rest.begin(), rest.end(), dep); d != std::sregex_iterator();
         ++d)
      deps.insert((*d)[1]);
  }
  return g;
}

std::set<std::string> reachable(const Graph& g, const std::string& from) {
  std::set<std::string> out{from};
  std::vector<std::string> todo{from};
  while (!todo.empty()) {
    const std::string m = todo.back();
    todo.pop_back();
    if (auto it = g.find(m); it != g.end())
      for (const std::string& d : it->second)
        if (out.insert(d).second) todo.push_back(d);
  }
  return out;
}

/// Header -> Qt widget module ("QLabel" -> "QtWidgets"), from tests/data/layering.
using WidgetHeaders = std::map<std::string, std::string>;

WidgetHeaders parseWidgetHeaders(const std::string& text) {
  WidgetHeaders out;
  std::istringstream lines(text);
  std::string module, header;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    if (line.empty() || line[0] == '#' || !(words >> module >> header)) continue;
    out[header] = module;
  }
  return out;
}

/// The widget module `inc` belongs to ("QtWidgets", "QtCharts", "QScintilla"), or empty when it is
/// no widget header: <QLabel>, <qlabel.h>, <QtWidgets>, <QtWidgets/QLabel>, <QtCharts/QChart> and
/// <Qsci/...> are; <QObject>, <QPainter> and <QAction> (QtGui in Qt 6) are not.
std::string widgetModuleOf(const WidgetHeaders& widgets, const std::string& inc) {
  if (inc.rfind("Qsci/", 0) == 0) return "QScintilla";
  std::set<std::string> modules;
  for (const auto& [header, module] : widgets) modules.insert(module);
  const std::string top = inc.substr(0, inc.find('/'));
  if (modules.count(top)) return top;
  if (auto it = widgets.find(inc); it != widgets.end()) return it->second;
  if (inc.size() > 2 && inc.compare(inc.size() - 2, 2, ".h") == 0)
    for (const auto& [header, module] : widgets) {
      std::string lower = header;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower + ".h" == inc) return module;
    }
  return {};
}

/// The role folder of a views/ file ("engine", "models", "widgets"), or empty when it lies
/// directly in views/ or in another folder.
std::string viewsRoleOf(const std::string& rel) {
  for (const char* role : {"engine", "models", "widgets"})
    if (rel.rfind(std::string("views/") + role + "/", 0) == 0) return role;
  return {};
}

bool isQtHeader(const std::string& inc) {
  return (inc.size() > 1 && inc[0] == 'Q' && std::isupper(static_cast<unsigned char>(inc[1]))) ||
         inc.rfind("Qt", 0) == 0 || inc.rfind("Qsci/", 0) == 0;
}

/// Violations ("FILE:LINE: includes X (why)") of one source file at repository path `rel`.
std::vector<std::string> check(const Graph& g, const WidgetHeaders& widgets, const std::string& rel,
                               const std::string& text) {
  std::vector<std::string> out;
  static const std::regex include("^\\s*#\\s*include\\s*[<\"]([^>\"]+)[>\"]");
  const bool inCore = rel.rfind("core/", 0) == 0;
  const bool inViews = rel.rfind("views/", 0) == 0;
  const std::string module = inCore ? rel.substr(5, rel.find('/', 5) - 5) : std::string();
  const std::set<std::string> allowed = inCore ? reachable(g, module) : std::set<std::string>{};
  const std::string role = inViews ? viewsRoleOf(rel) : std::string();
  const bool widgetFree = role == "engine" || role == "models";
  if (inViews && role.empty())
    out.push_back(rel + ": lies outside views/engine, views/models and views/widgets");
  std::istringstream lines(text);
  std::string line;
  for (int n = 1; std::getline(lines, line); ++n) {
    std::smatch m;
    if (!std::regex_search(line, m, include)) continue;
    const std::string inc = m[1];
    auto bad = [&](const std::string& why) {
      out.push_back(rel + ":" + std::to_string(n) + ": includes " + inc + " (" + why + ")");
    };
    if (inCore) {
      if (inc.rfind("views/", 0) == 0 || inc.rfind("app/", 0) == 0)
        bad("core never includes views or app");
      else if (isQtHeader(inc))
        bad("core has no Qt");
      else if (inc.rfind("core/", 0) == 0) {
        const std::string other = inc.substr(5, inc.find('/', 5) - 5);
        if (!allowed.count(other)) bad("core/" + module + " does not link core/" + other);
      }
    } else if (inViews && inc.rfind("app/", 0) == 0) {
      bad("views never include app");
    } else if (widgetFree && inc.rfind("views/widgets/", 0) == 0) {
      bad("views/" + role + " never includes views/widgets");
    } else if (const std::string wm = widgetFree ? widgetModuleOf(widgets, inc) : std::string();
               !wm.empty()) {
      bad("views/" + role + " has no widgets: " + wm);
    }
  }
  return out;
}

/// Code without its comments (// to the end of the line), so that prose may name what code may not.
std::string codeOf(const std::string& line) {
  bool inString = false;
  for (size_t i = 0; i + 1 < line.size(); ++i) {
    if (line[i] == '"' && (i == 0 || line[i - 1] != '\\')) inString = !inString;
    if (!inString && line[i] == '/' && line[i + 1] == '/') return line.substr(0, i);
  }
  return line;
}

/// Violations ("FILE:LINE: constructs an executor" / "reads device text") of the front door rule.
std::vector<std::string> checkFrontDoor(const std::string& rel, const std::string& text) {
  std::vector<std::string> out;
  const bool front = rel.rfind("app/", 0) == 0 || rel.rfind("views/", 0) == 0;
  const bool core = rel.rfind("core/", 0) == 0;
  if (!front && !core) return out;
  if (rel == "core/driver/device.cpp" || rel.rfind("core/driver/cuda_executor.", 0) == 0)
    return out;
  static const std::regex gpuExecutor("\\bCudaExecutor(Options)?\\b");
  static const std::regex simulator(
      "\\bsim::Simulator\\b|make_unique<\\s*Simulator\\b|\\bSimOptions\\b");
  static const std::regex deviceText(
      "\"(cuda:|ssh://"
      ")\"|\\b(startsWith|starts_with|rfind|find|compare|substr)\\s*\\(\\s*\"(cuda|ssh|sim|both)"
      "|\\b(isSshDevice|parseSshDevice|parseSanitizerTool)\\b|\\b[dD]ev\\w*\\s*[!=]=\\s*\"(sim|"
      "cuda|both)\"");
  std::istringstream lines(text);
  std::string line;
  for (int n = 1; std::getline(lines, line); ++n) {
    const std::string code = codeOf(line);
    const std::string at = rel + ":" + std::to_string(n) + ": ";
    if (std::regex_search(code, gpuExecutor) &&
        (front || code.find("make_unique") != std::string::npos ||
         std::regex_search(code, std::regex("CudaExecutor\\s+\\w+\\s*[({;]"))))
      out.push_back(at + "constructs a GPU executor (use driver::makeExecutor)");
    else if (front && std::regex_search(code, simulator))
      out.push_back(at + "constructs a simulator (use driver::makeExecutor)");
    else if (front && std::regex_search(code, deviceText))
      out.push_back(at + "reads device text (use driver::parseDevice and DeviceSpec)");
  }
  return out;
}

}  // namespace

class TstIncludeLayering : public QObject {
  Q_OBJECT
  Graph m_graph;
  WidgetHeaders m_widgets;
  fs::path m_root;

 private slots:
  void initTestCase() {
    m_root = fs::path(TIRX_SOURCE_DIR);
    m_graph = parseModules(readAll(m_root / "core/CMakeLists.txt"));
    // the declared order of docs/architecture.md, as CMake states it
    QVERIFY(m_graph.size() >= 12);
    QVERIFY(reachable(m_graph, "sema").count("diag"));
    QVERIFY(!reachable(m_graph, "ptx").count("sema"));
    QVERIFY(!reachable(m_graph, "sim").count("codegen"));
    m_widgets = parseWidgetHeaders(readAll(m_root / "tests/data/layering/qt_widget_headers.txt"));
    QVERIFY2(m_widgets.size() > 200, "tests/data/layering/qt_widget_headers.txt was not read");
  }

  void theRuleCatchesViolations() {
    auto one = [&](const std::string& rel, const std::string& text) {
      return check(m_graph, m_widgets, rel, text);
    };
    QCOMPARE(one("core/ptx/a.cpp", "#include \"core/sema/sema.h\"\n").size(), size_t(1));
    QCOMPARE(one("core/ptx/a.cpp", "#include \"core/sema/sema.h\"\n").front(),
             std::string(
                 "core/ptx/a.cpp:1: includes core/sema/sema.h (core/ptx does not link core/sema)"));
    QCOMPARE(one("core/sim/a.h", "// x\n#include <QString>\n").front(),
             std::string("core/sim/a.h:2: includes QString (core has no Qt)"));
    QCOMPARE(one("core/diag/a.h", "#  include \"views/engine/session.h\"\n").size(), size_t(1));
    QCOMPARE(one("views/widgets/a.cpp", "#include \"app/cli/cli.h\"\n").size(), size_t(1));
    QVERIFY(one("core/driver/a.cpp",
                "#include \"core/sema/sema.h\"\n#include \"core/diag/diagnostic.h\"\n#include "
                "<vector>\n")
                .empty());
    QVERIFY(one("views/widgets/a.cpp", "#include <QWidget>\n#include \"core/verify/verify.h\"\n")
                .empty());
  }

  void theViewsRoleRuleCatchesViolations() {
    auto one = [&](const std::string& rel, const std::string& text) {
      return check(m_graph, m_widgets, rel, text);
    };
    // the table: widget modules' headers, not QtCore's or QtGui's
    QCOMPARE(widgetModuleOf(m_widgets, "QWidget"), std::string("QtWidgets"));
    QCOMPARE(widgetModuleOf(m_widgets, "QDockWidget"), std::string("QtWidgets"));
    QCOMPARE(widgetModuleOf(m_widgets, "QChartView"), std::string("QtCharts"));
    for (const char* fine : {"QObject", "QFutureWatcher", "QColor", "QPainter", "QAction",
                             "QSyntaxHighlighter", "QKeyEvent", "QtCore/QString", "QtGui/QIcon"})
      QVERIFY2(widgetModuleOf(m_widgets, fine).empty(), fine);
    QCOMPARE(one("views/engine/a.h", "#include <QObject>\n#include <QWidget>\n"),
             std::vector<std::string>{
                 "views/engine/a.h:2: includes QWidget (views/engine has no widgets: QtWidgets)"});
    QCOMPARE(one("views/models/a.cpp", "#include \"views/widgets/main_window.h\"\n"),
             std::vector<std::string>{"views/models/a.cpp:1: includes views/widgets/main_window.h "
                                      "(views/models never includes views/widgets)"});
    for (const char* inc : {"<QtWidgets/QLabel>", "<QtWidgets>", "<qdockwidget.h>", "<QChart>",
                            "<QtCharts/QLineSeries>", "<Qsci/qsciscintilla.h>", "<QApplication>"}) {
      QCOMPARE(one("views/models/a.h", std::string("#include ") + inc + "\n").size(), size_t(1));
      QCOMPARE(one("views/engine/a.cpp", std::string("  #  include ") + inc + "\n").size(),
               size_t(1));
    }
    // what is allowed: QtCore and QtGui in engine/ and models/, the other two folders, and
    // anything in widgets/
    QVERIFY(one("views/engine/a.cpp",
                "#include <QObject>\n#include <QFutureWatcher>\n#include \"views/models/theme.h\"\n"
                "#include \"core/verify/verify.h\"\n")
                .empty());
    QVERIFY(one("views/models/a.h",
                "#include <QSyntaxHighlighter>\n#include <QPainter>\n#include <QAction>\n#include "
                "\"views/engine/session.h\"\n")
                .empty());
    QVERIFY(one("views/widgets/a.cpp",
                "#include <QDockWidget>\n#include <Qsci/qsciscintilla.h>\n#include <QChartView>\n"
                "#include \"views/engine/session.h\"\n#include \"views/widgets/main_window.h\"\n")
                .empty());
    // a file outside the three folders
    QCOMPARE(one("views/a.cpp", "#include <QObject>\n"),
             std::vector<std::string>{
                 "views/a.cpp: lies outside views/engine, views/models and views/widgets"});
  }

  void theViewsAreSplitByRole() {
    std::map<std::string, int> files;
    for (const auto& e : fs::recursive_directory_iterator(m_root / "views")) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
      ++files[viewsRoleOf(fs::relative(e.path(), m_root).generic_string())];
    }
    // the rule of theTreeIsLayered has files to hold in each folder (a renamed folder would
    // otherwise leave it checking nothing)
    QVERIFY2(files["engine"] >= 20, "views/engine/ was not found");
    QVERIFY2(files["models"] >= 8, "views/models/ was not found");
    QVERIFY2(files["widgets"] >= 40, "views/widgets/ was not found");
    QCOMPARE(files.count(""), size_t(0));
  }

  void theFrontDoorRuleCatchesViolations() {
    auto one = [](const std::string& rel, const std::string& text) {
      return checkFrontDoor(rel, text);
    };
    QCOMPARE(one("app/cli/cmd_x.cpp", "  driver::CudaExecutorOptions eo;\n"),
             std::vector<std::string>{
                 "app/cli/cmd_x.cpp:1: constructs a GPU executor (use driver::makeExecutor)"});
    QCOMPARE(
        one("views/engine/engine_x.cpp", "\n  auto e = std::make_unique<sim::Simulator>(so);\n"),
        std::vector<std::string>{
            "views/engine/engine_x.cpp:2: constructs a simulator (use driver::makeExecutor)"});
    QCOMPARE(one("views/x.cpp", "  const bool gpu = device.startsWith(\"cuda\");\n").size(),
             size_t(1));
    QCOMPARE(one("app/cli/x.cpp", "  if (dev == \"sim\") {\n").size(), size_t(1));
    QCOMPARE(one("app/cli/x.cpp", "  if (text.rfind(\"cuda:\", 0) == 0) {\n").size(), size_t(1));
    QCOMPARE(one("views/x.cpp", "  out.emplace_back(\"cuda:\" + std::to_string(i));\n").size(),
             size_t(1));
    QCOMPARE(
        one("core/verify/x.cpp", "  return std::make_unique<driver::CudaExecutor>(o);\n").size(),
        size_t(1));
    // what is allowed: the front door itself, prose, usage text, other uses of the words
    QVERIFY(one("core/driver/device.cpp", "  e = std::make_unique<CudaExecutor>(std::move(o));\n")
                .empty());
    QVERIFY(one("core/verify/x.cpp", "  sim::Simulator simulator(simOptions);\n").empty());
    QVERIFY(one("views/x.cpp",
                "  auto d = driver::parseDevice(text);  // \"cuda:\" and startsWith(\"cuda\")\n")
                .empty());
    QVERIFY(one("app/cli/x.cpp",
                "    \"usage: tirx run FILE [--device sim|cuda[:N]|ssh://[user@]host]\\n\"\n")
                .empty());
    QVERIFY(one("views/x.cpp", "  m_devices->addItem(tr(\"Simulator (CPU, exact)\"), \"sim\");\n")
                .empty());
    QVERIFY(
        one("views/x.cpp", "  title = c.language == \"cuda\" ? \"CUDA C++\" : \"PTX\";\n").empty());
  }

  void theFrontEndsUseTheFrontDoor() {
    std::vector<std::string> violations;
    int files = 0;
    for (const char* top : {"core", "views", "app"}) {
      for (const auto& e : fs::recursive_directory_iterator(m_root / top)) {
        const std::string ext = e.path().extension().string();
        if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
        ++files;
        const std::string rel = fs::relative(e.path(), m_root).generic_string();
        for (std::string& v : checkFrontDoor(rel, readAll(e.path())))
          violations.push_back(std::move(v));
      }
    }
    QVERIFY2(files > 150, "the source tree was not found");
    std::string all;
    for (const std::string& v : violations) all += v + "\n";
    QVERIFY2(violations.empty(), all.c_str());
  }

  void theTreeIsLayered() {
    std::vector<std::string> violations;
    int files = 0;
    for (const char* top : {"core", "views"}) {
      for (const auto& e : fs::recursive_directory_iterator(m_root / top)) {
        const std::string ext = e.path().extension().string();
        if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
        ++files;
        const std::string rel = fs::relative(e.path(), m_root).generic_string();
        for (std::string& v : check(m_graph, m_widgets, rel, readAll(e.path())))
          violations.push_back(std::move(v));
      }
    }
    QVERIFY2(files > 150, "the source tree was not found");
    std::string all;
    for (const std::string& v : violations) all += v + "\n";
    QVERIFY2(violations.empty(), all.c_str());
  }
};

QTEST_MAIN(TstIncludeLayering)
#include "tst_include_layering.moc"
