// SPDX-License-Identifier: MIT OR Apache-2.0
// The runner of every write job (exec/run_output_plan.hpp): the order of
// writes and of a scheme encoder's steps, progress totals, batches, cancel,
// and a failing unit leaving nothing at the output path.
#include "anamnesis/catalog.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/executor.hpp"
#include "sink/safetensors_writer.hpp"
#include "exec/chunk_rows.hpp"
#include "exec/encode_type.hpp"
#include "exec/run_output_plan.hpp"
#include "test_support.hpp"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace amn;
using namespace amn::exec;

namespace {

// rows × cols f32 values: value(row, col) = base + row * cols + col. Throws
// at row `fail_row` (when set), counts the rows decoded.
class CountingRecipe final : public Recipe {
public:
    CountingRecipe(std::uint64_t rows, std::uint64_t cols, float base, std::int64_t fail_row = -1,
                   std::int64_t nan_index = -1)
        : rows_(rows), cols_(cols), base_(base), fail_row_(fail_row), nan_index_(nan_index) {}
    std::string describe() const override { return "counting"; }
    std::string scheme_id() const override { return "counting"; }
    std::uint64_t rows() const override { return rows_; }
    std::uint64_t row_elems() const override { return cols_; }
    void dequantize_rows(std::uint64_t row0, std::uint64_t nrows, float* out) const override {
        if (fail_row_ >= 0 && std::uint64_t(fail_row_) >= row0 && std::uint64_t(fail_row_) < row0 + nrows)
            throw Error(ErrorCode::Malformed, "broken row");
        for (std::uint64_t r = 0; r < nrows; ++r)
            for (std::uint64_t c = 0; c < cols_; ++c) {
                const std::uint64_t i = (row0 + r) * cols_ + c;
                out[r * cols_ + c] = std::int64_t(i) == nan_index_ ? std::nanf("") : base_ + float(i);
            }
    }
    std::optional<DType> lossless_dtype() const override { return DType::F32; }
    void copy_rows(std::uint64_t row0, std::uint64_t nrows, std::uint8_t* out) const override {
        std::vector<float> f(nrows * cols_);
        dequantize_rows(row0, nrows, f.data());
        std::memcpy(out, f.data(), f.size() * 4);
    }

private:
    std::uint64_t rows_, cols_;
    float base_;
    std::int64_t fail_row_, nan_index_;
};

// A sink that records every call (thread-safe) and keeps the bytes.
class RecordingSink final : public TensorSink {
public:
    struct Write {
        std::size_t tensor;
        std::uint64_t offset, len;
    };
    std::size_t add_tensor(std::string name, DType, std::vector<std::uint64_t> shape) override {
        std::uint64_t n = 4;
        for (auto d : shape) n *= d;
        names.push_back(std::move(name));
        data.emplace_back(n);
        return data.size() - 1;
    }
    std::size_t tensor_count() const noexcept override { return data.size(); }
    std::uint64_t tensor_nbytes(std::size_t i) const override { return data.at(i).size(); }
    void allocate() override { laid_out = true; }
    void write(std::size_t t, std::uint64_t offset, std::span<const std::uint8_t> bytes) override {
        std::lock_guard lock(mu);
        QVERIFY(laid_out && !committed);
        std::memcpy(data.at(t).data() + offset, bytes.data(), bytes.size());
        writes.push_back({t, offset, bytes.size()});
    }
    void set_tail_tensor(std::size_t t, std::vector<std::uint64_t>, std::span<const std::uint8_t> bytes) override {
        std::lock_guard lock(mu);
        data.at(t).assign(bytes.begin(), bytes.end());
        tails.push_back(t);
    }
    void commit() override { committed = true; }
    void abort() noexcept override { aborted = true; }
    const std::string& path() const noexcept override { return path_; }

