// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
/// \file pth.hpp
/// PyTorch checkpoints (`.pth`, `.pt`, `.bin`), read without executing anything.
///
/// Two containers (reference: `torch/serialization.py`):
/// - the ZIP format (torch ≥ 1.6): `<prefix>/data.pkl` holds the pickled
///   object, `<prefix>/data/<key>` the raw bytes of each storage,
///   `<prefix>/byteorder` ("little"/"big", absent = little) and
///   `<prefix>/version`. The prefix is `archive` (torch ≥ 2.x default) or the
///   file stem (older writers): both are accepted.
/// - the legacy format (`_use_new_zipfile_serialization=False`): a pickled
///   magic number, protocol version (1001) and sys_info dict, the pickled
///   object, a pickled list of storage keys, then each storage as an int64
///   element count followed by its bytes.
///
/// The pickle is interpreted by a machine that only knows an allowlist of
/// data constructors (`torch._utils._rebuild_tensor_v2`/`_v3`/
/// `_rebuild_parameter`, `collections.OrderedDict`, `torch.*Storage`,
/// `torch.Size`, `torch.device`, torch dtypes, `_codecs.encode`, `set`, …);
/// any other global is refused with Error{UnsafePickle} naming it
/// ("module.name") before anything is built.
///
/// Tensors point into the mapping (zero copy): `offset` is the first byte of
/// the tensor's first element, `nbytes` the span it covers. Views that are
/// not C-contiguous keep their element `strides`; several tensors may share
/// (overlapping) bytes of one storage. Nested containers are flattened to
/// dotted names (`{"model": {"fc.weight": t}}` → "model.fc.weight", list
/// items by index); a bare tensor is named "tensor". Non-tensor values
/// (epoch counters, hyper-parameters …) are listed in Catalog::notes and not
/// converted.

#include "anamnesis/catalog.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace amn {

/// Open a PyTorch checkpoint (ZIP or legacy), Format::Pth.
/// \throws Error{UnsafePickle} naming the first refused global;
///   Error{Malformed}/Error{Truncated} for a corrupt pickle or container
///   (unknown opcode named with its byte value and offset), a missing
///   `data/<key>` storage, a bad legacy magic number;
///   Error{OutOfRange} when a tensor view reaches past its storage;
///   Error{Unsupported} for pre-1.0 tar checkpoints, pickle protocols > 5;
///   Error{LimitExceeded} past the pickle or ZIP limits; ZIP errors of
///   ZipArchive::open. The file name is set on every error.
Catalog open_pth(const std::string& path);

/// A sharded PyTorch checkpoint: `pytorch_model.bin.index.json` (transformers'
/// `save_pretrained(safe_serialization=False)`) and the shards its
/// `weight_map` names, each read by open_pth() (no pickle code run), merged
/// into one catalog in sorted file-name order (Format::Pth).
/// \throws Error{BadJson} for an index that is not JSON or lacks weight_map;
///         Error{Malformed} naming the index and tensor when a listed tensor
///         is not in the shard named, or a file name leaves the folder;
///         everything open_pth() throws for a shard (naming the shard).
Catalog open_pth_index(const std::string& index_path);

/// open_pth() on a mapping the caller already has (tests, fuzzing, owned
/// buffers); `path` is what errors and the catalog report.
Catalog parse_pth(MappedFilePtr file, const std::string& path);

/// Open a ZIP-container model: a PyTorch checkpoint when the archive holds
/// a `data.pkl`, otherwise an `.npz`. For `open_model`'s dispatch on "PK".
Catalog open_zip_model(const std::string& path);

/// open_zip_model() on a mapping the caller already has.
Catalog parse_zip_model(MappedFilePtr file, const std::string& path);

/// True when `head` (the first bytes of a file, at least 16 when available)
/// starts like a legacy (pre-ZIP) PyTorch checkpoint: pickle protocol 2 with
/// torch's magic number.
bool is_legacy_pth(const std::uint8_t* head, std::size_t size) noexcept;

/// One global a pickle references, with its verdict.
struct PickleGlobalVerdict {
    std::string module, name;  ///< "posix", "system"
    bool allowed = false;      ///< on anamnesis' allowlist
    std::string verdict;       ///< "tensor rebuild", "would execute code under torch.load(weights_only=False)" …
    std::size_t count = 0;     ///< references over all pickles of the file
};

/// What `amn inspect --scan` reports.
struct PickleScan {
    std::string container;  ///< "pth (zip)", "pth (legacy)", "npy object array", "npz object array", "none"
    std::vector<std::string> pickles;  ///< pickles scanned ("archive/data.pkl", "legacy pickle 4", …)
    std::vector<PickleGlobalVerdict> globals;  ///< first-seen order
    std::vector<std::string> errors;   ///< structural problems met (the scan goes on where it can)
    bool safe = true;                  ///< no refused global and no error
    /// One line: "only tensor-rebuild globals: safe", "references posix.system:
    /// would execute code under torch.load(weights_only=False)", "no pickle in this file".
    std::string summary;
};

/// Scan every pickle of `path` (PyTorch ZIP/legacy, `.npy`/`.npz` object
/// arrays) without building anything: every referenced global gets a
/// verdict; a refused global does not stop the scan. Never throws for the
/// file's content (problems land in `errors`).
/// \throws Error{Io} only when the file cannot be read.
PickleScan scan_pickles(const std::string& path);

/// scan_pickles() on a mapping the caller already has; `path` names the
/// pickle of a bare `.pkl`/`.npy` in the report. Never throws for content.
PickleScan scan_pickles(MappedFilePtr file, const std::string& path);

}  // namespace amn
