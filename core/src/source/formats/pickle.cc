// SPDX-License-Identifier: MIT OR Apache-2.0
// A non-executing pickle machine (protocols 0–5): the machine core — opcode
// arguments, stack and memo, constants, containers, the opcode dispatch. The
// allowlist of globals and calls of them: pickle_objects.cc.
#include "source/formats/pickle.hpp"
#include "util/utf8.hpp"

#include "anamnesis/error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace amn::detail::pickle {
namespace {

using K = Value::Kind;

// Opcodes (CPython Lib/pickle.py names).
enum Op : std::uint8_t {
    MARK = '(', STOP = '.', POP = '0', POP_MARK = '1', DUP = '2', FLOAT = 'F', INT = 'I', BININT = 'J',
    BININT1 = 'K', LONG = 'L', BININT2 = 'M', NONE = 'N', PERSID = 'P', BINPERSID = 'Q', REDUCE = 'R',
    STRING = 'S', BINSTRING = 'T', SHORT_BINSTRING = 'U', UNICODE = 'V', BINUNICODE = 'X', APPEND = 'a',
    BUILD = 'b', GLOBAL = 'c', DICT = 'd', EMPTY_DICT = '}', APPENDS = 'e', GET = 'g', BINGET = 'h',
    INST = 'i', LONG_BINGET = 'j', LIST = 'l', EMPTY_LIST = ']', OBJ = 'o', PUT = 'p', BINPUT = 'q',
    LONG_BINPUT = 'r', SETITEM = 's', TUPLE = 't', EMPTY_TUPLE = ')', SETITEMS = 'u', BINFLOAT = 'G',
    PROTO = 0x80, NEWOBJ = 0x81, EXT1 = 0x82, EXT2 = 0x83, EXT4 = 0x84, TUPLE1 = 0x85, TUPLE2 = 0x86,
    TUPLE3 = 0x87, NEWTRUE = 0x88, NEWFALSE = 0x89, LONG1 = 0x8a, LONG4 = 0x8b,
    BINBYTES = 'B', SHORT_BINBYTES = 'C',
    SHORT_BINUNICODE = 0x8c, BINUNICODE8 = 0x8d, BINBYTES8 = 0x8e, EMPTY_SET = 0x8f, ADDITEMS = 0x90,
    FROZENSET = 0x91, NEWOBJ_EX = 0x92, STACK_GLOBAL = 0x93, MEMOIZE = 0x94, FRAME = 0x95,
    BYTEARRAY8 = 0x96, NEXT_BUFFER = 0x97, READONLY_BUFFER = 0x98,
};

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) out += static_cast<char>(cp);
    else if (cp < 0x800) { out += static_cast<char>(0xC0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18)); out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

}  // namespace

[[noreturn]] void malformed(const std::string& what, std::size_t at) {
    throw Error(ErrorCode::Malformed, "malformed pickle: " + what + " at byte " + std::to_string(at));
}

std::string_view kind_name(const Value& v) noexcept {
    switch (v.kind) {
        case K::None: return "None";
        case K::Bool: return "bool";
        case K::Int: case K::BigInt: return "int";
        case K::Float: return "float";
        case K::Str: return "str";
        case K::Bytes: return "bytes";
        case K::Tuple: return "tuple";
        case K::List: return "list";
        case K::Dict: return "dict";
        case K::Set: return "set";
        case K::Global: return "global";
        case K::Storage: return "storage";
        case K::Tensor: return "tensor";
        case K::Device: return "torch.device";
        case K::Dtype: return "torch.dtype";
        case K::Opaque: return "object";
        case K::Mark: return "mark";
    }
    return "value";
}


Value* Machine::make(Value::Kind k) {
    charge(sizeof(Value));
    arena_.emplace_back();
    Value* v = &arena_.back();
    v->kind = k;
    return v;
}

void Machine::charge(std::uint64_t bytes) {
    working_set_ += bytes;
    if (working_set_ > limits_.max_working_set)
        throw Error(ErrorCode::LimitExceeded, "pickle working set exceeds " + std::to_string(limits_.max_working_set) + " bytes");
}

Value* Machine::pop() {
    const std::size_t base = marks_.empty() ? 0 : marks_.back();
    if (stack_.size() <= base) throw Error(ErrorCode::Malformed, "malformed pickle: stack underflow");
    Value* v = stack_.back();
    stack_.pop_back();
    return v;
}

