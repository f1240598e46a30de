// SPDX-License-Identifier: MIT OR Apache-2.0
#include "arch/model_card.hpp"

#include "anamnesis/error.hpp"
#include "arch/py_text.hpp"

#include <simdjson.h>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <regex>

namespace amn::arch {

bool CardValue::truthy() const noexcept {
    switch (kind) {
        case Kind::None: return false;
        case Kind::Bool: return b;
        case Kind::Int: return big || i != 0;
        case Kind::Float: return f != 0.0;  // NaN is true in Python, and NaN != 0
        case Kind::Str: return !s.empty();
        case Kind::List: return !items.empty();
        case Kind::Dict: return !dict.empty();
        case Kind::Other: return true;  // dates, bytes (non-empty in practice), sets
    }
    return true;
}

const CardValue* CardValue::get(std::string_view key) const noexcept {
    if (kind != Kind::Dict) return nullptr;
    for (const auto& [k, v] : dict)
        if (k == key) return &v;
    return nullptr;
}

std::string CardValue::type_name() const {
    switch (kind) {
        case Kind::None: return "NoneType";
        case Kind::Bool: return "bool";
        case Kind::Int: return "int";
        case Kind::Float: return "float";
        case Kind::Str: return "str";
        case Kind::List: return "list";
        case Kind::Dict: return "dict";
        case Kind::Other: return s;
    }
    return "?";
}

std::optional<std::string> model_card_yaml(std::string_view text) {
    // Text mode: universal newlines.
    std::string content;
    content.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\r') {
            content.push_back('\n');
            if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
        } else {
            content.push_back(text[i]);
        }
    }
    // str.splitlines()
    std::vector<std::string> lines;
    {
        const std::u32string u = py::decode(content);
        std::u32string cur;
        bool pending = false;
        for (char32_t c : u) {
            const bool brk = c == U'\n' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D || c == 0x1E ||
                             c == 0x85 || c == 0x2028 || c == 0x2029;
            if (brk) {
                lines.push_back(py::encode(cur));
                cur.clear();
                pending = false;
            } else {
                cur.push_back(c);
                pending = true;
            }
        }
        if (pending) lines.push_back(py::encode(cur));
    }
    if (lines.empty() || lines[0] != "---") return std::nullopt;
    std::string yaml;
    for (std::size_t i = 1; i < lines.size() && lines[i] != "---"; ++i) {
        if (i > 1) yaml += '\n';
        yaml += lines[i];
    }
    yaml += '\n';
    // The "Norway problem" fix and tabs → two spaces, as gguf-py does them (textually).
    yaml = py::replace(yaml, "- no\n", "- \"no\"\n");
    yaml = py::replace(yaml, "\t", "  ");
    return yaml;
}

namespace {

constexpr const char* kTagPrefix = "tag:yaml.org,2002:";

struct Builder {
    const std::string& file;
    [[noreturn]] void fail(const std::string& what, const YAML::Mark& m) const {
        std::string msg = "README.md front matter: " + what;
        if (!m.is_null()) msg += " (line " + std::to_string(m.line + 2) + ")";
        throw Error(ErrorCode::Malformed, msg, file);
    }

    static CardValue other(const char* type) {
        CardValue v;
        v.kind = CardValue::Kind::Other;
        v.s = type;
        return v;
    }
    static CardValue str(std::string s) {
        CardValue v;
        v.kind = CardValue::Kind::Str;
        v.s = std::move(s);
        return v;
    }

