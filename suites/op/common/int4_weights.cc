#include "common/int4_weights.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>

#include "common/perf_problem.h"
#include "cts/case.h"

namespace infinicts::op_cases {

HostTensor RandomNibbles(const Shape &shape, Rng &rng) {
  HostTensor values(INFINI_DTYPE_U8, shape);  // contiguous U8: written in place
  uint8_t *bytes = values.storage();
  for (size_t i = 0; i < values.numel(); ++i) bytes[i] = static_cast<uint8_t>(rng() % 16);
  return values;
}

void StorePacked(const HostTensor &values, size_t axis, NibbleOrder order, HostTensor &words, Rng &rng) {
  const HostTensor packed = PackInt4(values, axis, order);
  const size_t count = values.shape()[axis], used_in_last = count % kInt4PerWord;
  uint32_t unused_mask = 0;
  for (size_t j = used_in_last; used_in_last != 0 && j < kInt4PerWord; ++j) {
    unused_mask |= 0xFu << (4 * NibbleOfValue(order, j));
  }
  const size_t rows = packed.shape()[0], cols = packed.shape()[1];
  // packed is contiguous I32 (PackInt4's); words too where the suites made them, then written
  // in place.
  const auto *from = static_cast<const int32_t *>(packed.data());
  const bool in_place = words.dtype() == INFINI_DTYPE_I32 && words.offset() == 0 && words.shape() == packed.shape() &&
                        words.strides() == packed.strides();
  auto *to = in_place ? static_cast<int32_t *>(words.data()) : nullptr;
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      auto word = static_cast<uint32_t>(from[r * cols + c]);
      const bool last = (axis == 0 ? r : c) + 1 == (axis == 0 ? rows : cols);
      if (last) word |= static_cast<uint32_t>(rng()) & unused_mask;
      if (to != nullptr) {
        to[r * cols + c] = static_cast<int32_t>(word);
      } else {
        words.SetAt(r * cols + c, static_cast<double>(static_cast<int32_t>(word)));
      }
    }
  }
}

void FillGroupScales(HostTensor &scales, Rng &rng) {
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  const size_t groups = scales.shape()[0], columns = scales.shape()[1];
  for (size_t g = 0; g < groups; ++g) {
    for (size_t n = 0; n < columns; ++n) {
      const int exponent = -6 - static_cast<int>(g % 3) - static_cast<int>(n % 4);
      scales.SetAt(g * columns + n, std::ldexp(mantissa(rng), exponent));
    }
  }
}

std::vector<PerfProblem> W4A16LayerProblems() {
  constexpr size_t kGroupSize = 128;
  const LlmModel &l = kLlama3_8B;
  // out [K, N]: K input features, N output features.
  const std::vector<std::pair<std::string, std::pair<size_t, size_t>>> parts = {
      {"w4a16_qkv_proj", {l.hidden, (l.heads + 2 * l.kv_heads) * l.head_dim}},
      {"w4a16_o_proj", {l.heads * l.head_dim, l.hidden}},
      {"w4a16_gate_up_proj", {l.hidden, l.intermediate}},
      {"w4a16_down_proj", {l.intermediate, l.hidden}}};
  std::vector<PerfProblem> problems;
  for (const auto &[part, kn] : parts) {
    for (infiniDtype_t dtype : cts::FullProfile() ? std::vector<infiniDtype_t>{INFINI_DTYPE_F16, INFINI_DTYPE_BF16}
                                                  : std::vector<infiniDtype_t>{INFINI_DTYPE_F16}) {
      PerfProblem problem;
      problem.dtype = dtype;
      problem.model = l.name;
      problem.part = part;
      problem.dims = {{"k", kn.first}, {"n", kn.second}, {"groups", kn.first / kGroupSize}};
      problems.push_back(problem);
    }
  }
  return problems;
}

}  // namespace infinicts::op_cases