std::vector<Value*> Machine::pop_mark() {
    if (marks_.empty()) throw Error(ErrorCode::Malformed, "malformed pickle: no MARK on the stack");
    const std::size_t base = marks_.back();
    marks_.pop_back();
    std::vector<Value*> items(stack_.begin() + static_cast<std::ptrdiff_t>(base), stack_.end());
    stack_.resize(base);
    return items;
}


// One run of the machine over a pickle: the opcode arguments it reads, and
// the interpretation of each opcode family (Machine::run dispatches).
struct Machine::Run {
    Machine& m;
    const std::uint8_t* d;
    std::size_t n;
    std::size_t& pos;

    // ---- opcode arguments
    void need(std::size_t k) const {
        if (k > n - pos) throw Error(ErrorCode::Truncated, "pickle ends inside an opcode argument at byte " + std::to_string(pos));
    }
    std::uint8_t u8() { need(1); return d[pos++]; }
    std::uint16_t u16() { need(2); std::uint16_t v = static_cast<std::uint16_t>(d[pos] | (d[pos + 1] << 8)); pos += 2; return v; }
    std::uint32_t u32() {
        need(4);
        std::uint32_t v = static_cast<std::uint32_t>(d[pos]) | (static_cast<std::uint32_t>(d[pos + 1]) << 8) |
                          (static_cast<std::uint32_t>(d[pos + 2]) << 16) | (static_cast<std::uint32_t>(d[pos + 3]) << 24);
        pos += 4;
        return v;
    }
    std::uint64_t u64() { std::uint64_t lo = u32(); std::uint64_t hi = u32(); return lo | (hi << 32); }
    std::string bytes(std::uint64_t k) {
        if (k > n - pos) throw Error(ErrorCode::Truncated, "pickle ends inside a " + std::to_string(k) + "-byte string at byte " + std::to_string(pos));
        m.charge(k);
        std::string s(reinterpret_cast<const char*>(d + pos), static_cast<std::size_t>(k));
        pos += static_cast<std::size_t>(k);
        return s;
    }
    std::string line() {
        const void* nl = std::memchr(d + pos, '\n', n - pos);
        if (!nl) throw Error(ErrorCode::Truncated, "pickle ends inside a text argument at byte " + std::to_string(pos));
        const std::size_t e = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - d);
        std::string s(reinterpret_cast<const char*>(d + pos), e - pos);
        m.charge(s.size());
        pos = e + 1;
        if (!s.empty() && s.back() == '\r') s.pop_back();
        return s;
    }

    // ---- stack and memo
    void push(Value* v) {
        if (m.stack_.size() >= m.limits_.max_stack) throw Error(ErrorCode::LimitExceeded, "pickle stack deeper than " + std::to_string(m.limits_.max_stack));
        m.stack_.push_back(v);
    }
    Value* top(std::size_t at) const {
        const std::size_t base = m.marks_.empty() ? 0 : m.marks_.back();
        if (m.stack_.size() <= base) malformed("stack underflow", at);
        return m.stack_.back();
    }
    void memo_put(std::uint64_t idx, std::size_t at) {
        Value* v = top(at);
        if (m.memo_.size() >= m.limits_.max_memo && !m.memo_.count(idx))
            throw Error(ErrorCode::LimitExceeded, "pickle memo larger than " + std::to_string(m.limits_.max_memo) + " entries");
        m.memo_[idx] = v;
    }
    void memo_get(std::uint64_t idx, std::size_t at) {
        auto it = m.memo_.find(idx);
        if (it == m.memo_.end()) malformed("memo key " + std::to_string(idx) + " was never stored", at);
        push(it->second);
    }

    // ---- constants
    Value* make_str(std::string s, std::size_t at) {
        if (!detail::valid_utf8(s, true)) malformed("invalid UTF-8 in a string", at);
        Value* v = m.make(K::Str);
        v->s = std::move(s);
        return v;
    }
    Value* make_int(std::int64_t i) { Value* v = m.make(K::Int); v->i = i; return v; }
    Value* make_long(const std::string& le) {
        // Little-endian two's complement of any length.
        if (le.size() <= 8) {
            std::uint64_t u = 0;
            for (std::size_t k = 0; k < le.size(); ++k) u |= static_cast<std::uint64_t>(static_cast<unsigned char>(le[k])) << (8 * k);
            if (!le.empty() && le.size() < 8 && (static_cast<unsigned char>(le.back()) & 0x80)) u |= ~std::uint64_t{0} << (8 * le.size());
            return make_int(static_cast<std::int64_t>(u));
        }
        Value* v = m.make(K::BigInt);
        v->s = le;
        return v;
    }
    Value* parse_decimal(const std::string& s, std::size_t at) {
        std::string t = s;
        if (!t.empty() && (t.back() == 'L' || t.back() == 'l')) t.pop_back();
        if (t.empty()) malformed("empty integer", at);
        std::size_t k = (t[0] == '-' || t[0] == '+') ? 1 : 0;
        if (k == t.size()) malformed("bad integer '" + s + "'", at);
        for (std::size_t j = k; j < t.size(); ++j)
            if (t[j] < '0' || t[j] > '9') malformed("bad integer '" + s + "'", at);
        errno = 0;
        const long long v = std::strtoll(t.c_str(), nullptr, 10);
        if (errno == ERANGE) { Value* b = m.make(K::BigInt); b->s = t; return b; }
        return make_int(v);
    }
    static std::string quoted(const std::string& s, std::size_t at) {
        // Protocol 0 STRING: a Python 2 repr, quoted, simple escapes.
        if (s.size() < 2 || (s[0] != '\'' && s[0] != '"') || s.back() != s[0]) malformed("STRING argument is not quoted", at);
        std::string out;
        for (std::size_t k = 1; k + 1 < s.size(); ++k) {
            if (s[k] != '\\') { out += s[k]; continue; }
            if (++k + 1 > s.size() - 1) malformed("bad escape in STRING", at);
            const char e = s[k];
            if (e == 'x') {
                if (k + 2 >= s.size()) malformed("bad \\x escape in STRING", at);
                out += static_cast<char>(std::strtol(s.substr(k + 1, 2).c_str(), nullptr, 16));
                k += 2;
            } else if (e == 'n') out += '\n';
            else if (e == 't') out += '\t';
            else if (e == 'r') out += '\r';
            else if (e == '\\' || e == '\'' || e == '"') out += e;
            else malformed(std::string("unsupported escape \\") + e + " in STRING", at);
        }
        return out;
    }
    static std::string raw_unicode(const std::string& s, std::size_t at) {
        // Protocol 0 UNICODE: raw-unicode-escape (\uXXXX, \UXXXXXXXX; other bytes are latin-1).
        std::string out;
        for (std::size_t k = 0; k < s.size(); ++k) {
            if (s[k] == '\\' && k + 1 < s.size() && (s[k + 1] == 'u' || s[k + 1] == 'U')) {
                const std::size_t w = s[k + 1] == 'u' ? 4 : 8;
                if (k + 2 + w > s.size()) malformed("bad \\u escape in UNICODE", at);
                const std::uint32_t cp = static_cast<std::uint32_t>(std::strtoul(s.substr(k + 2, w).c_str(), nullptr, 16));
                if (cp > 0x10FFFF) malformed("bad code point in UNICODE", at);
                append_utf8(out, cp);
                k += 1 + w;
            } else {
                append_utf8(out, static_cast<unsigned char>(s[k]));
            }
        }
        return out;
    }

    // ---- calls
    void persistent(Value* pid, std::size_t at) {
        if (!m.persistent_load_) malformed("persistent id outside a checkpoint", at);
        push(m.persistent_load_(*pid));
    }
    Value* checked_call(Value* callable, Value* args, std::size_t at) {
        if (!m.scan_) return m.call(callable, args, at);
        try {
            return m.call(callable, args, at);
        } catch (const Error&) {
            Value* r = m.make(K::Opaque);
            r->s = callable->s;
            return r;
        }
    }

    // ---- opcode families: each returns false for an opcode not its own.
    bool stack_memo_op(std::uint8_t op, std::size_t at);  // framing, MARK/POP/DUP, memo PUT/GET
    bool constant_op(std::uint8_t op, std::size_t at);    // None, bools, ints, floats, strings, bytes
    bool container_op(std::uint8_t op, std::size_t at);   // tuples, lists, dicts, sets, BUILD
    bool object_op(std::uint8_t op, std::size_t at);      // globals, calls, extensions, persistent ids
};

