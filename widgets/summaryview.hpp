// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Summary of an opened model (format, schemes in words, counts by role,
// sizes, Lethe), the breakdown chart, and the metadata browser
// (safetensors __metadata__, GGUF key/values, quantization_config, notes).

#include "loadedmodel.hpp"

#include <QWidget>

class QLabel;
class QLineEdit;
class QTreeWidget;

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

/// Key/value browser with a filter (GGUF files carry hundreds of keys).
class MetadataView : public QWidget {
    Q_OBJECT
public:
    explicit MetadataView(ModelPtr model, QWidget* parent = nullptr);
    int entryCount() const;

private:
    void applyFilter(const QString& text);
    QLineEdit* filter_ = nullptr;
    QTreeWidget* tree_ = nullptr;
};


}  // namespace amn::ui
