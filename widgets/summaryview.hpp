// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Summary of an opened model (format, schemes in words, counts by role,
// sizes, Lethe) and the breakdown chart. The metadata browser is in
// metadataview.hpp.

#include "charts.hpp"
#include "loadedmodel.hpp"
#include "metadataview.hpp"

#include "anamnesis/hf_to_gguf.hpp"

#include <QWidget>

#include <optional>
#include <vector>

class QLabel;

namespace amn::ui {

/// The Overview's breakdown rows for `m` (stored bytes by dtype, by scheme):
/// a pass over every tensor, so thread-safe and meant for the loading worker.
std::vector<BreakdownChart::Row> summaryBreakdownRows(const LoadedModel& m);

class SummaryView : public QWidget {
    Q_OBJECT
public:
    /// `rows`: summaryBreakdownRows(*model) computed on a worker, taken over;
    /// without them the view computes them here (a pass over every tensor).
    explicit SummaryView(ModelPtr model, QWidget* parent = nullptr, std::optional<std::vector<BreakdownChart::Row>> rows = {});
    BreakdownChart* breakdown() const { return chart_; }
    /// What a Hugging Face folder becomes in GGUF (field "gguf"; until set it
    /// says the tokenizer is being read). No-op for other inputs.
    void setHfGgufInfo(const amn::HfGgufInfo& info);
    /// The field texts by key ("format", "schemes", "tensors", "size", "lethe", "gguf"), for tests.
    QString field(const QString& key) const;

signals:
    /// The Overview's "Convert…" button.
    void convertRequested();

private:
    ModelPtr model_;
    BreakdownChart* chart_ = nullptr;
    QHash<QString, QLabel*> fields_;
};

// MetadataView: metadataview.hpp.

}  // namespace amn::ui