bool Machine::Run::stack_memo_op(std::uint8_t op, std::size_t at) {
    switch (op) {
        case PROTO: {
            const int p = u8();
            if (p > 5) throw Error(ErrorCode::Unsupported, "pickle protocol " + std::to_string(p));
            m.protocol_ = std::max(m.protocol_, p);
            return true;
        }
        case FRAME: {
            const std::uint64_t len = u64();
            if (len > n - pos) throw Error(ErrorCode::Truncated, "pickle frame of " + std::to_string(len) + " bytes runs past the end at byte " + std::to_string(at));
            return true;
        }
        case MARK:
            if (m.marks_.size() >= m.limits_.max_marks) throw Error(ErrorCode::LimitExceeded, "pickle MARKs nested deeper than " + std::to_string(m.limits_.max_marks));
            m.marks_.push_back(m.stack_.size());
            return true;
        case POP: {
            const std::size_t base = m.marks_.empty() ? 0 : m.marks_.back();
            if (m.stack_.size() > base) m.stack_.pop_back();
            else m.pop_mark();
            return true;
        }
        case POP_MARK: m.pop_mark(); return true;
        case DUP: push(top(at)); return true;
        case PUT: { const std::string s = line(); Value* k = parse_decimal(s, at); if (k->kind != K::Int || k->i < 0) malformed("bad PUT key", at); memo_put(static_cast<std::uint64_t>(k->i), at); return true; }
        case BINPUT: memo_put(u8(), at); return true;
        case LONG_BINPUT: memo_put(u32(), at); return true;
        case MEMOIZE: memo_put(m.memo_.size(), at); return true;
        case GET: { const std::string s = line(); Value* k = parse_decimal(s, at); if (k->kind != K::Int || k->i < 0) malformed("bad GET key", at); memo_get(static_cast<std::uint64_t>(k->i), at); return true; }
        case BINGET: memo_get(u8(), at); return true;
        case LONG_BINGET: memo_get(u32(), at); return true;
        default: return false;
    }
}

