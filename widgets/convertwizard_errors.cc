// SPDX-License-Identifier: MIT OR Apache-2.0
// ConvertWizard (convertwizard.hpp): plan and run errors worded for people —
// a plain first line from the amn::ErrorCode, the core's message below it
// (as MainWindow::plainOpenError does for opening).
#include "convertwizard.hpp"
#include "convertwizard_p.hpp"

#include "wizardoptionspage.hpp"
#include "wizardrunpage.hpp"
#include "wizardsummarypage.hpp"

#include "anamnesis/error.hpp"

namespace amn::ui {

convert_detail::Failure convert_detail::Failure::of(const std::exception& e) {
    Failure f;
    f.detail = QString::fromStdString(e.what());
    if (const auto* err = dynamic_cast<const amn::Error*>(&e)) {
        f.code = static_cast<int>(err->code());
        f.tensor = QString::fromStdString(err->tensor());
        f.notice = err->notice();
    }
    return f;
}

QString ConvertWizard::plainPlanError(int code, const QString& tensor, const std::optional<amn::Notice>& notice) const {
    using amn::ErrorCode;
    if (code < 0) return tr("The plan could not be made.");
    switch (static_cast<ErrorCode>(code)) {
        case ErrorCode::Usage:
            return tensor.isEmpty() ? tr("The chosen options do not fit this model.")
                                    : tr("The chosen options do not fit tensor %1.").arg(tensor);
        case ErrorCode::Unsupported:
            if (!tensor.isEmpty()) return tr("Tensor %1 cannot be converted this way.").arg(tensor);
            // The one refusal of a whole quantized input: forget to a
            // safetensors scheme without “Re-quantize” (the core says so).
            if (notice && notice->kind == amn::NoticeKind::AlreadyQuantized)
                return tr("The model is already quantized: tick “Re-quantize an already quantized input”, or start from the "
                          "BF16/F16/F32 model.");
            return tr("anamnesis cannot make this conversion of this model yet.");
        case ErrorCode::SizeMismatch:
            return tensor.isEmpty() ? tr("A tensor's size does not fit the chosen type's blocks.")
                                    : tr("The size of tensor %1 does not fit the chosen type's blocks.").arg(tensor);
        case ErrorCode::UnknownDtype: return tr("The model holds a data type anamnesis does not know.");
        case ErrorCode::Io: return tr("A file the options name could not be read (missing, or no permission?).");
        case ErrorCode::Truncated:
        case ErrorCode::Malformed:
        case ErrorCode::BadJson:
        case ErrorCode::OutOfRange:
        case ErrorCode::LimitExceeded:
        case ErrorCode::BadText: return tr("A file the plan reads is damaged, or not of the kind expected.");
        case ErrorCode::MissingCompanion:
        case ErrorCode::BadCompanion: return tr("A quantized tensor lacks the scales it needs, or they do not fit.");
        case ErrorCode::OutOfMemory: return tr("There is not enough memory to plan the conversion.");
        default: return tr("The plan could not be made.");
    }
}

QString ConvertWizard::plainRunError(int code, const QString& tensor) {
    using amn::ErrorCode;
    if (code < 0) return tr("The conversion failed.");
    switch (static_cast<ErrorCode>(code)) {
        case ErrorCode::Io: return tr("The output could not be written (is the folder writable, is the disk full?).");
        case ErrorCode::OutputExists: return tr("The output exists already: tick “Overwrite existing files” or choose another path.");
        case ErrorCode::Usage:
            return tensor.isEmpty() ? tr("The chosen options do not fit this model.")
                                    : tr("The chosen options do not fit tensor %1.").arg(tensor);
        case ErrorCode::Unsupported:
            return tensor.isEmpty() ? tr("anamnesis cannot make this conversion of this model yet.")
                                    : tr("Tensor %1 holds something this conversion cannot take.").arg(tensor);
        case ErrorCode::Truncated:
        case ErrorCode::Malformed:
        case ErrorCode::OutOfRange:
        case ErrorCode::Overlap:
        case ErrorCode::Gap:
        case ErrorCode::SizeMismatch:
        case ErrorCode::BadText:
            return tr("The model's data could not be read as its header declares: the file may have changed since it was opened, "
                      "or be damaged.");
        case ErrorCode::UnknownDtype: return tr("The model holds a data type anamnesis does not know.");
        case ErrorCode::MissingCompanion:
        case ErrorCode::BadCompanion: return tr("A quantized tensor lacks the scales it needs, or they do not fit.");
        case ErrorCode::OutOfMemory: return tr("There is not enough memory for the conversion.");
        default: return tr("The conversion failed.");
    }
}

QString ConvertWizard::errorReport() const {
    const convert_detail::Failure& f = run_->failure();
    if (f.detail.isEmpty()) return {};
    return plainRunError(f.code, f.tensor) + QLatin1Char('\n') + f.detail;
}

QString ConvertWizard::planErrorReport() const {
    const convert_detail::Failure& f = summary_->failure();
    if (f.detail.isEmpty()) return {};
    return plainPlanError(f.code, f.tensor, f.notice) + QLatin1Char('\n') + f.detail;
}

}  // namespace amn::ui
