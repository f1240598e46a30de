// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Value preview of one output tensor: the first rows × columns of its
// dequantized values in a table (amn::preview_values, computed on a worker
// through a JobTracker), and "Export as .npy…" (amn::write_npy on a worker
// with progress and cancel; F32 or F16 — BF16 has no NumPy dtype).

#include "jobtracker.hpp"
#include "loadedmodel.hpp"

#include "anamnesis/dtype.hpp"

#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace amn::ui {

class ValuePreviewPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRows = 64;     ///< rows shown at most
    static constexpr int kColumns = 16;  ///< columns shown at most

    explicit ValuePreviewPanel(ModelPtr model, QWidget* parent = nullptr);
    ~ValuePreviewPanel() override;

    /// Show logical tensor `planIndex` (−1: none); starts the preview job.
    void setTensor(int planIndex);
    int tensor() const { return planIndex_; }
    QTableWidget* table() const { return table_; }
    /// The dtype chosen for export: DType::F32 or DType::F16.
    amn::DType exportDtype() const;
    void setExportDtype(amn::DType dtype);
    /// Write the shown tensor to `path` (no dialog; replaces an existing
    /// file: the save dialog has asked). Emits exportFinished.
    void exportTo(const QString& path);
    bool isExporting() const { return exportJobs_.busy(); }
    /// Cancel a running export (no file is left behind).
    void cancelExport();

signals:
    void previewReady(int planIndex);
    /// `ok`: the file was written; else `message` says why (cancelled, error).
    void exportFinished(bool ok, const QString& path, const QString& message);

private:
    void chooseAndExport();
    ModelPtr model_;
    int planIndex_ = -1;
    QLabel* note_ = nullptr;
    QTableWidget* table_ = nullptr;
    QComboBox* dtype_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* exportStatus_ = nullptr;
    JobTracker previewJobs_;
    JobTracker exportJobs_;
};

}  // namespace amn::ui