    std::vector<float> floats(std::size_t t) const {
        std::vector<float> f(data.at(t).size() / 4);
        std::memcpy(f.data(), data.at(t).data(), f.size() * 4);
        return f;
    }

    std::mutex mu;
    std::vector<std::string> names;
    std::vector<std::vector<std::uint8_t>> data;
    std::vector<Write> writes;
    std::vector<std::size_t> tails;
    bool laid_out = false, committed = false, aborted = false;
    std::string path_ = "recording";
};

// A scheme encoder that logs its steps: payload = the values + 1 (F32),
// companion = the row sums seen by the first pass, tail = "tail".
class LoggingEncoder final : public SchemeEncoder {
public:
    LoggingEncoder(std::string name, std::vector<std::string>& log, std::mutex& mu, bool prepass, bool after)
        : name_(std::move(name)), log_(log), mu_(mu), prepass_(prepass), after_(after) {}
    bool needs_prepass() const noexcept override { return prepass_; }
    bool needs_after_pass() const noexcept override { return after_; }
    void start() override { note("start"); }
    void prepass(ChunkRows& rows) override {
        const float* x = rows.decode(true, false);
        std::lock_guard lock(mu_);
        for (std::uint64_t r = 0; r < rows.nrows(); ++r) sum_ += x[r * rows.cols()];
        ++prepass_chunks_;
    }
    void finish_prepass() override { note("finish_prepass " + std::to_string(prepass_chunks_)); }
    void encode(ChunkRows& rows, std::unique_ptr<EncoderScratch>&, const SlotWriteFn& write, detail::LossSums& loss) override {
        const float* x = rows.decode(true, true);
        std::vector<float> y(rows.nrows() * rows.cols());
        for (std::size_t i = 0; i < y.size(); ++i) y[i] = x[i] + 1, loss.add(x[i], y[i]);
        write(0, rows.row0() * rows.cols() * 4, {reinterpret_cast<const std::uint8_t*>(y.data()), y.size() * 4});
        std::lock_guard lock(mu_);
        ++encode_chunks_;
    }
    void after_pass(const SlotWriteFn&) override { note("after_pass " + std::to_string(encode_chunks_)); }
    std::uint64_t finish(const SlotWriteFn& write, const TailSetFn& tail) override {
        note("finish");
        write(1, 0, {reinterpret_cast<const std::uint8_t*>(&sum_), 4});
        static const std::string t = "tail";
        tail(2, {reinterpret_cast<const std::uint8_t*>(t.data()), t.size()});
        return t.size();
    }

private:
    void note(const std::string& what) {
        std::lock_guard lock(mu_);
        log_.push_back(name_ + ": " + what);
    }
    std::string name_;
    std::vector<std::string>& log_;
    std::mutex& mu_;
    bool prepass_, after_;
    float sum_ = 0;
    int prepass_chunks_ = 0, encode_chunks_ = 0;
};

OutputTensor rows_tensor(TensorSink& sink, const std::string& name, std::uint64_t rows, std::uint64_t cols, float base,
                         Encoding enc, std::int64_t fail_row = -1) {
    OutputTensor t;
    t.name = name;
    t.recipe = std::make_shared<CountingRecipe>(rows, cols, base, fail_row);
    t.sink_tensors = {sink.add_tensor(name, DType::F32, {rows, cols})};
    t.encoding = std::move(enc);
    t.bytes = rows * cols * 4;
    t.numel = rows * cols;
    t.rows = rows, t.row_weight = cols * 4, t.granularity = 1, t.cols = cols;
    return t;
}

OutputTensor scheme_tensor(RecordingSink& sink, const std::string& name, std::uint64_t rows, std::uint64_t cols,
                           std::unique_ptr<SchemeEncoder> enc) {
    OutputTensor t = rows_tensor(sink, name, rows, cols, 0, std::move(enc));
    t.sink_tensors.push_back(sink.add_tensor(name + ".sum", DType::F32, {1}));
    t.sink_tensors.push_back(sink.add_tensor(name + ".tail", DType::U8, {0}));
    return t;
}

}  // namespace

