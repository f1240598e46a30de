// SPDX-License-Identifier: MIT OR Apache-2.0
#include "valuepreview.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/npy_writer.hpp"
#include "anamnesis/human_bytes.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

namespace amn::ui {

namespace {

// A remote model's preview: download the input bytes the shown rows are
// decoded from (amn::preview_inputs) into its mirror, at most 64 MiB, and
// drop them from the mapping that read the holes before.
void fetchRemoteRows(const LoadedModel& m, int planIndex, const std::atomic<bool>& cancel) {
    constexpr std::uint64_t kLimit = 64ull << 20;
    const auto ranges = amn::preview_inputs(m.plan.tensors[static_cast<std::size_t>(planIndex)], ValuePreviewPanel::kRows, ValuePreviewPanel::kColumns);
    std::uint64_t total = 0;
    for (const auto& r : ranges) total += r.len;
    if (total > kLimit)
        throw amn::Error(amn::ErrorCode::LimitExceeded,
                         "the rows shown are decoded from " + amn::human_bytes(total) +
                             " of the remote files (a preview downloads at most " + amn::human_bytes(kLimit) +
                             "): download the model to see them");
    for (const auto& r : ranges) {
        const auto& shard = m.catalog.shards.at(r.shard);
        m.remote->fetch(shard.path, r.offset, r.len, &cancel);
        shard.file->release(r.offset, r.len, true);
    }
}

}  // namespace

namespace {

struct PreviewOutcome {
    int planIndex = -1;
    bool ok = false;
    QString error;
    amn::ValuePreview values;
};

struct ExportOutcome {
    bool ok = false;
    bool cancelled = false;
    QString path, error;
    quint64 bytes = 0;
};

}  // namespace

ValuePreviewPanel::ValuePreviewPanel(ModelPtr model, QWidget* parent) : QWidget(parent), model_(std::move(model)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    layout->addWidget(note_);
    table_ = new QTableWidget(this);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::ContiguousSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(table_, 1);

    auto* row = new QHBoxLayout;
    exportButton_ = new QPushButton(tr("Export as .&npy…"), this);
    exportButton_->setToolTip(tr("Write the whole dequantized tensor as a NumPy .npy file"));
    exportButton_->setEnabled(false);
    connect(exportButton_, &QPushButton::clicked, this, &ValuePreviewPanel::chooseAndExport);
    dtype_ = new QComboBox(this);
    dtype_->addItem(tr("as F32"), static_cast<int>(amn::DType::F32));
    dtype_->addItem(tr("as F16"), static_cast<int>(amn::DType::F16));
    dtype_->setToolTip(tr("Value type of the .npy file (BF16 has no NumPy type)"));
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setFormat(tr("export %p%"));
    progress_->setVisible(false);
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setVisible(false);
    connect(cancelButton_, &QPushButton::clicked, this, &ValuePreviewPanel::cancelExport);
    exportStatus_ = new QLabel(this);
    exportStatus_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    exportStatus_->setWordWrap(true);
    row->addWidget(exportButton_);
    row->addWidget(dtype_);
    row->addWidget(progress_, 1);
    row->addWidget(cancelButton_);
    row->addWidget(exportStatus_, 1);
    layout->addLayout(row);
    setTensor(-1);
}

ValuePreviewPanel::~ValuePreviewPanel() {
    previewJobs_.cancelAndWait();
    exportJobs_.cancelAndWait();
}

amn::DType ValuePreviewPanel::exportDtype() const { return static_cast<amn::DType>(dtype_->currentData().toInt()); }

void ValuePreviewPanel::setExportDtype(amn::DType dtype) {
    const int i = dtype_->findData(static_cast<int>(dtype));
    if (i >= 0) dtype_->setCurrentIndex(i);
}

void ValuePreviewPanel::setTensor(int planIndex) {
    previewJobs_.cancel();
    const auto& m = *model_;
    if (planIndex < 0 || planIndex >= static_cast<int>(m.plan.tensors.size()) ||
        !m.plan.tensors[static_cast<std::size_t>(planIndex)].recipe)
        planIndex = -1;
    planIndex_ = planIndex;
    table_->clear();
    table_->setRowCount(0);
    table_->setColumnCount(0);
    // A remote model: the rows shown are downloaded; a whole-tensor export is not offered.
    exportButton_->setEnabled(planIndex >= 0 && !exportJobs_.busy() && !(model_ && model_->isRemote()));
    if (planIndex < 0) {
        note_->setText(tr("Values are shown for output tensors."));
        return;
    }
    note_->setText(model_->isRemote() ? tr("Downloading the rows shown…") : tr("Reading values…"));
    ModelPtr model = model_;
    previewJobs_.start<PreviewOutcome>(
        this,
        [model, planIndex](const std::atomic<bool>& cancel) {
            PreviewOutcome o;
            o.planIndex = planIndex;
            try {
                if (model->isRemote()) fetchRemoteRows(*model, planIndex, cancel);
                o.values = amn::preview_values(model->plan.tensors[static_cast<std::size_t>(planIndex)], kRows, kColumns);
                o.ok = true;
            } catch (const std::exception& e) {
                o.error = QString::fromStdString(e.what());
            }
            return o;
        },
        [this](const PreviewOutcome& o) {
            if (!o.ok) {
                note_->setText(tr("Values could not be read: %1").arg(o.error));
                return;
            }
            const auto& v = o.values;
            const QLocale loc;
            table_->setRowCount(static_cast<int>(v.rows));
            table_->setColumnCount(static_cast<int>(v.cols));
            QStringList colLabels, rowLabels;
            for (std::uint64_t c = 0; c < v.cols; ++c) colLabels << loc.toString(static_cast<qulonglong>(c));
            for (std::uint64_t r = 0; r < v.rows; ++r) rowLabels << loc.toString(static_cast<qulonglong>(r));
            table_->setHorizontalHeaderLabels(colLabels);
            table_->setVerticalHeaderLabels(rowLabels);
            for (std::uint64_t r = 0; r < v.rows; ++r)
                for (std::uint64_t c = 0; c < v.cols; ++c) {
                    const float x = v.values[static_cast<std::size_t>(r * v.cols + c)];
                    auto* item = new QTableWidgetItem(loc.toString(static_cast<double>(x), 'g', 6));
                    item->setData(Qt::UserRole, static_cast<double>(x));
                    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                    table_->setItem(static_cast<int>(r), static_cast<int>(c), item);
                }
            note_->setText(tr("First %1 × %2 of %3 × %4 values (rows × columns, dequantized)")
                               .arg(loc.toString(static_cast<qulonglong>(v.rows)), loc.toString(static_cast<qulonglong>(v.cols)),
                                    loc.toString(static_cast<qulonglong>(v.total_rows)), loc.toString(static_cast<qulonglong>(v.total_cols))));
            emit previewReady(o.planIndex);
        });
}

void ValuePreviewPanel::chooseAndExport() {
    if (planIndex_ < 0) return;
    const auto& lt = model_->plan.tensors[static_cast<std::size_t>(planIndex_)];
    QString base = QString::fromStdString(lt.name);
    base.replace(QLatin1Char('/'), QLatin1Char('_'));
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export as .npy"), QDir(dir).filePath(base + QStringLiteral(".npy")),
                                                      tr("NumPy array (*.npy)"));
    if (path.isEmpty()) return;
    exportTo(path);
}

