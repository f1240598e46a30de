// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: a pickle machine (protocols 0–5) that never executes anything.
//
// It interprets the opcode stream the way Python's `pickle.Unpickler` does
// (reference: CPython Lib/pickle.py, Lib/pickletools.py), but a GLOBAL is
// only resolved against a fixed allowlist of data constructors — the ones
// `torch.save` emits for state dicts (`torch._utils._rebuild_tensor_v2`,
// `collections.OrderedDict`, `torch.FloatStorage`, `torch.Size`, dtypes …),
// which the machine implements itself as data. Any other global is refused
// with Error{UnsafePickle} naming "module.name" before anything else
// happens. In scan mode a refused global becomes an opaque value instead,
// so that every global of the stream can be reported with a verdict.
//
// Values live in an arena owned by the machine (no reference cycles to leak,
// no recursive destruction): a Value* is valid while its Machine lives.
//
// Limits (Error{LimitExceeded}): memo entries, stack depth, mark depth and
// working set (bytes of values built).

#include "anamnesis/dtype.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace amn::detail::pickle {

/// What an allowlisted global is (Refused = not on the allowlist).
enum class GlobalKind {
    Refused,
    RebuildTensorV2,            ///< torch._utils._rebuild_tensor_v2
    RebuildTensorV3,            ///< torch._utils._rebuild_tensor_v3 (dtype argument, untyped storage)
    RebuildTensor,              ///< torch._utils._rebuild_tensor (older)
    RebuildParameter,           ///< torch._utils._rebuild_parameter
    RebuildParameterWithState,  ///< torch._utils._rebuild_parameter_with_state
    RebuildFromTypeV2,          ///< torch._tensor._rebuild_from_type_v2
    UnsupportedTensor,          ///< safe rebuilders of tensors we cannot convert (quantized, sparse …)
    OrderedDict, Set, FrozenSet, ByteArray, CodecsEncode,
    TorchSize, TorchDevice, TorchDtype, TorchStorage, TorchConstant,
    TensorType,                 ///< torch.Tensor / torch.nn.parameter.Parameter (a type argument)
};

struct Value;

/// A storage referenced through a persistent id.
struct StorageRef {
    std::string key;          ///< storage key ("0", "140234…")
    std::string type_name;    ///< "FloatStorage"
    DType dtype = DType::Unknown;
    std::uint64_t numel = 0;  ///< elements declared by the persistent id
    std::string location;     ///< "cpu", "cuda:0"
    /// Legacy views: element offset into the root storage (0 otherwise).
    std::uint64_t view_offset = 0;
};

/// A rebuilt tensor (data only: nothing was constructed).
struct TensorRef {
    const Value* storage = nullptr;  ///< Kind::Storage
    std::uint64_t storage_offset = 0;
    std::vector<std::uint64_t> shape;
    std::vector<std::int64_t> stride;
    /// Element type when it differs from the storage's (`_rebuild_tensor_v3`
    /// over an UntypedStorage); Unknown = the storage's dtype.
    DType dtype = DType::Unknown;
    bool parameter = false;
};

struct Value {
    enum class Kind {
        None, Bool, Int, BigInt, Float, Str, Bytes, Tuple, List, Dict, Set,
        Global, Storage, Tensor, Device, Dtype, Opaque, Mark
    } kind = Kind::None;
    bool b = false;
    std::int64_t i = 0;
    double f = 0;
    std::string s;                 ///< Str/Bytes; BigInt: little-endian two's complement; Device text; Opaque/Global: "module.name"
    std::vector<Value*> items;     ///< Tuple/List/Set
    std::vector<std::pair<Value*, Value*>> dict;  ///< Dict, in insertion order
    GlobalKind global = GlobalKind::Refused;      ///< Kind::Global
    DType dtype = DType::Unknown;  ///< Kind::Dtype, Kind::Global for TorchDtype/TorchStorage
    StorageRef storage;            ///< Kind::Storage
    TensorRef tensor;              ///< Kind::Tensor
};

/// Name of a kind for messages ("int", "OrderedDict" …).
std::string_view kind_name(const Value& v) noexcept;

/// Classify "module.name" against the allowlist. `dtype` receives the
/// element type for torch dtypes and storage classes.
GlobalKind classify_global(std::string_view module, std::string_view name, DType* dtype = nullptr);

/// One global referenced by a pickle, with its verdict.
struct GlobalRef {
    std::string module, name;
    bool allowed = false;
    std::string verdict;   ///< "tensor rebuild", "container", … or why it is refused
    std::size_t count = 0; ///< references in the stream
};

struct Limits {
    std::size_t max_memo = 1u << 22;          ///< memo entries
    std::size_t max_stack = 1u << 22;         ///< values on the stack (all marks)
    std::size_t max_marks = 1u << 16;         ///< nested MARKs
    std::uint64_t max_working_set = 1ull << 30;  ///< approximate bytes of values built
};

/// Called for PERSID/BINPERSID with the persistent id value; returns the
/// object it stands for (a Storage), allocated with Machine::make().
using PersistentLoad = std::function<Value*(const Value& pid)>;

class Machine {
public:
    explicit Machine(Limits limits = {}, bool scan = false) : limits_(limits), scan_(scan) {}

    void set_persistent_load(PersistentLoad fn) { persistent_load_ = std::move(fn); }

    /// Run one pickle from `data[pos]` up to its STOP; `pos` is advanced past
    /// STOP. \returns the unpickled value.
    /// \throws Error{Malformed} for an unknown opcode (named with its byte
    ///   and offset), stack underflow, a missing MARK, a memo miss, bad
    ///   argument types; Error{Truncated} when the stream ends before STOP;
    ///   Error{UnsafePickle} "module.name" for a refused global (not in scan
    ///   mode); Error{Unsupported} for extension codes and out-of-band
    ///   buffers; Error{LimitExceeded} past the limits.
    Value* run(std::span<const std::uint8_t> data, std::size_t& pos);

    /// Every global referenced so far (first-seen order), with verdicts.
    const std::vector<GlobalRef>& globals() const noexcept { return globals_; }
    /// Highest PROTO seen.
    int protocol() const noexcept { return protocol_; }

    /// Allocate a value in the arena.
    Value* make(Value::Kind k);

private:
    Limits limits_;
    bool scan_;
    int protocol_ = 0;
    PersistentLoad persistent_load_;
    std::deque<Value> arena_;
    std::uint64_t working_set_ = 0;
    std::vector<Value*> stack_;
    std::vector<std::size_t> marks_;
    std::unordered_map<std::uint64_t, Value*> memo_;
    std::vector<GlobalRef> globals_;
    std::unordered_map<std::string, std::size_t> global_index_;

    struct Run;  // one run(): opcode arguments and the opcode families (pickle.cc)

    void charge(std::uint64_t bytes);
    Value* resolve_global(std::string module, std::string name);
    Value* call(Value* callable, Value* args, std::size_t at);
    Value* pop();
    std::vector<Value*> pop_mark();
};

/// \throws Error{Malformed} "malformed pickle: <what> at byte <at>".
[[noreturn]] void malformed(const std::string& what, std::size_t at);

/// Verdict text for a refused global: "would execute code (…)" for known
/// code-execution entry points (os.system, builtins.eval, subprocess …),
/// else "not allowlisted: torch.load(weights_only=False) would import and call it".
std::string refused_verdict(std::string_view module, std::string_view name);

}  // namespace amn::detail::pickle
