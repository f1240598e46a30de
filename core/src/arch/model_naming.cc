// SPDX-License-Identifier: MIT OR Apache-2.0
#include "arch/model_naming.hpp"

#include "arch/py_text.hpp"

#include <charconv>
#include <limits>
#include <cmath>
#include <set>
#include <vector>

namespace amn::arch {

namespace {

// ---- the regular expressions of get_model_id_components, as matchers ----
// (re.fullmatch, re.IGNORECASE, \d = ASCII digit, \w = ASCII word character)

char lc(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool word(char c) { return digit(c) || (lc(c) >= 'a' && lc(c) <= 'z') || c == '_'; }
bool starts_ci(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (lc(s[i]) != prefix[i]) return false;
    return true;
}
bool equals_ci(std::string_view s, std::string_view word_lc) { return s.size() == word_lc.size() && starts_ci(s, word_lc); }
// Consume \d+ at `i`; false when there is no digit.
bool digits(std::string_view s, std::size_t& i) {
    const std::size_t b = i;
    while (i < s.size() && digit(s[i])) ++i;
    return i > b;
}

// (v|iter)?\d+([.]\d+)*
bool is_version(std::string_view s) {
    std::size_t i = 0;
    if (starts_ci(s, "iter")) i = 4;
    else if (starts_ci(s, "v")) i = 1;
    if (!digits(s, i)) return false;
    while (i < s.size()) {
        if (s[i] != '.') return false;
        ++i;
        if (!digits(s, i)) return false;
    }
    return true;
}

// i?q\d(_\w)*|b?fp?(16|32)
bool is_quant_type(std::string_view s) {
    std::size_t i = 0;
    if (i < s.size() && lc(s[i]) == 'i') ++i;
    if (i + 1 < s.size() && lc(s[i]) == 'q' && digit(s[i + 1])) {
        i += 2;
        bool ok = true;
        for (; i < s.size(); i += 2)
            if (s[i] != '_' || i + 1 >= s.size() || !word(s[i + 1])) ok = false;
        if (ok) return true;
    }
    i = 0;
    if (i < s.size() && lc(s[i]) == 'b') ++i;
    if (i >= s.size() || lc(s[i]) != 'f') return false;
    ++i;
    if (i < s.size() && lc(s[i]) == 'p') ++i;
    const std::string_view rest = s.substr(i);
    return rest == "16" || rest == "32";
}

// (([A]|\d+[x])?\d+([._]\d+)?[KMBT][\d]?|small|mini|medium|large|x?xl)
bool is_size(std::string_view s) {
    for (std::string_view w : {"small", "mini", "medium", "large", "xl", "xxl"})
        if (equals_ci(s, w)) return true;
    std::size_t i = 0;
    if (!s.empty() && lc(s[0]) == 'a') {
        i = 1;
    } else {
        std::size_t j = 0;
        if (digits(s, j) && j < s.size() && lc(s[j]) == 'x') i = j + 1;
    }
    if (!digits(s, i)) return false;
    if (i < s.size() && (s[i] == '.' || s[i] == '_')) {
        ++i;
        if (!digits(s, i)) return false;
    }
    if (i >= s.size()) return false;
    const char u = lc(s[i]);
    if (u != 'k' && u != 'm' && u != 'b' && u != 't') return false;
    ++i;
    if (i < s.size() && digit(s[i])) ++i;
    return i == s.size();
}

// chat|instruct|vision|lora
bool is_finetune_word(std::string_view s) {
    return equals_ci(s, "chat") || equals_ci(s, "instruct") || equals_ci(s, "vision") || equals_ci(s, "lora");
}

// Python float(text) for the texts a size part can leave (digits with at
// most one '.'); nullopt where float() raises ValueError.
std::optional<double> py_float(std::string_view t) {
    std::size_t i = 0;
    if (!digits(t, i)) return std::nullopt;
    if (i < t.size() && t[i] == '.') {
        ++i;
        digits(t, i);
    }
    if (i != t.size()) return std::nullopt;
    double v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) return std::nullopt;
    return v;
}

// Python's exact `d > i` / `d < i` for a float and an int.
constexpr double kTwo63 = 9223372036854775808.0;
bool float_gt_int(double d, std::int64_t i) {
    if (std::isnan(d)) return false;
    if (d >= kTwo63) return true;
    if (d < -kTwo63) return false;
    const double fl = std::floor(d);
    const auto fi = static_cast<std::int64_t>(fl);
    if (fi != i) return fi > i;
    return d > fl;
}
bool float_lt_int(double d, std::int64_t i) {
    if (std::isnan(d)) return false;
    if (d >= kTwo63) return false;
    if (d < -kTwo63) return true;
    const double ce = std::ceil(d);
    if (ce >= kTwo63) return true;  // d in (2^63 - 1, 2^63): above every int64 but smaller than 2^63
    const auto ci = static_cast<std::int64_t>(ce);
    if (ci != i) return ci < i;
    return d < ce;
}
// Python's `7 * t // 8` for t >= 0, without overflow.
std::int64_t seven_eighths(std::int64_t t) { return 7 * (t / 8) + (7 * (t % 8)) / 8; }

using Types = std::set<std::string>;

std::optional<std::string> join_if(const std::vector<std::string>& parts, const std::vector<Types>& types,
                                   const char* has, const char* lacks = nullptr, bool dedupe = false) {
    std::string out;
    std::vector<std::string> seen;
    bool any = false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (!types[i].count(has) || (lacks && types[i].count(lacks))) continue;
        if (dedupe) {
            bool dup = false;
            for (const auto& s : seen) dup = dup || s == parts[i];
            if (dup) continue;
            seen.push_back(parts[i]);
        }
        if (any) out += '-';
        out += parts[i];
        any = true;
    }
    if (out.empty()) return std::nullopt;  // Python: "-".join(...) or None
    return out;
}

}  // namespace

