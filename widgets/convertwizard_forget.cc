// ConvertWizard: the forget (quantize) options, summary, plan and loss pages.
// SPDX-License-Identifier: MIT OR Apache-2.0
#include "convertwizard.hpp"
#include "convertwizard_p.hpp"
#include "schemetext.hpp"

#include "anamnesis/hf_layout.hpp"

#include "charts.hpp"

#include "anamnesis/remember.hpp"
#include "anamnesis/error.hpp"
#include "anamnesis/gguf_ftype.hpp"
#include "anamnesis/remember_size.hpp"

#include <QButtonGroup>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QRadioButton>
#include <QScreen>
#include <QStyle>
#include <QStorageInfo>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace amn::ui {

using namespace convert_detail;

QString ConvertWizard::defaultOutput() const {
    std::string core;
    try {
        switch (mode()) {
        case Mode::Remember:
            core = hfLayout() ? amn::default_hf_layout_output_path(model_->catalog, target())  // a folder, as amn remember --layout hf
                              : amn::default_output_path(model_->catalog, target());
            break;
        case Mode::ForgetGguf:
            core = hfInput_ ? amn::default_hf_gguf_output_path(model_->catalog, ggufFileType().toStdString())
                            : amn::default_gguf_output_path(model_->catalog, ggufFileType().toStdString());
            break;
        case Mode::ConvertGguf: core = amn::default_hf_gguf_output_path(model_->catalog, hfOutType().toStdString()); break;
        case Mode::ForgetSafetensors: core = amn::default_st_output_path(model_->catalog, stOptions().scheme); break;
        }
    } catch (const std::exception&) {
        return {};
    }
    return safeOutputPath(*model_, QString::fromStdString(core));
}

void ConvertWizard::setMode(Mode m) {
    switch (m) {
    case Mode::Remember: autoTarget_->setChecked(true); break;
    case Mode::ForgetGguf: ggufRadio_->setChecked(true); break;
    case Mode::ForgetSafetensors: stRadio_->setChecked(true); break;
    case Mode::ConvertGguf:
        if (convertRadio_) convertRadio_->setChecked(true);
        break;
    }
}

ConvertWizard::Mode ConvertWizard::mode() const {
    if (ggufRadio_ && ggufRadio_->isChecked()) return Mode::ForgetGguf;
    if (stRadio_ && stRadio_->isChecked()) return Mode::ForgetSafetensors;
    if (convertRadio_ && convertRadio_->isChecked()) return Mode::ConvertGguf;
    return Mode::Remember;
}

void ConvertWizard::setGgufFileType(const QString& name) {
    const int i = ftype_->findData(name.toUpper());
    if (i >= 0) ftype_->setCurrentIndex(i);
    ggufRadio_->setChecked(true);
}
QString ConvertWizard::ggufFileType() const { return ftype_ ? ftype_->currentData().toString() : QString(); }
void ConvertWizard::setHfOutType(const QString& outtype) {
    if (!outtype_) return;
    const int i = outtype_->findData(outtype.compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0 ? QStringLiteral("auto") : outtype.toUpper());
    if (i >= 0) outtype_->setCurrentIndex(i);
    convertRadio_->setChecked(true);
}
QString ConvertWizard::hfOutType() const { return outtype_ ? outtype_->currentData().toString() : QString(); }

void ConvertWizard::setHfGgufInfo(const amn::HfGgufInfo& info) {
    if (!hfInfo_) return;
    const bool ok = info.error.empty();
    hfInfoText_ = hfGgufInfoText(info);
    hfInfo_->setTextFormat(Qt::PlainText);  // the core's words may hold "<s>"
    hfInfo_->setText(hfInfoText_);
    hfInfo_->setStyleSheet(ok ? QString() : QStringLiteral("color: #d03030"));
    hfInfo_->show();
    for (QWidget* w : std::initializer_list<QWidget*>{convertRadio_, outtype_, ggufRadio_, ftype_}) w->setEnabled(ok);
    if (!ok && (mode() == Mode::ConvertGguf || mode() == Mode::ForgetGguf)) autoTarget_->setChecked(true);
}

