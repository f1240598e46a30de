// SPDX-License-Identifier: MIT OR Apache-2.0
// TensorTreeModel:
//   * passes QAbstractItemModelTester while sorting and filtering;
//   * for every reference case of every kind the core converts (fp8, gptq,
//     awq, bnb, gguf, npz, pth, ollama), the tree's output tensors and shapes
//     are those of expected.safetensors and its BF16 size is 2 bytes per
//     expected element;
//   * for every FP8 reference fixture and the sample model, the tree holds
//     exactly the output tensors of expected.safetensors, each quantized
//     tensor's children are the input tensors fixture.json lists, and the
//     root's stored / BF16 sizes equal the bytes of the input header and of
//     expected.safetensors (both read by the independent test reader);
//   * natural name sort, column sort, file order, substring and regex filter;
//   * releaseRows() gives up the rows shown and leaves the file order;
//   * 100 000 tensors: builds and filters (times printed, not asserted).
#include "loadedmodel.hpp"
#include "modelview.hpp"
#include "tensortreemodel.hpp"
#include "widget_test_util.hpp"

#include "anamnesis/error.hpp"

#include "test_support.hpp"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest/QtTest>

#include <functional>

using namespace amn::ui;

namespace {

QString sampleDir() { return QString::fromStdString(amn::test::source_dir()) + "/fixtures/sample/tiny-llama-fp8"; }

/// Logical tensor names under `parent`, depth first.
void collect(const TensorTreeModel& m, const QModelIndex& parent, QStringList& logical, QStringList& stored) {
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex i = m.index(r, 0, parent);
        const int kind = m.data(i, TensorTreeModel::KindRole).toInt();
        if (kind == TreeNode::Logical) logical << m.data(i, TensorTreeModel::FullNameRole).toString();
        if (kind == TreeNode::Stored) stored << m.data(i, TensorTreeModel::FullNameRole).toString();
        collect(m, i, logical, stored);
    }
}

quint64 rootValue(const TensorTreeModel& m, int column) {
    quint64 sum = 0;
    for (int r = 0; r < m.rowCount(); ++r) sum += m.data(m.index(r, column), TensorTreeModel::SortValueRole).toULongLong();
    return sum;
}

}  // namespace

class TestTensorTree : public QObject {
    Q_OBJECT
private slots:
    void modelTester() {
        ModelPtr model = loadModel(sampleDir());
        TensorTreeModel m(model);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTreeView view;
        view.setModel(&m);
        view.expandAll();
        QPersistentModelIndex keep = m.indexForLogical(3);
        QVERIFY(keep.isValid());
        const QString kept = keep.data(TensorTreeModel::FullNameRole).toString();
        for (int c = 0; c < TensorTreeModel::ColumnCount; ++c) {
            m.sort(c, Qt::AscendingOrder);
            m.sort(c, Qt::DescendingOrder);
            QCOMPARE(keep.data(TensorTreeModel::FullNameRole).toString(), kept);  // persistent index follows
        }
        m.sort(-1);
        QVERIFY(m.setFilter("proj", false));
        QVERIFY(m.setFilter("^model\\.layers\\.0\\.self_attn", true));
        QVERIFY(!m.setFilter("([unclosed", true));
        QVERIFY(m.setFilter({}, false));
        QCOMPARE(m.visibleTensorCount(), int(model->plan.tensors.size()));
    }

