// SPDX-License-Identifier: MIT OR Apache-2.0
#pragma once
// Internal: a large uninitialized float buffer on huge pages (Linux).
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace amn::detail {

/// An uninitialized buffer of n floats in an anonymous mapping of its own,
/// 2 MiB-aligned, with huge pages asked for (MADV_HUGEPAGE, a hint): its pages
/// are faulted in 2 MiB at a time rather than 4 KiB. Used for the
/// double-quant absmax that forget's chunks fill (8 192 faults fewer for a
/// 1 GiB model's 32 MiB). Falls back to the heap when the mapping fails
/// (then std::bad_alloc on no memory). Move-only; get() is null when empty.
class HugeFloats {
public:
    HugeFloats() = default;
    explicit HugeFloats(std::uint64_t n) {
        constexpr std::size_t kHuge = std::size_t(2) << 20;
        const std::size_t want = (std::size_t(n) * sizeof(float) + kHuge - 1) / kHuge * kHuge;
        void* m = ::mmap(nullptr, want + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
            heap_.reset(new float[n]);
            return;
        }
        map_ = m, map_bytes_ = want + kHuge;
        const auto a = (reinterpret_cast<std::uintptr_t>(m) + kHuge - 1) / kHuge * kHuge;
        ::madvise(reinterpret_cast<void*>(a), want, MADV_HUGEPAGE);  // a hint: 4 KiB pages if refused
        p_ = reinterpret_cast<float*>(a);
    }
    HugeFloats(HugeFloats&& o) noexcept { *this = std::move(o); }
    HugeFloats& operator=(HugeFloats&& o) noexcept {
        reset();
        std::swap(map_, o.map_), std::swap(map_bytes_, o.map_bytes_), std::swap(p_, o.p_), heap_.swap(o.heap_);
        return *this;
    }
    ~HugeFloats() { reset(); }
    float* get() const noexcept { return heap_ ? heap_.get() : p_; }
    void reset() noexcept {
        if (map_) ::munmap(map_, map_bytes_);
        map_ = nullptr, map_bytes_ = 0, p_ = nullptr;
        heap_.reset();
    }

private:
    void* map_ = nullptr;
    std::size_t map_bytes_ = 0;
    float* p_ = nullptr;
    std::unique_ptr<float[]> heap_;
};

}  // namespace amn::detail
