// SPDX-License-Identifier: MIT OR Apache-2.0
#include "summaryview.hpp"

#include "charts.hpp"
#include "schemetext.hpp"

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


// A PEFT adapter folder: what it adapts, how strongly, what it becomes (amn inspect's facts).
QString adapterText(const amn::LoraAdapterInfo& a) {
    const QLocale loc;
    QStringList lines;
    QString head = a.peft_type.empty() ? SummaryView::tr("PEFT adapter") : SummaryView::tr("PEFT %1").arg(QString::fromStdString(a.peft_type));
    if (a.r) head += SummaryView::tr(", rank %1").arg(loc.toString(static_cast<qulonglong>(*a.r)));
    if (a.lora_alpha) head += SummaryView::tr(", alpha %1").arg(loc.toString(*a.lora_alpha, 'g', 6));
    if (const auto sc = a.scale())
        head += (a.use_rslora ? SummaryView::tr(", scale %1 (alpha/√r: rsLoRA)") : SummaryView::tr(", scale %1 (alpha/r)")).arg(loc.toString(*sc, 'g', 6));
    if (a.use_dora) head += SummaryView::tr(", DoRA");
    lines << head;
    QStringList targets;
    for (const auto& t : a.target_modules) targets << QString::fromStdString(t);
    lines << SummaryView::tr("%Ln adapted module(s): %1", nullptr, static_cast<int>(a.adapted_modules))
                 .arg(targets.isEmpty() ? SummaryView::tr("no target modules named") : targets.join(QStringLiteral(", ")));
    if (!a.base_model.empty()) lines << SummaryView::tr("base model %1").arg(QString::fromStdString(a.base_model));
    lines << (a.gguf_refusal.empty()
                  ? SummaryView::tr("becomes a GGUF LoRA adapter with its base model's folder (amn convert … --to gguf --base BASE_DIR)")
                  : SummaryView::tr("no GGUF form: %1").arg(QString::fromStdString(a.gguf_refusal)));
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

std::vector<BreakdownChart::Row> summaryBreakdownRows(const LoadedModel& m) {
    std::vector<BreakdownChart::Row> rows;
    BreakdownChart::Row byDtype;
    byDtype.title = SummaryView::tr("Stored bytes by dtype");
    for (const auto& d : m.inspection.dtypes)
        byDtype.segments.push_back({QString::fromStdString(d.dtype), d.bytes, d.tensors});
    rows.push_back(std::move(byDtype));

    // By scheme: each logical tensor's stored bytes under its scheme; stored
    // tensors nobody consumes under their own heading.
    std::map<std::string, BreakdownChart::Segment> byScheme;
    std::map<std::string, quint64> quantizedElements;  // per quantized scheme: its segment's bits-per-weight figure
    const std::string notConvertible = SummaryView::tr("not convertible").toStdString();
    const std::string unquantized = SummaryView::tr("unquantized").toStdString();
    for (const auto& lt : m.plan.tensors) {
        std::string key;
        const bool quantized = lt.error.empty() && lt.recipe && lt.quantized && lt.params;
        if (!lt.error.empty() || !lt.recipe) key = notConvertible;
        else if (!quantized) key = unquantized;
        else key = amn::describe(*lt.params);  // groups as the core does; worded by schemeText()
        auto& s = byScheme[key];
        if (s.label.isEmpty()) s.label = quantized ? schemeText(*lt.params) : QString::fromStdString(key);
        s.bytes += lt.stored_bytes;
        s.tensors += 1;
        if (quantized) quantizedElements[key] += lt.numel();
    }
    for (const auto& [key, n] : quantizedElements) {
        auto& s = byScheme[key];
        if (!n) continue;
        const QString bits = QLocale().toString(static_cast<double>(s.bytes) * 8.0 / static_cast<double>(n), 'f', 2);
        s.figure = SummaryView::tr("%1 bits per weight").arg(bits);
        s.figureShort = SummaryView::tr("%1 bpw").arg(bits);
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

SummaryView::SummaryView(ModelPtr model, QWidget* parent, std::optional<std::vector<BreakdownChart::Row>> rows)
    : QWidget(parent), model_(std::move(model)) {
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
    if (m.isRemote()) {  // only the headers are here
        convert->setEnabled(false);
        convert->setToolTip(tr("A remote model: download it to convert it"));
    }
    titleRow->addWidget(convert);
    layout->addLayout(titleRow);
    auto* pathLabel = new QLabel(m.isRemote() ? tr("%1 (remote: headers only, %2 downloaded)")
                                                    .arg(m.path, humanBytes(m.remote->bytes_fetched()))
                                              : QFileInfo(m.path).absoluteFilePath(),
                                 this);
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
            if (info.parts.size() > 1) {  // a split set, read as one model
                QStringList parts;
                for (const auto& p : info.parts)
                    parts << tr("%1 — %2, %Ln tensor(s)", nullptr, static_cast<int>(p.tensors))
                                 .arg(QFileInfo(QString::fromStdString(p.path)).fileName(), humanBytes(p.bytes));
                add(QStringLiteral("split"), tr("Split set"),
                    tr("%Ln part(s), read as one model:", nullptr, static_cast<int>(parts.size())) + QLatin1Char('\n') +
                        parts.join(QLatin1Char('\n')));
            }
        } catch (const std::exception&) {
        }
    }
    if (amn::is_hf_gguf_input(m.catalog))  // filled by setHfGgufInfo(): the tokenizer is read on a worker
        add(QStringLiteral("gguf"), tr("GGUF"), tr("reading the tokenizer…"));
    QStringList schemes;
    for (const auto& s : in.schemes)
        schemes << tr("%1 — %Ln tensor(s)", nullptr, static_cast<int>(s.tensors)).arg(schemeUseText(m.plan, s));
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
    if (m.adapter) add(QStringLiteral("adapter"), tr("Adapter"), adapterText(*m.adapter));
    if (m.pickle)
        add(QStringLiteral("pickle"), tr("Pickle scan"),
            tr("%1 (%Ln global(s) referenced, nothing executed)", nullptr, static_cast<int>(m.pickle->globals.size()))
                .arg(QString::fromStdString(m.pickle->summary)));
    add(QStringLiteral("opened"), tr("Opened in"), tr("%1 ms (headers only)").arg(QLocale().toString(m.load_seconds * 1000, 'f', 1)));
    if (!in.errors.empty()) {
        // The typed errors, worded here.
        QStringList errs;
        for (const auto& e : in.errors) {
            if (errs.size() == 8) {
                errs << tr("… and %Ln more", nullptr, static_cast<int>(in.errors.size() - 8));
                break;
            }
            errs << QString::fromStdString(e.tensor) + QStringLiteral(": ") + tensorErrorText(e.error);
        }
        add(QStringLiteral("errors"), tr("Not convertible"), errs.join(QLatin1Char('\n')));
    }
    if (!in.warnings.empty()) {
        QStringList warns;
        // More than one: a bullet each, so that wrapped lines still read as separate warnings.
        const QString bullet = in.warnings.size() > 1 ? QStringLiteral("• ") : QString();
        for (const auto& w : in.warnings) warns << bullet + noticeText(w);
        add(QStringLiteral("warnings"), tr("Warnings"), warns.join(QLatin1Char('\n')));
    }
    if (!in.notes.empty()) {
        QStringList notes;
        for (const auto& n : in.notes) notes << QString::fromStdString(n);
        add(QStringLiteral("notes"), tr("Notes"), notes.join(QLatin1Char('\n')));
    }
    layout->addLayout(form);

    chart_ = new BreakdownChart(this);
    chart_->setRows(rows ? std::move(*rows) : summaryBreakdownRows(m));
    layout->addSpacing(8);
    layout->addWidget(chart_);
    layout->addStretch(1);
}

void SummaryView::setHfGgufInfo(const amn::HfGgufInfo& info) {
    auto* l = fields_.value(QStringLiteral("gguf"));
    if (!l) return;
    l->setTextFormat(Qt::PlainText);  // the core's words may hold "<s>"
    l->setText(hfGgufInfoText(info));
    l->setStyleSheet(info.error.empty() ? QString() : QStringLiteral("color: #d03030"));
}

QString SummaryView::field(const QString& key) const {
    const auto* l = fields_.value(key);
    return l ? l->text() : QString();
}

}  // namespace amn::ui
