// The runner protocol's values (core/driver/runner_protocol.h): requests and responses survive a
// round trip; every malformed response — not JSON, truncated, members of the wrong type, out of
// range, missing — is a Status that names the problem and never an exception (before, the parent
// called nlohmann's value()/get(), which throw on a member of another type); the per-run argument
// bytes poison exactly the undefined elements; the two-run definedness mask.
#include <cuda.h>  // the driver's CUtensorMap enums (header only; nothing is linked)

#include <QtTest>
#include <cstring>

#include "core/driver/runner_protocol.h"
#include "core/ir/values.h"

using namespace tirx;
using namespace tirx::driver;

class TestRunnerProtocol : public QObject {
  Q_OBJECT

 private slots:
  // The map types the request carries are the driver's enum values (decision TC-T2).
  void tensorMapDataTypes() {
    QCOMPARE(tensorMapDataType(ir::DType::Float16), int(CU_TENSOR_MAP_DATA_TYPE_FLOAT16));
    QCOMPARE(tensorMapDataType(ir::DType::BFloat16), int(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16));
    QCOMPARE(tensorMapDataType(ir::DType::Float32), int(CU_TENSOR_MAP_DATA_TYPE_FLOAT32));
    QCOMPARE(tensorMapDataType(ir::DType::Float64), int(CU_TENSOR_MAP_DATA_TYPE_FLOAT64));
    QCOMPARE(tensorMapDataType(ir::DType::Int32), int(CU_TENSOR_MAP_DATA_TYPE_INT32));
    QCOMPARE(tensorMapDataType(ir::DType::UInt32), int(CU_TENSOR_MAP_DATA_TYPE_UINT32));
    QCOMPARE(tensorMapDataType(ir::DType::Int64), int(CU_TENSOR_MAP_DATA_TYPE_INT64));
    QCOMPARE(tensorMapDataType(ir::DType::UInt64), int(CU_TENSOR_MAP_DATA_TYPE_UINT64));
    QCOMPARE(tensorMapDataType(ir::DType::Int8), int(CU_TENSOR_MAP_DATA_TYPE_UINT8));
    QCOMPARE(tensorMapDataType(ir::DType::UInt16), int(CU_TENSOR_MAP_DATA_TYPE_UINT16));
    QCOMPARE(tensorMapDataType(ir::DType::Bool), -1);
    QCOMPARE(int(CU_TENSOR_MAP_SWIZZLE_128B), 3);
    QCOMPARE(int(CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA), 1);
    QCOMPARE(sizeof(CUtensorMap), size_t(128));
  }

  void tensorMapRoundTrip() {
    RunnerRequest r;
    r.kernel = "k";
    RunnerArg t;
    t.dtype = ir::DType::BFloat16;
    t.shape = {64, 64};
    t.bytes = 8192;
    t.file = "arg0.bin";
    r.args = {t};
    RunnerTensorMap m;
    m.arg = 0;
    m.name = "A";
    m.dtype = ir::DType::BFloat16;
    m.baseBytes = 4096;
    m.dims = {64, 32};
    m.strides = {128};
    m.box = {64, 8};
    m.swizzle = 3;
    m.oobNan = true;
    r.tensorMaps = {m};
    auto back = parseRequest(requestToJson(r));
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QCOMPARE(back->tensorMaps.size(), size_t(1));
    const RunnerTensorMap& b = back->tensorMaps[0];
    QCOMPARE(b.name, std::string("A"));
    QCOMPARE(b.dtype, ir::DType::BFloat16);
    QCOMPARE(b.baseBytes, uint64_t(4096));
    QCOMPARE(b.dims, (std::vector<uint64_t>{64, 32}));
    QCOMPARE(b.strides, (std::vector<uint64_t>{128}));
    QCOMPARE(b.box, (std::vector<uint32_t>{64, 8}));
    QCOMPARE(b.swizzle, 3);
    QVERIFY(b.oobNan);
    // Without maps the member is absent (older requests stay valid).
    r.tensorMaps.clear();
    QVERIFY(requestToJson(r).find("tensorMaps") == std::string::npos);
  }