    // Every reference case of every kind whose format and scheme this build
    // of the core converts: the tree's output tensors are exactly those of
    // expected.safetensors, with the same shapes, and the root's BF16 size is
    // 2 bytes per expected element. Cases the core does not convert yet skip.
    void everyReferenceCase_data() {
        AMN_REFERENCE_CASE_ROWS();
    }
    void everyReferenceCase() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        ModelPtr model;
        AMN_LOAD_REFERENCE_CASE(model, input);
        const auto outRaw = amn::test::read_safetensors_raw(expected.toStdString());
        QVERIFY(outRaw);
        TensorTreeModel m(model);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QStringList logical, stored;
        collect(m, {}, logical, stored);
        logical.sort();
        QStringList expectedNames;
        std::uint64_t elements = 0;
        for (const auto& [name, t] : outRaw->tensors) {
            expectedNames << QString::fromStdString(name);
            std::uint64_t n = 1;
            for (auto d : t.shape) n *= d;
            elements += n;
        }
        QCOMPARE(logical, expectedNames);
        QCOMPARE(rootValue(m, TensorTreeModel::Bf16Column), 2 * elements);
        for (std::size_t li = 0; li < model->plan.tensors.size(); ++li) {
            const QModelIndex i = m.indexForLogical(int(li));
            const auto& out = outRaw->tensors.at(model->plan.tensors[li].name);
            QCOMPARE(m.index(i.row(), TensorTreeModel::ShapeColumn, i.parent()).data().toString(), shapeText(out.shape));
        }
    }

    void referenceFixtures_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QStringList>("sources");  // inputs of the quantized tensor (fixture.json)
        QTest::newRow("sample") << sampleDir()
                                << QString::fromStdString(amn::test::source_dir()) + "/fixtures/sample/expected/tiny-llama-fp8-bf16.safetensors"
                                << QStringList{};
        const std::string ref = amn::test::reference_dir();
        if (amn::test::reference_dir().empty()) {
            if (amn::test::reference_required()) QFAIL("reference fixtures missing and AMN_REQUIRE_REFERENCE=1");
            return;
        }
        for (const QString& c : amn::test::reference_cases("fp8")) {
            QFile f(c + "/fixture.json");
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto j = QJsonDocument::fromJson(f.readAll()).object();
            QStringList inputs;
            for (const auto& v : j["input_tensors"].toArray()) inputs << v.toString();
            QTest::newRow(qPrintable(QDir(c).dirName())) << c + "/input" << c + "/expected.safetensors" << inputs;
        }
    }
    void referenceFixtures() {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QFETCH(QStringList, sources);
        const auto inRaw = amn::test::read_safetensors_raw((input + "/model.safetensors").toStdString());
        const auto outRaw = amn::test::read_safetensors_raw(expected.toStdString());
        QVERIFY(inRaw && outRaw);

        ModelPtr model = loadModel(input);
        TensorTreeModel m(model);
        QStringList logical, stored;
        collect(m, {}, logical, stored);
        QStringList expectedNames;
        for (const auto& [name, t] : outRaw->tensors) expectedNames << QString::fromStdString(name);
        logical.sort();
        QCOMPARE(logical, expectedNames);  // std::map order = sorted

        // Every stored tensor of the input appears once (as a source or a dropped companion).
        QStringList inputNames;
        std::uint64_t inputBytes = 0, fp8 = 0;
        for (const auto& [name, t] : inRaw->tensors) {
            inputNames << QString::fromStdString(name);
            inputBytes += t.bytes.size();
            fp8 += t.dtype == "F8_E4M3";
        }
        QStringList storedSorted = stored;
        storedSorted.removeDuplicates();
        storedSorted.sort();
        // Passthrough tensors are logical leaves without stored children.
        QStringList all = storedSorted + logical;
        all.removeDuplicates();
        all.sort();
        for (const QString& n : inputNames) QVERIFY2(all.contains(n), qPrintable(n));

        // Sizes: stored bytes = the input's tensor data, BF16 = expected output bytes.
        std::uint64_t outBytes = 0;
        for (const auto& [name, t] : outRaw->tensors) outBytes += t.bytes.size();
        QCOMPARE(rootValue(m, TensorTreeModel::StoredColumn), inputBytes);
        QCOMPARE(rootValue(m, TensorTreeModel::Bf16Column), outBytes);

        // Quantized leaves: one per F8 weight, typed "F8_E4M3 · <scheme>", children = fixture inputs.
        int quantized = 0;
        for (std::size_t li = 0; li < model->plan.tensors.size(); ++li) {
            const QModelIndex i = m.indexForLogical(int(li));
            QVERIFY(i.isValid());
            const QString type = m.index(i.row(), TensorTreeModel::TypeColumn, i.parent()).data().toString();
            if (!model->plan.tensors[li].quantized) continue;
            ++quantized;
            QVERIFY2(type.startsWith("F8_E4M3 · fp8"), qPrintable(type));
            if (!sources.isEmpty()) {
                // Sources are its children; inputs it does not consume (activation
                // scales) are dropped companions beside it.
                QStringList kids;
                for (int r = 0; r < m.rowCount(i); ++r) kids << m.index(r, 0, i).data(TensorTreeModel::FullNameRole).toString();
                for (int r = 0; r < m.rowCount(i.parent()); ++r) {
                    const QModelIndex s = m.index(r, 0, i.parent());
                    if (s.data(TensorTreeModel::KindRole).toInt() == TreeNode::Stored) kids << s.data(TensorTreeModel::FullNameRole).toString();
                }
                kids.sort();
                QStringList want = sources;
                want.sort();
                QCOMPARE(kids, want);
            }
            const auto& out = outRaw->tensors.at(model->plan.tensors[li].name);
            QCOMPARE(m.index(i.row(), TensorTreeModel::ShapeColumn, i.parent()).data().toString(),
                     shapeText(out.shape));
        }
        QCOMPARE(quantized, int(fp8));
    }

    void sortAndFilter() {
        QTemporaryDir dir;
        std::vector<amn::test::GenTensor> ts;
        for (int i : {0, 1, 2, 10, 11, 3}) {
            const std::string n = "layers." + std::to_string(i) + ".w";
            ts.push_back({n, "F32", {std::uint64_t(i + 1)}, std::uint64_t(4 * (i + 1))});
        }
        QVERIFY(amn::test::write_safetensors(dir.filePath("m.safetensors"), ts));
        ModelPtr model = loadModel(dir.filePath("m.safetensors"));
        TensorTreeModel m(model);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QModelIndex layers = m.index(0, 0);
        QCOMPARE(layers.data().toString(), QString("layers"));
        auto order = [&] {
            QStringList s;
            for (int r = 0; r < m.rowCount(layers); ++r) s << m.index(r, 0, layers).data().toString();
            return s;
        };
        QCOMPARE(order(), (QStringList{"0", "1", "2", "10", "11", "3"}));  // file order
        m.sort(TensorTreeModel::NameColumn, Qt::AscendingOrder);
        QCOMPARE(order(), (QStringList{"0", "1", "2", "3", "10", "11"}));  // natural
        m.sort(TensorTreeModel::StoredColumn, Qt::DescendingOrder);
        QCOMPARE(order(), (QStringList{"11", "10", "3", "2", "1", "0"}));
        m.sort(-1);
        QCOMPARE(order(), (QStringList{"0", "1", "2", "10", "11", "3"}));

        auto groupValue = [&](int column) {
            return m.index(0, column).data(TensorTreeModel::SortValueRole).toULongLong();
        };
        QCOMPARE(groupValue(TensorTreeModel::ParamsColumn), quint64(1 + 2 + 3 + 11 + 12 + 4));
        QVERIFY(!m.filterActive());
        QVERIFY(m.setFilter("layers.1", false));
        QCOMPARE(m.visibleTensorCount(), 3);  // 1, 10, 11
        // Group rows count what the filter shows.
        QVERIFY(m.filterActive());
        QCOMPARE(groupValue(TensorTreeModel::ParamsColumn), quint64(2 + 11 + 12));
        QCOMPARE(groupValue(TensorTreeModel::StoredColumn), quint64(4 * (2 + 11 + 12)));
        QCOMPARE(groupValue(TensorTreeModel::Bf16Column), quint64(2 * (2 + 11 + 12)));
        QVERIFY2(m.index(0, TensorTreeModel::TypeColumn).data().toString().startsWith("3 "),
                 qPrintable(m.index(0, TensorTreeModel::TypeColumn).data().toString()));
        QCOMPARE(m.index(0, TensorTreeModel::ParamsColumn).data().toString(), QLocale().toString(25));
        m.sort(TensorTreeModel::StoredColumn, Qt::DescendingOrder);  // sorting keeps working under a filter
        m.sort(-1);
        QVERIFY(m.setFilter("LAYERS\\.1\\.", true));
        QCOMPARE(m.visibleTensorCount(), 1);
        QCOMPARE(m.rowCount(m.index(0, 0)), 1);
        QVERIFY(m.setFilter("nothing-matches", false));
        QCOMPARE(m.rowCount(), 0);
        QVERIFY(m.setFilter({}, false));
        QCOMPARE(m.visibleTensorCount(), 6);
        QVERIFY(!m.filterActive());
        QCOMPARE(groupValue(TensorTreeModel::ParamsColumn), quint64(33));

        QVERIFY(TensorTreeModel::naturalLess("a2", "a10"));
        QVERIFY(!TensorTreeModel::naturalLess("a10", "a2"));
        QVERIFY(TensorTreeModel::naturalLess("layers.9.w", "layers.10.w"));
        QVERIFY(TensorTreeModel::naturalLess("a2", "a02"));
        QVERIFY(!TensorTreeModel::naturalLess("a2", "a2"));
    }

    // A sort computed ahead (on the loading worker) and adopted gives the rows
    // sort() gives, and sorting again by the same column is then free.
    void adoptedSortMatchesSort() {
        ModelPtr model = loadModel(sampleDir());
        for (int column : {int(TensorTreeModel::NameColumn), int(TensorTreeModel::TypeColumn), int(TensorTreeModel::StoredColumn)})
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                TensorTreeModel sorted(model), adopted(model);
                sorted.sort(column, order);
                adopted.adoptSorted(TensorTreeModel::sortedRows(model, column, order));
                QAbstractItemModelTester tester(&adopted, QAbstractItemModelTester::FailureReportingMode::QtTest);
                std::function<void(const QModelIndex&, const QModelIndex&)> same = [&](const QModelIndex& a, const QModelIndex& b) {
                    QCOMPARE(adopted.rowCount(a), sorted.rowCount(b));
                    for (int r = 0; r < sorted.rowCount(b); ++r) {
                        const QModelIndex ca = adopted.index(r, 0, a), cb = sorted.index(r, 0, b);
                        QCOMPARE(ca.data(TensorTreeModel::FullNameRole).toString(), cb.data(TensorTreeModel::FullNameRole).toString());
                        QCOMPARE(adopted.parent(ca), a);
                        same(ca, cb);
                    }
                };
                same({}, {});
                adopted.sort(column, order);  // the header asking again: no change
                same({}, {});
            }
    }

    // Closing a tab hands the sort/filter rows over to be freed on a worker:
    // the rows given up are those the model showed, and the model is left
    // in file order with everything visible, as a fresh model.
    void releaseRowsLeavesFileOrder() {
        ModelPtr model = loadModel(sampleDir());
        const TensorTreeModel fresh(model);
        QStringList freshLogical, freshStored;
        collect(fresh, {}, freshLogical, freshStored);
        TensorTreeModel m(model);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.releaseRows().rows.size(), std::size_t(0));  // file order: nothing of its own to give up
        m.sort(TensorTreeModel::NameColumn, Qt::DescendingOrder);
        QVERIFY(m.setFilter("mlp", false));
        const int filtered = m.visibleTensorCount();
        QVERIFY(filtered > 0 && filtered < freshLogical.size());
        QStringList shownTop;
        for (int r = 0; r < m.rowCount(); ++r) shownTop << m.index(r, 0).data().toString();
        const TensorTreeModel::SortedRows released = m.releaseRows();
        QCOMPARE(released.column, int(TensorTreeModel::NameColumn));
        QCOMPARE(released.order, Qt::DescendingOrder);
        QCOMPARE(released.rows.size(), model->tree->nodes.size());
        QCOMPARE(released.rowOf.size(), model->tree->nodes.size());
        QStringList releasedTop;  // the root's rows as they were shown
        for (int node : released.rows[0]) releasedTop << model->tree->nodes[static_cast<std::size_t>(node)].label;
        QCOMPARE(releasedTop, shownTop);
        QVERIFY(!m.filterActive());
        QCOMPARE(m.filterText(), QString());
        QCOMPARE(m.visibleTensorCount(), freshLogical.size());
        QStringList logical, stored;
        collect(m, {}, logical, stored);
        QCOMPARE(logical, freshLogical);  // file order, nothing filtered
        QCOMPARE(stored, freshStored);
        QCOMPARE(m.releaseRows().rows.size(), std::size_t(0));
    }

    void copyName() {
        ModelPtr model = loadModel(sampleDir());
        ModelView view(model);
        QVERIFY(view.selectTensor("model.layers.0.mlp.down_proj.weight"));
        QCOMPARE(view.copyCurrentName(), QString("model.layers.0.mlp.down_proj.weight"));
        QCOMPARE(QApplication::clipboard()->text(), QString("model.layers.0.mlp.down_proj.weight"));
    }

    void hundredThousandTensors() {
        QTemporaryDir dir;
        std::vector<amn::test::GenTensor> ts;
        const int n = 100000;
        ts.reserve(n);
        for (int i = 0; i < n; ++i)
            ts.push_back({"model.layers." + std::to_string(i / 10) + ".t" + std::to_string(i % 10) + ".weight", "F32", {1}, 4});
        QVERIFY(amn::test::write_safetensors(dir.filePath("big.safetensors"), ts));
        QElapsedTimer t;
        t.start();
        ModelPtr model = loadModel(dir.filePath("big.safetensors"));
        const qint64 load = t.restart();
        TensorTreeModel m(model);
        QTreeView view;
        view.setUniformRowHeights(true);
        view.setModel(&m);
        view.resize(800, 600);
        view.show();
        QApplication::processEvents();
        const qint64 shown = t.restart();
        QCOMPARE(m.visibleTensorCount(), n);
        QVERIFY(m.setFilter("layers.9999.", false));
        const qint64 filtered = t.restart();
        QCOMPARE(m.visibleTensorCount(), 10);
        m.sort(TensorTreeModel::NameColumn, Qt::DescendingOrder);
        const qint64 sorted = t.restart();
        qInfo("100000 tensors: open+plan+index %lld ms, model+view %lld ms, filter %lld ms, sort %lld ms",
              load, shown, filtered, sorted);
    }
};

QTEST_MAIN(TestTensorTree)
#include "test_tensor_tree.moc"