bool Machine::Run::constant_op(std::uint8_t op, std::size_t at) {
    switch (op) {
        case NONE: push(m.make(K::None)); return true;
        case NEWTRUE: case NEWFALSE: { Value* v = m.make(K::Bool); v->b = op == NEWTRUE; push(v); return true; }
        case INT: {
            const std::string s = line();
            if (s == "01" || s == "00") { Value* v = m.make(K::Bool); v->b = s == "01"; push(v); }
            else push(parse_decimal(s, at));
            return true;
        }
        case LONG: push(parse_decimal(line(), at)); return true;
        case BININT: push(make_int(static_cast<std::int32_t>(u32()))); return true;
        case BININT1: push(make_int(u8())); return true;
        case BININT2: push(make_int(u16())); return true;
        case LONG1: { const std::size_t k = u8(); push(make_long(bytes(k))); return true; }
        case LONG4: {
            const std::int32_t k = static_cast<std::int32_t>(u32());
            if (k < 0) malformed("negative LONG4 length", at);
            push(make_long(bytes(static_cast<std::uint64_t>(k))));
            return true;
        }
        case FLOAT: {
            const std::string s = line();
            char* end = nullptr;
            Value* v = m.make(K::Float);
            v->f = std::strtod(s.c_str(), &end);
            if (s.empty() || end != s.c_str() + s.size()) malformed("bad float '" + s + "'", at);
            push(v);
            return true;
        }
        case BINFLOAT: {
            need(8);
            std::uint64_t u = 0;
            for (int k = 0; k < 8; ++k) u = (u << 8) | d[pos + k];
            pos += 8;
            Value* v = m.make(K::Float);
            std::memcpy(&v->f, &u, 8);
            push(v);
            return true;
        }
        case STRING: { Value* v = m.make(K::Str); v->s = quoted(line(), at); push(v); return true; }
        case BINSTRING: {
            const std::int32_t k = static_cast<std::int32_t>(u32());
            if (k < 0) malformed("negative BINSTRING length", at);
            Value* v = m.make(K::Str);
            v->s = bytes(static_cast<std::uint64_t>(k));
            push(v);
            return true;
        }
        case SHORT_BINSTRING: { const std::size_t k = u8(); Value* v = m.make(K::Str); v->s = bytes(k); push(v); return true; }
        case UNICODE: push(make_str(raw_unicode(line(), at), at)); return true;
        case SHORT_BINUNICODE: { const std::size_t k = u8(); push(make_str(bytes(k), at)); return true; }
        case BINUNICODE: { const std::uint64_t k = u32(); push(make_str(bytes(k), at)); return true; }
        case BINUNICODE8: { const std::uint64_t k = u64(); push(make_str(bytes(k), at)); return true; }
        case SHORT_BINBYTES: { const std::size_t k = u8(); Value* v = m.make(K::Bytes); v->s = bytes(k); push(v); return true; }
        case BINBYTES: { const std::uint64_t k = u32(); Value* v = m.make(K::Bytes); v->s = bytes(k); push(v); return true; }
        case BINBYTES8: case BYTEARRAY8: { const std::uint64_t k = u64(); Value* v = m.make(K::Bytes); v->s = bytes(k); push(v); return true; }
        case NEXT_BUFFER: case READONLY_BUFFER:
            throw Error(ErrorCode::Unsupported, "pickle out-of-band buffers (protocol 5 NEXT_BUFFER) at byte " + std::to_string(at));
        default: return false;
    }
}

