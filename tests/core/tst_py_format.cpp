// Tests of the harness's formatter (core/verify/py_format.h) against CPython 3.11: every
// expected string below is what CPython 3.11.2 printed for format(value, spec) (generated once
// with /usr/bin/python3, pasted here; the test needs no Python). They cover each part of the
// spec mini-language (fill, align, sign, z, #, 0, width, grouping, precision, every type) on
// int, bool, float and str, the rounding and layout rules of floats, Python's ValueError
// messages, repr()/ascii() of a str, and the str.format() template syntax.
#include <QtTest>
#include <cmath>

#include "core/verify/py_format.h"

using namespace tirx::verify;

namespace {

struct Case {
  FormatArg value;
  const char* spec;
  const char* expected;  ///< the text, or "ERR <exception> <message>"
};

std::string errorKind(FormatError::Kind k) {
  switch (k) {
    case FormatError::Kind::ValueError:
      return "ValueError";
    case FormatError::Kind::TypeError:
      return "TypeError";
    case FormatError::Kind::OverflowError:
      return "OverflowError";
    case FormatError::Kind::IndexError:
      return "IndexError";
    case FormatError::Kind::KeyError:
      return "KeyError";
    case FormatError::Kind::Limit:
      return "Limit";
  }
  return "?";
}

std::string run(const FormatArg& v, const char* spec) {
  FormatError err;
  std::optional<std::string> r = pyFormat(v, spec, &err);
  return r ? *r : "ERR " + errorKind(err.kind) + " " + err.message;
}

/// A str.format() with positional values only (ints and strs), through expandTemplate.
std::string formatWith(const char* tmpl, const std::vector<FormatArg>& args) {
  FormatError err;
  const RenderField render = [&](const TemplateField& f, const std::string& spec,
                                 FormatError* e) -> std::optional<std::string> {
    if (!f.positional || f.index >= static_cast<int64_t>(args.size())) {
      *e = FormatError{FormatError::Kind::IndexError, "no such argument"};
      return std::nullopt;
    }
    FormatArg a = args[size_t(f.index)];
    if (f.conversion == 'r' && a.kind == FormatArg::Kind::Str)
      a = FormatArg::string(pyStrRepr(a.s));
    return pyFormat(a, spec, e);
  };
  std::optional<std::string> r = expandTemplate(tmpl, render, &err);
  return r ? *r : "ERR " + errorKind(err.kind) + " " + err.message;
}

}  // namespace

