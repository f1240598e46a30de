// SPDX-License-Identifier: MIT OR Apache-2.0
// general.* key/values and the default file name of HF folder → GGUF:
// - the 8 shared hf-gguf cases: every general.* KV from general.type to the
//   end of the metadata block, key/type/value/order, against the manifest
//   (what convert_hf_to_gguf.py wrote), with the parameter counts summed
//   from the manifest's tensor list;
// - gguf-py itself (tests/core/general_kvs_reference.py, run with
//   /usr/bin/python3 on llama.cpp's gguf-py; skipped when missing):
//   get_model_id_components / id_to_title on ~50 real model ids at several
//   parameter totals, size labels, and whole folders with README front
//   matter / config.json / generation_config.json variants (the KVs, the
//   converter's failures, the default file name);
// - ParamCounter rules, path_name, error messages.
#include "anamnesis/error.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "arch/general_kvs.hpp"
#include "arch/model_card.hpp"
#include "arch/model_naming.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace amn;
using namespace amn::arch;

namespace {

std::string hf_gguf_dir() {
    const auto shared = test::shared_fixtures_dir();
    return shared.empty() ? std::string() : shared + "/hf-gguf";
}

std::string gguf_py_dir() {
    const QByteArray env = qgetenv("AMN_GGUF_PY");
    return env.isEmpty() ? std::string("/work/ref/llama.cpp/gguf-py") : env.toStdString();
}

std::string reference_script() { return test::source_dir() + "/tests/core/general_kvs_reference.py"; }

// Skip (returning false) when python3 or gguf-py is not there.
bool have_gguf_py() {
    return QFile::exists(QString::fromStdString(test::python())) &&
           QFile::exists(QString::fromStdString(gguf_py_dir() + "/gguf/metadata.py"));
}

QJsonValue run_reference(const QStringList& args) {
    QStringList all{QString::fromStdString(reference_script()), QString::fromStdString(gguf_py_dir())};
    all += args;
    const auto r = test::run(QString::fromStdString(test::python()), all);
    if (r.exit_code != 0) {
        qWarning("reference failed: %s", qPrintable(r.err));
        return {};
    }
    QJsonParseError err{};
    const auto doc = QJsonDocument::fromJson(r.out.toUtf8(), &err);
    if (err.error != QJsonParseError::NoError) qWarning("reference output: %s", qPrintable(err.errorString()));
    return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue();
}

QString type_name(GgufType t) {
    switch (t) {
        case GgufType::String: return "STRING";
        case GgufType::I32: return "INT32";
        case GgufType::U32: return "UINT32";
        case GgufType::F32: return "FLOAT32";
        case GgufType::Bool: return "BOOL";
        case GgufType::Array: return "ARRAY";
        default: return QString::fromLatin1(gguf_type_name(t).data());
    }
}

QString f32_hex(std::uint32_t bits) {
    std::uint8_t b[4];
    for (int i = 0; i < 4; ++i) b[i] = static_cast<std::uint8_t>(bits >> (8 * i));
    return QByteArray(reinterpret_cast<const char*>(b), 4).toHex();
}

// A value in the reference script's JSON form.
QJsonValue value_json(const MetaValue& v) {
    switch (v.type) {
        case GgufType::String: return QString::fromStdString(v.str);
        case GgufType::F32: return f32_hex(static_cast<std::uint32_t>(v.bits));
        case GgufType::I32: return static_cast<qint64>(static_cast<std::int32_t>(v.bits));
        case GgufType::U32: return static_cast<qint64>(v.bits);
        case GgufType::Bool: return v.bits != 0;
        case GgufType::Array: {
            QJsonArray items;
            for (std::size_t i = 0; i < v.size(); ++i) items.append(value_json(v.at(i)));
            return QJsonObject{{"type", type_name(v.elem_type)}, {"items", items}};
        }
        default: return QString("?");
    }
}

QJsonArray kvs_json(const std::vector<MetaKv>& kvs) {
    QJsonArray out;
    for (const auto& kv : kvs) out.append(QJsonArray{QString::fromStdString(kv.key), type_name(kv.value.type), value_json(kv.value)});
    return out;
}

QJsonObject load_manifest() {
    QFile f(QString::fromStdString(hf_gguf_dir() + "/manifest.json"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

ParamCounts counts_from_tensors(const QJsonArray& tensors) {
    ParamCounter c;
    for (const auto& t : tensors) {
        const auto o = t.toObject();
        std::vector<std::uint64_t> ne;
        for (const auto& n : o["ne"].toArray()) ne.push_back(static_cast<std::uint64_t>(n.toDouble()));
        c.add(o["name"].toString().toStdString(), ne);
    }
    return c.counts();
}

void write_text(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

}  // namespace

class TestGeneralKvs : public QObject {
    Q_OBJECT
private slots:
    void fixtures_data();
    void fixtures();
    void model_ids_match_gguf_py();
    void sizes_match_gguf_py();
    void folders_match_gguf_py();
    void default_names_of_fixtures();
    void param_counter_rules();
    void path_names();
    void front_matter_errors();
};

void TestGeneralKvs::fixtures_data() {
    QTest::addColumn<QJsonObject>("kase");
    const auto m = load_manifest();
    if (m.isEmpty()) {
        QTest::newRow("none") << QJsonObject();
        return;
    }
    for (const auto& c : m["cases"].toArray()) QTest::newRow(qPrintable(c.toObject()["name"].toString())) << c.toObject();
}

void TestGeneralKvs::fixtures() {
    QFETCH(QJsonObject, kase);
    if (kase.isEmpty()) QSKIP("shared hf-gguf fixtures not found");
    const std::string dir = hf_gguf_dir() + "/" + kase["input"].toString().toStdString();
    const auto outputs = kase["outputs"].toArray();
    QVERIFY(!outputs.isEmpty());
    for (const auto& ov : outputs) {
        const auto gg = ov.toObject()["gguf"].toObject();
        const ParamCounts params = counts_from_tensors(gg["tensors"].toArray());
        const GeneralKvs got = general_kvs(read_general_inputs(dir, params));

        // The expected block: from general.type through the last general.* before the architecture's keys.
        const auto kv = gg["kv"].toArray();
        int first = -1;
        for (int i = 0; i < kv.size(); ++i)
            if (kv[i].toObject()["key"].toString() == "general.type") first = i;
        QVERIFY(first >= 0);
        QJsonArray expected;
        for (int i = first; i < kv.size(); ++i) {
            const auto o = kv[i].toObject();
            const QString key = o["key"].toString();
            if (!key.startsWith("general.") || key == "general.file_type" || key == "general.quantization_version") break;
            QString type = o["type"].toString();
            QJsonValue value = o["value"];
            if (type == "FLOAT32") value = o["raw"];
            if (type.startsWith("ARRAY[")) {
                const QString elem = type.mid(6, type.size() - 7);
                QVERIFY2(o.contains("value"), qPrintable(key + " stored as a hash only"));
                value = QJsonObject{{"type", elem}, {"items", o["value"]}};
                type = "ARRAY";
            }
            expected.append(QJsonArray{key, type, value});
        }
        const QJsonArray actual = kvs_json(got.kvs);
        if (actual != expected) {
            qWarning("%s %s\n got:      %s\n expected: %s", qPrintable(kase["name"].toString()),
                     qPrintable(ov.toObject()["outtype"].toString()),
                     QJsonDocument(actual).toJson(QJsonDocument::Compact).constData(),
                     QJsonDocument(expected).toJson(QJsonDocument::Compact).constData());
        }
        QCOMPARE(actual, expected);
        QVERIFY(got.warnings.empty());
    }
}

void TestGeneralKvs::model_ids_match_gguf_py() {
    if (!have_gguf_py()) QSKIP("python3 or llama.cpp gguf-py not found (set AMN_GGUF_PY)");
    const QStringList ids{
        "Mixtral-8x7B-Instruct-v0.1", "mistralai/Mixtral-8x7B-Instruct-v0.1", "Qwen2.5-Coder-7B-Instruct-AWQ",
        "Qwen/Qwen2.5-Coder-7B-Instruct-AWQ", "Phi-3-mini-4k-instruct", "microsoft/Phi-3-mini-128k-instruct",
        "gemma-2-9b-it", "google/gemma-2-27b-it", "Llama-3.2-1B", "meta-llama/Llama-3.2-3B-Instruct",
        "SmolLM2-135M", "HuggingFaceTB/SmolLM2-1.7B-Instruct", "DeepSeek-R1-Distill-Qwen-1.5B",
        "deepseek-ai/DeepSeek-V2-Lite-Chat", "Mistral-Nemo-Instruct-2407", "mistralai/Mistral-Large-Instruct-2411",
        "Meta-Llama-3-8B-Instruct", "meta-llama/Llama-2-7b-hf", "Llama-2-7b-chat-hf", "TinyLlama-1.1B-Chat-v1.0",
        "bloom-7b1", "bigscience/bloomz-560m", "gpt2", "openai-community/gpt2-xl", "t5-small", "google/flan-t5-xxl",
        "Qwen3-30B-A3B", "Qwen/Qwen3-235B-A22B-Instruct-2507", "Qwen3-0.6B", "granite-3.0-8b-instruct",
        "ibm-granite/granite-3.1-1b-a400m-base", "falcon-40b", "tiiuae/falcon-mamba-7b", "Yi-1.5-34B-Chat-16K",
        "01-ai/Yi-34B", "stablelm-2-zephyr-1_6b", "OLMo-2-1124-7B-Instruct", "allenai/OLMoE-1B-7B-0924",
        "Phi-3.5-MoE-instruct", "c4ai-command-r-v01", "CohereForAI/aya-23-8B", "Hermes-3-Llama-3.1-8B",
        "NousResearch/Nous-Hermes-2-Mixtral-8x7B-DPO", "Mistral-7B-v0.1-FP8", "Llama-2-7B-GPTQ",
        "TheBloke/Mistral-7B-Instruct-v0.2-GGUF", "Meta-Llama-3.1-8B-Instruct-Q4_K_M", "llama-7b-iq2_xxs",
        "model-bf16", "./local-model-7B", "../checkpoints/run-3", "org/name/with/slashes", "my model v2",
        "--weird--name--", "v2-7B", "iter3-Foo", "Foo-iter12", "x-1.5t", "Mamba-Codestral-7B-v0.1",
        "phi-2", "e5-mistral-7b-instruct", "Llama-3-8B-Instruct-262k", "LongChat-7b-v1.5-32k", "Foo-Lora",
        "Foo-7B-LoRA", "A-3B", "Model-A3B-small-mini", "Café-7B-Édition",
    };
    for (qint64 total : {qint64(0), qint64(8030261248), qint64(1500000000), qint64(2100000), qint64(-40000000)}) {
        QStringList args{"ids", QString::number(total)};
        args += ids;
        const QJsonArray ref = run_reference(args).toArray();
        QCOMPARE(ref.size(), ids.size());
        for (int i = 0; i < ids.size(); ++i) {
            const ModelIdParts p = model_id_components(ids[i].toStdString(), total);
            auto js = [](const std::optional<std::string>& s) {
                return s ? QJsonValue(QString::fromStdString(*s)) : QJsonValue(QJsonValue::Null);
            };
            const QJsonObject mine{
                {"id", ids[i]},
                {"full", js(p.full_name)},
                {"org", js(p.organization)},
                {"basename", js(p.basename)},
                {"finetune", js(p.finetune)},
                {"version", js(p.version)},
                {"size_label", js(p.size_label)},
                {"title", p.full_name ? QJsonValue(QString::fromStdString(id_to_title(*p.full_name))) : QJsonValue()},
                {"org_title", p.organization ? QJsonValue(QString::fromStdString(id_to_title(*p.organization))) : QJsonValue()},
            };
            QJsonObject theirs = ref[i].toObject();
            if (mine != theirs)
                qWarning("total %lld\n mine:    %s\n gguf-py: %s", static_cast<long long>(total),
                         QJsonDocument(mine).toJson(QJsonDocument::Compact).constData(),
                         QJsonDocument(theirs).toJson(QJsonDocument::Compact).constData());
            QCOMPARE(mine, theirs);
        }
    }
}

void TestGeneralKvs::sizes_match_gguf_py() {
    if (!have_gguf_py()) QSKIP("python3 or llama.cpp gguf-py not found (set AMN_GGUF_PY)");
    const std::vector<qint64> counts{0,          1,          999,         1000,         1001,         9999,
                                     49999,      99500,      999999,      1000000,      1000001,      2100000,
                                     4950000,    8158400,    9950000,     9999999,      10000000,     25000000,
                                     134515008,  999500000,  1000000000,  1000000001,   1235814400,   6738415616,
                                     8030261248, 46702792704, 70553706496, 140620634112, 999999999999, 1000000000000,
                                     1000000000001, 1500000000000, 671026419200, 2500000, 2450000, 3450000};
    QStringList args{"sizes"};
    for (auto c : counts) args << QString::number(c);
    const QJsonArray ref = run_reference(args).toArray();
    QCOMPARE(ref.size(), static_cast<qsizetype>(counts.size()));
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const auto o = ref[static_cast<qsizetype>(i)].toObject();
        const std::int64_t c = counts[i];
        QCOMPARE(QString::fromStdString(weight_count_notation(c)), o["notation"].toString());
        QCOMPARE(QString::fromStdString(weight_count_notation(c, 3)), o["notation3"].toString());
        QCOMPARE(QString::fromStdString(size_label(c, c, 0, 0)), o["plain"].toString());
        QCOMPARE(QString::fromStdString(size_label(c, c / 4, c / 16, 8)), o["moe"].toString());
    }
}

namespace {

struct FolderCase {
    const char* dir;  // folder name (the model name source)
    QByteArray readme, config, generation;  // empty = file absent; "-" + text = present (may be empty)
    qint64 total = 0, shared = 0, expert = 0, expert_count = 0;
    const char* model_name = nullptr;
    const char* outtype = "F16";
};

QByteArray file(const char* text) { return QByteArray("-") + text; }

std::vector<FolderCase> folder_cases() {
    const char* cfg = "{\"architectures\": [\"LlamaForCausalLM\"]}";
    std::vector<FolderCase> v;
    v.push_back({"Mistral-7B-Instruct-v0.2",
                 file("---\nlicense: apache-2.0\ntags:\n- finetuned\n- mistral\npipeline_tag: text-generation\n"
                      "language: [en, fr]\nbase_model: mistralai/Mistral-7B-v0.1\ndatasets:\n- HuggingFaceH4/ultrachat_200k\n"
                      "- https://huggingface.co/datasets/teknium/OpenHermes-2.5\n- 42\n- {name: Foo, url: http://x}\n---\n# card\n"),
                 file(cfg), file("{\"temperature\": 0.7, \"top_k\": 50, \"top_p\": 1, \"min_p\": 0.05, \"repetition_penalty\": 1.1,"
                                 " \"mirostat\": true, \"mirostat_tau\": 5, \"penalty_last_n\": 64, \"sequence\": \"dkpt\"}"),
                 7241732096});
    v.push_back({"TheBloke-style",
                 file("---\nmodel_creator: Mistral AI\nmodel_name: Mistral 7B Instruct v0.2\nmodel_type: mistral\n"
                      "base_model: https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.2\nlicense: [apache-2.0, mit]\n"
                      "license_name: other\nlicense_link: LICENSE\nquantized_by: TheBloke\nurl: https://example.com\n"
                      "doi: 10.1/x\nuuid: abc\nrepo_url: https://github.com/x/y\ndescription: A model\n---\n"),
                 file(cfg), {}, 7241732096});
    v.push_back({"Norway-and-yes",
                 file("---\nlanguage:\n- no\n- en\n- yes\ntags: [on, off]\n---\n"), {}, {}, 2100000});
    v.push_back({"Norway-scalar", file("---\nlanguage: no\ntags: hello\nlicense: ''\n---\n"), {}, {}, 2100000});
    v.push_back({"not-a-mapping", file("---\njust a string\n---\n"), {}, {}, 100});
    v.push_back({"empty-front-matter", file("---\n---\nbody\n"), {}, {}, 100});
    v.push_back({"no-front-matter", file("# Title\n---\nlicense: mit\n---\n"), {}, {}, 100});
    v.push_back({"bom-front-matter", file("\xEF\xBB\xBF---\nlicense: mit\n---\n"), {}, {}, 100});
    v.push_back({"crlf-and-tabs", file("---\r\nlicense: mit\r\ntags:\r\n\t- a\r\n\t- b\r\n---\r\n"), {}, {}, 100});
    v.push_back({"unclosed", file("---\nlicense: mit\ntags: [x]\n"), {}, {}, 100});
    v.push_back({"version-zero", file("---\nversion: 0\nfinetune: ''\n---\n"), {}, {}, 5000000});
    v.push_back({"version-float", file("---\nversion: 1.0\n---\n"), {}, {}, 5000000});
    v.push_back({"tag-date", file("---\ntags:\n- 2024-01-31\n---\n"), {}, {}, 5000000});
    v.push_back({"tag-ints", file("---\ntags: [1, 0x10, 0o7, 017, 1_000, '2']\n---\n"), {}, {}, 5000000});
    v.push_back({"tag-int-list", file("---\ntags: [1, 2, 3]\nlanguage: [1.5, .inf, -2.0]\n---\n"), {}, {}, 5000000});
    v.push_back({"tag-int-forms", file("---\ntags: [1, 0x10, 017, 1_000, 1:30, -0b101, +7, -0]\n---\n"), {}, {}, 5000000});
    v.push_back({"float-forms", file("---\nlanguage: [1.5, 1.0e+3, .5, 1:30.5, -.inf, 1_0.0_1, .NaN, 3.]\n---\n"), {}, {}, 5000000});
    v.push_back({"numberlike-strings",
                 file("---\ntags: [1e5, 0o7, 09, 1.2.3, 0x, v1, 12:60, .5.5, '1', \"yes\", Yes please]\n---\n"), {}, {}, 5000000});
    v.push_back({"dates-unused", file("---\ndate: 2024-01-31\ncreated: 2024-1-3 10:00:00.5 +02:00\nlicense: mit\n---\n"), {}, {}, 5000000});
    v.push_back({"datetime-bad", file("---\ncreated: 2024-01-31 25:00:00\n---\n"), {}, {}, 5000000});
    v.push_back({"base-list-ok", file("---\nbase_model:\n- Org/Model-7B-v1.2\n- Some Model\n- ssh://host/x\n"
                                      "- http://huggingface.co/a/b/c\n- https://huggingface.co/Org2/Thing-2-v3\n"
                                      "- {name: X, version: '2', description: d, repo_url: r}\n- 7\n---\n"),
                 {}, {}, 5000000});
    v.push_back({"block-scalars", file("---\ndescription: |\n  line one\n  line two\nlicense: >-\n  folded\n  text\n---\n"), {}, {}, 5000000});
    v.push_back({"tag-bools", file("---\ntags: [yes, No, TRUE, off]\n---\n"), {}, {}, 5000000});
    v.push_back({"tag-nested", file("---\ntags: [[a, b], [c]]\n---\n"), {}, {}, 5000000});
    v.push_back({"tag-null", file("---\ntags: [a, ~]\n---\n"), {}, {}, 5000000});
    v.push_back({"base-none", file("---\nbase_model:\ndataset: []\n---\n"), {}, {}, 5000000});
    v.push_back({"base-list", file("---\nbase_model:\n- Org/Model-7B-v1.2\n- Some Model\n- ssh://host/x\n"
                                   "- http://huggingface.co/a/b/c\n- {name: X, version: 2, description: d}\n---\n"),
                 {}, {}, 5000000});
    v.push_back({"merge-keys", file("---\nbase: &b {license: mit, name: Merged}\n<<: *b\nname: Explicit\n---\n"), {}, {}, 5000000});
    v.push_back({"name-from-card", file("---\nname: Card Name\nbasename: cardbase\nsize_label: 3x1B\n---\n"), {}, {}, 5000000});
    v.push_back({"Llama-2-7b-hf", {}, file("{\"_name_or_path\": \"meta-llama/Llama-2-7b-hf\"}"), {}, 2100000});
    v.push_back({"local-path", {}, file("{\"_name_or_path\": \"/home/me/models/Foo-7B\"}"), {}, 2100000});
    v.push_back({"spaced", {}, file("{\"_name_or_path\": \"My Fine Model\"}"), {}, 2100000});
    v.push_back({"empty-name", {}, file("{\"_name_or_path\": \"\"}"), {}, 2100000});
    v.push_back({"dot-org", {}, file("{\"_name_or_path\": \"./Foo-13B-chat\"}"), {}, 2100000});
    v.push_back({"Mixtral-8x22B-v0.1", {}, file(cfg), file("{}"), 1000000, 200000, 100000, 8});
    v.push_back({"OLMoE-1B-7B-0924", {}, file(cfg), file("not json"), 6919000000, 1200000000, 900000000, 64});
    v.push_back({"gen-null", {}, {}, file("{\"top_k\": null, \"temperature\": 1e-40, \"top_p\": 0, \"sequence\": \"\"}"), 100});
    v.push_back({"gen-bad-topk", {}, {}, file("{\"top_k\": 40.0}"), 100});
    v.push_back({"gen-list", {}, {}, file("[]"), 100});
    v.push_back({"gen-list-full", {}, {}, file("[1]"), 100});
    v.push_back({"gen-big-int", {}, {}, file("{\"top_k\": 3000000000}"), 100});
    v.push_back({"gen-huge-float", {}, {}, file("{\"temperature\": 1e300}"), 100});
    v.push_back({"renamed", {}, {}, {}, 100, 0, 0, 0, "Custom Name"});
    v.push_back({"Foo-LoRA-7B", {}, {}, {}, -40000000});
    v.push_back({"zero-params-7B", {}, {}, {}, 0});
    v.push_back({"Q8_0-first", {}, {}, {}, 3000000, 0, 0, 0, nullptr, "Q8_0"});
    v.push_back({"model-with-bf16", {}, {}, {}, 3000000, 0, 0, 0, nullptr, "BF16"});
    return v;
}

}  // namespace

void TestGeneralKvs::folders_match_gguf_py() {
    if (!have_gguf_py()) QSKIP("python3 or llama.cpp gguf-py not found (set AMN_GGUF_PY)");
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const auto cases = folder_cases();
    QJsonArray spec;
    for (const auto& c : cases) {
        const QString dir = tmp.path() + "/" + c.dir;
        QVERIFY(QDir().mkpath(dir));
        if (!c.readme.isEmpty()) write_text(dir + "/README.md", c.readme.mid(1));
        if (!c.config.isEmpty()) write_text(dir + "/config.json", c.config.mid(1));
        if (!c.generation.isEmpty()) write_text(dir + "/generation_config.json", c.generation.mid(1));
        QJsonObject s{{"dir", dir}, {"total", c.total}, {"shared", c.shared}, {"expert", c.expert},
                      {"expert_count", c.expert_count}, {"outtype", c.outtype}};
        if (c.model_name) s["model_name"] = c.model_name;
        spec.append(s);
    }
    write_text(tmp.path() + "/spec.json", QJsonDocument(spec).toJson());
    const QJsonArray ref = run_reference({"folders", tmp.path() + "/spec.json"}).toArray();
    QCOMPARE(ref.size(), static_cast<qsizetype>(cases.size()));
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const auto& c = cases[i];
        const QJsonObject theirs = ref[static_cast<qsizetype>(i)].toObject();
        ParamCounts params{c.total, c.shared, c.expert, c.expert_count};
        GeneralInputs in = read_general_inputs((tmp.path() + "/" + c.dir).toStdString(), params);
        if (c.model_name) in.model_name = c.model_name;
        std::string what;
        std::optional<GeneralKvs> got;
        const auto code = test::error_code_of([&] { got = general_kvs(in); }, &what);
        const QString label = QString("%1: gguf-py %2").arg(c.dir, QString(QJsonDocument(theirs).toJson(QJsonDocument::Compact)));
        if (theirs.contains("error")) {
            QVERIFY2(code.has_value(), qPrintable(label + " — we wrote " +
                                                  QJsonDocument(got ? kvs_json(got->kvs) : QJsonArray()).toJson(QJsonDocument::Compact)));
            QVERIFY2(what.find(c.dir) != std::string::npos, qPrintable(QString::fromStdString(what)));  // names the file
            continue;
        }
        QVERIFY2(!code, qPrintable(label + " — we failed: " + QString::fromStdString(what)));
        const QJsonArray mine = kvs_json(got->kvs);
        QVERIFY2(mine == theirs["kvs"].toArray(),
                 qPrintable(label + "\n mine: " + QJsonDocument(mine).toJson(QJsonDocument::Compact)));
        std::string fname_what;
        std::string fname;
        const auto fcode = test::error_code_of(
            [&] { fname = default_gguf_name(got->naming, c.outtype, params); }, &fname_what);
        if (theirs.contains("fname_error")) {
            QVERIFY2(fcode.has_value(), qPrintable(label + " — our name " + QString::fromStdString(fname)));
        } else {
            QVERIFY2(!fcode, qPrintable(label + " — " + QString::fromStdString(fname_what)));
            QCOMPARE(QString::fromStdString(fname), theirs["fname"].toString());
        }
    }
}

void TestGeneralKvs::default_names_of_fixtures() {
    if (!have_gguf_py()) QSKIP("python3 or llama.cpp gguf-py not found (set AMN_GGUF_PY)");
    const auto m = load_manifest();
    if (m.isEmpty()) QSKIP("shared hf-gguf fixtures not found");
    // naming_convention over the manifest's own general.* values and each output's file type.
    QJsonArray args;
    std::vector<std::string> mine;
    for (const auto& cv : m["cases"].toArray()) {
        const auto c = cv.toObject();
        for (const auto& ov : c["outputs"].toArray()) {
            const auto gg = ov.toObject()["gguf"].toObject();
            QJsonObject vals;
            std::uint32_t ftype = 0;
            for (const auto& kv : gg["kv"].toArray()) {
                const auto o = kv.toObject();
                vals[o["key"].toString()] = o["value"];
                if (o["key"].toString() == "general.file_type") ftype = static_cast<std::uint32_t>(o["value"].toInt());
            }
            const QString outtype = QString::fromStdString(converter_output_type(ftype));
            args.append(QJsonArray{vals["general.name"], vals["general.basename"], vals["general.finetune"],
                                   vals["general.version"], vals["general.size_label"], outtype});
            const ParamCounts params = counts_from_tensors(gg["tensors"].toArray());
            const std::string dir = hf_gguf_dir() + "/" + c["input"].toString().toStdString();
            mine.push_back(default_gguf_name(general_kvs(read_general_inputs(dir, params)).naming, outtype.toStdString(), params));
        }
    }
    QTemporaryDir tmp;
    write_text(tmp.path() + "/naming.json", QJsonDocument(args).toJson());
    const QJsonArray ref = run_reference({"naming", tmp.path() + "/naming.json"}).toArray();
    QCOMPARE(ref.size(), static_cast<qsizetype>(mine.size()));
    for (std::size_t i = 0; i < mine.size(); ++i)
        QCOMPARE(QString::fromStdString(mine[i]), ref[static_cast<qsizetype>(i)].toString());
    // And two spelled out (Mixtral keeps "8x7B" from its name).
    QVERIFY(std::find(mine.begin(), mine.end(), "Mixtral-8x7B-v0.1-BF16.gguf") != mine.end());
    QVERIFY(std::find(mine.begin(), mine.end(), "Meta-Llama-3-8.2M-8b-Instruct-F16.gguf") != mine.end());
}

void TestGeneralKvs::param_counter_rules() {
    ParamCounter c;
    const std::vector<std::uint64_t> emb{32, 1000}, norm{32}, exps{32, 64, 4}, bias_exps{64, 4, 1};
    c.add("token_embd.weight", emb);
    c.add("blk.0.attn_norm.weight", norm);
    c.add("blk.0.ffn_gate_exps.weight", exps);
    c.add("blk.0.ffn_down_exps.weight", std::vector<std::uint64_t>{64, 32, 8});
    c.add("blk.0.ffn_up_exps.bias", bias_exps);  // 3 dims, bias: experts = ne[1]
    c.add("blk.0.ffn_gate_exps.bias", std::vector<std::uint64_t>{64, 4});  // 2 dims: shared
    const ParamCounts p = c.counts();
    QCOMPARE(p.total, std::int64_t(32000 + 32 + 8192 + 16384 + 256 + 256));
    QCOMPARE(p.shared, std::int64_t(32000 + 32 + 256));
    QCOMPARE(p.expert, std::int64_t(2048 + 2048 + 64));
    QCOMPARE(p.expert_count, std::int64_t((4 + 8 + 4) / 3));
    QCOMPARE(QString::fromStdString(size_label(p.total, p.shared, p.expert, p.expert_count)), QString("5x36K"));

    ParamCounter l;
    l.add("blk.0.attn_q.weight.lora_a", std::vector<std::uint64_t>{32, 8});
    l.add("blk.0.attn_q.weight.lora_b", std::vector<std::uint64_t>{8, 32});
    QCOMPARE(l.counts().total, std::int64_t(-(32 * 32)));
    ParamCounter bad;
    bad.add("x.lora_b", std::vector<std::uint64_t>{8, 32});
    bad.add("y.weight", std::vector<std::uint64_t>{8});
    QCOMPARE(bad.counts().total, std::int64_t(0));
}

void TestGeneralKvs::path_names() {
    QCOMPARE(QString::fromStdString(path_name("inputs/Qwen3-0.6B")), QString("Qwen3-0.6B"));
    QCOMPARE(QString::fromStdString(path_name("inputs/Qwen3-0.6B/")), QString("Qwen3-0.6B"));
    QCOMPARE(QString::fromStdString(path_name("a/./")), QString("a"));
    QCOMPARE(QString::fromStdString(path_name(".")), QString(""));
    QCOMPARE(QString::fromStdString(path_name("/")), QString(""));
    QCOMPARE(QString::fromStdString(path_name("a/..")), QString(".."));
    QCOMPARE(QString::fromStdString(path_name("Qwen3-0.6B")), QString("Qwen3-0.6B"));
}

void TestGeneralKvs::front_matter_errors() {
    std::string what;
    auto code = test::error_code_of([&] { read_model_card("---\nlicense: [mit\n---\n", "/m/README.md"); }, &what);
    QCOMPARE(code, std::optional<ErrorCode>(ErrorCode::Malformed));
    QVERIFY2(what.rfind("/m/README.md: README.md front matter: ", 0) == 0, what.c_str());
    QVERIFY2(what.find("(line ") != std::string::npos, what.c_str());
    code = test::error_code_of([&] { read_model_card("---\na: 2024-02-30\n---\n", "R"); }, &what);
    QCOMPARE(code, std::optional<ErrorCode>(ErrorCode::Malformed));
    code = test::error_code_of([&] { read_model_card("---\na: !custom x\n---\n", "R"); }, &what);
    QCOMPARE(code, std::optional<ErrorCode>(ErrorCode::Malformed));
    code = test::error_code_of([&] { read_model_card("---\na: 1\n--- # two\nb: 2\n", "R"); }, &what);
    QCOMPARE(code, std::optional<ErrorCode>(ErrorCode::Malformed));
    code = test::error_code_of([&] { read_model_card("---\na: \x01\n---\n", "R"); }, &what);
    QCOMPARE(code, std::optional<ErrorCode>(ErrorCode::Malformed));
    code = test::error_code_of([&] { read_model_card("---\na: \xff\n---\n", "R"); }, &what);
    QCOMPARE(code, std::optional<ErrorCode>(ErrorCode::BadText));
    std::string warning;
    const CardValue v = read_model_card("---\n- a\n---\n", "R", &warning);
    QVERIFY(v.dict.empty());
    QVERIFY2(warning.find("instead of dict") != std::string::npos, warning.c_str());
}

QTEST_APPLESS_MAIN(TestGeneralKvs)
#include "test_general_kvs.moc"
