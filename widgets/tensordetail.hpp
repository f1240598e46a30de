// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Tensor detail: shape, dtype, scheme, sources (names elided in the middle),
// a value preview with "Export as .npy…" (valuepreview.hpp), and value
// statistics with a histogram computed on a worker thread (QtConcurrent + QPromise). Each
// request gets a job id; a result whose id is no longer current is dropped
// (the user clicked another tensor meanwhile), and the superseded job is
// cancelled. The destructor cancels and waits: no worker outlives the view.

#include "jobtracker.hpp"
#include "loadedmodel.hpp"

#include "anamnesis/round_trip_estimate.hpp"
#include "anamnesis/value_stats.hpp"

#include <QFuture>
#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace amn::ui {

class HistogramChart;
class ValuePreviewPanel;

class TensorDetail : public QWidget {
    Q_OBJECT
public:
    explicit TensorDetail(ModelPtr model, QWidget* parent = nullptr);
    ~TensorDetail() override;

    /// Show tree node `node` (TensorTree id); starts statistics for tensors
    /// when automatic statistics are on (default).
    void showNode(int node);
    /// Start statistics for logical tensor `planIndex` (cancels the previous job).
    void computeStats(int planIndex);
    void setAutoStats(bool on) { autoStats_ = on; }

    quint64 currentJob() const { return jobs_.current(); }
    bool isComputing() const;
    /// Last statistics shown (valid after statsReady).
    const amn::ValueStats& stats() const { return stats_; }
    HistogramChart* histogram() const { return histogram_; }
    /// The "Values" tab: first rows × columns and "Export as .npy…".
    ValuePreviewPanel* preview() const { return preview_; }
    /// The stored-tensor list (names elided in the middle, full name in the tooltip).
    QTreeWidget* sources() const { return sources_; }
    QString statText(const QString& key) const;

signals:
    /// Statistics for `planIndex` are shown (job `job`).
    void statsReady(quint64 job, int planIndex);
    void statsFailed(quint64 job, const QString& message);

protected:
    void resizeEvent(QResizeEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void elideTitle();
    void fitSourceColumns();  ///< name column ≥ 55 % of the width, the others shrunk to fit
    struct Outcome {
        quint64 job = 0;
        int planIndex = -1;
        bool ok = false;
        bool cancelled = false;
        QString error;
        amn::ValueStats stats;
        amn::RoundTripError round_trip;  ///< "what Lethe took", re-quantization estimate (round_trip_estimate.hpp)
    };
    void onFinished(const Outcome& o);
    void clearStats(const QString& message);

    ModelPtr model_;
    bool autoStats_ = true;
    QLabel* title_ = nullptr;
    QString fullTitle_;  ///< title_ shows it elided in the middle, in full in the tooltip
    QLabel* info_ = nullptr;
    QTreeWidget* sources_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* statsButton_ = nullptr;
    QHash<QString, QLabel*> statLabels_;
    HistogramChart* histogram_ = nullptr;
    ValuePreviewPanel* preview_ = nullptr;
    int planIndex_ = -1;
    JobTracker jobs_;  ///< statistics of the shown tensor; stale results dropped
    amn::ValueStats stats_;
};

}  // namespace amn::ui
