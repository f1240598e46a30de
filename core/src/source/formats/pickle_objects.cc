// SPDX-License-Identifier: MIT OR Apache-2.0
// The pickle machine's objects: the allowlist of globals (classification and
// verdicts), GLOBAL resolution, and calls of allowlisted globals — tensor
// rebuilds and data constructors, built as data (Machine::call).
#include "source/formats/pickle.hpp"

#include "anamnesis/error.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace amn::detail::pickle {
namespace {

using K = Value::Kind;

struct StorageRow { std::string_view name; DType t; };
constexpr StorageRow kStorages[] = {
    {"FloatStorage", DType::F32}, {"DoubleStorage", DType::F64}, {"HalfStorage", DType::F16},
    {"BFloat16Storage", DType::BF16}, {"LongStorage", DType::I64}, {"IntStorage", DType::I32},
    {"ShortStorage", DType::I16}, {"CharStorage", DType::I8}, {"ByteStorage", DType::U8},
    {"BoolStorage", DType::BOOL}, {"ComplexFloatStorage", DType::C64}, {"ComplexDoubleStorage", DType::C128},
    {"UInt16Storage", DType::U16}, {"UInt32Storage", DType::U32}, {"UInt64Storage", DType::U64},
    {"Float8_e4m3fnStorage", DType::F8_E4M3}, {"Float8_e5m2Storage", DType::F8_E5M2},
    {"Float8_e4m3fnuzStorage", DType::F8_E4M3FNUZ}, {"Float8_e5m2fnuzStorage", DType::F8_E5M2FNUZ},
    {"Float8_e8m0fnuStorage", DType::F8_E8M0},
    {"UntypedStorage", DType::U8},  // bytes; the tensor names its dtype (_rebuild_tensor_v3)
};
// Storage classes that exist but hold nothing we convert (quantized, complex32).
constexpr std::string_view kUnconvertibleStorages[] = {
    "QInt8Storage", "QUInt8Storage", "QInt32Storage", "QUInt4x2Storage", "QUInt2x4Storage", "ComplexHalfStorage",
};
struct DtypeRow { std::string_view name; DType t; };
constexpr DtypeRow kDtypes[] = {
    {"float32", DType::F32}, {"float", DType::F32}, {"float64", DType::F64}, {"double", DType::F64},
    {"float16", DType::F16}, {"half", DType::F16}, {"bfloat16", DType::BF16}, {"int8", DType::I8},
    {"uint8", DType::U8}, {"int16", DType::I16}, {"short", DType::I16}, {"int32", DType::I32},
    {"int", DType::I32}, {"int64", DType::I64}, {"long", DType::I64}, {"bool", DType::BOOL},
    {"complex64", DType::C64}, {"cfloat", DType::C64}, {"complex128", DType::C128}, {"cdouble", DType::C128},
    {"uint16", DType::U16}, {"uint32", DType::U32}, {"uint64", DType::U64},
    {"float8_e4m3fn", DType::F8_E4M3}, {"float8_e5m2", DType::F8_E5M2},
    {"float8_e4m3fnuz", DType::F8_E4M3FNUZ}, {"float8_e5m2fnuz", DType::F8_E5M2FNUZ},
    {"float8_e8m0fnu", DType::F8_E8M0},
    // Known dtypes without a registry type: allowed as values, not as tensor dtypes.
    {"complex32", DType::Unknown}, {"chalf", DType::Unknown}, {"qint8", DType::Unknown},
    {"quint8", DType::Unknown}, {"qint32", DType::Unknown}, {"quint4x2", DType::Unknown},
};
constexpr std::string_view kTorchConstants[] = {
    "strided", "sparse_coo", "sparse_csr", "contiguous_format", "channels_last", "channels_last_3d", "preserve_format",
};
constexpr std::string_view kUnsupportedRebuilders[] = {
    "_rebuild_qtensor", "_rebuild_sparse_tensor", "_rebuild_sparse_csr_tensor", "_rebuild_nested_tensor",
    "_rebuild_wrapper_subclass", "_rebuild_meta_tensor_no_storage", "_rebuild_device_tensor_from_numpy",
    "_rebuild_xla_tensor", "_rebuild_mps_tensor", "_rebuild_mtia_tensor", "_rebuild_tensor_v4",
};

}  // namespace

