// SPDX-License-Identifier: MIT OR Apache-2.0
// util/py_json: the text Python's json.dump(dict(sorted(d.items())), f,
// indent=4) writes (mlx-lm's save_config), compared with /usr/bin/python3
// itself on documents that exercise every rule: float repr (fixed vs
// exponent, ".0", subnormals, -0.0), big integers, ensure_ascii escapes
// (control characters, non-BMP code points as surrogate pairs), empty and
// nested containers, a repeated key, top-level sorting only.
#include "test_support.hpp"
#include "util/json_dom.hpp"
#include "util/py_json.hpp"

#include <QtTest/QtTest>

class TestPyJson : public QObject {
    Q_OBJECT

private slots:
    void matchesPython_data() {
        QTest::addColumn<QString>("doc");
        QTest::newRow("floats") << R"({"a": [1e-05, 0.0001, 10000.0, 100000.0, 1e16, 1.5e16, 123456789012345.6, 0.1, 1e-7, 5e-324, -0.0, 2.5, 1e22, 0.00012345]})";
        QTest::newRow("ints") << R"({"i": [0, -1, 9223372036854775807, -9223372036854775808, 18446744073709551615]})";
        QTest::newRow("strings") << "{\"s\": [\"plain\", \"quote \\\" back \\\\ slash\", \"\\n\\r\\t\\b\\f\\u0001\\u001f\\u007f\", \"é ü 中文\", \"😀 \\ud83d\\ude00\", \"/\"]}";
        QTest::newRow("nesting") << R"({"z": {"b": 1, "a": {}, "c": []}, "a": [[], {}, [1, [2]], {"y": null, "x": true}], "m": false})";
        QTest::newRow("repeated key") << R"({"b": 1, "a": 2, "b": 3})";
        QTest::newRow("config") << R"({"vocab_size": 32000, "rope_theta": 10000.0, "rms_norm_eps": 1e-05, "quantization": {"group_size": 64, "bits": 4, "mode": "affine"}, "architectures": ["LlamaForCausalLM"], "torch_dtype": "bfloat16", "rope_scaling": null})";
    }
    void matchesPython() {
        QFETCH(QString, doc);
        const auto r = amn::test::run(QString::fromStdString(amn::test::python()),
                                      {"-c", "import json,sys; d=json.loads(sys.argv[1]); "
                                             "sys.stdout.write(json.dumps(dict(sorted(d.items())), indent=4))",
                                       doc});
        QVERIFY2(r.exit_code == 0, qPrintable(r.err));
        const amn::detail::JsonDoc d(doc.toStdString(), "doc");
        std::string out;
        amn::detail::py_json_dump(out, d.root(), 4, true);
        QCOMPARE(QString::fromStdString(out), r.out);
    }
};

QTEST_GUILESS_MAIN(TestPyJson)
#include "test_py_json.moc"