void ValuePreviewPanel::exportTo(const QString& path) {
    if (planIndex_ < 0) return;
    const int planIndex = planIndex_;
    const amn::DType dtype = exportDtype();
    ModelPtr model = model_;
    exportButton_->setEnabled(false);
    dtype_->setEnabled(false);
    progress_->setValue(0);
    progress_->setVisible(true);
    cancelButton_->setVisible(true);
    exportStatus_->clear();
    exportJobs_.startWithProgress<ExportOutcome>(
        this,
        [model, planIndex, dtype, path](const std::atomic<bool>& cancel, const std::function<void(int)>& report) {
            ExportOutcome o;
            o.path = path;
            try {
                const auto r = amn::write_npy(model->catalog, model->plan.tensors[static_cast<std::size_t>(planIndex)], path.toStdString(),
                                              dtype, true,
                                              [&](const amn::Progress& p) {
                                                  if (p.total) report(static_cast<int>(p.done * 1000 / p.total));
                                              },
                                              &cancel);
                o.ok = true;
                o.bytes = r.bytes;
            } catch (const amn::Error& e) {
                o.cancelled = e.code() == amn::ErrorCode::Cancelled;
                o.error = QString::fromStdString(e.what());
            } catch (const std::exception& e) {
                o.error = QString::fromStdString(e.what());
            }
            return o;
        },
        [this](const ExportOutcome& o) {
            progress_->setVisible(false);
            cancelButton_->setVisible(false);
            dtype_->setEnabled(true);
            exportButton_->setEnabled(planIndex_ >= 0);
            if (o.ok) {
                exportStatus_->setText(tr("Written: %1 (%2)").arg(QDir::toNativeSeparators(QFileInfo(o.path).absoluteFilePath()),
                                                                  QLocale().formattedDataSize(static_cast<qint64>(o.bytes))));
                emit exportFinished(true, o.path, QString());
            } else {
                const QString msg = o.cancelled ? tr("Export cancelled; no file written.") : tr("Export failed: %1").arg(o.error);
                exportStatus_->setText(msg);
                emit exportFinished(false, o.path, msg);
            }
        },
        [this](int v) { progress_->setValue(v); });
}

void ValuePreviewPanel::cancelExport() {
    if (!exportJobs_.busy()) return;
    exportJobs_.cancel();  // the worker stops at its next chunk; the temporary file is removed
    progress_->setVisible(false);
    cancelButton_->setVisible(false);
    dtype_->setEnabled(true);
    exportButton_->setEnabled(planIndex_ >= 0);
    const QString msg = tr("Export cancelled; no file written.");
    exportStatus_->setText(msg);
    emit exportFinished(false, QString(), msg);
}

}  // namespace amn::ui