  void malformedTensorMaps_data() {
    QTest::addColumn<QString>("map");
    QTest::addColumn<QString>("why");
    QTest::newRow("box 512")
        << R"({"arg": 0, "dtype": "float32", "dims": [64, 64], "strides": [256], "box": [512, 8]})"
        << "box[0]";
    QTest::newRow("rank 6")
        << R"({"arg": 0, "dtype": "float32", "dims": [1, 1, 1, 1, 1, 1], "strides": [16, 16, 16, 16, 16], "box": [1, 1, 1, 1, 1, 1]})"
        << "'dims' of tensor map 0 must be an array of 1 to 5 values";
    QTest::newRow("stride count")
        << R"({"arg": 0, "dtype": "float32", "dims": [64, 64], "strides": [], "box": [8, 8]})"
        << "'strides' of tensor map 0 must be an array of 1 to 1 values";
    QTest::newRow("stride 8")
        << R"({"arg": 0, "dtype": "float32", "dims": [64, 64], "strides": [24], "box": [8, 8]})"
        << "must be a multiple of 16";
    QTest::newRow("bool")
        << R"({"arg": 0, "dtype": "bool", "dims": [64], "strides": [], "box": [16]})"
        << "no map type for dtype 'bool'";
    QTest::newRow("scalar arg")
        << R"({"arg": 1, "dtype": "float32", "dims": [64], "strides": [], "box": [16]})"
        << "is not a tensor argument";
    QTest::newRow("base outside")
        << R"({"arg": 0, "dtype": "float32", "dims": [64], "strides": [], "box": [16], "baseBytes": 16384})"
        << "'baseBytes' of tensor map 0 must be a multiple of 16 inside its argument";
    QTest::newRow("swizzle 4")
        << R"({"arg": 0, "dtype": "float32", "dims": [64], "strides": [], "box": [16], "swizzle": 4})"
        << "'swizzle'";
  }
  void malformedTensorMaps() {
    QFETCH(QString, map);
    QFETCH(QString, why);
    const std::string text =
        R"({"version": 2, "kernel": "k", "args": [{"kind": "tensor", "dtype": "float32", "shape": [64, 64], )"
        R"("bytes": 16384, "file": "a"}, {"kind": "scalar", "bits": 1}], "tensorMaps": [)" +
        map.toStdString() + "]}";
    auto r = parseRequest(text);
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.find(why.toStdString()) != std::string::npos,
             r.error().message.c_str());
  }

  void requestRoundTrip() {
    RunnerRequest r;
    r.kernel = "k";
    r.device = 1;
    r.grid = {4, 1, 1};
    r.block = {128, 1, 1};
    r.dynamicSmem = 100000;
    r.passes = 2;
    RunnerArg t;
    t.dtype = ir::DType::Float16;
    t.shape = {2, 3};
    t.bytes = 12;
    t.file = "arg0.bin";
    t.maskFile = "mask0.bin";
    t.undefined = Undefined::Some;
    t.download = true;
    RunnerArg s;
    s.isTensor = false;
    s.bits = 0xFFFFFFFFFFFFFFFFull;
    r.args = {t, s};
    auto back = parseRequest(requestToJson(r));
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QCOMPARE(back->kernel, std::string("k"));
    QCOMPARE(back->device, 1);
    QCOMPARE(back->grid[0], int64_t(4));
    QCOMPARE(back->dynamicSmem, int64_t(100000));
    QCOMPARE(back->passes, 2);
    QCOMPARE(back->args.size(), size_t(2));
    QCOMPARE(back->args[0].dtype, ir::DType::Float16);
    QCOMPARE(back->args[0].undefined, Undefined::Some);
    QCOMPARE(back->args[0].maskFile, std::string("mask0.bin"));
    QVERIFY(back->args[0].download);
    QCOMPARE(back->args[1].bits, 0xFFFFFFFFFFFFFFFFull);
  }

  void malformedRequests_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("why");
    QTest::newRow("not json") << "{"
                              << "not JSON";
    QTest::newRow("array") << "[]"
                           << "is not an object";
    QTest::newRow("no kernel") << "{\"version\": 2, \"args\": []}"
                               << "has no 'kernel'";
    QTest::newRow("old version") << "{\"version\": 1, \"kernel\": \"k\", \"args\": []}"
                                 << "'version'";
    QTest::newRow("kernel number") << "{\"version\": 2, \"kernel\": 5, \"args\": []}"
                                   << "'kernel' of the request must be a string";
    QTest::newRow("grid zero") << "{\"version\": 2, \"kernel\": \"k\", \"grid\": [0], \"args\": []}"
                               << "grid[0]";
    QTest::newRow("bytes mismatch")
        << "{\"version\": 2, \"kernel\": \"k\", \"args\": [{\"kind\": \"tensor\", \"dtype\": "
           "\"float32\", \"shape\": [4], \"bytes\": 8, \"file\": \"a\"}]}"
        << "does not match its shape";
    QTest::newRow("huge shape") << "{\"version\": 2, \"kernel\": \"k\", \"args\": [{\"kind\": "
                                   "\"tensor\", \"dtype\": \"float32\", \"shape\": [1099511627776, "
                                   "1099511627776], \"bytes\": 0, \"file\": \"a\"}]}"
                                << "does not match";
    QTest::newRow("no file")
        << "{\"version\": 2, \"kernel\": \"k\", \"args\": [{\"kind\": \"tensor\", \"dtype\": "
           "\"float32\", \"shape\": [1], \"bytes\": 4}]}"
        << "no 'file'";
    QTest::newRow("bad dtype")
        << "{\"version\": 2, \"kernel\": \"k\", \"args\": [{\"kind\": \"tensor\", \"dtype\": "
           "\"float128\", \"shape\": [1], \"bytes\": 4, \"file\": \"a\"}]}"
        << "unknown dtype";
    QTest::newRow("negative bits")
        << "{\"version\": 2, \"kernel\": \"k\", \"args\": [{\"kind\": \"scalar\", \"bits\": -1}]}"
        << "non-negative";
  }
  void malformedRequests() {
    QFETCH(QString, text);
    QFETCH(QString, why);
    auto r = parseRequest(text.toStdString());
    QVERIFY(!r.ok());
    QCOMPARE(r.error().api, std::string("request"));
    QVERIFY2(r.error().message.find(why.toStdString()) != std::string::npos,
             r.error().message.c_str());
  }

  void responseRoundTrip() {
    RunnerResponse r;
    r.ok = r.ran = true;
    r.kernel = "k";
    r.device = "NVIDIA H200";
    r.outputs.push_back({1, "out1.bin", "def1.bin", 7});
    r.launchesMs = {0.5, 0.25};
    r.medianMs = 0.5;
    auto back = parseResponse(responseToJson(r));
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QVERIFY(back->ok && back->ran);
    QCOMPARE(back->outputs.size(), size_t(1));
    QCOMPARE(back->outputs[0].index, size_t(1));
    QCOMPARE(back->outputs[0].undefined, int64_t(7));
    QCOMPARE(back->outputs[0].maskFile, std::string("def1.bin"));
    QCOMPARE(back->launchesMs.size(), size_t(2));
    RunnerResponse f;
    f.fault = "illegal-address";
    f.error = {"cuCtxSynchronize", "CUDA_ERROR_ILLEGAL_ADDRESS", "run", "illegal-address", 700};
    auto fb = parseResponse(responseToJson(f));
    QVERIFY(fb.ok());
    QVERIFY(!fb->ok);
    QCOMPARE(fb->error.code, 700);
    QCOMPARE(fb->fault, std::string("illegal-address"));
  }

  void malformedResponses_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("why");
    QTest::newRow("empty") << ""
                           << "is empty";
    QTest::newRow("garbage") << "\x01\x02 not json {{{"
                             << "not JSON";
    QTest::newRow("truncated") << "{\"ok\": true, \"ran\": true, \"outp"
                               << "not JSON";
    QTest::newRow("number") << "42"
                            << "is not an object";
    QTest::newRow("ok string") << "{\"ok\": \"yes\"}"
                               << "'ok' of the response must be true or false";
    QTest::newRow("no ok") << "{\"ran\": true}"
                           << "has no 'ok'";
    QTest::newRow("device number") << "{\"ok\": true, \"device\": 7, \"outputs\": []}"
                                   << "'device'";
    QTest::newRow("outputs string") << "{\"ok\": true, \"outputs\": \"many\"}"
                                    << "'outputs' must be an array";
    QTest::newRow("no outputs") << "{\"ok\": true}"
                                << "has no 'outputs'";
    QTest::newRow("output index negative")
        << "{\"ok\": true, \"outputs\": [{\"index\": -1, \"file\": \"a\"}]}"
        << "'index'";
    QTest::newRow("output index float")
        << "{\"ok\": true, \"outputs\": [{\"index\": 1.5, \"file\": \"a\"}]}"
        << "'index'";
    QTest::newRow("output no file") << "{\"ok\": true, \"outputs\": [{\"index\": 0}]}"
                                    << "has no 'file'";
    QTest::newRow("undefined without mask")
        << "{\"ok\": true, \"outputs\": [{\"index\": 0, \"file\": \"a\", \"undefined\": 3}]}"
        << "no 'mask'";
    QTest::newRow("timing string") << "{\"ok\": true, \"outputs\": [], \"launchesMs\": [\"x\"]}"
                                   << "'launchesMs'";
    QTest::newRow("nan time") << "{\"ok\": true, \"outputs\": [], \"medianMs\": -1}"
                              << "'medianMs'";
    QTest::newRow("error missing") << "{\"ok\": false}"
                                   << "has no 'error'";
    QTest::newRow("error not object") << "{\"ok\": false, \"error\": \"boom\"}"
                                      << "'error' is not an object";
    QTest::newRow("error code huge")
        << "{\"ok\": false, \"error\": {\"message\": \"m\", \"code\": 99999999999}}"
        << "'code'";
  }
  void malformedResponses() {
    QFETCH(QString, text);
    QFETCH(QString, why);
    auto r = parseResponse(text.toStdString());
    QVERIFY(!r.ok());
    QCOMPARE(r.error().api, std::string("response"));
    QVERIFY2(r.error().message.find(why.toStdString()) != std::string::npos,
             r.error().message.c_str());
  }

  // Every prefix of a valid response, and every single-byte corruption of it, parses or fails
  // cleanly (the parent sees partial writes and garbage from a dying child).
  void prefixesAndCorruptionsNeverThrow() {
    RunnerResponse r;
    r.ok = r.ran = true;
    r.kernel = "k";
    r.outputs.push_back({0, "out0.bin", "", 0});
    r.launchesMs = {1.0};
    const std::string full = responseToJson(r);
    int ok = 0;
    for (size_t n = 0; n <= full.size(); ++n) ok += parseResponse(full.substr(0, n)).ok() ? 1 : 0;
    QVERIFY(ok >= 1);  // the whole text (and its prefix without the trailing newline)
    for (size_t i = 0; i < full.size(); ++i)
      for (char c : {'"', '{', '1', '-', 'x', '\0', ']'}) {
        std::string t = full;
        t[i] = c;
        (void)parseResponse(t);
        (void)parseRequest(t);
      }
  }

  void argumentBytesPoisonOnlyUndefined() {
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    const float vals[4] = {1, 2, 3, 4};
    QVERIFY(writeWholeFile(d + "/a.bin", vals, sizeof vals));
    const uint8_t mask[4] = {1, 0, 1, 0};
    QVERIFY(writeWholeFile(d + "/m.bin", mask, 4));
    RunnerArg a;
    a.dtype = ir::DType::Float32;
    a.shape = {4};
    a.bytes = 16;
    a.file = "a.bin";
    auto none = argumentBytes(a, d, 0);
    QVERIFY(none.ok());
    QVERIFY(std::memcmp(none->data(), vals, 16) == 0);
    a.undefined = Undefined::Some;
    a.maskFile = "m.bin";
    for (int pass = 0; pass < 2; ++pass) {
      auto some = argumentBytes(a, d, pass);
      QVERIFY(some.ok());
      QVERIFY(std::memcmp(some->data(), &vals[0], 4) == 0);
      QVERIFY(std::memcmp(some->data() + 8, &vals[2], 4) == 0);
      for (int b = 4; b < 8; ++b) QCOMPARE((*some)[size_t(b)], poisonByte(pass));
      for (int b = 12; b < 16; ++b) QCOMPARE((*some)[size_t(b)], poisonByte(pass));
    }
    QVERIFY(poisonByte(0) != poisonByte(1));
    a.undefined = Undefined::All;
    auto all = argumentBytes(a, d, 1);
    QVERIFY(all.ok());
    QCOMPARE(std::count(all->begin(), all->end(), ir::kSecondPoisonByte), 16L);
    a.undefined = Undefined::None;
    a.bytes = 32;  // the file is shorter than the request says
    QVERIFY(!argumentBytes(a, d, 0).ok());
  }

  void sameBytesMaskPerElement() {
    const std::vector<uint8_t> x = {1, 2, 3, 4, 5, 6, 7, 8}, y = {1, 2, 9, 4, 5, 6, 7, 8};
    QCOMPARE(sameBytesMask(x, y, 2), (std::vector<uint8_t>{1, 0, 1, 1}));
    QCOMPARE(sameBytesMask(x, y, 4), (std::vector<uint8_t>{0, 1}));
    QCOMPARE(sameBytesMask(x, x, 8), (std::vector<uint8_t>{1}));
  }

  void hostTensorDefinedness() {
    ir::HostTensor t{ir::DType::Float32, {4}, std::vector<uint8_t>(16, 0), {}};
    QVERIFY(t.fullyDefined());
    QCOMPARE(t.undefinedCount(), int64_t(0));
    t.poisonUndefined(0xFF);
    QCOMPARE(std::count(t.data.begin(), t.data.end(), uint8_t(0)), 16L);
    t.markAllUndefined();
    QCOMPARE(t.undefinedCount(), int64_t(4));
    t.defined[2] = 1;
    t.poisonUndefined(ir::kPoisonByte);
    QCOMPARE(int(t.data[0]), 0xFF);
    QCOMPARE(int(t.data[8]), 0);
    QVERIFY(!t.isDefined(0));
    QVERIFY(t.isDefined(2));
    t.normalizeDefined();
    QVERIFY(!t.fullyDefined());
    t.defined.assign(4, 1);
    t.normalizeDefined();
    QVERIFY(t.fullyDefined());
  }
};

QTEST_APPLESS_MAIN(TestRunnerProtocol)
#include "tst_runner_protocol.moc"
