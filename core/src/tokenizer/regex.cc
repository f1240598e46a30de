// SPDX-License-Identifier: MIT OR Apache-2.0
#define PCRE2_CODE_UNIT_WIDTH 8
#include "tokenizer/regex.hpp"

#include "anamnesis/error.hpp"
#include "tokenizer/unicode_text.hpp"

#include <pcre2.h>

namespace amn::tok {
namespace {

// Bounds on one match attempt (hostile patterns / inputs): the backtracking
// step count, the nesting depth and the heap used for backtracking frames (KiB).
constexpr std::uint32_t kMatchLimit = 10'000'000;
constexpr std::uint32_t kDepthLimit = 100'000;
constexpr std::size_t kHeapLimitKiB = 64 * 1024;

constexpr std::string_view kWordClass = "\\p{L}\\p{M}\\p{Nd}\\p{Pc}";
constexpr std::string_view kSpaceClass = "\\s\\x{85}";

std::string pcre2_message(int code) {
    PCRE2_UCHAR buf[256];
    if (pcre2_get_error_message(code, buf, sizeof buf) < 0) return "PCRE2 error " + std::to_string(code);
    return reinterpret_cast<const char*>(buf);
}

}  // namespace

struct Regex::Impl {
    pcre2_code* code = nullptr;
    pcre2_match_context* mctx = nullptr;
    bool jit = false;
    std::string file;
    ~Impl() {
        pcre2_match_context_free(mctx);
        pcre2_code_free(code);
    }
};

std::string onig_to_pcre2(std::string_view p) {
    std::string out;
    out.reserve(p.size() + 16);
    int class_depth = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\' && i + 1 < p.size()) {
            const char e = p[i + 1];
            ++i;
            if (e == 's' || e == 'w') {
                const std::string_view cls = e == 's' ? kSpaceClass : kWordClass;
                if (class_depth > 0) out.append(cls);
                else out.append("[").append(cls).append("]");
                continue;
            }
            if ((e == 'S' || e == 'W') && class_depth == 0) {
                out.append("[^").append(e == 'S' ? kSpaceClass : kWordClass).append("]");
                continue;
            }
            out.push_back('\\');
            out.push_back(e);
            continue;
        }
        if (c == '[') {
            ++class_depth;
            out.push_back(c);
            // A ']' right after '[' or '[^' is a literal member.
            if (i + 1 < p.size() && p[i + 1] == '^') out.push_back(p[++i]);
            if (i + 1 < p.size() && p[i + 1] == ']') out.push_back(p[++i]);
            continue;
        }
        if (c == ']' && class_depth > 0) --class_depth;
        out.push_back(c);
    }
    return out;
}

namespace {
std::shared_ptr<Regex::Impl> compile(const std::string& pcre, std::uint32_t extra_options, const std::string& shown,
                                     const std::string& file) {
    auto impl = std::make_shared<Regex::Impl>();
    impl->file = file;
    int err = 0;
    PCRE2_SIZE off = 0;
    impl->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pcre.data()), pcre.size(),
                               PCRE2_UTF | PCRE2_NO_UTF_CHECK | extra_options |
                                   ((extra_options & PCRE2_LITERAL) ? 0 : PCRE2_UCP),  // LITERAL refuses UCP
                               &err, &off, nullptr);
    if (!impl->code)
        throw Error(ErrorCode::Unsupported,
                    "regex " + shown + ": " + pcre2_message(err) + " at offset " + std::to_string(off), file);
    impl->jit = pcre2_jit_compile(impl->code, PCRE2_JIT_COMPLETE) == 0;
    impl->mctx = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(impl->mctx, kMatchLimit);
    pcre2_set_depth_limit(impl->mctx, kDepthLimit);
    pcre2_set_heap_limit(impl->mctx, kHeapLimitKiB);
    return impl;
}
}  // namespace

Regex::Regex(std::string_view pattern, std::string file) : pattern_(pattern) {
    if (!valid_utf8(pattern)) throw Error(ErrorCode::BadText, "regex pattern is not valid UTF-8", file);
    impl_ = compile(onig_to_pcre2(pattern), 0, "/" + pattern_ + "/", file);
}

Regex::Regex(std::shared_ptr<const Impl> impl, std::string pattern) : impl_(std::move(impl)), pattern_(std::move(pattern)) {}

Regex Regex::literal(std::string_view literal, std::string file) {
    if (!valid_utf8(literal)) throw Error(ErrorCode::BadText, "pattern string is not valid UTF-8", file);
    std::string lit(literal);
    // An empty string pattern matches nothing (tokenizers' `&str` Pattern).
    if (lit.empty()) return Regex(compile("(*FAIL)", 0, "\"\"", file), lit);
    return Regex(compile(lit, PCRE2_LITERAL, "\"" + lit + "\"", file), lit);
}

std::vector<std::pair<std::size_t, std::size_t>> Regex::find_all(std::string_view text) const {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    pcre2_match_data* md = pcre2_match_data_create_from_pattern(impl_->code, nullptr);
    if (!md) throw Error(ErrorCode::OutOfMemory, "regex match data", impl_->file);
    struct Free {
        pcre2_match_data* m;
        ~Free() { pcre2_match_data_free(m); }
    } guard{md};
    const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    std::size_t pos = 0;
    while (pos <= text.size()) {
        int rc = impl_->jit ? pcre2_jit_match(impl_->code, subject, text.size(), pos, PCRE2_NO_UTF_CHECK, md, impl_->mctx)
                            : pcre2_match(impl_->code, subject, text.size(), pos, PCRE2_NO_UTF_CHECK, md, impl_->mctx);
        // The JIT's machine stack is small (32 KiB): a legitimate long match can
        // exhaust it; the interpreter, bounded by the match/depth/heap limits, decides.
        if (rc == PCRE2_ERROR_JIT_STACKLIMIT)
            rc = pcre2_match(impl_->code, subject, text.size(), pos, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, md, impl_->mctx);
        if (rc == PCRE2_ERROR_NOMATCH) break;
        if (rc < 0) {
            const bool limit = rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT;
            throw Error(limit ? ErrorCode::LimitExceeded : ErrorCode::Malformed,
                        "regex /" + pattern_ + "/ on a " + std::to_string(text.size()) + "-byte text: " + pcre2_message(rc),
                        impl_->file);
        }
        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
        const std::size_t b = ov[0], e = ov[1];
        if (e < b) break;  // \K games: refuse quietly to loop
        out.emplace_back(b, e);
        if (e == b) {
            if (e >= text.size()) break;
            pos = e + utf8_len(static_cast<unsigned char>(text[e]));
        } else {
            pos = e;
        }
    }
    return out;
}

namespace {
bool matches_one(const Regex& r, char32_t c) {
    std::string s;
    append_utf8(s, c);
    return !r.find_all(s).empty();
}
}  // namespace

bool is_unicode_whitespace(char32_t c) {
    if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D);
    static const Regex re("^\\p{Zs}|^[\\x{85}\\x{2028}\\x{2029}]$", "");
    return matches_one(re, c);
}

bool is_unicode_alphanumeric(char32_t c) {
    if (c < 0x80) return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    static const Regex re("^[\\p{Alphabetic}\\p{N}]$", "");
    return matches_one(re, c);
}

}  // namespace amn::tok