    // PyYAML construct_yaml_int. nullopt where Python's int() raises.
    static std::optional<CardValue> make_int(std::string text) {
        text = py::replace(text, "_", "");
        if (text.empty()) return std::nullopt;
        int sign = 1;
        if (text[0] == '-') sign = -1;
        if (text[0] == '-' || text[0] == '+') text.erase(0, 1);
        CardValue v;
        v.kind = CardValue::Kind::Int;
        if (text == "0") return v;
        // Digits of `t` in `base` into acc (big when beyond 64 bits); false on a non-digit or no digit.
        auto digits_in = [](std::string_view t, unsigned base, std::uint64_t& acc, bool& big) {
            if (t.empty()) return false;
            for (char c : t) {
                const unsigned l = static_cast<unsigned>(c | 0x20);
                const unsigned d = c >= '0' && c <= '9' ? static_cast<unsigned>(c - '0') : l >= 'a' && l <= 'f' ? l - 'a' + 10 : 99;
                if (d >= base) return false;
                if (!big && (__builtin_mul_overflow(acc, base, &acc) || __builtin_add_overflow(acc, d, &acc))) big = true;
            }
            return true;
        };
        std::uint64_t acc = 0;
        bool big = false;
        if (text.rfind("0b", 0) == 0) {
            if (!digits_in(std::string_view(text).substr(2), 2, acc, big)) return std::nullopt;
        } else if (text.rfind("0x", 0) == 0) {
            if (!digits_in(std::string_view(text).substr(2), 16, acc, big)) return std::nullopt;
        } else if (text[0] == '0') {
            if (!digits_in(text, 8, acc, big)) return std::nullopt;
        } else if (text.find(':') != std::string::npos) {
            // sexagesimal: the last part is units, then × 60 each step left
            std::vector<std::string> parts;
            for (std::size_t b = 0;;) {
                const auto e = text.find(':', b);
                parts.push_back(text.substr(b, e == std::string::npos ? std::string::npos : e - b));
                if (e == std::string::npos) break;
                b = e + 1;
            }
            std::uint64_t base = 1;
            bool base_big = false;
            for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
                std::uint64_t d = 0, term = 0;
                bool dbig = false;
                if (!digits_in(*it, 10, d, dbig)) return std::nullopt;
                if (dbig || base_big || __builtin_mul_overflow(d, base, &term) || __builtin_add_overflow(acc, term, &acc))
                    big = true;
                if (__builtin_mul_overflow(base, std::uint64_t{60}, &base)) base_big = true;
            }
        } else if (!digits_in(text, 10, acc, big)) {
            return std::nullopt;
        }
        const std::uint64_t limit = sign > 0 ? static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                                             : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1;
        if (big || acc > limit) {
            v.big = true;
        } else {
            v.i = sign > 0 ? static_cast<std::int64_t>(acc) : static_cast<std::int64_t>(0 - acc);
        }
        return v;
    }

