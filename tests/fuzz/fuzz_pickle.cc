// SPDX-License-Identifier: MIT OR Apache-2.0
// libFuzzer target for the pickle machine (core/src/formats/pickle.cc), in
// strict and in scan mode: any input must either unpickle or raise
// amn::Error — never crash, hang, overflow the stack or grow without bound.
// Persistent ids yield storages, as in a checkpoint.
//
// Not part of ctest. Build with clang-14 from the repository root:
//
//   mkdir -p build-fuzz
//   clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -Icore/include -Icore/src \
//       tests/fuzz/fuzz_pickle.cc core/src/formats/pickle.cc core/src/error.cc -o build-fuzz/fuzz_pickle
//   mkdir -p build-fuzz/corpus-pickle
//   /usr/bin/python3 fixtures/npz_pth/make_npz_pth_fixtures.py build-fuzz/fx
//   cp build-fuzz/fx/*.pkl build-fuzz/corpus-pickle/
//   (cd build-fuzz/fx && for f in *.pth; do /usr/bin/python3 -c "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); \
//       [open('../corpus-pickle/'+sys.argv[1]+'.pkl','wb').write(z.read(n)) for n in z.namelist() if n.endswith('data.pkl')]" $f; done)
//   build-fuzz/fuzz_pickle -max_len=16384 -timeout=10 -rss_limit_mb=1024 build-fuzz/corpus-pickle
#include "anamnesis/error.hpp"
#include "formats/pickle.hpp"

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