GlobalKind classify_global(std::string_view module, std::string_view name, DType* dtype) {
    if (module == "torch._utils") {
        if (name == "_rebuild_tensor_v2") return GlobalKind::RebuildTensorV2;
        if (name == "_rebuild_tensor_v3") return GlobalKind::RebuildTensorV3;
        if (name == "_rebuild_tensor") return GlobalKind::RebuildTensor;
        if (name == "_rebuild_parameter") return GlobalKind::RebuildParameter;
        if (name == "_rebuild_parameter_with_state") return GlobalKind::RebuildParameterWithState;
        for (auto n : kUnsupportedRebuilders)
            if (name == n) return GlobalKind::UnsupportedTensor;
        return GlobalKind::Refused;
    }
    if (module == "torch._tensor" && name == "_rebuild_from_type_v2") return GlobalKind::RebuildFromTypeV2;
    if (module == "collections" && name == "OrderedDict") return GlobalKind::OrderedDict;
    if (module == "builtins" || module == "__builtin__") {
        if (name == "set") return GlobalKind::Set;
        if (name == "frozenset") return GlobalKind::FrozenSet;
        if (name == "bytearray") return GlobalKind::ByteArray;
        return GlobalKind::Refused;
    }
    if (module == "_codecs" && name == "encode") return GlobalKind::CodecsEncode;
    if (module == "torch.nn.parameter" && name == "Parameter") return GlobalKind::TensorType;
    if (module == "torch._tensor" && name == "Tensor") return GlobalKind::TensorType;
    if (module == "torch") {
        if (name == "Size") return GlobalKind::TorchSize;
        if (name == "device") return GlobalKind::TorchDevice;
        if (name == "Tensor") return GlobalKind::TensorType;
        for (const auto& r : kStorages)
            if (name == r.name) { if (dtype) *dtype = r.t; return GlobalKind::TorchStorage; }
        for (auto n : kUnconvertibleStorages)
            if (name == n) { if (dtype) *dtype = DType::Unknown; return GlobalKind::TorchStorage; }
        for (const auto& r : kDtypes)
            if (name == r.name) { if (dtype) *dtype = r.t; return GlobalKind::TorchDtype; }
        for (auto n : kTorchConstants)
            if (name == n) return GlobalKind::TorchConstant;
    }
    if (module == "torch.storage" && name == "UntypedStorage") { if (dtype) *dtype = DType::U8; return GlobalKind::TorchStorage; }
    return GlobalKind::Refused;
}

std::string refused_verdict(std::string_view module, std::string_view name) {
    static constexpr std::string_view kExecModules[] = {
        "os", "posix", "nt", "subprocess", "pty", "runpy", "commands", "popen2", "webbrowser", "code",
        "importlib", "ctypes", "socket", "shutil", "marshal", "pickle", "_pickle", "cPickle", "types", "sys",
    };
    static constexpr std::string_view kExecBuiltins[] = {
        "eval", "exec", "execfile", "compile", "__import__", "getattr", "setattr", "delattr", "open",
        "input", "apply", "globals", "locals", "vars", "breakpoint", "help",
    };
    bool exec = false;
    for (auto m : kExecModules)
        if (module == m || (module.size() > m.size() && module.substr(0, m.size()) == m && module[m.size()] == '.')) exec = true;
    if (module == "builtins" || module == "__builtin__")
        for (auto n : kExecBuiltins)
            if (name == n) exec = true;
    if (exec) return "would execute code under torch.load(weights_only=False)";
    return "not allowlisted: torch.load(weights_only=False) would import and call it";
}

