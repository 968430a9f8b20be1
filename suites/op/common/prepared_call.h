// The host side of one operator call: every tensor (inputs filled from the case's seed,
// outputs at their sentinel), the fp64 oracle's expectation for each written tensor, and
// the tolerance it is held to.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/op_case.h"
#include "tolerance/output_check.h"
#include "tolerance/tolerance.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {

// What host storage holds before a call. All-ones bytes are NaN in every float dtype (and
// -1 or the maximum in the integer ones): an input's gaps (storage its layout does not
// address) read as NaN, and an output element the operator never writes compares as NaN.
inline constexpr uint8_t kUnwrittenByte = 0xFF;
// The gaps of written tensors: a finite value in every dtype, so a stray NaN shows too.
inline constexpr uint8_t kOutputGapByte = 0x5A;

struct PreparedCall {
  std::string subject;
  std::string problem_json;
  std::vector<TensorSpec> specs;
  std::vector<HostTensor> tensors;    // one per spec, in its host form (HostDtypeFor, HostLayoutFor)
  std::vector<HostTensor> expected;   // one per spec: the oracle's F64 values for written tensors
  std::vector<Tolerance> tolerances;  // one per spec (used for written tensors)
  OpCalls calls;
  double flops = 0.0;
  double bytes = 0.0;  // every present tensor's elements once (written ones read and written once)
  bool constant_output = false;  // ConstantOutput<Op> (op_case.h): no weak-data refusal
  // Where the spec leaves the order of tied entries open (top-k selections): from the inputs,
  // the oracle's outputs and the backend's (both one per spec, empty for tensors not written),
  // the oracle's outputs with each tie resolved as the backend resolved it, where that was valid.
  using TieRule = std::function<std::vector<HostTensor>(
      const std::vector<HostTensor> &tensors, const std::vector<HostTensor> &expected, const std::vector<HostTensor> &got)>;
  TieRule settle_ties;
};

// An operator whose spec leaves tied entries' order open declares
//   static std::vector<HostTensor> SettleTies(const Problem &, const std::vector<HostTensor> &tensors,
//                                             const std::vector<HostTensor> &expected,
//                                             const std::vector<HostTensor> &got);
template <class Op>
auto SettleTiesOf(const typename Op::Problem &problem, int) -> decltype(&Op::SettleTies, PreparedCall::TieRule{}) {
  return [problem](const std::vector<HostTensor> &tensors, const std::vector<HostTensor> &expected,
                   const std::vector<HostTensor> &got) { return Op::SettleTies(problem, tensors, expected, got); };
}
template <class Op>
PreparedCall::TieRule SettleTiesOf(const typename Op::Problem &, long) {
  return nullptr;
}

// How a spec's values live on the host. HostTensor reads and writes every real dtype but F8;
// F8 and the complex dtypes travel as unsigned integers of their size (a C128 element as two
// U64, an extra last dimension), which is all an operator that only moves bytes needs.
infiniDtype_t HostDtypeFor(infiniDtype_t dtype);
Layout HostLayoutFor(const TensorSpec &spec);

// Host tensors for the specs, storage set as the bytes above say (absent specs: a default tensor).
std::vector<HostTensor> AllocateHostTensors(const std::vector<TensorSpec> &specs);

// "c: f16 [7, 13] strides [1, 7] offset 0".
std::string DescribeTensor(const TensorSpec &spec);

// Notes the running case as one of an optional capability (cts::NoteOptionalCapability) when a
// present tensor has one of `optional` dtypes: refused, it does not keep a level from being reached.
void NoteOptionalDtypes(const std::vector<TensorSpec> &specs, const std::vector<infiniDtype_t> &optional);

// Draws a problem's data before giving up on it: redrawing data that cannot discriminate
// (output_check.h) makes a case's strength independent of its seed.
inline constexpr int kMaxDataDraws = 8;

enum class Oracle { kComputed, kNotComputed };

// The bookkeeping every prepared call shares, from its specs: `bytes`, each written tensor's
// tolerance, and its expected values from `outputs`, the oracle's, one per present written
// spec in order (kNotComputed: none, `expected` holds empty tensors). Returns whether any
// expected output is data too weak to discriminate (output_check.h).
bool SetExpectations(PreparedCall &call, std::vector<HostTensor> outputs, Oracle oracle = Oracle::kComputed);

// Prepares `problem` of operator Op with inputs drawn from rng. Inputs whose expected
// outputs cannot discriminate are drawn again from the same engine, up to kMaxDataDraws
// times; the last draw stands (the comparison then reports the suite's weak data). Without
// the oracle (a side-by-side case, common/against.h), the first draw stands and `expected`
// holds empty tensors.
template <class Op>
PreparedCall Prepare(const typename Op::Problem &problem, Rng &rng, Oracle oracle = Oracle::kComputed) {
  PreparedCall call;
  call.subject = Op::kSubject;
  call.problem_json = problem.Json();
  call.specs = Op::Specs(problem);
  call.constant_output = ConstantOutput<Op>::value;
  for (int draw = 1;; ++draw) {
    call.tensors = AllocateHostTensors(call.specs);
    Op::Fill(problem, call.tensors, rng);
    std::vector<HostTensor> outputs;
    if (oracle == Oracle::kComputed) outputs = Op::Expected(problem, call.tensors);
    const bool weak = SetExpectations(call, std::move(outputs), oracle);
    if (!weak || call.constant_output || draw == kMaxDataDraws || oracle == Oracle::kNotComputed) break;
  }
  call.calls = Op::Calls(problem);
  call.settle_ties = SettleTiesOf<Op>(problem, 0);
  call.flops = Op::Flops(problem);
  NoteOptionalDtypes(call.specs, OptionalDtypesOf<Op>());
  return call;
}

}  // namespace infinicts::op_cases
