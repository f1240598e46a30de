// SPDX-License-Identifier: MIT OR Apache-2.0
#include "exec/tensor_sink.hpp"

#include "anamnesis/error.hpp"

namespace amn {

void TensorSink::set_tail_tensor(std::size_t, std::vector<std::uint64_t>, std::span<const std::uint8_t>) {
    throw Error(ErrorCode::Unsupported, "this output format has no tail tensors", path());
}

}  // namespace amn
