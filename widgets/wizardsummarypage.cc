// SPDX-License-Identifier: MIT OR Apache-2.0
#include "wizardsummarypage.hpp"

#include "wizardtargetpage.hpp"
#include "schemetext.hpp"

#include "anamnesis/forget_st.hpp"
#include "anamnesis/hf_layout.hpp"
#include "anamnesis/lora_to_gguf.hpp"
#include "anamnesis/remember_size.hpp"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScreen>
#include <QStandardItemModel>
#include <QStorageInfo>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace amn::ui {

using namespace convert_detail;

namespace {

/// A failure in the summary's table (HTML): the plain first line in red,
/// the core's message (technical detail) below it.
QString failureHtml(const QString& plain, const QString& detail) {
    return QStringLiteral("<span style='color:#d03030'>%1</span><br><small>%2</small>").arg(plain.toHtmlEscaped(), detail.toHtmlEscaped());
}

}  // namespace

WizardSummaryPage::WizardSummaryPage(ConvertWizard* wizard) : QWizardPage(wizard), wiz_(wizard) {
    setTitle(tr("Summary"));
    setSubTitle(tr("Check, then convert."));
    setCommitPage(true);
    auto* l = new QVBoxLayout(this);
    summary_ = wrapLabel(QString(), this);
    summary_->setTextFormat(Qt::RichText);
    summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);  // at the top when the plan table is hidden (remember)
    l->addWidget(summary_);
    planModel_ = new QStandardItemModel(0, 6, this);
    planModel_->setSortRole(Qt::UserRole);
    planModel_->setHorizontalHeaderLabels(
        {tr("Tensor"), tr("Shape"), tr("Stored"), tr("Written as"), tr("Bits/weight"), tr("Size"), tr("Why")});
    planTable_ = makeTable(planModel_, this);
    l->addWidget(planTable_, 1);
}

void WizardSummaryPage::initializePage() {
    // The per-tensor table (forget, GGUF): room for its "Why" column.
    if (wiz_->mode() != Mode::Remember) wiz_->resize(std::max(wiz_->width(), 900), std::max(wiz_->height(), 600));
    updateSummary();
    if (wiz_->mode() != Mode::Remember) startPlan();
}

bool WizardSummaryPage::isComplete() const {
    return wiz_->mode() == Mode::Remember ? !wiz_->hfLayout() || hfError_.isEmpty() : planOk_;
}

const Failure& WizardSummaryPage::failure() const { return !hfFailure_.detail.isEmpty() ? hfFailure_ : planFailure_; }

QString WizardSummaryPage::hfSummaryRows() {
    hfError_.clear();
    hfFailure_ = {};
    auto row = [](const QString& k, const QString& v) {
        return QStringLiteral("<tr><td valign=top><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>").arg(k.toHtmlEscaped(), v);
    };
    try {
        // A plan transform only (names, recipes, config.json): no tensor data is read.
        const auto hf = amn::to_hf_layout(wiz_->model()->catalog, wiz_->model()->plan, wiz_->target());
        if (hf.vocab_only) {  // a vocab-only GGUF: its tokenizer files alone
            QStringList files;
            for (const auto& [name, text] : hf.side_files) files << QString::fromStdString(name).toHtmlEscaped();
            return row(tr("Layout"), tr("Tokenizer files alone (a vocab-only GGUF, %1): %2")
                                         .arg(QString::fromStdString(hf.architecture).toHtmlEscaped(), files.join(QStringLiteral(", "))));
        }
        const auto& from = wiz_->model()->plan.tensors;
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
        return row(tr("Cannot convert"), failureHtml(wiz_->plainPlanError(hfFailure_.code, hfFailure_.tensor, hfFailure_.notice), hfError_));
    }
}