Value* Machine::resolve_global(std::string module, std::string name) {
    // Python's Unpickler(fix_imports=True) renames Python 2 modules for
    // protocols < 3 (Lib/_compat_pickle.py); report what would be imported.
    if (protocol_ < 3) {
        static constexpr std::pair<std::string_view, std::string_view> kPy2[] = {
            {"__builtin__", "builtins"}, {"copy_reg", "copyreg"}, {"cPickle", "pickle"}, {"Queue", "queue"},
            {"UserDict", "collections"}, {"UserList", "collections"}, {"exceptions", "builtins"},
            {"commands", "subprocess"}, {"cStringIO", "io"}, {"StringIO", "io"},
        };
        for (const auto& [from, to] : kPy2)
            if (module == from) { module = to; break; }
    }
    DType dt = DType::Unknown;
    const GlobalKind gk = classify_global(module, name, &dt);
    const std::string full = module + "." + name;
    auto [it, inserted] = global_index_.emplace(full, globals_.size());
    if (inserted) {
        if (globals_.size() >= 4096) throw Error(ErrorCode::LimitExceeded, "pickle references more than 4096 distinct globals");
        GlobalRef r;
        r.module = module;
        r.name = name;
        r.allowed = gk != GlobalKind::Refused;
        switch (gk) {
            case GlobalKind::Refused: r.verdict = refused_verdict(module, name); break;
            case GlobalKind::RebuildTensorV2: case GlobalKind::RebuildTensorV3: case GlobalKind::RebuildTensor:
            case GlobalKind::RebuildParameter: case GlobalKind::RebuildParameterWithState:
            case GlobalKind::RebuildFromTypeV2: r.verdict = "tensor rebuild"; break;
            case GlobalKind::UnsupportedTensor: r.verdict = "tensor rebuild (a tensor kind anamnesis does not convert)"; break;
            case GlobalKind::TorchStorage: r.verdict = "storage type"; break;
            case GlobalKind::TorchDtype: r.verdict = "dtype"; break;
            case GlobalKind::TensorType: r.verdict = "tensor type"; break;
            default: r.verdict = "data constructor"; break;
        }
        globals_.push_back(std::move(r));
    }
    globals_[it->second].count++;
    if (gk == GlobalKind::Refused) {
        if (!scan_)
            throw Error(ErrorCode::UnsafePickle, "pickle references " + full + ", which is not allowlisted (" + refused_verdict(module, name) + "); refused");
        Value* v = make(K::Opaque);
        v->s = full;
        return v;
    }
    Value* v = make(gk == GlobalKind::TorchDtype ? K::Dtype : K::Global);
    v->global = gk;
    v->dtype = dt;
    v->s = full;
    return v;
}

namespace {
std::int64_t as_int(const Value* v, const char* what) {
    if (v->kind == K::Int) return v->i;
    if (v->kind == K::Bool) return v->b ? 1 : 0;
    throw Error(ErrorCode::Malformed, std::string("malformed pickle: ") + what + " is a " + std::string(kind_name(*v)) + ", not an int");
}
const std::vector<Value*>& as_tuple(const Value* v, const char* what) {
    if (v->kind != K::Tuple && v->kind != K::List)
        throw Error(ErrorCode::Malformed, std::string("malformed pickle: ") + what + " is a " + std::string(kind_name(*v)) + ", not a tuple");
    return v->items;
}
}  // namespace