ModelIdParts model_id_components(std::optional<std::string_view> model_id_opt, std::int64_t total_params) {
    ModelIdParts r;
    if (!model_id_opt) return r;
    const std::string_view model_id = *model_id_opt;
    if (model_id.find(' ') != std::string_view::npos) {
        r.full_name = std::string(model_id);
        return r;
    }
    std::string full;
    if (const auto slash = model_id.find('/'); slash != std::string_view::npos) {
        r.organization = std::string(model_id.substr(0, slash));
        full = std::string(model_id.substr(slash + 1));
    } else {
        full = std::string(model_id);
    }
    if (r.organization && !r.organization->empty() && (*r.organization)[0] == '.') r.organization.reset();
    r.full_name = full;

    std::vector<std::string> parts;
    for (std::size_t b = 0;;) {
        const std::size_t e = full.find('-', b);
        std::string p = full.substr(b, e == std::string::npos ? std::string::npos : e - b);
        if (!p.empty()) parts.push_back(std::move(p));
        if (e == std::string::npos) break;
        b = e + 1;
    }
    std::vector<Types> types(parts.size());

    for (std::size_t i = 0; i < parts.size(); ++i) {
        std::string part = parts[i];
        if (is_version(part)) {
            types[i].insert("version");
        } else if (is_quant_type(part)) {
            types[i].insert("type");
            parts[i] = py::upper(part);
        } else if (i > 0 && is_size(part)) {
            part = py::replace(part, "_", ".");
            // bloom-7b1 → 7.1B
            if (py::is_decimal(static_cast<unsigned char>(part.back())))
                part = part.substr(0, part.size() - 2) + "." + part.back() + part[part.size() - 2];
            if (part.size() > 1 && py::is_decimal(static_cast<unsigned char>(part[part.size() - 2]))) {
                const char last = part.back();
                if (last == 'k' || last == 'm' || last == 'b' || last == 't') part.back() = static_cast<char>(last - 32);
            }
            if (total_params != 0) {
                if (const auto num = py_float(std::string_view(part).substr(0, part.size() - 1))) {
                    // float(part[:-1]) * pow(1000, " KMBT".find(part[-1])): the power is
                    // exact (an int, or 0.001 for find() == -1, which the pattern rules out)
                    static constexpr double kPow1000[] = {1.0, 1e3, 1e6, 1e9, 1e12};
                    const auto scale = std::string_view(" KMBT").find(part.back());
                    const double label_params = *num * (scale == std::string_view::npos ? 0.001 : kPow1000[scale]);
                    const std::int64_t tp = total_params;
                    // |tp| // 8 for a LoRA (negative total); 7 * tp // 8 otherwise
                    const bool context_length =
                        (tp < 0 && float_lt_int(label_params, tp == std::numeric_limits<std::int64_t>::min()
                                                                  ? std::numeric_limits<std::int64_t>::max() / 8 + 1
                                                                  : -tp / 8)) ||
                        (tp > 0 && float_gt_int(std::fabs(label_params - static_cast<double>(tp)), seven_eighths(tp)));
                    if (context_length) {
                        types[i].insert("finetune");
                        part.back() = static_cast<char>(py::to_lower(static_cast<unsigned char>(part.back())));
                    }
                }
            }
            if (types[i].empty()) types[i].insert("size_label");
            parts[i] = part;
        } else if (i > 0 && is_finetune_word(part)) {
            if (total_params < 0 && py::lower(part) == "lora") types[i].insert("type");
            else types[i].insert("finetune");
        }
    }

    // Word sizes ("mini") are no size label when a numeric one exists.
    bool numeric_size = false;
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (types[i].count("size_label") && py::any_of(parts[i], py::is_decimal)) numeric_size = true;
    if (numeric_size)
        for (std::size_t i = 0; i < parts.size(); ++i)
            if (types[i].count("size_label") && py::all_of(parts[i], py::is_alpha)) types[i].erase("size_label");

    bool at_start = true;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const char32_t first = py::decode(parts[i]).front();
        if (at_start && ((types[i].empty() && py::is_alpha(first)) || types[i].count("version"))) {
            types[i].insert("basename");
        } else {
            at_start = false;
            if (types[i].empty()) types[i].insert("finetune");
        }
    }
    // A trailing version is not part of the basename.
    for (std::size_t k = parts.size(); k-- > 0;) {
        if (types[k].count("basename") && types[k].size() > 1) types[k].erase("basename");
        else break;
    }

    r.basename = join_if(parts, types, "basename");
    r.size_label = join_if(parts, types, "size_label", nullptr, true);
    r.finetune = join_if(parts, types, "finetune");
    r.version = join_if(parts, types, "version", "basename");
    if (!r.size_label && !r.finetune && !r.version) r.basename.reset();
    return r;
}