void ConvertWizard::setImatrixPath(const QString& path) { imatrix_->setText(path); }
void ConvertWizard::setGgufPure(bool on) { pure_->setChecked(on); }

void ConvertWizard::setStScheme(const QString& name) {
    const int i = scheme_->findData(name);
    if (i >= 0) scheme_->setCurrentIndex(i);
    stRadio_->setChecked(true);
}
void ConvertWizard::setRequantize(bool on) { requantize_->setChecked(on); }
QString ConvertWizard::stScheme() const { return scheme_ ? scheme_->currentData().toString() : QString(); }

amn::GgufForgetOptions ConvertWizard::ggufOptions() const {
    amn::GgufForgetOptions o;
    o.ftype = ggufFileType().toStdString();
    o.pure = pure_->isChecked();
    if (const QString t = outputType_->currentData().toString(); !t.isEmpty()) o.output_tensor_type = amn::parse_ggml_type(t.toStdString());
    if (const QString t = embeddingType_->currentData().toString(); !t.isEmpty())
        o.token_embedding_type = amn::parse_ggml_type(t.toStdString());
    for (const QString& part : tensorTypes_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (const QString x = part.trimmed(); !x.isEmpty()) o.tensor_types.push_back(amn::parse_tensor_type_override(x.toStdString()));
    o.imatrix = imatrix_->text().trimmed().toStdString();
    o.output = output_ ? outputPath().toStdString() : std::string();
    o.force = overwrite_ && overwrite_->isChecked();
    o.threads = threads_;
    if (chunkBytes_) o.chunk_bytes = chunkBytes_;
    return o;
}

amn::HfGgufOptions ConvertWizard::hfGgufOptions() const {
    amn::HfGgufOptions o;
    o.outtype = hfOutType().toStdString();
    o.output = output_ ? outputPath().toStdString() : std::string();
    o.force = overwrite_ && overwrite_->isChecked();
    o.threads = threads_;
    if (chunkBytes_) o.chunk_bytes = chunkBytes_;
    return o;
}

amn::StForgetOptions ConvertWizard::stOptions() const {
    const QString name = stScheme();
    amn::StSchemeOptions so;
    // The options the scheme's row takes (the core's table, as --help lists them).
    const auto info = amn::st_scheme_info(name.toStdString()).value_or(amn::StSchemeInfo{});
    if (info.takes_blocksize) so.blocksize = blocksize_->currentData().toUInt();
    if (info.takes_double_quant) so.double_quant = doubleQuant_->isChecked();
    if (info.takes_granularity) so.granularity = static_cast<amn::Fp8Granularity>(granularity_->currentData().toInt());
    if (info.takes_ue8m0) so.ue8m0 = ue8m0_->isChecked();
    if (info.takes_group_size) so.group_size = groupSize_->currentData().toUInt();
    amn::StForgetOptions o;
    o.scheme = amn::parse_st_scheme(name.toStdString(), so);
    for (const QString& part : keep_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (const QString x = part.trimmed(); !x.isEmpty()) o.keep.push_back(x.toStdString());
    for (const QString& part : only_->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (const QString x = part.trimmed(); !x.isEmpty()) o.only.push_back(x.toStdString());
    o.requantize = requantize_->isChecked();
    o.output = output_ ? outputPath().toStdString() : std::string();
    o.force = overwrite_ && overwrite_->isChecked();
    o.threads = threads_;
    if (chunkBytes_) o.chunk_bytes = chunkBytes_;
    return o;
}

void ConvertWizard::updateModeWidgets() {
    const Mode md = mode();
    // The stack: nothing (remember, the GGUF conversion), GGUF options, scheme options.
    if (modeOptions_) modeOptions_->setCurrentIndex(md == Mode::ConvertGguf ? 0 : static_cast<int>(md));
    const auto info = amn::st_scheme_info(stScheme().toStdString()).value_or(amn::StSchemeInfo{});
    if (blocksize_) {
        blocksize_->setEnabled(info.takes_blocksize);
        doubleQuant_->setEnabled(info.takes_double_quant);
        granularity_->setEnabled(info.takes_granularity);
        ue8m0_->setEnabled(info.takes_ue8m0);
        groupSize_->setEnabled(info.takes_group_size);
    }
    if (auto* d = page(DonePage))
        d->setSubTitle(md == Mode::Remember      ? tr("The model is remembered.")
                       : md == Mode::ConvertGguf ? tr("The model is a GGUF for llama.cpp now.")
                                                 : tr("The model has forgotten; here is what it lost."));
}

void ConvertWizard::setHfLayout(bool on) {
    if (!hfFolder_) return;
    (on ? hfFolder_ : singleFile_)->setChecked(true);
}

bool ConvertWizard::hfLayout() const { return hfFolder_ && hfFolder_->isChecked() && mode() == Mode::Remember; }

QString ConvertWizard::hfSummaryRows() {
    hfError_.clear();
    hfFailure_ = {};
    auto row = [](const QString& k, const QString& v) {
        return QStringLiteral("<tr><td valign=top><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>").arg(k.toHtmlEscaped(), v);
    };
    try {
        // A plan transform only (names, recipes, config.json): no tensor data is read.
        const auto hf = amn::to_hf_layout(model_->catalog, model_->plan, target());
        const auto& from = model_->plan.tensors;
        const auto& to = hf.plan.tensors;
        QString names;
        const std::size_t shown = std::min<std::size_t>(to.size(), 12);
        for (std::size_t i = 0; i < shown; ++i) {
            const QString a = i < from.size() ? QString::fromStdString(from[i].name) : QString();
            names += QStringLiteral("%1 → %2<br>").arg(a.toHtmlEscaped(), QString::fromStdString(to[i].name).toHtmlEscaped());
        }
        if (to.size() > shown) names += tr("… and %Ln more", nullptr, static_cast<int>(to.size() - shown));
        return row(tr("Layout"), tr("Hugging Face folder for %1 (%2): config.json + safetensors")
                                     .arg(QString::fromStdString(hf.hf_class).toHtmlEscaped(), QString::fromStdString(hf.architecture).toHtmlEscaped())) +
               row(tr("Target names"), names);
    } catch (const std::exception& e) {
        hfFailure_ = Failure::of(e);
        hfError_ = hfFailure_.detail;
        return row(tr("Cannot convert"), failureHtml(plainPlanError(hfFailure_.code, hfFailure_.tensor), hfError_));
    }
}

void ConvertWizard::setTarget(std::optional<amn::DType> to) {
    if (!to) autoTarget_->setChecked(true);
    else if (*to == amn::DType::BF16) bf16_->setChecked(true);
    else if (*to == amn::DType::F16) f16_->setChecked(true);
    else if (*to == amn::DType::F32) f32_->setChecked(true);
}

std::optional<amn::DType> ConvertWizard::target() const {
    if (bf16_ && bf16_->isChecked()) return amn::DType::BF16;
    if (f16_ && f16_->isChecked()) return amn::DType::F16;
    if (f32_ && f32_->isChecked()) return amn::DType::F32;
    return std::nullopt;
}

void ConvertWizard::setOutputPath(const QString& path) {
    outputEdited_ = true;
    output_->setText(path);
}
QString ConvertWizard::outputPath() const { return output_->text().trimmed(); }
void ConvertWizard::setOverwrite(bool on) { overwrite_->setChecked(on); }

void ConvertWizard::updateOptionsState() {
    const QString out = outputPath();
    QString warning;
    if (out.isEmpty()) warning = tr("Choose an output path.");
    else if (QFileInfo::exists(out) && !overwrite_->isChecked())
        warning = tr("%1 exists. Tick “Overwrite existing files” or choose another path.").arg(out);
    try {
        if (mode() == Mode::ForgetGguf) {
            const auto o = ggufOptions();
            const auto* ft = amn::parse_llama_file_type(o.ftype);
            if (ft && ft->needs_imatrix && o.imatrix.empty())
                warning = tr("%1 needs an importance matrix: choose one (llama-imatrix output).").arg(ggufFileType());
            else if (!o.imatrix.empty() && !QFileInfo::exists(QString::fromStdString(o.imatrix)))
                warning = tr("The importance matrix %1 does not exist.").arg(QString::fromStdString(o.imatrix));
        } else if (mode() == Mode::ForgetSafetensors) {
            (void)stOptions();
        }
    } catch (const std::exception& e) {
        warning = QString::fromStdString(e.what());
    }
    optionsWarning_->setText(warning);
}

void ConvertWizard::updateSummary() {
    const auto& m = *model_;
    const Mode md = mode();
    const auto to = target();
    quint64 predicted = 0, numel = 0;
    int quantized = 0;
    if (md == Mode::Remember) {
        predicted = amn::predicted_output_bytes(m.plan, to);
    } else {
        for (const auto& t : planned_) {
            predicted += t.bytes;
            quint64 n = 1;
            for (auto d : t.shape) n *= d;
            numel += n;
            quantized += t.target != t.source ? 1 : 0;
        }
    }
    // Free space where the output goes: the nearest existing folder.
    QFileInfo fi(outputPath());
    QDir dir = fi.absoluteDir();
    while (!dir.exists() && dir.cdUp()) {
    }
    const QStorageInfo storage(dir.absolutePath());
    const qint64 avail = storage.isValid() ? storage.bytesAvailable() : -1;
    auto row = [](const QString& k, const QString& v) {
        return QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>").arg(k.toHtmlEscaped(), v);
    };
    QString html = QStringLiteral("<table cellspacing=3>");
    html += row(tr("Source"), QFileInfo(m.path).absoluteFilePath().toHtmlEscaped());
    QString targetText;
    if (md == Mode::Remember) {
        targetText = to ? tr("%1 safetensors").arg(QString::fromStdString(amn::dtype_name(*to)))
                        : tr("safetensors, dequantized tensors as BF16, others unchanged");
        if (hfLayout()) targetText += QStringLiteral(", ") + tr("Hugging Face folder (config.json + safetensors, transformers names)");
    } else if (md == Mode::ForgetGguf) {
        targetText = hfInput_ ? tr("GGUF %1 (as convert_hf_to_gguf.py + llama-quantize, in one pass)").arg(ggufFileType())
                              : tr("GGUF %1 (llama-quantize file type)").arg(ggufFileType());
    } else if (md == Mode::ConvertGguf) {
        targetText = tr("GGUF %1 (as convert_hf_to_gguf.py --outtype %2)").arg(resolvedOutType(), hfOutType().toLower());
    } else
        try {
            targetText = tr("safetensors, %1").arg(QString::fromStdString(amn::st_scheme_label(stOptions().scheme)));
        } catch (const std::exception& e) {
            targetText = QString::fromStdString(e.what());
        }
    html += row(tr("Target"), targetText.toHtmlEscaped());
    html += row(tr("Output"), QFileInfo(outputPath()).absoluteFilePath().toHtmlEscaped() + (overwrite_->isChecked() ? tr(" (overwrite)") : QString()));
    if ((md == Mode::ForgetGguf || md == Mode::ConvertGguf) && hfInput_ && !hfInfoText_.isEmpty())
        html += row(tr("GGUF"), hfInfoText_.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    if (hfLayout()) html += hfSummaryRows();
    else {
        hfError_.clear();
        hfFailure_ = {};
    }
    if (md == Mode::Remember) {
        html += row(tr("Tensors"), tr("%1 written, %2 dequantized").arg(QLocale().toString(static_cast<qulonglong>(m.inspection.logical_tensors)), QLocale().toString(static_cast<qulonglong>(m.inspection.quantized))));
        html += row(tr("Predicted size"), tr("%1 of tensor data (input: %2)").arg(humanBytes(predicted), humanBytes(m.inspection.file_bytes)));
    } else if (planOk_) {
        html += row(tr("Tensors"), tr("%Ln tensor(s), %1 re-encoded", nullptr, static_cast<int>(planned_.size())).arg(QLocale().toString(static_cast<qulonglong>(quantized))));
        html += row(tr("Estimated size"),
                    tr("%1 of tensor data (input: %2), %3 bits per weight")
                        .arg(humanBytes(predicted), humanBytes(m.inspection.file_bytes),
                             QLocale().toString(numel ? static_cast<double>(predicted) * 8.0 / static_cast<double>(numel) : 0.0, 'f', 2)));
    } else if (!planError_.isEmpty()) {
        html += row(tr("Cannot forget"), failureHtml(plainPlanError(planFailure_.code, planFailure_.tensor), planError_));
    } else {
        html += row(tr("Tensors"), tr("planning every tensor's type…"));
    }
    if (avail >= 0) {
        QString free = tr("%1 free on %2").arg(humanBytes(static_cast<quint64>(avail)), storage.rootPath().toHtmlEscaped());
        if (static_cast<quint64>(avail) < predicted)
            free += QStringLiteral(" <span style='color:#d03030'>%1</span>").arg(tr("— not enough space"));
        html += row(tr("Disk space"), free);
    }
    html += QStringLiteral("</table>");
    summary_->setText(html);
    planTable_->setVisible(md != Mode::Remember);
    if (auto* p = static_cast<Page*>(page(SummaryPage))) p->changed();
}

void ConvertWizard::startPlan() {
    planOk_ = false;
    planError_.clear();
    planFailure_ = {};
    planned_.clear();
    planModel_->removeRows(0, planModel_->rowCount());
    static_cast<Page*>(page(SummaryPage))->changed();
    std::function<PlanOutcome(const std::atomic<bool>&)> work;
    try {
        ModelPtr model = model_;
        if (mode() == Mode::ConvertGguf) {
            work = [model, o = hfGgufOptions()](const std::atomic<bool>&) {
                PlanOutcome p;
                try {
                    p.tensors = amn::plan_hf_gguf(model->catalog, o);
                    p.ok = true;
                } catch (const std::exception& e) {
                    p.failure = Failure::of(e);
                    p.error = p.failure.detail;
                }
                return p;
            };
        } else if (mode() == Mode::ForgetGguf) {
            work = [model, o = ggufOptions()](const std::atomic<bool>&) {
                PlanOutcome p;
                try {
                    p.tensors = amn::plan_gguf_forget(model->catalog, model->plan, o);
                    p.ok = true;
                } catch (const std::exception& e) {
                    p.failure = Failure::of(e);
                    p.error = p.failure.detail;
                }
                return p;
            };
        } else {
            work = [model, o = stOptions()](const std::atomic<bool>&) {
                PlanOutcome p;
                try {
                    p.tensors = amn::plan_st_forget(model->catalog, model->plan, o);
                    p.schemeLabel = QString::fromStdString(amn::st_scheme_label(o.scheme));
                    p.ok = true;
                } catch (const std::exception& e) {
                    p.failure = Failure::of(e);
                    p.error = p.failure.detail;
                }
                return p;
            };
        }
    } catch (const std::exception& e) {  // an option the pages cannot turn into the core's options
        PlanOutcome p;
        p.failure = Failure::of(e);
        p.error = p.failure.detail;
        showPlan(p);
        return;
    }
    planJobs_.start<PlanOutcome>(this, std::move(work), [this](const PlanOutcome& p) { showPlan(p); });
}

void ConvertWizard::showPlan(const PlanOutcome& p) {
    planOk_ = p.ok;
    planError_ = p.error;
    planFailure_ = p.failure;
    planned_ = p.tensors;
    const bool converting = mode() == Mode::ConvertGguf;
    const QString outtype = converting ? resolvedOutType() : QString();
    planTable_->setSortingEnabled(false);
    planModel_->removeRows(0, planModel_->rowCount());
    for (const auto& t : planned_) {
        quint64 n = 1;
        for (auto d : t.shape) n *= d;
        const double bpw = n ? static_cast<double>(t.bytes) * 8.0 / static_cast<double>(n) : 0.0;
        planModel_->appendRow({textItem(QString::fromStdString(t.name)), textItem(shapeText(t.shape)),
                               textItem(QString::fromStdString(amn::dtype_name(t.source))), textItem(targetName(t)),
                               numberItem(QLocale().toString(bpw, 'f', 2), bpw), numberItem(humanBytes(t.bytes), static_cast<double>(t.bytes)),
                               textItem(converting ? convertReasonText(t, outtype) : forgetReasonText(t, ggufFileType()))});
        planModel_->item(planModel_->rowCount() - 1, 6)->setToolTip(forgetReasonDetail(t, p.schemeLabel));
    }
    // File order first: enabling sorting sorts by the header's indicator,
    // which starts at column 0 (descending in Qt 6) — not what was planned.
    planTable_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    planTable_->setSortingEnabled(true);
    planTable_->resizeColumnsToContents();
    planTable_->setColumnWidth(0, std::min(planTable_->columnWidth(0), 320));
    widenForPlan();
    updateSummary();
    static_cast<Page*>(page(SummaryPage))->changed();
    emit planFinished(p.ok, p.error);
}

void ConvertWizard::widenForPlan() {
    // The last column stretches into the room left and elides the rest: at
    // 900 px, "Q4_K_M default; fallback: the row does not fit the type's
    // blocks" lost its second half. Grow the window (never beyond the screen)
    // until every column shows its text whole; the tensor names stay capped.
    const auto* header = planTable_->horizontalHeader();
    const QAbstractItemView* view = planTable_;  // sizeHintForColumn is public here, protected in QTableView
    int want = planTable_->columnWidth(0);
    for (int c = 1; c < planModel_->columnCount(); ++c)
        want += std::max(view->sizeHintForColumn(c), header->sectionSizeHint(c));
    // Room for the vertical scroll bar: the rows just added do not show it yet.
    want += planTable_->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, planTable_);
    const int extra = want - planTable_->viewport()->width();
    if (extra <= 0 || !isVisible()) return;
    int w = width() + extra;
    if (const QScreen* sc = screen()) w = std::min(w, sc->availableGeometry().width());
    if (w > width()) resize(w, height());
}

QString ConvertWizard::resolvedOutType() const {
    try {
        return QString::fromStdString(amn::resolve_hf_outtype(model_->catalog, hfOutType().toStdString()));
    } catch (const std::exception&) {
        return hfOutType();
    }
}

void ConvertWizard::showLoss(const std::vector<amn::ForgetTensor>& loss) {
    lossTable_->setSortingEnabled(false);
    lossModel_->removeRows(0, lossModel_->rowCount());
    std::vector<LossChart::Bar> bars;
    for (const auto& t : loss) {
        if (t.copied || t.numel == 0) continue;
        const double bpw = static_cast<double>(t.bytes) * 8.0 / static_cast<double>(t.numel);
        const bool exact = !std::isfinite(t.sqnr_db);
        const QString type = targetName(t);
        lossModel_->appendRow({textItem(QString::fromStdString(t.name)), textItem(type), numberItem(QLocale().toString(bpw, 'f', 2), bpw),
                               numberItem(QLocale().toString(t.rmse, 'g', 4), t.rmse),
                               numberItem(QLocale().toString(t.max_abs, 'g', 4), t.max_abs),
                               numberItem(exact ? tr("exact") : QLocale().toString(t.sqnr_db, 'f', 2), exact ? 1e300 : t.sqnr_db),
                               numberItem(humanBytes(t.bytes), static_cast<double>(t.bytes))});
        bars.push_back({QString::fromStdString(t.name), type, t.sqnr_db, t.rmse, bpw});
    }
    // File order first: enabling sorting sorts by the header's indicator,
    // which starts at column 0 (descending in Qt 6) — not what was planned.
    lossTable_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    lossTable_->setSortingEnabled(true);
    lossTable_->resizeColumnsToContents();
    lossTable_->setColumnWidth(0, std::min(lossTable_->columnWidth(0), 320));
    lossChart_->setBars(std::move(bars));
}

}  // namespace amn::ui
