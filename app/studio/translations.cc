// SPDX-License-Identifier: MIT OR Apache-2.0
#include "translations.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QTranslator>

namespace amn::ui {

QStringList translationDirs() {
    // An installed prefix (bin/anamnesis → share/anamnesis/translations),
    // then the catalogues built into the library.
    QStringList dirs;
    const QString installed = QDir(QCoreApplication::applicationDirPath()).absoluteFilePath(QStringLiteral("../share/anamnesis/translations"));
    if (QFileInfo(installed).isDir()) dirs << QDir::cleanPath(installed);
    dirs << QStringLiteral(":/i18n");
    return dirs;
}

bool installTranslations(const QLocale& locale) {
    // Qt's own strings (file dialog, standard buttons and shortcuts): qtbase_<lang>.qm
    // from Qt's translations directory (Debian: qt6-translations-l10n).
    auto* qt = new QTranslator(qApp);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    // Ours: the first directory that has the catalogue. English plural forms
    // first ("1 tensor"), then the locale's catalogue on top.
    auto load = [](auto&& loadFrom) {
        auto* t = new QTranslator(qApp);
        for (const QString& dir : translationDirs())
            if (loadFrom(*t, dir)) {
                QCoreApplication::installTranslator(t);
                return true;
            }
        delete t;
        return false;
    };
    load([](QTranslator& t, const QString& dir) { return t.load(QStringLiteral("anamnesis_en"), dir); });
    if (locale.language() == QLocale::English || locale.language() == QLocale::C) return true;
    return load([&locale](QTranslator& t, const QString& dir) {
        return t.load(locale, QStringLiteral("anamnesis"), QStringLiteral("_"), dir);
    });
}

}  // namespace amn::ui
