// The cases of an elementwise operator (a SAME_SHAPE row of operators.def without create-time
// attributes) that has no file of its own in suites/op/: suites/op/CMakeLists.txt writes one
// from default_elementwise.cc.in for each such row, so that the row, its clause, its oracle
// and its rule are all such an operator needs. Everything comes from the row: the subject,
// the tensors' names (the compute call's data arguments), the calls, the clause
// OP-<SUBJECT>-1, and the oracle infinicts::oracle::<Name> on the inputs in order. An
// operator whose data must reach further (a domain edge, an overflow threshold, integer
// dtypes) writes its own file, as suites/op/tanh.cc does.
#ifndef INFINICTS_SUITES_OP_COMMON_DEFAULT_ELEMENTWISE_H
#define INFINICTS_SUITES_OP_COMMON_DEFAULT_ELEMENTWISE_H

#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "common/elementwise.h"
#include "common/op_cases.h"
#include "common/operator_calls.h"
#include "common/perf_elementwise.h"
#include "cts/clause_ids.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {

// "(y, x)" -> {"y", "x"}.
std::vector<std::string> NamesOfDataArguments(const std::string &arguments);

template <class Api, auto kOracle>
struct DefaultElementwiseTraits {
  static constexpr const char *kSubject = Api::kSubject;
  static constexpr bool kBoundInputs = false;
  static constexpr IntegerOperands kIntegers = IntegerOperands::kNone;
  static std::vector<std::string> Names() { return NamesOfDataArguments(Api::kDataArguments); }
  static OpCalls Calls() {
    static_assert(calls_detail::TensorsOnlyCreate<Api>(),
                  "an elementwise operator with create-time attributes needs a file of its own in suites/op/, "
                  "with values for them");
    return OperatorCalls<Api>();
  }
  // Magnitudes log-uniform over four decades, both signs: small values, where a formula that
  // cancels (1 - f, x - f) loses its digits, up to where exponentials leave F16's range.
  static void Fill(std::vector<HostTensor> &t, Rng &rng) { FillInputsLogUniform(t, rng, 1e-3, 12.0); }
  static std::vector<double> NonFiniteInputs(size_t) { return NanAndBothInfinities(); }
  static HostTensor Oracle(const std::vector<HostTensor> &t) {
    return CallOn(t, std::make_index_sequence<Arity(kOracle)>{});
  }
  static std::vector<std::string> MathClauses() { return {cts::OperatorClausePrefix(kSubject) + "1"}; }

 private:
  template <class... Ps>
  static constexpr size_t Arity(HostTensor (*)(Ps...)) {
    return sizeof...(Ps);
  }
  template <size_t... I>
  static HostTensor CallOn(const std::vector<HostTensor> &t, std::index_sequence<I...>) {
    return kOracle(t.at(I + 1)...);
  }
};

}  // namespace infinicts::op_cases

#endif  // INFINICTS_SUITES_OP_COMMON_DEFAULT_ELEMENTWISE_H
