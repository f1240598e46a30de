// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Application startup: which language the user interface speaks. The .qm
// catalogues themselves are built into the widget library (":/i18n").
#include <QLocale>
#include <QStringList>

namespace amn::ui {

/// Install the translators for `locale` on the application: Qt's own
/// (qtbase_<lang>.qm from QLibraryInfo::TranslationsPath, when present), the
/// English plural forms, then anamnesis_<lang>.qm from the first of
/// translationDirs() that has it. Returns true when the locale is English
/// or its catalogue was found.
bool installTranslations(const QLocale& locale);
/// Where anamnesis' .qm catalogues are looked for, in order: the installed
/// share/anamnesis/translations next to the executable's prefix (when it
/// exists), then the copies built into the library (":/i18n").
QStringList translationDirs();

}  // namespace amn::ui
