// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// The metadata browser of a model tab: safetensors __metadata__, GGUF
// key/values (typed: arrays shown as their element type and length),
// quantization_config, pickle globals, notes. Long values open in full in a
// read-only viewer; any row can be copied.

#include "loadedmodel.hpp"

#include <QDialog>
#include <QWidget>

class QLineEdit;
class QPlainTextEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace amn {
struct MetaValue;
}

namespace amn::ui {

/// The short text a metadata row shows for `v`: arrays as "array of 512
/// strings" / "array of 3 i32 values" (element type and length, numbers in
/// the UI locale), strings as their text, numbers and bools as JSON.
QString metadataDisplayText(const amn::MetaValue& v);

/// The full text of `v` for the viewer and Copy: a string as its text
/// (UTF-8, invalid bytes as U+FFFD), arrays as JSON with one element per
/// line, numbers and bools as JSON.
QString metadataFullText(const amn::MetaValue& v);

/// Read-only viewer of one long value (monospace, Copy button).
class MetadataValueDialog : public QDialog {
    Q_OBJECT
public:
    MetadataValueDialog(const QString& key, const QString& value, QWidget* parent = nullptr);
    QString text() const;
    /// Put the whole value on the clipboard (the Copy button).
    void copyAll();

private:
    QPlainTextEdit* edit_ = nullptr;
};

/// Key/value browser with a filter (GGUF files carry hundreds of keys).
/// Double-click or Enter on a row opens its value in a MetadataValueDialog;
/// the context menu offers "Show full value…", "Copy value" and "Copy name";
/// Ctrl+C copies the value (the name for a section row).
class MetadataView : public QWidget {
    Q_OBJECT
public:
    explicit MetadataView(ModelPtr model, QWidget* parent = nullptr);
    int entryCount() const;

    /// The row of `key` (first match, any section), or nullptr. For tests.
    QTreeWidgetItem* findRow(const QString& key) const;
    /// The full value of a row (what the viewer shows and Copy copies).
    QString fullValue(const QTreeWidgetItem* row) const;
    QTreeWidget* tree() const { return tree_; }

    /// Open the viewer for `row` (no-op for a section row); returns it.
    MetadataValueDialog* showValue(QTreeWidgetItem* row);
    /// Copy the value (or, for a section row, its title) of `row`.
    void copyValue(const QTreeWidgetItem* row) const;
    /// Copy the name (key) of `row`.
    void copyName(const QTreeWidgetItem* row) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void applyFilter(const QString& text);
    void showContextMenu(const QPoint& pos);
    ModelPtr model_;
    QLineEdit* filter_ = nullptr;
    QTreeWidget* tree_ = nullptr;
};

}  // namespace amn::ui
