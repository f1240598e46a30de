#!/usr/bin/python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Independent reference tables for tests/core/test_kernels.cc.

Usage: /usr/bin/python3 kernel_reference.py OUTDIR

Writes raw little-endian binary files into OUTDIR:

  f32_inputs.u32        f32 bit patterns: edge cases + random (u32 each)
  f32_to_bf16.u16       PyTorch 1.13 `.to(torch.bfloat16)` of each input
  f32_to_f16.u16        PyTorch 1.13 `.to(torch.float16)` of each input
  bf16_to_f32.u32       PyTorch `.to(torch.float32)` of all 65536 BF16 patterns
  f16_to_f32.u32        PyTorch `.to(torch.float32)` of all 65536 F16 patterns
  fp8_<NAME>.f32        the 256 codes of each FP8 format, decoded from the spec
                        (F8_E4M3, F8_E5M2, F8_E4M3FNUZ, F8_E5M2FNUZ, F8_E8M0)
  fp8_scales.f32        the scales used below
  fp8_scaled_<NAME>.f32 for each scale s (in order), the 256 decoded codes × s,
                        one IEEE single-precision multiply (numpy float32)
  fp4_e2m1.f32          the 16 E2M1 codes
  fp6_<NAME>.f32        the 64 codes of F6_E2M3 and F6_E3M2

