// SPDX-License-Identifier: MIT OR Apache-2.0
#include "summaryview.hpp"

#include "charts.hpp"

#include "anamnesis/gguf.hpp"

#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QPushButton>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace amn::ui {

namespace {

QString percentText(quint64 part, quint64 whole) {
    return whole ? QLocale().toString(100.0 * static_cast<double>(part) / static_cast<double>(whole), 'f', 1) + QStringLiteral(" %")
                 : QString();
}

std::vector<BreakdownChart::Row> makeRows(const LoadedModel& m) {
    std::vector<BreakdownChart::Row> rows;
    BreakdownChart::Row byDtype;
    byDtype.title = SummaryView::tr("Stored bytes by dtype");
    for (const auto& d : m.inspection.dtypes)
        byDtype.segments.push_back({QString::fromStdString(d.dtype), d.bytes, d.tensors});
    rows.push_back(std::move(byDtype));

    // By scheme: each logical tensor's stored bytes under its scheme; stored
    // tensors nobody consumes under their own heading.
    std::map<std::string, BreakdownChart::Segment> byScheme;
    for (const auto& lt : m.plan.tensors) {
        std::string key;
        if (!lt.error.empty() || !lt.recipe) key = SummaryView::tr("not convertible").toStdString();
        else if (!lt.quantized || !lt.params) key = SummaryView::tr("unquantized").toStdString();
        else key = amn::describe(*lt.params);
        auto& s = byScheme[key];
        s.label = QString::fromStdString(key);
        s.bytes += lt.stored_bytes;
        s.tensors += 1;
    }
    for (std::size_t i = 0; i < m.catalog.tensors.size(); ++i) {
        if (m.owner[i] >= 0) continue;
        auto& s = byScheme[SummaryView::tr("companions not written").toStdString()];
        s.label = SummaryView::tr("companions not written");
        s.bytes += m.catalog.tensors[i].nbytes;
        s.tensors += 1;
    }
    BreakdownChart::Row scheme;
    scheme.title = SummaryView::tr("Stored bytes by scheme");
    for (auto& [k, s] : byScheme) scheme.segments.push_back(s);
    std::sort(scheme.segments.begin(), scheme.segments.end(), [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
    rows.push_back(std::move(scheme));
    return rows;
}

}  // namespace

SummaryView::SummaryView(ModelPtr model, QWidget* parent) : QWidget(parent), model_(std::move(model)) {
    const auto& m = *model_;
    const auto& in = m.inspection;
    auto* layout = new QVBoxLayout(this);

    auto* titleRow = new QHBoxLayout;
    auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(modelDisplayName(m).toHtmlEscaped()), this);
    QFont f = title->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    title->setFont(f);
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    titleRow->addWidget(title, 1);
    auto* convert = new QPushButton(QIcon::fromTheme(QStringLiteral("document-save-as")), tr("Con&vert…"), this);
    convert->setObjectName(QStringLiteral("convertButton"));
    convert->setToolTip(tr("Remember (dequantize) or forget (quantize) this model"));
    connect(convert, &QPushButton::clicked, this, &SummaryView::convertRequested);
    titleRow->addWidget(convert);
    layout->addLayout(titleRow);
    auto* pathLabel = new QLabel(QFileInfo(m.path).absoluteFilePath(), this);
    pathLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pathLabel->setWordWrap(true);
    pathLabel->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(pathLabel);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto add = [&](const QString& key, const QString& label, const QString& value) {
        auto* l = new QLabel(value, this);
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        form->addRow(label, l);
        fields_.insert(key, l);
    };
    add(QStringLiteral("format"), tr("Format"),
        tr("%1, %Ln file(s), %2", nullptr, static_cast<int>(in.shards)).arg(QString::fromStdString(in.format), humanBytes(in.file_bytes)));
    if (m.catalog.format == amn::Format::Gguf) {
        try {
            const auto info = amn::gguf_info(m.catalog);
            auto kv = [&](const std::string& key) -> QString {
                const amn::MetaValue* v = m.catalog.meta(key);
                return v ? QString::fromStdString(amn::meta_text(*v)) : QString();
            };
            if (!info.architecture.empty()) add(QStringLiteral("architecture"), tr("Architecture"), QString::fromStdString(info.architecture));
            if (!info.name.empty()) add(QStringLiteral("name"), tr("Name"), QString::fromStdString(info.name));
            if (const QString sl = kv("general.size_label"); !sl.isEmpty()) add(QStringLiteral("size_label"), tr("Size label"), sl);
            if (const QString ctx = kv(info.architecture + ".context_length"); !ctx.isEmpty())
                add(QStringLiteral("context"), tr("Context length"), QLocale().toString(ctx.toLongLong()));
            if (info.file_type) {
                const auto n = amn::llama_ftype_name(*info.file_type);
                add(QStringLiteral("file_type"), tr("File type"),
                    QStringLiteral("%1 (%2)").arg(n.empty() ? tr("unknown") : QString::fromLatin1(n.data(), static_cast<int>(n.size()))).arg(*info.file_type));
            }
        } catch (const std::exception&) {
        }
    }
    QStringList schemes;
    for (const auto& s : in.schemes)
        schemes << tr("%1 — %Ln tensor(s)", nullptr, static_cast<int>(s.tensors)).arg(QString::fromStdString(s.description));
    add(QStringLiteral("schemes"), tr("Scheme"), schemes.isEmpty() ? tr("none: the tensors are not quantized") : schemes.join(QLatin1Char('\n')));
    if (const auto qm = m.catalog.qconfig("quant_method"))
        add(QStringLiteral("config"), tr("Config"), tr("quant_method \"%1\" in %2")
                                                        .arg(QString::fromStdString(*qm), QFileInfo(QString::fromStdString(m.catalog.config_path)).fileName()));
    add(QStringLiteral("tensors"), tr("Tensors"),
        tr("%1 stored: %2 quantized, %3, %4 passthrough, %5 unsupported → %6")
            .arg(QLocale().toString(static_cast<qulonglong>(in.stored_tensors)), QLocale().toString(static_cast<qulonglong>(in.quantized)),
                 tr("%Ln companion(s)", nullptr, static_cast<int>(in.companions)),
                 QLocale().toString(static_cast<qulonglong>(in.passthrough)), QLocale().toString(static_cast<qulonglong>(in.unsupported)),
                 tr("%Ln output tensor(s)", nullptr, static_cast<int>(in.logical_tensors))));
    add(QStringLiteral("parameters"), tr("Parameters"),
        tr("%1 (%2 quantized)").arg(humanCount(in.parameters), humanCount(in.quantized_parameters)));
    add(QStringLiteral("size"), tr("Size"), tr("%1 now → %2 as BF16").arg(humanBytes(in.tensor_bytes), humanBytes(in.bf16_bytes)));
    if (in.quantized_parameters)
        add(QStringLiteral("lethe"), tr("Lethe took"),
            tr("%1 of %2 (%3) — %4 bits per weight instead of 16")
                .arg(humanBytes(in.lethe_took()), humanBytes(in.quantized_bf16_bytes),
                     percentText(in.lethe_took(), in.quantized_bf16_bytes), QLocale().toString(in.bits_per_weight, 'f', 2)));
    else
        add(QStringLiteral("lethe"), tr("Lethe took"), tr("nothing: no tensor is quantized"));
    if (m.pickle)
        add(QStringLiteral("pickle"), tr("Pickle scan"),
            tr("%1 (%Ln global(s) referenced, nothing executed)", nullptr, static_cast<int>(m.pickle->globals.size()))
                .arg(QString::fromStdString(m.pickle->summary)));
    add(QStringLiteral("opened"), tr("Opened in"), tr("%1 ms (headers only)").arg(QLocale().toString(m.load_seconds * 1000, 'f', 1)));
    if (!in.errors.empty()) {
        QStringList errs;
        for (std::size_t i = 0; i < std::min<std::size_t>(in.errors.size(), 8); ++i) errs << QString::fromStdString(in.errors[i]);
        if (in.errors.size() > 8) errs << tr("… and %Ln more", nullptr, static_cast<int>(in.errors.size() - 8));
        add(QStringLiteral("errors"), tr("Not convertible"), errs.join(QLatin1Char('\n')));
    }
    if (!in.notes.empty()) {
        QStringList notes;
        for (const auto& n : in.notes) notes << QString::fromStdString(n);
        add(QStringLiteral("notes"), tr("Notes"), notes.join(QLatin1Char('\n')));
    }
    layout->addLayout(form);

    chart_ = new BreakdownChart(this);
    chart_->setRows(makeRows(m));
    layout->addSpacing(8);
    layout->addWidget(chart_);
    layout->addStretch(1);
}

QString SummaryView::field(const QString& key) const {
    const auto* l = fields_.value(key);
    return l ? l->text() : QString();
}

// ---- MetadataView -------------------------------------------------------------

MetadataView::MetadataView(ModelPtr model, QWidget* parent) : QWidget(parent) {
    const auto& m = *model;
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
    layout->addWidget(tree_);

    auto section = [&](const QString& title) {
        auto* s = new QTreeWidgetItem(tree_, {title});
        QFont f = s->font(0);
        f.setBold(true);
        s->setFont(0, f);
        s->setFirstColumnSpanned(true);
        return s;
    };
    auto entry = [&](QTreeWidgetItem* parent, const QString& key, const QString& value) {
        QString shown = value;
        if (shown.size() > 300) shown = shown.left(300) + QStringLiteral(" …");
        shown.replace(QLatin1Char('\n'), QStringLiteral(" ⏎ "));
        auto* it = new QTreeWidgetItem(parent, {key, shown});
        it->setToolTip(1, value.left(2000));
    };
    if (!m.catalog.metadata.empty()) {
        auto* s = section(tr("File metadata (%1)").arg(QString::fromStdString(std::string(amn::format_name(m.catalog.format)))));
        for (const auto& [k, v] : m.catalog.metadata) entry(s, QString::fromStdString(k), QString::fromStdString(amn::meta_text(v)));
    }
    if (!m.catalog.quantization_config.empty()) {
        auto* s = section(tr("quantization_config (%1)").arg(QFileInfo(QString::fromStdString(m.catalog.config_path)).fileName()));
        s->setToolTip(0, QString::fromStdString(m.catalog.config_path));
        for (const auto& [k, v] : m.catalog.quantization_config) entry(s, QString::fromStdString(k), QString::fromStdString(v));
    }
    if (m.pickle && !m.pickle->globals.empty()) {
        auto* s = section(tr("Pickle globals (%1)").arg(QString::fromStdString(m.pickle->container)));
        for (const auto& g : m.pickle->globals)
            entry(s, QString::fromStdString(g.module + "." + g.name),
                  tr("%1 — %2, referenced %3×")
                      .arg(g.allowed ? tr("allowed") : tr("refused"), QString::fromStdString(g.verdict))
                      .arg(g.count));
        for (const auto& e : m.pickle->errors) entry(s, tr("error"), QString::fromStdString(e));
    }
    if (!m.catalog.notes.empty() || !m.plan.notes.empty()) {
        auto* s = section(tr("Notes"));
        int i = 0;
        for (const auto& n : m.catalog.notes) entry(s, QLocale().toString(++i), QString::fromStdString(n));
        for (const auto& n : m.plan.notes) entry(s, QLocale().toString(++i), QString::fromStdString(n));
    }
    if (tree_->topLevelItemCount() == 0) new QTreeWidgetItem(tree_, {tr("This file carries no metadata.")});
    tree_->expandAll();
    connect(filter_, &QLineEdit::textChanged, this, &MetadataView::applyFilter);
}

int MetadataView::entryCount() const {
    int n = 0;
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) n += tree_->topLevelItem(i)->childCount();
    return n;
}

void MetadataView::applyFilter(const QString& text) {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        auto* s = tree_->topLevelItem(i);
        for (int k = 0; k < s->childCount(); ++k) {
            auto* it = s->child(k);
            const bool show = text.isEmpty() || it->text(0).contains(text, Qt::CaseInsensitive) ||
                              it->toolTip(1).contains(text, Qt::CaseInsensitive);
            it->setHidden(!show);
        }
    }
}

}  // namespace amn::ui