Value* Machine::call(Value* callable, Value* args, std::size_t at) {
    if (callable->kind == K::Opaque) {
        Value* r = make(K::Opaque);
        r->s = callable->s;
        return r;
    }
    if (callable->kind != K::Global) malformed("calling a " + std::string(kind_name(*callable)), at);
    const auto& a = as_tuple(args, "call arguments");
    const std::string& fn = callable->s;
    auto need = [&](std::size_t lo, std::size_t hi) {
        if (a.size() < lo || a.size() > hi)
            malformed(fn + " called with " + std::to_string(a.size()) + " arguments", at);
    };
    auto rebuild = [&](std::size_t first) -> Value* {
        Value* storage = a[first];
        if (storage->kind == K::Opaque) { Value* r = make(K::Opaque); r->s = storage->s; return r; }
        if (storage->kind != K::Storage) malformed(fn + ": first argument is a " + std::string(kind_name(*storage)) + ", not a storage", at);
        Value* t = make(K::Tensor);
        t->tensor.storage = storage;
        const std::int64_t off = as_int(a[first + 1], "storage offset");
        if (off < 0) malformed("negative storage offset", at);
        t->tensor.storage_offset = static_cast<std::uint64_t>(off);
        for (const Value* d : as_tuple(a[first + 2], "tensor size")) {
            const std::int64_t n = as_int(d, "tensor size");
            if (n < 0) malformed("negative tensor size", at);
            t->tensor.shape.push_back(static_cast<std::uint64_t>(n));
        }
        for (const Value* d : as_tuple(a[first + 3], "tensor stride")) t->tensor.stride.push_back(as_int(d, "tensor stride"));
        if (t->tensor.shape.size() != t->tensor.stride.size()) malformed("tensor size and stride of different ranks", at);
        charge(16 * t->tensor.shape.size());
        return t;
    };
    switch (callable->global) {
        case GlobalKind::OrderedDict: {
            need(0, 1);
            Value* d = make(K::Dict);
            if (a.size() == 1) {
                if (a[0]->kind == K::Dict) d->dict = a[0]->dict;
                else
                    for (Value* p : as_tuple(a[0], "OrderedDict items")) {
                        const auto& kv = as_tuple(p, "OrderedDict item");
                        if (kv.size() != 2) malformed("OrderedDict item is not a pair", at);
                        d->dict.emplace_back(kv[0], kv[1]);
                    }
            }
            return d;
        }
        case GlobalKind::Set: case GlobalKind::FrozenSet: {
            need(0, 1);
            Value* s = make(K::Set);
            if (a.size() == 1) s->items = a[0]->kind == K::Set ? a[0]->items : as_tuple(a[0], "set items");
            return s;
        }
        case GlobalKind::ByteArray: {
            need(0, 2);
            Value* b = make(K::Bytes);
            if (!a.empty()) {
                if (a[0]->kind != K::Bytes && a[0]->kind != K::Str) malformed("bytearray of a " + std::string(kind_name(*a[0])), at);
                b->s = a[0]->s;
            }
            return b;
        }
        case GlobalKind::CodecsEncode: {
            // Protocol 2 pickles bytes as _codecs.encode(text, 'latin1').
            need(2, 2);
            if (a[0]->kind != K::Str || a[1]->kind != K::Str || (a[1]->s != "latin1" && a[1]->s != "latin-1"))
                malformed("_codecs.encode with arguments other than (str, 'latin1')", at);
            Value* b = make(K::Bytes);
            const std::string& s = a[0]->s;
            for (std::size_t i = 0; i < s.size();) {
                const auto c = static_cast<unsigned char>(s[i]);
                if (c < 0x80) { b->s += static_cast<char>(c); ++i; }
                else if ((c >> 5) == 6 && i + 1 < s.size()) {
                    const std::uint32_t cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
                    if (cp > 0xFF) malformed("_codecs.encode: character beyond latin-1", at);
                    b->s += static_cast<char>(cp);
                    i += 2;
                } else {
                    malformed("_codecs.encode: character beyond latin-1", at);
                }
            }
            charge(b->s.size());
            return b;
        }
        case GlobalKind::TorchSize: {
            need(0, 1);
            Value* t = make(K::Tuple);
            if (a.size() == 1) t->items = as_tuple(a[0], "torch.Size argument");
            return t;
        }
        case GlobalKind::TorchDevice: {
            need(1, 2);
            if (a[0]->kind != K::Str) malformed("torch.device of a " + std::string(kind_name(*a[0])), at);
            Value* d = make(K::Device);
            d->s = a[0]->s;
            if (a.size() == 2 && a[1]->kind != K::None) d->s += ":" + std::to_string(as_int(a[1], "device index"));
            return d;
        }
        case GlobalKind::RebuildTensorV2: need(4, 7); return rebuild(0);
        case GlobalKind::RebuildTensor: need(4, 4); return rebuild(0);
        case GlobalKind::RebuildTensorV3: {
            need(7, 8);
            Value* t = rebuild(0);
            if (t->kind == K::Tensor) {
                if (a[6]->kind != K::Dtype) malformed("_rebuild_tensor_v3: dtype argument is a " + std::string(kind_name(*a[6])), at);
                t->tensor.dtype = a[6]->dtype;
                if (t->tensor.dtype == DType::Unknown) {
                    Value* r = make(K::Opaque);
                    r->s = "tensor of dtype " + a[6]->s;
                    return r;
                }
            }
            return t;
        }
        case GlobalKind::RebuildParameter: case GlobalKind::RebuildParameterWithState: {
            need(3, 4);
            Value* data = a[0];
            if (data->kind == K::Tensor) {
                Value* t = make(K::Tensor);
                t->tensor = data->tensor;
                t->tensor.parameter = true;
                return t;
            }
            if (data->kind == K::Opaque) return data;
            malformed(fn + " of a " + std::string(kind_name(*data)), at);
        }
        case GlobalKind::RebuildFromTypeV2: {
            need(4, 4);
            if (a[1]->kind != K::Global || a[1]->global != GlobalKind::TensorType) {
                if (a[1]->kind == K::Opaque) { Value* r = make(K::Opaque); r->s = a[1]->s; return r; }
                malformed("_rebuild_from_type_v2 with a type other than torch.Tensor/Parameter", at);
            }
            return call(a[0], a[2], at);
        }
        case GlobalKind::UnsupportedTensor: {
            Value* r = make(K::Opaque);
            r->s = fn;
            return r;
        }
        default:
            malformed("calling " + fn + ", which is not callable here", at);
    }
}

}  // namespace amn::detail::pickle
