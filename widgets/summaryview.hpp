// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Summary of an opened model (format, schemes in words, counts by role,
// sizes, Lethe) and the breakdown chart. The metadata browser is in
// metadataview.hpp.

#include "loadedmodel.hpp"
#include "metadataview.hpp"

#include <QWidget>

class QLabel;

namespace amn::ui {

class BreakdownChart;

class SummaryView : public QWidget {
    Q_OBJECT
public:
    explicit SummaryView(ModelPtr model, QWidget* parent = nullptr);
    BreakdownChart* breakdown() const { return chart_; }
    /// The field texts by key ("format", "schemes", "tensors", "size", "lethe"), for tests.
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
