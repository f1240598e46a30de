// SPDX-License-Identifier: MIT OR Apache-2.0
#include "loadedmodel.hpp"

#include "tensortreemodel.hpp"

#include "anamnesis/error.hpp"
#include "anamnesis/gguf.hpp"
#include "anamnesis/model_name.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QUrl>
#include <QElapsedTimer>
#include <QLocale>

namespace amn::ui {

ModelPtr loadModel(const QString& path, const std::atomic<bool>* cancel) {
    QElapsedTimer timer;
    timer.start();
    auto m = std::make_shared<LoadedModel>();
    m->path = path;
    std::string local = path.toStdString();
    if (amn::is_remote_model(local)) {
        amn::RemoteOptions options;
        if (cancel) options.cancelled = [cancel] { return cancel->load(); };
        m->remote = std::make_shared<const amn::RemoteModel>(amn::RemoteModel::open(local, options));
        local = m->remote->local_path();
    }
    try {
        m->catalog = amn::open_model(local);
    } catch (const amn::Error& e) {
        if (!m->remote) throw;
        throw m->remote->relabel(e);
    }
    m->plan = amn::make_plan(m->catalog);
    m->inspection = amn::inspect(m->catalog, m->plan);
    m->layers = amn::lethe_by_layer(m->plan);
    m->owner.assign(m->catalog.tensors.size(), -1);
    for (std::size_t i = 0; i < m->plan.tensors.size(); ++i)
        for (auto s : m->plan.tensors[i].sources)
            if (s < m->owner.size() && m->owner[s] < 0) m->owner[s] = static_cast<int>(i);
    m->tree = TensorTree::build(*m);
    if (!m->remote) m->adapter = amn::describe_lora_adapter(m->catalog);  // reads adapter_config.json
    if (!m->remote && (m->catalog.format == amn::Format::Pth || m->catalog.format == amn::Format::Npy || m->catalog.format == amn::Format::Npz)) {
        try {
            m->pickle = amn::scan_pickles(m->catalog.path);
        } catch (const amn::Error&) {
            // The model itself opened; a scan that cannot read the file adds nothing.
        }
    }
    m->load_seconds = timer.nsecsElapsed() / 1e9;
    m->display_name = modelDisplayName(*m);  // reads the disk: here on the worker, not in the views
    return m;
}

LoadResult tryLoadModel(const QString& path, const std::atomic<bool>* cancel) {
    LoadResult r;
    r.path = path;
    try {
        r.model = loadModel(path, cancel);
    } catch (const amn::Error& e) {
        r.error = QString::fromStdString(e.what());
        r.code = static_cast<int>(e.code());
        r.tensor = QString::fromStdString(e.tensor());
    } catch (const std::exception& e) {
        r.error = QString::fromStdString(e.what());
    }
    return r;
}

namespace {
/// Index of the "models--org--name" component followed by "snapshots/<hash>", or -1.
int hfCacheIndex(const QStringList& parts) {
    for (int i = 0; i + 2 < parts.size(); ++i)
        if (parts[i].startsWith(QLatin1String("models--")) && parts[i].size() > 8 && parts[i + 1] == QLatin1String("snapshots"))
            return i;
    return -1;
}
QStringList pathParts(const QString& path) {
    return QDir::fromNativeSeparators(QFileInfo(path).absoluteFilePath()).split(QLatin1Char('/'), Qt::SkipEmptyParts);
}
}  // namespace

QString hfCacheModelId(const QString& path) {
    const QStringList parts = pathParts(path);
    const int i = hfCacheIndex(parts);
    if (i < 0) return {};
    const QString id = parts[i].mid(8);  // "org--name"
    const int sep = id.indexOf(QLatin1String("--"));
    return sep < 0 ? id : id.left(sep) + QLatin1Char('/') + id.mid(sep + 2);
}

QString modelDisplayName(const LoadedModel& m) {
    if (!m.display_name.isEmpty()) return m.display_name;
    if (m.catalog.format == amn::Format::Gguf) {
        try {
            const auto info = amn::gguf_info(m.catalog);
            if (!info.name.empty()) return QString::fromStdString(info.name);
        } catch (const amn::Error&) {
        }
    }
    if (m.isRemote()) {  // hf://ORG/REPO[@REV][/PATH] → ORG/REPO; a URL → its file name
        if (m.path.startsWith(QLatin1String("hf://")))
            return m.path.mid(5).section(QLatin1Char('/'), 0, 1).section(QLatin1Char('@'), 0, 0);
        return QUrl(m.path).fileName();
    }
    if (const QString id = hfCacheModelId(m.path); !id.isEmpty()) return id;
    if (const auto n = amn::config_name_or_path(m.catalog); n && !n->empty()) {
        const QString s = QString::fromStdString(*n);
        // A local path in _name_or_path names a folder, not a model: keep its last two parts.
        const QStringList parts = QDir::fromNativeSeparators(s).split(QLatin1Char('/'), Qt::SkipEmptyParts);
        if (!parts.isEmpty()) return parts.size() >= 2 ? parts[parts.size() - 2] + QLatin1Char('/') + parts.back() : parts.back();
    }
    const QFileInfo fi(m.path);
    // A file inside a model folder is named by the folder ("model.safetensors" says nothing).
    if (fi.isFile() && QFileInfo::exists(fi.absolutePath() + QStringLiteral("/config.json"))) return fi.absoluteDir().dirName();
    return fi.fileName().isEmpty() ? QString::fromStdString(m.catalog.display_name) : fi.fileName();
}

QString safeOutputPath(const LoadedModel& m, const QString& proposed) {
    if (proposed.isEmpty()) return proposed;
    const QString abs = QFileInfo(proposed).absoluteFilePath();
    const QStringList parts = pathParts(m.path);
    const int i = hfCacheIndex(parts);
    if (i < 0) return abs;
    const QString hash = parts[i + 2];
    QString name = hfCacheModelId(m.path).section(QLatin1Char('/'), -1);
    QString file = QFileInfo(abs).fileName();
    if (file.startsWith(hash)) file = name + file.mid(hash.size());  // a sibling folder of the snapshot
    QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (docs.isEmpty()) docs = QDir::homePath();
    return QDir(docs).filePath(name + QLatin1Char('/') + file);
}

QString humanBytes(quint64 bytes) {
    // Locale-aware (German: "1,5 GiB"); binary units as the core and the CLI print them.
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), bytes < 1024 ? 0 : 1, QLocale::DataSizeIecFormat);
}

QString humanCount(quint64 n) {
    if (n < 1000) return QLocale().toString(n);
    static const char* units[] = {"K", "M", "B", "T"};
    double v = static_cast<double>(n);
    int u = -1;
    while (v >= 1000.0 && u < 3) { v /= 1000.0; ++u; }
    const int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
    return QStringLiteral("%1 %2").arg(QLocale().toString(v, 'f', decimals), QLatin1String(units[u]));
}

QString shapeText(const std::vector<std::uint64_t>& shape) {
    if (shape.empty()) return QCoreApplication::translate("amn::ui::Shape", "scalar");
    return QString::fromStdString(shape_to_string(shape));
}

}  // namespace amn::ui