class TstPyFormat : public QObject {
  Q_OBJECT
 private slots:
  void formatsAsCPython_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kCases)); ++i)
      QTest::newRow((std::string(kCases[i].value.typeName) + " '" + kCases[i].spec + "'").c_str())
          << i;
  }
  void formatsAsCPython() {
    QFETCH(int, index);
    const Case& c = kCases[index];
    QCOMPARE(QString::fromStdString(run(c.value, c.spec)), QString::fromUtf8(c.expected));
  }

  void errorsAsCPython_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kErrors)); ++i)
      QTest::newRow((std::string(kErrors[i].value.typeName) + " '" + kErrors[i].spec + "'").c_str())
          << i;
  }
  void errorsAsCPython() {
    QFETCH(int, index);
    const Case& c = kErrors[index];
    QCOMPARE(QString::fromStdString(run(c.value, c.spec)), QString::fromUtf8(c.expected));
  }

  // The values format() cannot format with a spec (object.__format__), and the harness's limit.
  void otherValuesAndLimits() {
    FormatArg none;
    none.kind = FormatArg::Kind::None;
    none.s = "None";
    none.typeName = "NoneType";
    QCOMPARE(run(none, ""), std::string("None"));
    QCOMPARE(run(none, "5"),
             std::string("ERR TypeError unsupported format string passed to NoneType.__format__"));
    FormatArg list;
    list.kind = FormatArg::Kind::Other;
    list.s = "[1, 2]";
    list.typeName = "list";
    QCOMPARE(run(list, ""), std::string("[1, 2]"));
    QCOMPARE(run(list, ">9"),
             std::string("ERR TypeError unsupported format string passed to list.__format__"));
    QVERIFY(run(FormatArg::real(1.0), ".1000001f").rfind("ERR Limit", 0) == 0);
    QCOMPARE(run(FormatArg::real(1.0), ".1000000f").size(), size_t(1000002));
    // A uint64 item beyond int64 keeps its value.
    FormatArg big = FormatArg::integer(0);
    big.magnitude = 18446744073709551615ULL;
    QCOMPARE(run(big, ","), std::string("18,446,744,073,709,551,615"));
  }

  void reprAndAscii_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("repr");
    QTest::addColumn<QString>("ascii");
    const char* const cases[][3] = {
        {"", "''", "''"},
        {"ab", "'ab'", "'ab'"},
        {"it's", "\"it's\"", "\"it's\""},
        {"say \"hi\"", "'say \"hi\"'", "'say \"hi\"'"},
        {"both ' and \"", "'both \\' and \"'", "'both \\' and \"'"},
        {"a\\b", "'a\\\\b'", "'a\\\\b'"},
        {"tab\tnl\nret\r", "'tab\\tnl\\nret\\r'", "'tab\\tnl\\nret\\r'"},
        {"\x01\x1f\x7f", "'\\x01\\x1f\\x7f'", "'\\x01\\x1f\\x7f'"},
        {"é日本😀", "'é日本😀'", "'\\xe9\\u65e5\\u672c\\U0001f600'"},
        {"\u0080\u00a0\u00ad\u00a1", "'\\x80\\xa0\\xad\u00a1'", "'\\x80\\xa0\\xad\\xa1'"},
    };
    for (const auto& c : cases)
      QTest::newRow(c[1]) << QString::fromUtf8(c[0]) << QString::fromUtf8(c[1])
                          << QString::fromUtf8(c[2]);
  }
  void reprAndAscii() {
    QFETCH(QString, text);
    QFETCH(QString, repr);
    QFETCH(QString, ascii);
    const std::string r = pyStrRepr(text.toStdString());
    QCOMPARE(QString::fromStdString(r), repr);
    QCOMPARE(QString::fromStdString(pyAsciiEscape(r)), ascii);
    QCOMPARE(pyCodePoints("é日本😀"), int64_t{4});
  }

  void templates() {
    const FormatArg one = FormatArg::integer(1), ab = FormatArg::string("ab");
    QCOMPARE(formatWith("{} and {}", {one, FormatArg::real(2.5)}), std::string("1 and 2.5"));
    QCOMPARE(formatWith("{1} {0} {1}", {FormatArg::string("a"), FormatArg::string("b")}),
             std::string("b a b"));
    QCOMPARE(formatWith("{:{}}|", {ab, FormatArg::integer(6)}), std::string("ab    |"));
    QCOMPARE(formatWith("{0:{1}.{2}f}",
                        {FormatArg::real(3.14159), FormatArg::integer(8), FormatArg::integer(2)}),
             std::string("    3.14"));
    QCOMPARE(formatWith("{{}} {{{}}}", {FormatArg::integer(7)}), std::string("{} {7}"));
    QCOMPARE(formatWith("{!r:>6}", {ab}), std::string("  'ab'"));
    QCOMPARE(formatWith("", {}), std::string(""));
    // CPython's ValueErrors for malformed templates.
    QCOMPARE(formatWith("a}b", {}),
             std::string("ERR ValueError single '}' encountered in format string"));
    QCOMPARE(formatWith("a{", {}),
             std::string("ERR ValueError single '{' encountered in format string"));
    QCOMPARE(formatWith("{0", {one}),
             std::string("ERR ValueError expected '}' before end of string"));
    QCOMPARE(formatWith("{0}{}", {one, one}),
             std::string("ERR ValueError cannot switch from manual field specification to "
                         "automatic field numbering"));
    QCOMPARE(formatWith("{}{0}", {one, one}),
             std::string("ERR ValueError cannot switch from automatic field numbering to manual "
                         "field specification"));
    QCOMPARE(formatWith("{0!", {one}),
             std::string("ERR ValueError end of string while looking for conversion specifier"));
    QCOMPARE(formatWith("{0!}", {one}), std::string("ERR ValueError unmatched '{' in format spec"));
    QCOMPARE(formatWith("{0:>5", {one}),
             std::string("ERR ValueError unmatched '{' in format spec"));
    QCOMPARE(formatWith("{0}}}", {one}), std::string("1}"));
    QCOMPARE(formatWith("{0!rx}", {one}),
             std::string("ERR ValueError expected ':' after conversion specifier"));
    QCOMPARE(formatWith("{0:{1:{2}}}", {one, one, one}),
             std::string("ERR ValueError max string recursion exceeded"));
    QCOMPARE(formatWith("{a{b}", {}), std::string("ERR ValueError unexpected '{' in field name"));
  }

 private:
  static inline const Case kCases[] = {
      {FormatArg::integer(42), "", "42"},
      {FormatArg::integer(42), "d", "42"},
      {FormatArg::integer(-42), "+d", "-42"},
      {FormatArg::integer(42), " d", " 42"},
      {FormatArg::integer(-42), " d", "-42"},
      {FormatArg::integer(42), ">8", "      42"},
      {FormatArg::integer(42), "<8", "42      "},
      {FormatArg::integer(42), "^8", "   42   "},
      {FormatArg::integer(-42), "=8", "-     42"},
      {FormatArg::integer(-42), "08", "-0000042"},
      {FormatArg::integer(42), "*^9", "***42****"},
      {FormatArg::integer(42), "é>5", "ééé42"},
      {FormatArg::integer(255), "x", "ff"},
      {FormatArg::integer(255), "X", "FF"},
      {FormatArg::integer(255), "#x", "0xff"},
      {FormatArg::integer(255), "#X", "0XFF"},
      {FormatArg::integer(255), "#o", "0o377"},
      {FormatArg::integer(255), "#b", "0b11111111"},
      {FormatArg::integer(-255), "#010x", "-0x00000ff"},
      {FormatArg::integer(255), "_b", "1111_1111"},
      {FormatArg::integer(12345678), "_x", "bc_614e"},
      {FormatArg::integer(1234567), ",", "1,234,567"},
      {FormatArg::integer(1234567), "_d", "1_234_567"},
      {FormatArg::integer(1234), "010,", "00,001,234"},
      {FormatArg::integer(-1234), "+012_", "-000_001_234"},
      {FormatArg::integer(65), "c", "A"},
      {FormatArg::integer(128512), "^5c", "  😀  "},
      {FormatArg::integer(7), "n", "7"},
      {FormatArg::integer(1234567), "n", "1234567"},
      {FormatArg::integer(INT64_MIN), "", "-9223372036854775808"},
      {FormatArg::integer(INT64_MIN), "#x", "-0x8000000000000000"},
      {FormatArg::integer(INT64_MAX), ",", "9,223,372,036,854,775,807"},
      {FormatArg::integer(3), ".2f", "3.00"},
      {FormatArg::integer(3), "e", "3.000000e+00"},
      {FormatArg::integer(-3), "%", "-300.000000%"},
      {FormatArg::integer(1000000000000000LL), "g", "1e+15"},
      {FormatArg::integer(5), "#.3g", "5.00"},
      {FormatArg::boolean(true), "", "True"},
      {FormatArg::boolean(false), ">7", "      0"},
      {FormatArg::boolean(true), "d", "1"},
      {FormatArg::boolean(true), ">5", "    1"},
      {FormatArg::boolean(true), ".2f", "1.00"},
      {FormatArg::boolean(false), "#x", "0x0"},
      {FormatArg::real(0x1.1c37937e08000p+53), "", "1e+16"},
      {FormatArg::real(0x1.c6bf526340000p+49), "", "1000000000000000.0"},
      {FormatArg::real(0x1.999999999999ap-4), "", "0.1"},
      {FormatArg::real(0x1.999999999999ap-4), "g", "0.1"},
      {FormatArg::real(0x1.5555555555555p-2), "", "0.3333333333333333"},
      {FormatArg::real(0x1.5555555555555p-2), ".3", "0.333"},
      {FormatArg::real(0x1.5555555555555p-1), ".0", "0.7"},
      {FormatArg::real(0x1.0000000000000p+0), ".0", "1e+00"},
      {FormatArg::real(0x1.9000000000000p+6), ".3", "1e+02"},
      {FormatArg::real(0x1.d6f3454000000p+26), ".3", "1.23e+08"},
      {FormatArg::real(0x1.8000000000000p+0), "10", "       1.5"},
      {FormatArg::real(0x1.8000000000000p+0), "=+10", "+      1.5"},
      {FormatArg::real(-0x0.0p+0), "", "-0.0"},
      {FormatArg::real(-0x0.0p+0), "+.1f", "-0.0"},
      {FormatArg::real(-0x0.0p+0), "z.1f", "0.0"},
      {FormatArg::real(-0x1.0624dd2f1a9fcp-10), "z.1f", "0.0"},
      {FormatArg::real(-0x1.0624dd2f1a9fcp-10), ".1f", "-0.0"},
      {FormatArg::real(0x1.0000000000000p-1), ".0f", "0"},
      {FormatArg::real(0x1.8000000000000p+0), ".0f", "2"},
      {FormatArg::real(0x1.4000000000000p+1), ".0f", "2"},
      {FormatArg::real(0x1.0000000000000p-3), ".2f", "0.12"},
      {FormatArg::real(0x1.8000000000000p-2), ".2f", "0.38"},
      {FormatArg::real(NAN), "f", "nan"},
      {FormatArg::real(NAN), "+F", "+NAN"},
      {FormatArg::real(-NAN), "", "nan"},
      {FormatArg::real(INFINITY), "010", "0000000inf"},
      {FormatArg::real(-INFINITY), "010.2f", "-000000inf"},
      {FormatArg::real(INFINITY), "E", "INF"},
      {FormatArg::real(0x1.4f8b588e368f1p-17), "", "1e-05"},
      {FormatArg::real(0x1.4f8b588e368f1p-17), "f", "0.000010"},
      {FormatArg::real(0x1.b7cdfd9d7bdbbp-34), "E", "1.000000E-10"},
      {FormatArg::real(0x1.0f0cf064dd592p+73), "g", "1e+22"},
      {FormatArg::real(0x1.81c8000000000p+13), "G", "12345"},
      {FormatArg::real(0x1.0000000000000p+0), "#g", "1.00000"},
      {FormatArg::real(0x1.0000000000000p+0), "#.0f", "1."},
      {FormatArg::real(0x1.0000000000000p+0), "#.0e", "1.e+00"},
      {FormatArg::real(0x1.0000000000000p+0), "#", "1.0"},
      {FormatArg::real(0x1.0000000000000p-2), ".1%", "25.0%"},
      {FormatArg::real(0x1.0000000000000p+0), "%", "100.000000%"},
      {FormatArg::real(0x1.34a456d5cfaadp+10), "_.2f", "1_234.57"},
      {FormatArg::real(0x1.2d687e4189375p+20), ",.2f", "1,234,567.89"},
      {FormatArg::real(-0x1.2d687e4189375p+20), "015,.1f", "-0,001,234,567.9"},
      {FormatArg::real(0x1.7e43c8800759cp+996), ".0f",
       "1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375"
       "0804478640437044438328838781769425232353604305756447921847867069828483872009265758037378302"
       "3379478809005936895323497079994508111903896764088007465274278014249457925878882005684283811"
       "5669472196386865459400540160"},
      {FormatArg::real(0x0.0000000000001p-1022), "", "5e-324"},
      {FormatArg::real(0x0.0000000000001p-1022), ".3e", "4.941e-324"},
      {FormatArg::real(0x1.fffffffffffffp+1023), "", "1.7976931348623157e+308"},
      {FormatArg::real(0x1.edd2f1a9fbe77p+6), "n", "123.456"},
      {FormatArg::real(0x1.921fb54442d18p+1), ".10f", "3.1415926536"},
      {FormatArg::real(0x1.921fb54442d18p+1), ".20e", "3.14159265358979311600e+00"},
      {FormatArg::real(0x1.921fb54442d18p+1), "=^+14.4f", "===+3.1416===="},
      {FormatArg::real(0x1.0000000000000p+70), "", "1.1805916207174113e+21"},
      {FormatArg::real(0x1.3fd70a3d70a3dp+3), ".2f", "9.99"},
      {FormatArg::real(0x1.02c9dedbc309dp-13), "g", "0.0001234"},
      {FormatArg::real(0x1.9e0fcaf9380fcp-17), "g", "1.234e-05"},
      {FormatArg::real(0x1.e240000000000p+16), "g", "123456"},
      {FormatArg::real(0x1.2d68700000000p+20), "g", "1.23457e+06"},
      {FormatArg::string("ab"), "", "ab"},
      {FormatArg::string("ab"), ">8", "      ab"},
      {FormatArg::string("ab"), "^7", "  ab   "},
      {FormatArg::string("ab"), "*<6", "ab****"},
      {FormatArg::string("ab"), "05", "ab000"},
      {FormatArg::string("héllo"), "^9", "  héllo  "},
      {FormatArg::string("héllo"), ".2", "hé"},
      {FormatArg::string("日本"), ">4", "  日本"},
      {FormatArg::string("abc"), ".0", ""},
      {FormatArg::string("abc"), "10.1s", "a         "},
  };
  static inline const Case kErrors[] = {
      {FormatArg::real(0x1.8000000000000p+0), "d",
       "ERR ValueError unknown format code 'd' for object of type 'float'"},
      {FormatArg::string("ab"), "d",
       "ERR ValueError unknown format code 'd' for object of type 'str'"},
      {FormatArg::boolean(true), "s",
       "ERR ValueError unknown format code 's' for object of type 'bool'"},
      {FormatArg::integer(1), ".2d",
       "ERR ValueError precision not allowed in integer format specifier"},
      {FormatArg::integer(1), ",x", "ERR ValueError cannot specify ',' with 'x'"},
      {FormatArg::integer(1), ",c", "ERR ValueError cannot specify ',' with 'c'"},
      {FormatArg::integer(1114112), "c", "ERR OverflowError %c arg not in range(0x110000)"},
      {FormatArg::integer(-1), "c", "ERR OverflowError %c arg not in range(0x110000)"},
      {FormatArg::integer(1), "+c",
       "ERR ValueError sign not allowed with integer format specifier 'c'"},
      {FormatArg::integer(1), "#c",
       "ERR ValueError alternate form (#) not allowed with integer format specifier 'c'"},
      {FormatArg::integer(1), "z",
       "ERR ValueError negative zero coercion (z) not allowed in integer format specifier"},
      {FormatArg::integer(1), ",_", "ERR ValueError cannot specify both ',' and '_'"},
      {FormatArg::integer(1), "_,", "ERR ValueError cannot specify both ',' and '_'"},
      {FormatArg::integer(1), "abc",
       "ERR ValueError invalid format specifier 'abc' for object of type 'int'"},
      {FormatArg::integer(1), ".f", "ERR ValueError format specifier missing precision"},
      {FormatArg::integer(1), ",n", "ERR ValueError cannot specify ',' with 'n'"},
      {FormatArg::integer(1), "x5",
       "ERR ValueError invalid format specifier 'x5' for object of type 'int'"},
      {FormatArg::integer(1), "10000000000000000000000",
       "ERR ValueError too many decimal digits in format string"},
      {FormatArg::string("ab"), "=5",
       "ERR ValueError '=' alignment not allowed in string format specifier"},
      {FormatArg::string("ab"), "+", "ERR ValueError sign not allowed in string format specifier"},
      {FormatArg::string("ab"), " ", "ERR ValueError space not allowed in string format specifier"},
      {FormatArg::string("ab"), "#",
       "ERR ValueError alternate form (#) not allowed in string format specifier"},
      {FormatArg::string("ab"), ",", "ERR ValueError cannot specify ',' with 's'"},
      {FormatArg::string("ab"), "z",
       "ERR ValueError negative zero coercion (z) not allowed in string format specifier"},
      {FormatArg::real(0x1.8000000000000p+0), "é",
       "ERR ValueError unknown format code '\\xe9' for object of type 'float'"},
  };
};

QTEST_APPLESS_MAIN(TstPyFormat)
#include "tst_py_format.moc"