bool Machine::Run::container_op(std::uint8_t op, std::size_t at) {
    switch (op) {
        case EMPTY_TUPLE: push(m.make(K::Tuple)); return true;
        case TUPLE: { Value* v = m.make(K::Tuple); v->items = m.pop_mark(); m.charge(8 * v->items.size()); push(v); return true; }
        case TUPLE1: case TUPLE2: case TUPLE3: {
            const std::size_t k = op - TUPLE1 + 1;
            Value* v = m.make(K::Tuple);
            v->items.resize(k);
            for (std::size_t j = k; j-- > 0;) v->items[j] = m.pop();
            push(v);
            return true;
        }
        case EMPTY_LIST: push(m.make(K::List)); return true;
        case LIST: { Value* v = m.make(K::List); v->items = m.pop_mark(); m.charge(8 * v->items.size()); push(v); return true; }
        case EMPTY_DICT: push(m.make(K::Dict)); return true;
        case EMPTY_SET: push(m.make(K::Set)); return true;
        case DICT: {
            auto items = m.pop_mark();
            if (items.size() % 2) malformed("DICT with an odd number of items", at);
            Value* v = m.make(K::Dict);
            for (std::size_t j = 0; j < items.size(); j += 2) v->dict.emplace_back(items[j], items[j + 1]);
            m.charge(16 * v->dict.size());
            push(v);
            return true;
        }
        case FROZENSET: { Value* v = m.make(K::Set); v->items = m.pop_mark(); m.charge(8 * v->items.size()); push(v); return true; }
        case APPEND: case APPENDS: {
            std::vector<Value*> items;
            if (op == APPEND) items.push_back(m.pop());
            else items = m.pop_mark();
            Value* list = top(at);
            if (list->kind == K::List) { m.charge(8 * items.size()); list->items.insert(list->items.end(), items.begin(), items.end()); }
            else if (!(m.scan_ && list->kind == K::Opaque)) malformed("APPEND to a " + std::string(kind_name(*list)), at);
            return true;
        }
        case ADDITEMS: {
            auto items = m.pop_mark();
            Value* set = top(at);
            if (set->kind != K::Set) malformed("ADDITEMS to a " + std::string(kind_name(*set)), at);
            m.charge(8 * items.size());
            set->items.insert(set->items.end(), items.begin(), items.end());
            return true;
        }
        case SETITEM: case SETITEMS: {
            std::vector<Value*> items;
            if (op == SETITEM) { Value* v = m.pop(); Value* k = m.pop(); items = {k, v}; }
            else items = m.pop_mark();
            if (items.size() % 2) malformed("SETITEMS with an odd number of items", at);
            Value* dict = top(at);
            if (dict->kind == K::Dict) {
                m.charge(16 * items.size() / 2);
                for (std::size_t j = 0; j < items.size(); j += 2) dict->dict.emplace_back(items[j], items[j + 1]);
            } else if (!(m.scan_ && dict->kind == K::Opaque)) {
                malformed("SETITEM on a " + std::string(kind_name(*dict)), at);
            }
            return true;
        }
        case BUILD: {
            m.pop();  // state: data only, never applied through code
            Value* obj = top(at);
            if (obj->kind != K::Dict && obj->kind != K::Tensor && obj->kind != K::Opaque && obj->kind != K::Set)
                malformed("BUILD on a " + std::string(kind_name(*obj)), at);
            return true;
        }
        default: return false;
    }
}

