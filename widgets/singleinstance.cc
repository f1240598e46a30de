// SPDX-License-Identifier: MIT OR Apache-2.0
#include "singleinstance.hpp"

#include <QDataStream>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>

namespace amn::ui {

namespace {
const QByteArray kAck = QByteArrayLiteral("ok\n");
}

SingleInstance::SingleInstance(const QString& name, QObject* parent)
    : QObject(parent), name_(name.isEmpty() ? defaultServerName() : name) {}

SingleInstance::~SingleInstance() = default;

QString SingleInstance::defaultServerName() {
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty()) user = qEnvironmentVariable("USERNAME");
    if (user.isEmpty()) user = QFileInfo(QDir::homePath()).fileName();
    // Keep the name a plain file name (it becomes a socket under the temp dir).
    for (QChar& c : user)
        if (!c.isLetterOrNumber() && c != QLatin1Char('-') && c != QLatin1Char('_')) c = QLatin1Char('_');
    return QStringLiteral("anamnesis-%1").arg(user);
}

bool SingleInstance::enabled() {
    if (qEnvironmentVariableIsSet("AMN_NO_SINGLE_INSTANCE")) return false;
    return qEnvironmentVariable("QT_QPA_PLATFORM") != QLatin1String("offscreen");
}

bool SingleInstance::sendToRunning(const QStringList& paths, int timeoutMs) const {
    QLocalSocket socket;
    socket.connectToServer(name_);
    if (!socket.waitForConnected(timeoutMs)) return false;
    QStringList absolute;
    for (const QString& p : paths) absolute << QFileInfo(p).absoluteFilePath();
    QByteArray message;
    {
        QDataStream out(&message, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_0);
        out << absolute;
    }
    socket.write(message);
    if (!socket.waitForBytesWritten(timeoutMs)) return false;
    QByteArray answer;
    while (answer.size() < kAck.size() && socket.waitForReadyRead(timeoutMs)) answer += socket.readAll();
    socket.disconnectFromServer();
    return answer.startsWith(kAck);
}

bool SingleInstance::listen() {
    if (!server_) {
        server_ = new QLocalServer(this);
        server_->setSocketOptions(QLocalServer::UserAccessOption);
        connect(server_, &QLocalServer::newConnection, this, &SingleInstance::onConnection);
    }
    if (server_->isListening()) return true;
    if (server_->listen(name_)) return true;
    // A socket left by an instance that crashed: nobody answers on it (the
    // caller tried sendToRunning first), so remove it and listen again.
    QLocalServer::removeServer(name_);
    return server_->listen(name_);
}

bool SingleInstance::isListening() const { return server_ && server_->isListening(); }

void SingleInstance::onConnection() {
    while (QLocalSocket* socket = server_->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
            QDataStream in(socket);
            in.setVersion(QDataStream::Qt_6_0);
            in.startTransaction();
            QStringList paths;
            in >> paths;
            if (!in.commitTransaction()) return;  // the rest is on its way
            socket->write(kAck);
            socket->flush();
            emit pathsReceived(paths);
        });
    }
}

}  // namespace amn::ui
