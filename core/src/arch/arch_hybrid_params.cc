// SPDX-License-Identifier: MIT OR Apache-2.0
// set_gguf_parameters of the converter's convolution hybrids (lfm2.py LFM2Model):
// their keys after TextModel's list (arch_text_params.hpp).
#include "anamnesis/error.hpp"
#include "arch/arch_text_params.hpp"
#include "arch/arch_values.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace amn::arch::detail {

using simdjson::dom::element;

namespace {

/// `hparams[key]`: present (null allowed), else missing().
element present(const HfConfig& cfg, std::string_view key) {
    auto v = cfg.get(key);
    if (!v) missing(key, cfg.file());
    return *v;
}

}  // namespace

void lfm2_params(const HfConfig& cfg, KvOut& kv, ArchKvs& res) {
    const std::string& f = cfg.file();
    // hparams["num_key_value_heads"] := [kv heads, or 0 for a "conv" layer, per layer_types], before TextModel's list.
    const element kvh = exact(cfg, "num_key_value_heads");
    const element types = exact(cfg, "layer_types");
    if (!types.is_array()) throw Error(ErrorCode::BadJson, "config.json key 'layer_types': expected a list", f);
    const std::int64_t heads = integer(kvh, "num_key_value_heads", f);
    if (heads < INT32_MIN || heads > INT32_MAX) throw Error(ErrorCode::BadJson, "config.json key 'num_key_value_heads': out of range", f);
    std::vector<std::int32_t> per_layer;
    for (element t : simdjson::dom::array(types))
        per_layer.push_back(t.is_string() && std::string_view(t) == "conv" ? 0 : static_cast<std::int32_t>(heads));

    text_model_params(cfg, kv);
    // TextModel's add_head_count_kv(list): an INT32 array, in the place of the key.
    std::string bytes(per_layer.size() * 4, '\0');
    for (std::size_t i = 0; i < per_layer.size(); ++i)
        for (int b = 0; b < 4; ++b) bytes[i * 4 + b] = static_cast<char>((static_cast<std::uint32_t>(per_layer[i]) >> (8 * b)) & 0xff);
    kv.put("attention.head_count_kv", MetaValue::packed(GgufType::I32, per_layer.size(), std::move(bytes)));
    kv.to(res.after_file_type);

    kv.put("vocab_size", u32(exact(cfg, "vocab_size"), "vocab_size", f));
    kv.put("shortconv.l_cache", u32(exact(cfg, "conv_L_cache"), "conv_L_cache", f));
    kv.put("attention.layer_norm_rms_epsilon", f32(exact(cfg, "norm_eps"), "norm_eps", f));

    // _add_feed_forward_length: find_hparam(block_ff_dim, intermediate_size), then (block_auto_adjust_ff_dim)
    // int(2 · ff / 3), int(block_ffn_dim_multiplier · ff) unless null, rounded up to block_multiple_of.
    const element ff_e = required(cfg, {"block_ff_dim", "intermediate_size"});
    const element adjust = present(cfg, "block_auto_adjust_ff_dim");
    const element mult = present(cfg, "block_ffn_dim_multiplier");
    const element multiple = present(cfg, "block_multiple_of");
    // Python's ints do not overflow; a length past the u32 range is refused (as add_feed_forward_length's pack would).
    auto too_big = [&]() -> Error {
        return Error(ErrorCode::BadJson, "config.json key 'block_ff_dim': the feed-forward length is out of the u32 range", f);
    };
    constexpr std::int64_t kLimit = std::int64_t{1} << 40;
    std::int64_t ff = integer(ff_e, "block_ff_dim", f);
    if (ff < -kLimit || ff > kLimit) throw too_big();
    const bool do_adjust = adjust.is_bool() ? bool(adjust) : !adjust.is_null() && num(adjust, "block_auto_adjust_ff_dim", f).d != 0;
    if (do_adjust) {
        ff = static_cast<std::int64_t>(std::trunc(double(2 * ff) / 3.0));
        if (!mult.is_null()) {
            const PyNum m = num(mult, "block_ffn_dim_multiplier", f);
            const double prod = m.is_int ? double(m.i) * double(ff) : m.d * double(ff);
            if (!(prod > -double(kLimit) && prod < double(kLimit))) throw too_big();
            ff = m.is_int ? m.i * ff : static_cast<std::int64_t>(std::trunc(prod));
        }
        const std::int64_t mo = integer(multiple, "block_multiple_of", f);
        if (mo < -kLimit || mo > kLimit) throw too_big();
        const std::int64_t blocks = floordiv(ff + mo - 1, mo, "block_multiple_of", f);
        if (double(mo) * double(blocks) <= -double(kLimit) || double(mo) * double(blocks) >= double(kLimit)) throw too_big();
        ff = mo * blocks;
    }
    kv.put("feed_forward_length", u32(PyNum{true, ff, double(ff)}, "block_ff_dim", f));
}

}  // namespace amn::arch::detail