class TestRunner : public QObject {
    Q_OBJECT
private slots:
    void writesEveryByteInUnitOrder() {
        const Catalog cat;
        RecordingSink sink;
        OutputPlan plan;
        plan.tensors.push_back(rows_tensor(sink, "a", 10, 4, 0, EncodeType{DType::F32, 4}));
        plan.tensors.push_back(rows_tensor(sink, "b", 7, 3, 100, CopyRows{}));
        RunOptions opt;
        opt.threads = 1;
        opt.chunk_bytes = 3 * 16;  // 3 rows of "a" per chunk
        run_output_plan(cat, std::move(plan), sink, opt);
        QVERIFY(sink.laid_out && sink.committed && !sink.aborted);
        // One worker: tensor after tensor, chunks in row order.
        std::vector<std::pair<std::size_t, std::uint64_t>> got, want{{0, 0}, {0, 48}, {0, 96}, {0, 144}, {1, 0}, {1, 48}};
        for (const auto& w : sink.writes) got.emplace_back(w.tensor, w.offset);
        QCOMPARE(got, want);
        const auto a = sink.floats(0), b = sink.floats(1);
        for (std::size_t i = 0; i < a.size(); ++i) QCOMPARE(a[i], float(i));
        for (std::size_t i = 0; i < b.size(); ++i) QCOMPARE(b[i], 100.0f + float(i));
    }

    void sameBytesOnManyThreads() {
        const Catalog cat;
        RecordingSink one, many;
        for (auto* s : {&one, &many}) {
            OutputPlan plan;
            for (int k = 0; k < 5; ++k)
                plan.tensors.push_back(rows_tensor(*s, "t" + std::to_string(k), 64, 16, float(k * 1000), EncodeType{DType::F32, 16}));
            RunOptions opt;
            opt.threads = s == &one ? 1 : 4;
            opt.chunk_bytes = 256;
            run_output_plan(cat, std::move(plan), *s, opt);
        }
        QCOMPARE(many.data, one.data);
    }

    // A ggml type row: chunks of whole rows give the bytes of one call over
    // the whole tensor; the round trip is measured for every value.
    void encodeTypeChunksMatchWholeTensor() {
        const Catalog cat;
        RecordingSink sink;
        OutputPlan plan;
        OutputTensor t = rows_tensor(sink, "q", 64, 64, -2000, EncodeType{DType::Q8_0, 64, 64, nullptr, LossMode::Measure});
        sink.data[0].assign(*dtype_bytes(DType::Q8_0, 64 * 64), 0);
        t.bytes = sink.data[0].size();
        plan.tensors.push_back(std::move(t));
        RunOptions opt;
        opt.threads = 3;
        opt.chunk_bytes = 5 * 256;  // 5 rows per chunk
        const auto res = run_output_plan(cat, std::move(plan), sink, opt);
        std::vector<float> x(64 * 64);
        CountingRecipe(64, 64, -2000).dequantize_rows(0, 64, x.data());
        std::vector<std::uint8_t> want(sink.data[0].size());
        encode_to_type(DType::Q8_0, x.data(), want.data(), x.size(), 64, 0, 64, nullptr);
        QVERIFY(sink.data[0] == want);
        QCOMPARE(res.loss[0].count, std::uint64_t(64 * 64));
        QVERIFY(res.loss[0].sse > 0);
    }

