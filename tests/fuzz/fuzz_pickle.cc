// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the pickle machine (core/src/source/formats/pickle.cc), in
// strict and in scan mode: any input must either unpickle or raise
// amn::Error — never crash, hang, overflow the stack or grow without bound.
// Persistent ids yield storages, as in a checkpoint.
// Not part of ctest; built and run by scripts/sanitize.sh (CI), corpus in
// tests/fuzz/corpus/: tests/fuzz/README.md.
#include "anamnesis/error.hpp"
#include "source/formats/pickle.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace pk = amn::detail::pickle;
    pk::Limits lim;
    lim.max_working_set = 64u << 20;
    for (bool scan : {false, true}) {
        try {
            pk::Machine m(lim, scan);
            m.set_persistent_load([&m](const pk::Value&) {
                pk::Value* s = m.make(pk::Value::Kind::Storage);
                s->storage.key = "0";
                s->storage.dtype = amn::DType::F32;
                s->storage.numel = 16;
                return s;
            });
            std::size_t pos = 0;
            (void)m.run(std::span<const std::uint8_t>(data, size), pos);
        } catch (const amn::Error&) {
        }
    }
    return 0;
}
