// SPDX-License-Identifier: MIT OR Apache-2.0
#include "metadataview.hpp"

#include "anamnesis/metadata.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <limits>

namespace amn::ui {

namespace {

constexpr int kFullValueRole = Qt::UserRole + 1;  // the whole value (viewer, Copy)
constexpr int kMetaIndexRole = Qt::UserRole + 2;  // index into Catalog::metadata: full value built on demand
constexpr int kShownChars = 300;                   // a row shows at most this much of a value

int clampCount(std::size_t n) { return static_cast<int>(std::min<std::size_t>(n, std::numeric_limits<int>::max())); }

QString fromBytes(const std::string& s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

}  // namespace

QString metadataDisplayText(const amn::MetaValue& v) {
    if (!v.is_array()) return fromBytes(amn::meta_text(v));
    const int n = clampCount(v.size());
    switch (v.elem_type) {
        case amn::GgufType::String: return MetadataView::tr("array of %Ln string(s)", nullptr, n);
        case amn::GgufType::Array: return MetadataView::tr("array of %Ln array(s)", nullptr, n);
        default:
            return MetadataView::tr("array of %Ln %1 value(s)", nullptr, n)
                .arg(QString::fromLatin1(amn::gguf_type_name(v.elem_type).data(),
                                         static_cast<qsizetype>(amn::gguf_type_name(v.elem_type).size())));
    }
}

QString metadataFullText(const amn::MetaValue& v) {
    if (!v.is_array()) return fromBytes(amn::meta_text(v));
    QString out = QStringLiteral("[");
    for (std::size_t i = 0; i < v.size(); ++i) {
        out += i ? QStringLiteral(",\n  ") : QStringLiteral("\n  ");
        out += fromBytes(amn::meta_json(v.at(i)));
    }
    out += v.empty() ? QStringLiteral("]") : QStringLiteral("\n]");
    return out;
}

// ---- MetadataValueDialog --------------------------------------------------------

MetadataValueDialog::MetadataValueDialog(const QString& key, const QString& value, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("metadataValueViewer"));
    setWindowTitle(tr("Value of %1").arg(key));
    setAttribute(Qt::WA_DeleteOnClose);
    auto* layout = new QVBoxLayout(this);
    auto* name = new QLabel(key, this);
    name->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(name);
    edit_ = new QPlainTextEdit(this);
    edit_->setObjectName(QStringLiteral("metadataValueText"));
    edit_->setReadOnly(true);
    edit_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    edit_->setPlainText(value);
    layout->addWidget(edit_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("metadataValueCopy"));
    connect(copy, &QPushButton::clicked, this, &MetadataValueDialog::copyAll);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(720, 520);
}

QString MetadataValueDialog::text() const { return edit_->toPlainText(); }

void MetadataValueDialog::copyAll() { QApplication::clipboard()->setText(edit_->toPlainText()); }

// ---- MetadataView -----------------------------------------------------------------

MetadataView::MetadataView(ModelPtr model, QWidget* parent) : QWidget(parent), model_(std::move(model)) {
    const auto& m = *model_;
    auto* layout = new QVBoxLayout(this);
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter keys and values"));
    filter_->setClearButtonEnabled(true);
    layout->addWidget(filter_);
    tree_ = new QTreeWidget(this);
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Key"), tr("Value")});
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    tree_->setColumnWidth(0, 320);
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    layout->addWidget(tree_);

    auto section = [&](const QString& title) {
        auto* s = new QTreeWidgetItem(tree_, {title});
        QFont f = s->font(0);
        f.setBold(true);
        s->setFont(0, f);
        s->setFirstColumnSpanned(true);
        return s;
    };
    // `shown`: the row text (a long value cut, line breaks as ⏎); `full`: the whole value.
    auto entry = [&](QTreeWidgetItem* parent, const QString& key, const QString& shown, const QString& full) {
        QString cell = shown;
        if (cell.size() > kShownChars) cell = cell.left(kShownChars) + QStringLiteral(" …");
        cell.replace(QLatin1Char('\n'), QStringLiteral(" ⏎ "));
        auto* it = new QTreeWidgetItem(parent, {key, cell});
        it->setData(1, kFullValueRole, full);
        it->setToolTip(1, full.size() > kShownChars || cell != full ? full.left(2000) : QString());
    };
    auto plain = [&](QTreeWidgetItem* parent, const QString& key, const QString& value) { entry(parent, key, value, value); };
    if (!m.catalog.metadata.empty()) {
        auto* s = section(tr("File metadata (%1)").arg(QString::fromStdString(std::string(amn::format_name(m.catalog.format)))));
        for (std::size_t i = 0; i < m.catalog.metadata.size(); ++i) {
            const auto& [k, v] = m.catalog.metadata[i];
            if (!v.is_array()) {
                const QString text = metadataFullText(v);
                entry(s, QString::fromStdString(k), text, text);
                continue;
            }
            // Arrays (a vocabulary of 150 000 strings): type and length in
            // the row, the first items as the tooltip, the whole on demand.
            auto* it = new QTreeWidgetItem(s, {QString::fromStdString(k), metadataDisplayText(v)});
            it->setData(1, kMetaIndexRole, QVariant::fromValue<qulonglong>(i));
            it->setToolTip(1, fromBytes(amn::meta_summary(v, 8)).left(2000));
        }
    }
    if (!m.catalog.quantization_config.empty()) {
        auto* s = section(tr("quantization_config (%1)").arg(QFileInfo(QString::fromStdString(m.catalog.config_path)).fileName()));
        s->setToolTip(0, QString::fromStdString(m.catalog.config_path));
        for (const auto& [k, v] : m.catalog.quantization_config) plain(s, QString::fromStdString(k), QString::fromStdString(v));
    }
    if (m.pickle && !m.pickle->globals.empty()) {
        auto* s = section(tr("Pickle globals (%1)").arg(QString::fromStdString(m.pickle->container)));
        for (const auto& g : m.pickle->globals)
            plain(s, QString::fromStdString(g.module + "." + g.name),
                  tr("%1 — %2, referenced %3×")
                      .arg(g.allowed ? tr("allowed") : tr("refused"), QString::fromStdString(g.verdict))
                      .arg(g.count));
        for (const auto& e : m.pickle->errors) plain(s, tr("error"), QString::fromStdString(e));
    }
    if (!m.catalog.notes.empty() || !m.plan.notes.empty()) {
        auto* s = section(tr("Notes"));
        int i = 0;
        for (const auto& n : m.catalog.notes) plain(s, QLocale().toString(++i), QString::fromStdString(n));
        for (const auto& n : m.plan.notes) plain(s, QLocale().toString(++i), QString::fromStdString(n));
    }
    if (tree_->topLevelItemCount() == 0) new QTreeWidgetItem(tree_, {tr("This file carries no metadata.")});
    tree_->expandAll();

    // Ctrl+C (the tree's own copy would take the key column) and Enter.
    tree_->installEventFilter(this);
    connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* it) { showValue(it); });
    connect(tree_, &QTreeWidget::customContextMenuRequested, this, &MetadataView::showContextMenu);
    connect(filter_, &QLineEdit::textChanged, this, &MetadataView::applyFilter);
}