    void schemeStepsRunInOrder() {
        const Catalog cat;
        RecordingSink sink;
        std::vector<std::string> log;
        std::mutex mu;
        OutputPlan plan;
        plan.tensors.push_back(scheme_tensor(sink, "w1", 8, 4, std::make_unique<LoggingEncoder>("w1", log, mu, true, false)));
        plan.tensors.push_back(rows_tensor(sink, "kept", 2, 4, 0, CopyRows{}));
        plan.tensors.push_back(scheme_tensor(sink, "w2", 8, 4, std::make_unique<LoggingEncoder>("w2", log, mu, false, true)));
        RunOptions opt;
        opt.threads = 1;
        opt.chunk_bytes = 2 * 16;  // 2 rows per chunk: 4 chunks per weight
        opt.batch_elems = 8 * 4;   // batches: w1 (its first pass fills one), then kept + w2
        opt.prepass_batch_elems = 8 * 4;
        const auto res = run_output_plan(cat, std::move(plan), sink, opt);
        const std::vector<std::string> want{"w1: start", "w1: finish_prepass 4", "w1: finish",
                                            "w2: start", "w2: after_pass 4",     "w2: finish"};
        QCOMPARE(log, want);
        // Payload, the first pass's sum (rows 0..7 start at 0, 4, …, 28), the tail.
        const auto w1 = sink.floats(0);
        for (std::size_t i = 0; i < w1.size(); ++i) QCOMPARE(w1[i], float(i) + 1);
        QCOMPARE(sink.floats(1).at(0), 112.0f);
        QCOMPARE(std::string(sink.data[2].begin(), sink.data[2].end()), std::string("tail"));
        QCOMPARE(res.tail_bytes, (std::vector<std::uint64_t>{4, 0, 4}));
        // The loss, merged per tensor: every element off by 1.
        QCOMPARE(res.loss[0].count, std::uint64_t(32));
        QCOMPARE(res.loss[0].sse, 32.0);
        QCOMPARE(res.loss[1].count, std::uint64_t(0));
        QVERIFY(sink.committed);
    }