std::string id_to_title(std::string_view id) {
    std::string out;
    for (const std::string& w : py::split_ws(py::replace(py::strip(id), "-", " "))) {
        // re.match(r'^(v\d+(?:\.\d+)*|\d.*)$', w): a version or a word starting with a digit
        std::size_t i = 1;
        const bool version_like = (!w.empty() && w[0] == 'v' && digits(w, i) && [&] {
            while (i < w.size()) {
                if (w[i] != '.') return false;
                ++i;
                if (!digits(w, i)) return false;
            }
            return true;
        }()) || (!w.empty() && digit(w[0]));
        if (!out.empty()) out += ' ';
        out += (py::islower(w) && !version_like) ? py::title(w) : w;
    }
    return out;
}

std::string weight_count_notation(std::int64_t count, int min_digits) {
    const auto c = static_cast<double>(count);
    double scaled;
    char suffix;
    // Python compares the int with the float exactly; 1e12, 1e9, 1e6 are exact doubles.
    if (count > 1000000000000LL) {
        scaled = c * 1e-12;
        suffix = 'T';
    } else if (count > 1000000000LL) {
        scaled = c * 1e-9;
        suffix = 'B';
    } else if (count > 1000000LL) {
        scaled = c * 1e-6;
        suffix = 'M';
    } else {
        scaled = c * 1e-3;
        suffix = 'K';
    }
    // len(str(round(scaled)).lstrip('0')): round() is half-to-even.
    const double rounded = std::nearbyint(scaled);
    std::string digits_text = std::to_string(static_cast<long long>(rounded));
    const auto nz = digits_text.find_first_not_of('0');
    const int len = nz == std::string::npos ? 0 : static_cast<int>(digits_text.size() - nz);
    const int fix = std::max(min_digits - len, 0);
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, scaled, std::chars_format::fixed, fix);
    return std::string(buf, res.ptr) + suffix;
}

std::string size_label(std::int64_t total_params, std::int64_t shared_params, std::int64_t expert_params,
                       std::int64_t expert_count) {
    if (expert_count > 0)
        return std::to_string(expert_count) + "x" +
               weight_count_notation(std::llabs(shared_params) + std::llabs(expert_params), 2);
    return weight_count_notation(std::llabs(total_params), 2);
}

std::string naming_convention(const std::optional<std::string>& model_name, const std::optional<std::string>& base_name,
                              const std::optional<std::string>& finetune, const std::optional<std::string>& version,
                              const std::optional<std::string>& size_label_text,
                              const std::optional<std::string>& output_type,
                              const std::optional<std::string>& model_type) {
    auto dashed = [](const std::string& s) { return py::replace(py::strip(s), " ", "-"); };
    std::string name = "ggml-model";
    if (base_name) name = py::replace(dashed(*base_name), "/", "-");
    else if (model_name) name = py::replace(dashed(*model_name), "/", "-");
    std::string out = name;
    if (size_label_text) out += "-" + *size_label_text;
    if (finetune) out += "-" + dashed(*finetune);
    if (version) out += "-" + dashed(*version);
    if (output_type) out += "-" + py::upper(dashed(*output_type));
    if (model_type) out += "-" + dashed(*model_type);
    return out;
}

std::string path_name(std::string_view path) {
    std::string_view last;
    for (std::size_t b = 0; b <= path.size();) {
        std::size_t e = path.find('/', b);
        if (e == std::string_view::npos) e = path.size();
        const std::string_view comp = path.substr(b, e - b);
        if (!comp.empty() && comp != ".") last = comp;
        b = e + 1;
    }
    return std::string(last);
}

}  // namespace amn::arch
