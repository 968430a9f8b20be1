#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {
namespace {

// Which position row (0 = t, 1 = h, 2 = w) rotary frequency i takes.
size_t AxisOf(size_t i, size_t section_t, size_t section_h, size_t section_w, bool interleaved) {
  if (interleaved) {
    // Qwen3-VL: the frequencies cycle t, h, w; h and w each for their section's length of cycles.
    if (i % 3 == 1 && i < 3 * section_h) return 1;
    if (i % 3 == 2 && i < 3 * section_w) return 2;
    return 0;
  }
  // Qwen2-VL: contiguous sections, t first.
  if (i < section_t) return 0;
  if (i < section_t + section_h) return 1;
  return 2;
}

}  // namespace

HostTensor MRoPE(const HostTensor &x, const HostTensor &cos, const HostTensor &sin, const HostTensor &positions,
                 size_t head_size, size_t rotary_dim, size_t section_t, size_t section_h, size_t section_w,
                 bool interleaved) {
  Require(x.ndim() == 2, "MRoPE", "x must be [num_tokens, heads * head_size]");
  Require(head_size > 0 && x.shape()[1] % head_size == 0, "MRoPE", "x's width must be a multiple of head_size");
  Require(rotary_dim % 2 == 0 && rotary_dim <= head_size, "MRoPE", "rotary_dim must be even and <= head_size");
  const size_t half = rotary_dim / 2;
  Require(section_t + section_h + section_w == half, "MRoPE", "the sections must add up to rotary_dim / 2");
  Require(cos.ndim() == 2 && cos.shape()[1] == half, "MRoPE", "cos must be [table_len, rotary_dim / 2]");
  RequireSameShape(cos, sin, "MRoPE", "cos", "sin");
  const size_t tokens = x.shape()[0], heads = x.shape()[1] / head_size, table_len = cos.shape()[0];
  const bool per_axis = positions.ndim() == 2;
  Require((positions.ndim() == 1 && positions.shape()[0] == tokens) ||
              (per_axis && positions.shape()[0] == 3 && positions.shape()[1] == tokens),
          "MRoPE", "positions must be [3, " + std::to_string(tokens) + "] or [" + std::to_string(tokens) + "]");

  std::vector<double> values = x.ToDoubles();  // row-major: token t's head h element j at (t·heads + h)·head_size + j
  const std::vector<double> cosines = cos.ToDoubles(), sines = sin.ToDoubles();  // row-major [table_len, half]
  for (size_t t = 0; t < tokens; ++t) {
    int64_t position[3];
    for (size_t axis = 0; axis < 3; ++axis) {
      // 1-D positions (text): the one position serves all three rows.
      position[axis] = per_axis ? positions.GetInt({axis, t}) : positions.GetInt({t});
      Require(position[axis] >= 0 && static_cast<size_t>(position[axis]) < table_len, "MRoPE",
              "token " + std::to_string(t) + ": position " + std::to_string(position[axis]) + " outside the table");
    }
    for (size_t h = 0; h < heads; ++h) {
      double *head = &values[(t * heads + h) * head_size];
      // GPT-NeoX pairing inside the rotary part: (i, i + half); elements from rotary_dim on pass through.
      for (size_t i = 0; i < half; ++i) {
        const size_t p = static_cast<size_t>(position[AxisOf(i, section_t, section_h, section_w, interleaved)]);
        const double c = cosines[p * half + i], s = sines[p * half + i];
        const double first = head[i], second = head[i + half];
        head[i] = first * c - second * s;
        head[i + half] = second * c + first * s;
      }
    }
  }
  return F64Tensor(x.shape(), values);
}

}  // namespace infinicts::oracle