bool Machine::Run::object_op(std::uint8_t op, std::size_t at) {
    switch (op) {
        case GLOBAL: {
            std::string module = line();
            std::string name = line();
            push(m.resolve_global(std::move(module), std::move(name)));
            return true;
        }
        case STACK_GLOBAL: {
            Value* name = m.pop();
            Value* module = m.pop();
            if (module->kind != K::Str || name->kind != K::Str) malformed("STACK_GLOBAL of non-strings", at);
            push(m.resolve_global(module->s, name->s));
            return true;
        }
        case INST: {
            std::string module = line();
            std::string name = line();
            Value* cls = m.resolve_global(std::move(module), std::move(name));
            Value* args = m.make(K::Tuple);
            args->items = m.pop_mark();
            push(checked_call(cls, args, at));
            return true;
        }
        case OBJ: {
            auto items = m.pop_mark();
            if (items.empty()) malformed("OBJ without a class", at);
            Value* args = m.make(K::Tuple);
            args->items.assign(items.begin() + 1, items.end());
            push(checked_call(items[0], args, at));
            return true;
        }
        case REDUCE: {
            Value* args = m.pop();
            Value* callable = m.pop();
            push(checked_call(callable, args, at));
            return true;
        }
        case NEWOBJ: case NEWOBJ_EX: {
            if (op == NEWOBJ_EX) m.pop();  // kwargs
            Value* args = m.pop();
            Value* cls = m.pop();
            if (cls->kind == K::Global && cls->global != GlobalKind::OrderedDict && cls->global != GlobalKind::Set &&
                cls->global != GlobalKind::FrozenSet && cls->global != GlobalKind::ByteArray && !m.scan_)
                malformed("NEWOBJ of " + cls->s, at);
            push(checked_call(cls, args, at));
            return true;
        }
        case EXT1: case EXT2: case EXT4: {
            const std::uint32_t code = op == EXT1 ? u8() : op == EXT2 ? u16() : u32();
            // The copyreg extension registry maps codes to globals of the
            // loading process: not knowable here, so refused.
            const std::string name = "extension code " + std::to_string(code);
            auto [it, inserted] = m.global_index_.emplace("copyreg." + name, m.globals_.size());
            if (inserted) m.globals_.push_back(GlobalRef{"copyreg", name, false, "resolved through the copyreg extension registry: unknown global", 0});
            m.globals_[it->second].count++;
            if (!m.scan_) throw Error(ErrorCode::UnsafePickle, "pickle references copyreg " + name + ", which cannot be checked; refused");
            Value* v = m.make(K::Opaque);
            v->s = "copyreg." + name;
            push(v);
            return true;
        }
        case PERSID: { Value* v = m.make(K::Str); v->s = line(); persistent(v, at); return true; }
        case BINPERSID: persistent(m.pop(), at); return true;
        default: return false;
    }
}

Value* Machine::run(std::span<const std::uint8_t> data, std::size_t& pos) {
    Run r{*this, data.data(), data.size(), pos};
    const std::size_t stack_base = stack_.size(), marks_base = marks_.size();
    while (true) {
        if (pos >= r.n) throw Error(ErrorCode::Truncated, "pickle ends before its STOP opcode");
        const std::size_t at = pos;
        const std::uint8_t op = r.d[pos++];
        if (op == STOP) {
            Value* v = pop();
            // Leave the machine clean for the next pickle of a stream.
            stack_.resize(stack_base);
            marks_.resize(marks_base);
            return v;
        }
        if (r.stack_memo_op(op, at) || r.constant_op(op, at) || r.container_op(op, at) || r.object_op(op, at)) continue;
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        throw Error(ErrorCode::Malformed, std::string("unknown pickle opcode ") + hex + " at byte " + std::to_string(at));
    }
}

}  // namespace amn::detail::pickle