    // Scheme encoders read decoded rows rounded through OutputTensor::round_to
    // and checked finite: a NaN is an error naming its [row, col] and the tensor.
    void schemeRowsRoundedAndChecked() {
        const Catalog cat;
        std::vector<std::string> log;
        std::mutex mu;
        {
            RecordingSink sink;
            OutputPlan plan;
            OutputTensor t = scheme_tensor(sink, "w", 4, 4, std::make_unique<LoggingEncoder>("w", log, mu, false, false));
            t.recipe = std::make_shared<CountingRecipe>(4, 4, 1000.5f);
            t.round_to = DType::BF16;  // BF16 steps of 4 near 1000: 1000.5, 1001.5 → 1000; 1002.5 → 1004
            plan.tensors.push_back(std::move(t));
            run_output_plan(cat, std::move(plan), sink, RunOptions{});
            const auto w = sink.floats(0);
            QCOMPARE(w[0], 1001.0f);  // the encoder adds 1
            QCOMPARE(w[1], 1001.0f);
            QCOMPARE(w[2], 1005.0f);
        }
        RecordingSink sink;
        OutputPlan plan;
        OutputTensor t = scheme_tensor(sink, "w", 4, 4, std::make_unique<LoggingEncoder>("w", log, mu, false, false));
        t.recipe = std::make_shared<CountingRecipe>(4, 4, 0, -1, 2 * 4 + 3);
        plan.tensors.push_back(std::move(t));
        try {
            run_output_plan(cat, std::move(plan), sink, RunOptions{});
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Unsupported);
            QVERIFY2(std::string(e.what()).find("NaN at [2, 3]") != std::string::npos, e.what());
            QCOMPARE(e.tensor(), std::string("w"));
        }
        QVERIFY(sink.aborted && !sink.committed);
    }

    void progressCountsEveryPass() {
        const Catalog cat;
        RecordingSink sink;
        std::vector<std::string> log;
        std::mutex mu;
        OutputPlan plan;
        plan.tensors.push_back(rows_tensor(sink, "a", 100, 8, 0, EncodeType{DType::F32, 8}));
        plan.tensors.push_back(scheme_tensor(sink, "w", 50, 8, std::make_unique<LoggingEncoder>("w", log, mu, true, false)));
        RunOptions opt;
        opt.threads = 1;  // reports in order
        opt.chunk_bytes = 64;
        std::mutex pm;
        std::vector<Progress> seen;
        run_output_plan(cat, std::move(plan), sink, opt, [&](const Progress& p) {
            std::lock_guard lock(pm);
            seen.push_back(p);
        });
        // 100·32 + 50·32 for the chunks, 50·32 again for the first pass.
        const std::uint64_t total = 100 * 32 + 2 * 50 * 32;
        QVERIFY(!seen.empty());
        for (std::size_t i = 0; i < seen.size(); ++i) {
            QCOMPARE(seen[i].total, total);
            if (i) QVERIFY(seen[i].done >= seen[i - 1].done);
        }
        QCOMPARE(seen.back().done, total);
    }

    // Workers finish units out of order; what the progress callback sees must
    // still rise (a report of an earlier sum after a later one read as going
    // back). Many tiny units on several threads make the interleaving likely.
    void executorProgressNeverGoesBack() {
        std::vector<WorkUnit> units;
        for (std::size_t i = 0; i < 20000; ++i) units.push_back({i, 0, 1, 1 + i % 3});
        std::uint64_t total = 0;
        for (const auto& u : units) total += u.weight;
        for (int round = 0; round < 20; ++round) {
            std::vector<Progress> seen;
            run_units(units, 4, [](const WorkUnit&, unsigned) {}, [&](const Progress& p) { seen.push_back(p); });
            QVERIFY(!seen.empty());
            for (std::size_t i = 1; i < seen.size(); ++i)
                QVERIFY2(seen[i].done >= seen[i - 1].done,
                         qPrintable(QString("round %1: %2 after %3").arg(round).arg(seen[i].done).arg(seen[i - 1].done)));
            QCOMPARE(seen.back().done, total);
        }
    }

    void cancelAbortsTheSink() {
        const Catalog cat;
        RecordingSink sink;
        OutputPlan plan;
        plan.tensors.push_back(rows_tensor(sink, "a", 1000, 8, 0, EncodeType{DType::F32, 8}));
        std::atomic<bool> cancel{false};
        RunOptions opt;
        opt.threads = 1;
        opt.chunk_bytes = 64;
        try {
            run_output_plan(cat, std::move(plan), sink, opt, [&](const Progress& p) {
                if (p.done >= 640) cancel = true;
            }, &cancel);
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(e.code(), ErrorCode::Cancelled);
        }
        QVERIFY(sink.aborted && !sink.committed);
        QVERIFY(sink.writes.size() < 1000 / 2);
    }

    void failingUnitLeavesNothing() {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("out.safetensors").toStdString();
        const Catalog cat = [] {
            Catalog c;
            c.path = "input.safetensors";
            return c;
        }();
        for (unsigned threads : {1u, 3u}) {
            SafetensorsWriter sink(path);
            OutputPlan plan;
            plan.tensors.push_back(rows_tensor(sink, "good", 64, 8, 0, EncodeType{DType::F32, 8}));
            plan.tensors.push_back(rows_tensor(sink, "bad", 64, 8, 0, EncodeType{DType::F32, 8}, 40));
            RunOptions opt;
            opt.threads = threads;
            opt.chunk_bytes = 64;
            bool committed_companions = false;
            opt.before_commit = [&] { committed_companions = true; };
            try {
                run_output_plan(cat, std::move(plan), sink, opt);
                QFAIL("no error");
            } catch (const Error& e) {
                QCOMPARE(e.code(), ErrorCode::Malformed);
                QCOMPARE(e.tensor(), std::string("bad"));
                QCOMPARE(e.file(), std::string("input.safetensors"));
            }
            QVERIFY(!committed_companions);
            // Nothing at the output path, no temporary beside it.
            QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
        }
    }
};

QTEST_GUILESS_MAIN(TestRunner)
#include "test_runner.moc"
