// Random problems for `infinicts fuzz` (docs/usage.md "Fuzzing"), drawn from an operator's
// declaration (common/problem_grammar.h) and, for the values no type bounds, from the fields
// of its compiled-in problems:
//   - every draw starts from one compiled-in problem, so its dtypes are a combination the
//     operator admits, and varies one to three of its other fields;
//   - a shape gains or loses a dimension, or an extent becomes 0, 1, odd, a power of two
//     and its neighbours, or a long row; a layout or other enum takes any of its values; a
//     flag flips; a number moves to a neighbour, a double, a half, 0 or 1, or to another
//     value the compiled-in problems give it;
//   - a draw the declaration refuses (a layout its shape cannot take) or whose tensors pass
//     kMaxFuzzedBytes is drawn again.
// Shrinking proposes the problems one step simpler than a failing one: a dimension fewer,
// an extent 1, halved or one less, a field back at the operator's first conformance
// problem's value; never another dtype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/problem_grammar.h"

namespace infinicts::op_cases {

inline constexpr size_t kMaxFuzzedBytes = size_t{4} << 20;

// A line the operator's declaration accepts, in its canonical form, with its fields and the
// bytes its tensors take (the larger of storage and logical elements, per tensor).
struct CheckedProblem {
  std::string line;
  std::vector<FieldText> fields;
  size_t bytes = 0;
};

// What the fuzzer knows of one operator.
struct FuzzedOperator {
  std::vector<std::vector<FieldText>> corpus;  // the compiled-in problems' fields
  std::vector<FieldText> plain;                // the first conformance problem's fields
  std::function<std::optional<CheckedProblem>(const std::string &line)> check;
};

// Up to `count` distinct problem lines, the same for the same seed.
std::vector<std::string> DrawProblemLines(const FuzzedOperator &op, uint64_t seed, size_t count);

// The valid lines one step simpler than `line`, simplest first.
std::vector<std::string> SimplerProblemLines(const FuzzedOperator &op, const std::string &line);

}  // namespace infinicts::op_cases
