// The operation counts per element of docs/spec/op.md's flop table ("Performance"): the one
// cost model of the operator suite. The table is their only source: cmake/op_flop_table.cmake
// makes its rows into op_flop_table.h. Conformance and accuracy results record flop_count
// with them, perf results flops.
//
// Flops count additions, multiplications, comparisons and divisions as 1 each, and a
// transcendental function (exp, erf, sqrt) as 1 too.
#pragma once

#include <stdexcept>
#include <string_view>

#include "op_flop_table.h"

namespace infinicts::op_cases {

struct SubjectFlops {
  std::string_view subject;
  double flops_per_element;
};

inline constexpr SubjectFlops kFlopsBySubject[] = {INFINICTS_OP_FLOP_TABLE_ROWS};

// Operations per output element (per input element for the row reductions) of `subject`,
// from its row of the table. tests/spec/flop_table_test.cc holds every operator of
// include/infiniop/operators.def to a row (Gemm and Conv aside, whose counts are formulas).
constexpr double FlopsPerElement(std::string_view subject) {
  for (const SubjectFlops &row : kFlopsBySubject) {
    if (row.subject == subject) return row.flops_per_element;
  }
  throw std::logic_error("no row for this subject in docs/spec/op.md's flop table");
}

}  // namespace infinicts::op_cases
