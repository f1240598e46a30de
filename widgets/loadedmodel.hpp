// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// A model opened by the GUI: the core's Catalog, Plan and Inspection plus the
// per-layer Lethe figures, built once on a worker thread and then shared
// read-only (std::shared_ptr<const LoadedModel>) by every view and job.

#include "anamnesis/lora_adapter.hpp"
#include "anamnesis/catalog.hpp"
#include "anamnesis/inspect.hpp"
#include "anamnesis/plan.hpp"
#include "anamnesis/pth.hpp"
#include "anamnesis/remote.hpp"
#include "anamnesis/lethe_layers.hpp"

#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace amn::ui {

class TensorTree;
struct ModelViewData;

struct LoadedModel {
    QString path;                 ///< what the user opened
    amn::Catalog catalog;         ///< declared before plan: recipes point into it
    amn::Plan plan;
    amn::Inspection inspection;
    std::vector<amn::LayerLethe> layers;
    std::vector<int> owner;       ///< per catalog tensor: logical tensor consuming it, or -1
    /// Pickle scan verdict (PyTorch .pth, NPY/NPZ): every global the pickles
    /// reference, judged without running anything. Empty for other formats.
    std::optional<amn::PickleScan> pickle;
    /// A PEFT adapter folder's facts (rank, alpha, targets, GGUF form); empty otherwise.
    std::optional<amn::LoraAdapterInfo> adapter;
    std::shared_ptr<const TensorTree> tree;  ///< grouped-name index for the tree model
    double load_seconds = 0;
    QString display_name;         ///< modelDisplayName(), computed by loadModel() on the worker
    /// A remote model (an http(s) URL or hf:// id): its headers' mirror, kept
    /// while the model is open; null for a local one. Its tensor data was
    /// never fetched: values, statistics and conversions are not offered.
    std::shared_ptr<const amn::RemoteModel> remote;
    bool isRemote() const { return remote != nullptr; }

    LoadedModel() = default;
    LoadedModel(const LoadedModel&) = delete;
    LoadedModel& operator=(const LoadedModel&) = delete;
};
using ModelPtr = std::shared_ptr<const LoadedModel>;

/// Open, plan, inspect and index `path`. Reads headers only (the core maps
/// the file). A remote model (amn::is_remote_model: http(s) URL, hf:// id)
/// has its headers fetched first (amn::RemoteModel::open), `cancel` polled
/// during the transfers (Error{Cancelled}). Call from a worker thread.
/// \throws amn::Error.
ModelPtr loadModel(const QString& path, const std::atomic<bool>* cancel = nullptr);

/// Result of a background open: a model or the core's error message.
struct LoadResult {
    QString path;
    ModelPtr model;
    QString error;       ///< the core's full message (technical detail)
    int code = -1;       ///< amn::ErrorCode of the failure, -1 when not an amn::Error
    QString tensor;      ///< the tensor the failure concerns, if any
    /// The view's data, prepared on the loading worker (prepareModelView); may be null.
    std::shared_ptr<ModelViewData> views;
};
/// loadModel() that never throws (for QtConcurrent).
LoadResult tryLoadModel(const QString& path, const std::atomic<bool>* cancel = nullptr);

/// "org/name" when `path` lies in a Hugging Face cache snapshot
/// (…/models--org--name/snapshots/<hash>/…), else an empty string.
QString hfCacheModelId(const QString& path);

/// The model's name for tabs and titles: GGUF `general.name`, the Hugging
/// Face "org/name" from a cache path or config.json's `_name_or_path`,
/// else the folder (or file) name. Returns m.display_name when loadModel()
/// has set it; otherwise looks at the disk (config.json), so call it from a worker.
QString modelDisplayName(const LoadedModel& m);

/// `proposed` (an output path the core derived from the input) moved out of
/// a Hugging Face cache snapshot: into a folder named after the model in the
/// user's Documents. Other paths are returned unchanged; always absolute.
QString safeOutputPath(const LoadedModel& m, const QString& proposed);

/// "1.50 GiB" (as the core's human_bytes).
QString humanBytes(quint64 bytes);
/// "94.7 K", "1.24 B" parameter counts.
QString humanCount(quint64 n);
/// "[128, 96]" or "scalar".
QString shapeText(const std::vector<std::uint64_t>& shape);

}  // namespace amn::ui
