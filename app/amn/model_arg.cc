// SPDX-License-Identifier: MIT OR Apache-2.0
// The MODEL argument of parse/inspect: local, or remote with its headers mirrored.
#include "anamnesis/json_writer.hpp"
#include "cli.hpp"

namespace amn::cli {

ModelArg::ModelArg(const std::string& arg) : arg_(arg) {
    if (is_remote_model(arg)) remote_.emplace(RemoteModel::open(arg));
}

const std::string& ModelArg::path() const { return remote_ ? remote_->local_path() : arg_; }

std::string ModelArg::relabel(std::string text) const { return remote_ ? remote_->relabel(std::move(text)) : text; }

void ModelArg::relabel(Catalog& cat) const {
    if (remote_) remote_->relabel(cat);
}

amn::Error ModelArg::relabel(const amn::Error& e) const {
    if (!remote_) return e;
    return remote_->relabel(e);
}

void ModelArg::write_json(amn::JsonWriter& w) const {
    if (!remote_) return;
    w.key("remote").begin_object();
    w.key("spec").value(remote_->spec());
    w.key("bytes_fetched").value(remote_->bytes_fetched());
    w.key("requests").value(remote_->requests());
    w.key("files").begin_array();
    for (const auto& f : remote_->files())
        w.begin_object().key("url").value(f.url).key("size").value(f.size).key("fetched").value(f.fetched).end_object();
    w.end_array();
    w.end_object();
}

}  // namespace amn::cli
