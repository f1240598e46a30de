// SPDX-License-Identifier: MIT OR Apache-2.0
// anamnesis: the desktop application.
//   anamnesis [FILE|FOLDER …]            open models (several → tabs)
//   anamnesis --new-instance [FILE …]    do not hand the files to a running window
//   anamnesis --screenshot DIR FILE       render the main window and the
//                                         conversion wizard to PNGs in DIR, then quit
#include "screenshots.hpp"
#include "translations.hpp"

#include "mainwindow.hpp"
#include "singleinstance.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLocale>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("anamnesis"));
    QCoreApplication::setApplicationName(QStringLiteral("anamnesis"));
    QCoreApplication::setApplicationVersion(QStringLiteral(AMN_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("org.anamnesis.Anamnesis"));
    amnInitWidgetResources();

    QCommandLineParser cli;
    cli.setApplicationDescription(QCoreApplication::translate("main", "Inspect ML model files and remember (dequantize) them."));
    cli.addHelpOption();
    cli.addVersionOption();
    QCommandLineOption lang(QStringLiteral("lang"), QCoreApplication::translate("main", "User interface language (e.g. de), default: the system locale."),
                            QCoreApplication::translate("main", "locale"));
    QCommandLineOption shots(QStringLiteral("screenshot"),
                             QCoreApplication::translate("main", "Render screenshots of the first model into DIR and quit."),
                             QCoreApplication::translate("main", "DIR"));
    QCommandLineOption newInstance(QStringLiteral("new-instance"),
                                   QCoreApplication::translate("main", "Open a new window even when anamnesis is already running."));
    cli.addOption(lang);
    cli.addOption(newInstance);
    cli.addOption(shots);
    cli.addPositionalArgument(QStringLiteral("models"), QCoreApplication::translate("main", "Model files or folders to open."),
                              QStringLiteral("[models…]"));
    cli.process(app);

    const QLocale locale = cli.isSet(lang) ? QLocale(cli.value(lang)) : QLocale::system();
    QLocale::setDefault(locale);
    amn::ui::installTranslations(locale);
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/anamnesis.svg")));

    if (cli.isSet(shots)) {
        if (cli.positionalArguments().isEmpty()) {
            cli.showHelp(2);
        }
        return amn::ui::runScreenshots(cli.value(shots), cli.positionalArguments().first());
    }

    // Single instance: files opened from the desktop go to the running window.
    amn::ui::SingleInstance instance;
    const bool single = amn::ui::SingleInstance::enabled() && !cli.isSet(newInstance);
    if (single) {
        if (instance.sendToRunning(cli.positionalArguments())) return 0;
        instance.listen();
    }

    amn::ui::MainWindow w;
    w.setLeakModelsOnExit(true);  // exit promptly: the OS frees the models
    QObject::connect(&instance, &amn::ui::SingleInstance::pathsReceived, &w, [&w](const QStringList& paths) {
        w.openPaths(paths);
        if (w.isMinimized()) w.showNormal();
        w.raise();
        w.activateWindow();
    });
    w.show();
    w.openPaths(cli.positionalArguments());
    return app.exec();
}
