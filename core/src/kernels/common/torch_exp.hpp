// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// `-torch.exp(t)` for a float32 tensor as Debian's python3-torch 1.13 computes it on
// the CPU — what convert_hf_to_gguf.py's MambaModel / Mamba2Model (conversion/mamba.py,
// llama.cpp 34af94c) write for Mamba's A = -exp(A_log) — and its inverse for the way back.
//
// What torch does (measured here, tests/core/test_torch_exp.cc checks it against torch):
// Debian's libtorch_cpu.so links Debian's libsleef.so.3 (SLEEF 3.5.1); at the AVX2 CPU
// capability (a CPU with AVX2 and FMA; torch.__config__.show() "CPU capability usage:
// AVX2") torch.exp of a contiguous float32 tensor is vml::vexp → vec::map over
// Vectorized<float>::exp = Sleef_expf8_u10 (dispatched to Sleef_expf8_u10avx2, the FMA
// kernel) for every element: whole 8-lane vectors, and the last n mod 8 elements as a
// partial vector loaded into a zeroed register, through the same SLEEF kernel — not glibc's
// expf. The result is elementwise, so neither the chunking nor at::parallel_for's split
// over threads (torch.set_num_threads 1 and 2, n up to 200003, identical) changes any value.
// Measured over all 2^32 float inputs: Sleef_expf8_u10avx2 = the Sleef_expf8_u10
// dispatcher = Sleef_expf1_u10purecfma bit for bit; the non-FMA kernels
// (Sleef_expf8_u10avx, purec) differ on 1 886 213 inputs and glibc's expf on 17 209 961.
// A CPU without AVX2/FMA runs torch's DEFAULT capability (std::exp, i.e. glibc, other
// bytes): there these functions refuse (Error{Unsupported}) rather than write other bytes.
// An AVX-512 CPU runs Sleef_expf16_u10 (SLEEF's same FMA algorithm, 16 lanes); not
// measured here. torch 1.13 has no CPU exp for Half: an F16 A_log fails in the converter.
#include <cstddef>
#include <optional>

namespace amn::kernels {

/// Whether this CPU has AVX2 and FMA (torch's AVX2 capability: its exp is SLEEF's FMA kernel).
bool torch_exp_supported() noexcept;

/// values[i] = -exp(values[i]) as `-torch.exp(t)` (torch 1.13, AVX2 capability, float32): SLEEF 3.5.1's
/// Sleef_expf8_u10avx2 for every element (the partial last vector zero-padded), then the sign flipped.
/// NaN stays NaN (sign flipped), exp overflow gives -inf, underflow -0.
/// \throws Error{Unsupported} "… needs AVX2 and FMA …" when !torch_exp_supported().
void torch_neg_exp(float* values, std::size_t n);

/// The way back of torch_neg_exp for one value `a` (GGUF's A): an x with torch_neg_exp(x) == a bit for bit.
/// Tries x = logf(-a) (computed in double, rounded to float) first, then the floats nearest to it, up to
/// 64 steps away on either side, nearest first (below before above at a tie). log(-A) alone is not exact:
/// exp maps several floats to one and skips others, so log then exp may land one float off; and the
/// original A_log is only one of the floats that give A (the folder written may hold another).
/// nullopt when none of those gives `a` (a positive A or NaN of the other sign: not an output of
/// -exp; a value -exp rounds past).
/// \throws Error{Unsupported} when !torch_exp_supported().
std::optional<float> torch_neg_exp_inverse(float a);

}  // namespace amn::kernels