void WizardSummaryPage::updateSummary() {
    const auto& m = *wiz_->model();
    const Mode md = wiz_->mode();
    const auto to = wiz_->target();
    quint64 predicted = 0, numel = 0;
    int quantized = 0;
    if (md == Mode::Remember) {
        predicted = amn::predicted_output_bytes(m.catalog, m.plan, to);
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
    QFileInfo fi(wiz_->outputPath());
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
        if (wiz_->hfLayout()) targetText += QStringLiteral(", ") + tr("Hugging Face folder (config.json + safetensors, transformers names)");
    } else if (md == Mode::ForgetGguf) {
        targetText = wiz_->hfInput() ? tr("GGUF %1 (as convert_hf_to_gguf.py + llama-quantize, in one pass)").arg(wiz_->ggufFileType())
                              : tr("GGUF %1 (llama-quantize file type)").arg(wiz_->ggufFileType());
    } else if (md == Mode::ConvertGguf && wiz_->hfMmproj()) {
        targetText = tr("GGUF vision projector (mmproj) %1 (as convert_hf_to_gguf.py --mmproj --outtype %2)")
                         .arg(wiz_->resolvedOutType(), wiz_->hfOutType().toLower());
    } else if (md == Mode::ConvertGguf) {
        targetText = tr("GGUF %1 (as convert_hf_to_gguf.py --outtype %2)").arg(wiz_->resolvedOutType(), wiz_->hfOutType().toLower());
    } else if (md == Mode::ConvertLora) {
        targetText = tr("GGUF LoRA adapter %1 (as convert_lora_to_gguf.py --outtype %2)").arg(wiz_->loraOutType(), wiz_->loraOutType().toLower());
    } else
        try {
            targetText = tr("safetensors, %1").arg(QString::fromStdString(amn::st_scheme_label(wiz_->stOptions().scheme)));
        } catch (const std::exception& e) {
            targetText = QString::fromStdString(e.what());
        }
    html += row(tr("Target"), targetText.toHtmlEscaped());
    html += row(tr("Output"), QFileInfo(wiz_->outputPath()).absoluteFilePath().toHtmlEscaped() + (wiz_->overwrite() ? tr(" (overwrite)") : QString()));
    if (md == Mode::ConvertLora)
        html += row(tr("Base model"), tr("%1 (its config.json)").arg(QFileInfo(wiz_->loraBase()).absoluteFilePath().toHtmlEscaped()));
    // The folder's text model in GGUF (not for its vision projector: the Target row says what that is).
    if ((md == Mode::ForgetGguf || (md == Mode::ConvertGguf && !wiz_->hfMmproj())) && wiz_->hfInput() && !wiz_->target_->hfInfoText().isEmpty())
        html += row(tr("GGUF"), wiz_->target_->hfInfoText().toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    if (wiz_->hfLayout()) html += hfSummaryRows();
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
        html += row(md == Mode::ConvertLora ? tr("Cannot convert") : tr("Cannot forget"), failureHtml(wiz_->plainPlanError(planFailure_.code, planFailure_.tensor, planFailure_.notice), planError_));
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
    emit completeChanged();
}

void WizardSummaryPage::startPlan() {
    planOk_ = false;
    planError_.clear();
    planFailure_ = {};
    planned_.clear();
    planModel_->removeRows(0, planModel_->rowCount());
    emit completeChanged();
    std::function<PlanOutcome(const std::atomic<bool>&)> work;
    try {
        ModelPtr model = wiz_->model();
        if (wiz_->mode() == Mode::ConvertGguf) {
            work = [model, o = wiz_->hfGgufOptions()](const std::atomic<bool>&) {
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
        } else if (wiz_->mode() == Mode::ConvertLora) {
            const std::string folder = model->adapter ? model->adapter->folder : model->path.toStdString();
            work = [folder, o = wiz_->loraOptions()](const std::atomic<bool>&) {
                PlanOutcome p;
                try {
                    p.tensors = amn::plan_lora_gguf(folder, o);
                    p.ok = true;
                } catch (const std::exception& e) {
                    p.failure = Failure::of(e);
                    p.error = p.failure.detail;
                }
                return p;
            };
        } else if (wiz_->mode() == Mode::ForgetGguf) {
            work = [model, o = wiz_->ggufOptions()](const std::atomic<bool>&) {
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
            work = [model, o = wiz_->stOptions()](const std::atomic<bool>&) {
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

void WizardSummaryPage::showPlan(const PlanOutcome& p) {
    planOk_ = p.ok;
    planError_ = p.error;
    planFailure_ = p.failure;
    planned_ = p.tensors;
    const bool converting = wiz_->mode() == Mode::ConvertGguf || wiz_->mode() == Mode::ConvertLora;
    const QString outtype = converting ? wiz_->resolvedOutType() : QString();
    planTable_->setSortingEnabled(false);
    planModel_->removeRows(0, planModel_->rowCount());
    for (const auto& t : planned_) {
        quint64 n = 1;
        for (auto d : t.shape) n *= d;
        const double bpw = n ? static_cast<double>(t.bytes) * 8.0 / static_cast<double>(n) : 0.0;
        planModel_->appendRow({textItem(QString::fromStdString(t.name)), textItem(shapeText(t.shape)),
                               textItem(QString::fromStdString(amn::dtype_name(t.source))), textItem(targetName(t)),
                               numberItem(QLocale().toString(bpw, 'f', 2), bpw), numberItem(humanBytes(t.bytes), static_cast<double>(t.bytes)),
                               textItem(converting ? convertReasonText(t, outtype) : forgetReasonText(t, wiz_->ggufFileType()))});
        planModel_->item(planModel_->rowCount() - 1, 6)->setToolTip(forgetReasonDetail(t, p.schemeLabel));
    }
    showRowsInFileOrder(planTable_);
    widenForPlan();
    updateSummary();
    emit completeChanged();
    emit wiz_->planFinished(p.ok, p.error);
}

void WizardSummaryPage::widenForPlan() {
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
    if (extra <= 0 || !wiz_->isVisible()) return;
    int w = wiz_->width() + extra;
    if (const QScreen* sc = wiz_->screen()) w = std::min(w, sc->availableGeometry().width());
    if (w > wiz_->width()) wiz_->resize(w, wiz_->height());
}

}  // namespace amn::ui