int MetadataView::entryCount() const {
    int n = 0;
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) n += tree_->topLevelItem(i)->childCount();
    return n;
}

QTreeWidgetItem* MetadataView::findRow(const QString& key) const {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        auto* s = tree_->topLevelItem(i);
        for (int k = 0; k < s->childCount(); ++k)
            if (s->child(k)->text(0) == key) return s->child(k);
    }
    return nullptr;
}

QString MetadataView::fullValue(const QTreeWidgetItem* row) const {
    if (!row) return {};
    if (const QVariant i = row->data(1, kMetaIndexRole); i.isValid()) {
        const auto& md = model_->catalog.metadata;
        const auto k = static_cast<std::size_t>(i.toULongLong());
        return k < md.size() ? metadataFullText(md[k].value) : QString();
    }
    const QVariant v = row->data(1, kFullValueRole);
    return v.isValid() ? v.toString() : row->text(1);
}

MetadataValueDialog* MetadataView::showValue(QTreeWidgetItem* row) {
    if (!row || !row->parent()) return nullptr;  // a section title
    auto* d = new MetadataValueDialog(row->text(0), fullValue(row), this);
    d->show();
    return d;
}

void MetadataView::copyValue(const QTreeWidgetItem* row) const {
    if (!row) return;
    QApplication::clipboard()->setText(row->parent() ? fullValue(row) : row->text(0));
}

void MetadataView::copyName(const QTreeWidgetItem* row) const {
    if (row) QApplication::clipboard()->setText(row->text(0));
}

bool MetadataView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == tree_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Copy)) {
            copyValue(tree_->currentItem());
            return true;
        }
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && key->modifiers() == Qt::NoModifier &&
            tree_->currentItem() && tree_->currentItem()->parent()) {
            showValue(tree_->currentItem());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void MetadataView::showContextMenu(const QPoint& pos) {
    QTreeWidgetItem* row = tree_->itemAt(pos);
    if (!row) return;
    QMenu menu(this);
    if (row->parent()) {
        menu.addAction(tr("Show full value…"), this, [this, row] { showValue(row); })->setShortcut(Qt::Key_Return);
        menu.addSeparator();
        menu.addAction(tr("Copy value"), this, [this, row] { copyValue(row); })->setShortcut(QKeySequence::Copy);
    }
    menu.addAction(tr("Copy name"), this, [this, row] { copyName(row); });
    menu.exec(tree_->viewport()->mapToGlobal(pos));
}

void MetadataView::applyFilter(const QString& text) {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        auto* s = tree_->topLevelItem(i);
        for (int k = 0; k < s->childCount(); ++k) {
            auto* it = s->child(k);
            // Key, shown value and tooltip (a long value's first 2000 characters).
            const bool show = text.isEmpty() || it->text(0).contains(text, Qt::CaseInsensitive) ||
                              it->text(1).contains(text, Qt::CaseInsensitive) ||
                              it->toolTip(1).contains(text, Qt::CaseInsensitive);
            it->setHidden(!show);
        }
    }
}

}  // namespace amn::ui