    // PyYAML construct_yaml_float. nullopt where Python's float() raises.
    static std::optional<CardValue> make_float(std::string text) {
        text = py::lower(py::replace(text, "_", ""));
        if (text.empty()) return std::nullopt;
        double sign = 1;
        if (text[0] == '-') sign = -1;
        if (text[0] == '-' || text[0] == '+') text.erase(0, 1);
        auto parse = [](std::string_view t) -> std::optional<double> {
            double d = 0;
            if (t.empty() || t[0] == '+' || t[0] == '-') return std::nullopt;
            const auto r = std::from_chars(t.data(), t.data() + t.size(), d);
            if (r.ec != std::errc() || r.ptr != t.data() + t.size()) return std::nullopt;
            return d;
        };
        CardValue v;
        v.kind = CardValue::Kind::Float;
        if (text == ".inf") {
            v.f = sign * std::numeric_limits<double>::infinity();
        } else if (text == ".nan") {
            // PyYAML's nan_value is -inf / inf computed at run time: the CPU's default NaN
            // (sign bit set on x86-64), which its FLOAT32 packing keeps (0xffc00000).
            volatile double inf = std::numeric_limits<double>::infinity();
            v.f = -inf / inf;
        } else if (text.find(':') != std::string::npos) {
            std::vector<double> parts;
            for (std::size_t b = 0;;) {
                const auto e = text.find(':', b);
                const auto p = parse(std::string_view(text).substr(b, e == std::string::npos ? std::string::npos : e - b));
                if (!p) return std::nullopt;
                parts.push_back(*p);
                if (e == std::string::npos) break;
                b = e + 1;
            }
            double base = 1, value = 0;
            for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
                value += *it * base;
                base *= 60;
            }
            v.f = sign * value;
        } else {
            const auto p = parse(text);
            if (!p) return std::nullopt;
            v.f = sign * *p;
        }
        return v;
    }

    // PyYAML construct_yaml_timestamp: a date or datetime; nullopt where the
    // datetime constructors raise (impossible dates and times).
    static std::optional<CardValue> make_timestamp(const std::string& text) {
        static const std::regex re(
            R"(([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.[0-9]*)?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?)");
        std::smatch m;
        if (!std::regex_match(text, m, re)) return std::nullopt;
        const int year = std::stoi(m[1]), month = std::stoi(m[2]), day = std::stoi(m[3]);
        static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        if (year < 1 || month < 1 || month > 12 || day < 1 || day > kDays[month - 1] + (month == 2 && leap))
            return std::nullopt;
        if (!m[4].matched) return other("date");
        if (std::stoi(m[4]) > 23 || std::stoi(m[5]) > 59 || std::stoi(m[6]) > 59) return std::nullopt;
        if (m[8].matched) {
            const int minutes = std::stoi(m[9]) * 60 + (m[10].matched ? std::stoi(m[10]) : 0);
            if (minutes >= 24 * 60) return std::nullopt;  // datetime.timezone needs |offset| < 24 h
        }
        return other("datetime");
    }

    // The implicit resolvers of PyYAML's SafeLoader (YAML 1.1), in their order.
    CardValue resolve_plain(const std::string& v, const YAML::Mark& mark) const {
        static const std::regex bool_re("yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
        static const std::regex float_re(
            R"([-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))");
        static const std::regex int_re(
            R"([-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)");
        static const std::regex ts_re(
            R"([0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)");
        if (v.empty() || v == "~" || v == "null" || v == "Null" || v == "NULL") return CardValue{};
        if (std::regex_match(v, bool_re)) {
            CardValue b;
            b.kind = CardValue::Kind::Bool;
            const std::string l = py::lower(v);
            b.b = l == "yes" || l == "true" || l == "on";
            return b;
        }
        if (std::regex_match(v, float_re)) {
            if (auto f = make_float(v)) return *f;
            fail("invalid float '" + v + "'", mark);
        }
        if (std::regex_match(v, int_re)) {
            if (auto i = make_int(v)) return *i;
            fail("invalid int '" + v + "'", mark);
        }
        if (v == "<<") fail("could not determine a constructor for the tag 'tag:yaml.org,2002:merge'", mark);
        if (std::regex_match(v, ts_re)) {
            if (auto t = make_timestamp(v)) return *t;
            fail("invalid date or time '" + v + "'", mark);
        }
        if (v == "=") fail("could not determine a constructor for the tag 'tag:yaml.org,2002:value'", mark);
        return str(v);
    }

    CardValue scalar(const YAML::Node& n) const {
        const std::string& tag = n.Tag();
        const std::string& v = n.Scalar();
        if (tag == "?") return resolve_plain(v, n.Mark());
        if (tag == "!") return str(v);
        if (tag.rfind(kTagPrefix, 0) == 0) {
            const std::string t = tag.substr(std::string_view(kTagPrefix).size());
            if (t == "str") return str(v);
            if (t == "null") return CardValue{};
            if (t == "int") {
                if (auto i = make_int(v)) return *i;
            } else if (t == "float") {
                if (auto f = make_float(v)) return *f;
            } else if (t == "bool") {
                const std::string l = py::lower(v);
                CardValue b;
                b.kind = CardValue::Kind::Bool;
                b.b = l == "yes" || l == "true" || l == "on";
                if (b.b || l == "no" || l == "false" || l == "off") return b;
            } else if (t == "binary") {
                return other("bytes");
            } else if (t == "timestamp") {
                if (auto ts = make_timestamp(v)) return *ts;
            }
            fail("cannot construct '" + v + "' as !!" + t, n.Mark());
        }
        fail("could not determine a constructor for the tag '" + tag + "'", n.Mark());
    }

    // PyYAML flatten_mapping + construct_mapping: merged pairs first (the
    // first map of a merge list wins over later ones), explicit keys last; the
    // last value of a key wins.
    void pairs(const YAML::Node& map, std::vector<std::pair<YAML::Node, YAML::Node>>& out,
               int depth) const {
        if (depth > 64) fail("nesting too deep", map.Mark());
        std::vector<std::pair<YAML::Node, YAML::Node>> merged, explicit_pairs;
        for (auto it = map.begin(); it != map.end(); ++it) {
            const YAML::Node k = it->first, val = it->second;
            if (k.IsScalar() && k.Tag() == "?" && k.Scalar() == "<<") {
                if (val.IsMap()) {
                    pairs(val, merged, depth + 1);
                } else if (val.IsSequence()) {
                    std::vector<std::vector<std::pair<YAML::Node, YAML::Node>>> subs;
                    for (const auto& sub : val) {
                        if (!sub.IsMap()) fail("expected a mapping for merging", sub.Mark());
                        subs.emplace_back();
                        pairs(sub, subs.back(), depth + 1);
                    }
                    for (auto s = subs.rbegin(); s != subs.rend(); ++s) merged.insert(merged.end(), s->begin(), s->end());
                } else {
                    fail("expected a mapping or list of mappings for merging", val.Mark());
                }
            } else {
                explicit_pairs.emplace_back(k, val);
            }
        }
        out.insert(out.end(), merged.begin(), merged.end());
        out.insert(out.end(), explicit_pairs.begin(), explicit_pairs.end());
    }

    CardValue build(const YAML::Node& n, int depth) const {
        if (depth > 64) fail("nesting too deep", n.Mark());
        const std::string& tag = n.Tag();
        switch (n.Type()) {
            case YAML::NodeType::Null:
                if (tag == std::string(kTagPrefix) + "str") return str("");
                if (tag.empty() || tag == "?" || tag == "!" || tag == std::string(kTagPrefix) + "null") return CardValue{};
                fail("cannot construct an empty value as '" + tag + "'", n.Mark());
            case YAML::NodeType::Scalar: return scalar(n);
            case YAML::NodeType::Sequence: {
                if (tag == std::string(kTagPrefix) + "omap" || tag == std::string(kTagPrefix) + "pairs")
                    return other("list of pairs");
                if (tag != "?" && tag != "!" && tag != std::string(kTagPrefix) + "seq")
                    fail("could not determine a constructor for the tag '" + tag + "'", n.Mark());
                CardValue v;
                v.kind = CardValue::Kind::List;
                for (const auto& item : n) v.items.push_back(build(item, depth + 1));
                return v;
            }
            case YAML::NodeType::Map: {
                if (tag == std::string(kTagPrefix) + "set") return other("set");
                if (tag != "?" && tag != "!" && tag != std::string(kTagPrefix) + "map")
                    fail("could not determine a constructor for the tag '" + tag + "'", n.Mark());
                std::vector<std::pair<YAML::Node, YAML::Node>> ps;
                pairs(n, ps, depth);
                CardValue v;
                v.kind = CardValue::Kind::Dict;
                for (const auto& [k, val] : ps) {
                    if (k.IsSequence() || k.IsMap()) fail("found unhashable key", k.Mark());
                    const CardValue key = build(k, depth + 1);
                    CardValue value = build(val, depth + 1);
                    if (key.kind != CardValue::Kind::Str) continue;  // not reachable by a string lookup
                    bool found = false;
                    for (auto& [ek, ev] : v.dict)
                        if (ek == key.s) {
                            ev = std::move(value);
                            found = true;
                            break;
                        }
                    if (!found) v.dict.push_back(CardEntry{key.s, std::move(value)});
                }
                return v;
            }
            case YAML::NodeType::Undefined: break;
        }
        return CardValue{};
    }
};

