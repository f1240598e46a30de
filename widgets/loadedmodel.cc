// SPDX-License-Identifier: MIT OR Apache-2.0
#include "loadedmodel.hpp"

#include "tensortreemodel.hpp"

#include "anamnesis/error.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLocale>

namespace amn::ui {

ModelPtr loadModel(const QString& path) {
    QElapsedTimer timer;
    timer.start();
    auto m = std::make_shared<LoadedModel>();
    m->path = path;
    m->catalog = amn::open_model(path.toStdString());
    m->plan = amn::make_plan(m->catalog);
    m->inspection = amn::inspect(m->catalog, m->plan);
    m->layers = amn::lethe_by_layer(m->plan);
    m->owner.assign(m->catalog.tensors.size(), -1);
    for (std::size_t i = 0; i < m->plan.tensors.size(); ++i)
        for (auto s : m->plan.tensors[i].sources)
            if (s < m->owner.size() && m->owner[s] < 0) m->owner[s] = static_cast<int>(i);
    m->tree = TensorTree::build(*m);
    if (m->catalog.format == amn::Format::Pth || m->catalog.format == amn::Format::Npy || m->catalog.format == amn::Format::Npz) {
        try {
            m->pickle = amn::scan_pickles(m->catalog.path);
        } catch (const amn::Error&) {
            // The model itself opened; a scan that cannot read the file adds nothing.
        }
    }
    m->load_seconds = timer.nsecsElapsed() / 1e9;
    return m;
}

LoadResult tryLoadModel(const QString& path) {
    LoadResult r;
    r.path = path;
    try {
        r.model = loadModel(path);
    } catch (const amn::Error& e) {
        r.error = QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        r.error = QString::fromStdString(e.what());
    }
    return r;
}

QString humanBytes(quint64 bytes) { return QString::fromStdString(amn::human_bytes(bytes)); }

QString humanCount(quint64 n) {
    if (n < 1000) return QString::number(n);
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
