// The corpora outside the repository — `../shared` beside the checkout: the seeds' acceptance
// scripts and the H200 spec logs — exist for the developers and CI, never for a user. A test
// function that reads them starts with TIRX_NEED_SHARED(path): without the file the function is
// skipped with the reason (a plain clone passes), unless TIRX_REQUIRE_SHARED is set (.ci/run sets
// it), where a missing corpus fails the test. Everything else reads the project's own data through
// projectData() (tests/data).
#pragma once

#include <QFileInfo>
#include <QString>
#include <QtTest/QtTest>

/// Absolute path of `relative` inside ../shared (it may not exist).
inline QString sharedCorpus(const QString& relative) {
  return QStringLiteral(TIRX_SHARED_DIR) + QLatin1Char('/') + relative;
}

/// Absolute path of `relative` inside the repository's tests/data.
inline QString projectData(const QString& relative) {
  return QStringLiteral(TIRX_SOURCE_DIR) + QStringLiteral("/tests/data/") + relative;
}

/// Skips (or, with TIRX_REQUIRE_SHARED set, fails) the current test function when
/// ../shared/RELATIVE is absent. From a `_data` function it skips the whole test function.
#define TIRX_NEED_SHARED(relative)                                                         \
  do {                                                                                     \
    const QString tirxSharedPath_ = sharedCorpus(relative);                                \
    if (!QFileInfo::exists(tirxSharedPath_)) {                                             \
      if (qEnvironmentVariableIsSet("TIRX_REQUIRE_SHARED"))                                \
        QFAIL(qPrintable(tirxSharedPath_ +                                                 \
                         QStringLiteral(" is missing and TIRX_REQUIRE_SHARED is set")));   \
      QSKIP(qPrintable(                                                                    \
          tirxSharedPath_ +                                                                \
          QStringLiteral(                                                                  \
              " is absent (the corpora beside the checkout are for developers and CI)"))); \
    }                                                                                      \
  } while (false)