PyTorch 1.13 has no float8 dtypes, so the FP8/FP6/FP4 decoders here are written
from the format definitions (OCP 8-bit Floating Point Specification, OCP
Microscaling Formats (MX) v1.0, and the AMD "FNUZ" variants) as
sign · 2^(e − bias) · (1 + m / 2^M) in float64, 2^(1 − bias) · m / 2^M for
subnormals — deliberately not the bit tricks the C++ code uses. NaN codes are
written as NaN (the test checks only NaN-ness there; the exact NaN bits are a
convention of ours, documented in kernels.hpp).
"""
import os
import sys

import numpy as np
import torch


def minifloat_table(ebits, mbits, bias, special):
    """All 2^(1+ebits+mbits) codes of a sign-magnitude minifloat as float64.

    special(code, e, m) returns None for an ordinary value, else the value
    (nan / ±inf) the format assigns to that code.
    """
    n = 1 << (1 + ebits + mbits)
    out = np.empty(n, dtype=np.float64)
    for code in range(n):
        s = (code >> (ebits + mbits)) & 1
        e = (code >> mbits) & ((1 << ebits) - 1)
        m = code & ((1 << mbits) - 1)
        sp = special(code, e, m)
        if sp is not None:
            out[code] = sp
            continue
        if e == 0:
            mag = 2.0 ** (1 - bias) * (m / 2.0 ** mbits)
        else:
            mag = 2.0 ** (e - bias) * (1.0 + m / 2.0 ** mbits)
        out[code] = -mag if s else mag
    return out


def no_special(code, e, m):
    return None


def e4m3fn_special(code, e, m):
    # OCP E4M3: S.1111.111 is NaN; no infinities.
    return np.nan if (e == 15 and m == 7) else None


def e5m2_special(code, e, m):
    # OCP E5M2 (IEEE 754 style): exponent 31 is ±inf (m = 0) or NaN.
    if e == 31:
        if m == 0:
            return -np.inf if code & 0x80 else np.inf
        return np.nan
    return None


def fnuz_special(code, e, m):
    # FNUZ: the negative-zero code 0x80 is the only NaN; no infinities.
    return np.nan if code == 0x80 else None


def e8m0_table():
    # OCP UE8M0: unsigned, 2^(e - 127); 0xFF is NaN.
    out = np.empty(256, dtype=np.float64)
    for e in range(256):
        out[e] = np.nan if e == 255 else 2.0 ** (e - 127)
    return out


def f32_inputs():
    """Edge cases first, then random patterns (fixed seed)."""
    edge = [
        0x00000000, 0x80000000,                          # ±0
        0x00000001, 0x80000001, 0x007FFFFF, 0x00400000,  # f32 subnormals
        0x00800000, 0x80800000,                          # smallest normal
        0x7F7FFFFF, 0xFF7FFFFF,                          # max finite
        0x7F800000, 0xFF800000,                          # ±inf
        0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001,  # NaNs, quiet and signalling
        0x7FFFFFFF, 0xFFFFFFFF, 0x7FA00000, 0x7F801000, 0x7FBFFFFF, 0x7FC00001,
        0x3F800000, 0xBF800000,                          # ±1
        # BF16 ties: lsb even (stays) and odd (rounds up), and neighbours.
        0x3F808000, 0x3F818000, 0x3F807FFF, 0x3F808001, 0xBF808000, 0xBF818000,
        0x7F7F8000, 0x7F7F7FFF, 0x7F7EFFFF, 0x7F7E8000,  # BF16 overflow to inf
        # F16 boundaries.
        0x477FE000, 0x477FEFFF, 0x477FF000, 0x477FF001, 0x47800000,  # 65504 .. 65536
        0xC77FF000, 0xC77FEFFF,
        0x38800000, 0x387FFFFF, 0x387FE000, 0x387FF000,  # around 2^-14
        0x33800000, 0x33000000, 0x33000001, 0x32FFFFFF,  # 2^-24, 2^-25
        0x33C00000, 0x34200000, 0x34400000,              # 1.5·2^-24 (tie), 2.5·2^-24, 3·2^-24
        0xB3000000, 0xB3000001, 0xB3C00000,
        0x3C001000, 0x3C003000, 0x3C002FFF, 0x3C001001,  # F16 mantissa ties
    ]
    rng = np.random.RandomState(20240511)
    uniform = rng.randint(0, 2 ** 32, size=200000, dtype=np.uint64).astype(np.uint32)
    # Exponents in and around the F16 subnormal/normal range.
    exps = rng.randint(95, 145, size=100000).astype(np.uint32)
    mant = rng.randint(0, 2 ** 23, size=100000).astype(np.uint32)
    sign = (rng.randint(0, 2, size=100000).astype(np.uint32) << 31)
    near_f16 = sign | (exps << 23) | mant
    # Exact ties for both targets at random exponents.
    exps2 = rng.randint(0, 255, size=50000).astype(np.uint32)
    hi = rng.randint(0, 2 ** 7, size=50000).astype(np.uint32)
    ties_bf16 = (exps2 << 23) | (hi << 16) | 0x8000
    hi13 = rng.randint(0, 2 ** 10, size=50000).astype(np.uint32)
    ties_f16 = (exps[:50000] << 23) | (hi13 << 13) | 0x1000
    return np.concatenate([np.array(edge, dtype=np.uint32), uniform, near_f16,
                           ties_bf16, ties_f16]).astype('<u4')


def torch_bits_from_f32(bits_u32, dtype):
    x = torch.from_numpy(bits_u32.view(np.float32).copy())
    return x.to(dtype).view(torch.int16).numpy().view(np.uint16).astype('<u2')


def torch_f32_bits_from(bits_u16, dtype):
    x = torch.from_numpy(bits_u16.view(np.int16).copy()).view(dtype)
    return x.to(torch.float32).numpy().view(np.uint32).astype('<u4')


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)

    def write(name, arr):
        with open(os.path.join(out, name), 'wb') as f:
            f.write(np.ascontiguousarray(arr).tobytes())

    inputs = f32_inputs()
    write('f32_inputs.u32', inputs)
    write('f32_to_bf16.u16', torch_bits_from_f32(inputs, torch.bfloat16))
    write('f32_to_f16.u16', torch_bits_from_f32(inputs, torch.float16))

    all16 = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    write('bf16_to_f32.u32', torch_f32_bits_from(all16, torch.bfloat16))
    write('f16_to_f32.u32', torch_f32_bits_from(all16, torch.float16))

    fp8 = {
        'F8_E4M3': minifloat_table(4, 3, 7, e4m3fn_special),
        'F8_E5M2': minifloat_table(5, 2, 15, e5m2_special),
        'F8_E4M3FNUZ': minifloat_table(4, 3, 8, fnuz_special),
        'F8_E5M2FNUZ': minifloat_table(5, 2, 16, fnuz_special),
        'F8_E8M0': e8m0_table(),
    }
    scales = np.array([1.0, 0.5, -2.75, 0.0013580322265625, 3.0e-39, 1.0e38, -0.0,
                       float('inf'), 2.0 ** -140, 448.0, 1.1754943508222875e-38 * 0.75],
                      dtype=np.float32)
    write('fp8_scales.f32', scales.astype('<f4'))
    for name, table in fp8.items():
        as_f32 = table.astype(np.float32)  # exact: every code is an f32 value
        assert np.array_equal(as_f32.astype(np.float64), table, equal_nan=True)
        write('fp8_%s.f32' % name, as_f32.astype('<f4'))
        with np.errstate(all='ignore'):
            scaled = np.concatenate([as_f32 * s for s in scales]).astype(np.float32)
        write('fp8_scaled_%s.f32' % name, scaled.astype('<f4'))

    write('fp4_e2m1.f32', minifloat_table(2, 1, 1, no_special).astype('<f4'))
    write('fp6_F6_E2M3.f32', minifloat_table(2, 3, 1, no_special).astype('<f4'))
    write('fp6_F6_E3M2.f32', minifloat_table(3, 2, 3, no_special).astype('<f4'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
