// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// One window per user: a second `anamnesis FILE…` (the desktop's
// `Exec=anamnesis %F`) hands its files to the running instance over a local
// socket (QLocalServer / QLocalSocket) and exits.
//
// Protocol: the client sends one QDataStream-encoded QStringList of absolute
// paths; the server answers "ok\n" once it has taken them. The server name
// contains the user's name and the socket accepts only that user. Disabled
// (enabled() false) under QT_QPA_PLATFORM=offscreen and when
// AMN_NO_SINGLE_INSTANCE is set, so tests never reach a running window.

#include <QObject>
#include <QString>
#include <QStringList>

class QLocalServer;

namespace amn::ui {

class SingleInstance : public QObject {
    Q_OBJECT
public:
    /// `name` empty: defaultServerName().
    explicit SingleInstance(const QString& name = {}, QObject* parent = nullptr);
    ~SingleInstance() override;

    /// "anamnesis-<user>".
    static QString defaultServerName();
    /// False under QT_QPA_PLATFORM=offscreen or with AMN_NO_SINGLE_INSTANCE set.
    static bool enabled();

    QString serverName() const { return name_; }
    /// Hand `paths` (made absolute) to a running instance; true when it took them.
    bool sendToRunning(const QStringList& paths, int timeoutMs = 2000) const;
    /// Become the running instance (a stale socket of a crashed one is removed).
    bool listen();
    bool isListening() const;

signals:
    /// Paths another instance asked to open (absolute).
    void pathsReceived(const QStringList& paths);

private:
    void onConnection();

    QString name_;
    QLocalServer* server_ = nullptr;
};

}  // namespace amn::ui