// PyYAML's Reader refuses these characters anywhere in the stream.
bool yaml_printable(char32_t c) {
    return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
           (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

}  // namespace

CardValue read_model_card(std::string_view text, const std::string& file, std::string* warning) {
    if (!simdjson::validate_utf8(text.data(), text.size()))
        throw Error(ErrorCode::BadText, "README.md is not valid UTF-8 (the converter cannot read it)", file);
    CardValue empty;
    empty.kind = CardValue::Kind::Dict;
    const auto yaml = model_card_yaml(text);
    if (!yaml) return empty;
    {
        std::size_t line = 2;
        for (char32_t c : py::decode(*yaml)) {
            if (c == U'\n') ++line;
            if (!yaml_printable(c)) {
                char hex[16];
                std::snprintf(hex, sizeof hex, "#x%04x", static_cast<unsigned>(c));
                throw Error(ErrorCode::Malformed,
                            "README.md front matter: unacceptable character " + std::string(hex) +
                                ": special characters are not allowed (line " + std::to_string(line) + ")",
                            file);
            }
        }
    }
    const Builder b{file};
    std::vector<YAML::Node> docs;
    try {
        docs = YAML::LoadAll(*yaml);
    } catch (const YAML::Exception& e) {
        b.fail(e.msg, e.mark);
    }
    if (docs.size() > 1) b.fail("expected a single document in the stream", YAML::Mark::null_mark());
    CardValue data = docs.empty() ? CardValue{} : b.build(docs[0], 0);
    if (data.kind != CardValue::Kind::Dict) {
        if (warning)
            *warning = "README.md: while reading YAML model card frontmatter, data is <class '" + data.type_name() +
                       "'> instead of dict (ignored)";
        return empty;
    }
    return data;
}

}  // namespace amn::arch
