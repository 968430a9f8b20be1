#include "common/elementwise.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "tolerance/tolerance.h"

namespace infinicts::op_cases {
namespace {

// 1, a prime, a matrix of primes, batch dims, an LLM hidden size and an LLM FFN width.
const std::vector<Shape> kContiguousShapes = {{}, {1}, {13}, {7, 31}, {2, 3, 5, 7}, {3, 4096}, {5, 11008}};
// The shapes every layout set runs on.
const std::vector<Shape> kLayoutShapes = {{7, 31}, {2, 3, 5, 7}};

std::vector<LayoutKind> Uniform(size_t tensors, LayoutKind kind) { return std::vector<LayoutKind>(tensors, kind); }

bool Applies(const std::vector<LayoutKind> &layouts, const Shape &shape) {
  for (LayoutKind kind : layouts) {
    if (!LayoutApplies(kind, shape)) return false;
  }
  return true;
}

void AddIfApplies(std::vector<ElementwiseProblem> &problems, infiniDtype_t dtype, const Shape &shape,
                  const std::vector<std::string> &names, const std::vector<LayoutKind> &layouts, bool non_finite) {
  if (!Applies(layouts, shape)) return;
  ElementwiseProblem p;
  p.dtype = dtype;
  p.shape = shape;
  p.names = names;
  p.layouts = layouts;
  p.non_finite = non_finite;
  problems.push_back(p);
}

}  // namespace

std::string ElementwiseProblem::Name() const {
  std::vector<std::pair<std::string, LayoutKind>> named;
  for (size_t i = 0; i < names.size(); ++i) named.emplace_back(names[i], layouts[i]);
  return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__" + LayoutsName(named) +
         (non_finite ? "__nan_inf" : "") + (subnormal ? "__subnormal" : "");
}

std::vector<std::vector<LayoutKind>> ElementwiseLayoutSets(size_t inputs, bool bound_inputs) {
  const size_t tensors = inputs + 1;
  std::vector<std::vector<LayoutKind>> sets = {Uniform(tensors, LayoutKind::kTransposed),
                                               Uniform(tensors, LayoutKind::kPadded)};
  // Views: the output a slice of a larger tensor, the inputs at an offset or walked backwards.
  std::vector<LayoutKind> views = {LayoutKind::kView};
  for (size_t i = 0; i < inputs; ++i) views.push_back(i % 2 ? LayoutKind::kOffset : LayoutKind::kFlipped);
  sets.push_back(views);
  // Broadcasts: the first input along dim 0, the last along the last dim.
  std::vector<LayoutKind> first = Uniform(tensors, LayoutKind::kContiguous);
  first[1] = LayoutKind::kBroadcastFirst;
  sets.push_back(first);
  std::vector<LayoutKind> last = Uniform(tensors, LayoutKind::kContiguous);
  last[inputs] = LayoutKind::kBroadcastLast;
  sets.push_back(last);
  std::vector<LayoutKind> column_output = Uniform(tensors, LayoutKind::kContiguous);
  column_output[0] = LayoutKind::kTransposedPadded;
  sets.push_back(column_output);
  if (bound_inputs) {
    // Every input after the first is one value broadcast everywhere (a scalar bound).
    std::vector<LayoutKind> scalars = Uniform(tensors, LayoutKind::kBroadcastAll);
    scalars[0] = LayoutKind::kContiguous;
    scalars[1] = LayoutKind::kContiguous;
    sets.push_back(scalars);
  }
  return sets;
}

std::vector<ElementwiseProblem> ElementwiseAccuracyProblems(const std::vector<std::string> &names,
                                                            bool bound_inputs, const std::vector<infiniDtype_t> &dtypes) {
  const size_t tensors = names.size();
  const auto sets = ElementwiseLayoutSets(tensors - 1, bound_inputs);
  std::vector<ElementwiseProblem> problems;
  for (infiniDtype_t dtype : dtypes) {
    auto add = [&](const Shape &shape, const std::vector<LayoutKind> &layouts) {
      AddIfApplies(problems, dtype, shape, names, layouts, false);
    };
    for (const Shape &shape : kContiguousShapes) add(shape, Uniform(tensors, LayoutKind::kContiguous));
    for (const Shape &shape : kLayoutShapes) {
      for (const auto &layouts : sets) add(shape, layouts);
    }
    add({3, 4096}, sets[3]);  // a bias-like row broadcast over tokens
    add({13}, sets[2]);       // 1-D views
    // The output walked backwards (a negative stride), the inputs plain.
    std::vector<LayoutKind> flipped_output = Uniform(tensors, LayoutKind::kContiguous);
    flipped_output[0] = LayoutKind::kFlipped;
    add({7, 31}, flipped_output);
  }
  return problems;
}

std::vector<ElementwiseProblem> ElementwiseNonFiniteProblems(const std::vector<std::string> &names,
                                                             const std::vector<infiniDtype_t> &dtypes) {
  const size_t tensors = names.size();
  const auto sets = ElementwiseLayoutSets(tensors - 1, false);
  std::vector<ElementwiseProblem> problems;
  for (infiniDtype_t dtype : dtypes) {
    auto add = [&](const Shape &shape, const std::vector<LayoutKind> &layouts) {
      AddIfApplies(problems, dtype, shape, names, layouts, true);
    };
    // A row's vector body and its tail; a long row (the vector path alone); views, and the
    // first input broadcast (one NaN reaching a whole column).
    add({7, 31}, Uniform(tensors, LayoutKind::kContiguous));
    add({3, 4096}, Uniform(tensors, LayoutKind::kContiguous));
    add({2, 3, 5, 7}, sets[2]);
    add({2, 3, 5, 7}, sets[3]);
  }
  return problems;
}

std::vector<ElementwiseProblem> ElementwiseSubnormalProblems(const std::vector<std::string> &names) {
  const size_t tensors = names.size();
  std::vector<ElementwiseProblem> problems;
  for (infiniDtype_t dtype : FloatDtypes()) {
    // A row's vector body and its tail, a long row (the vector path alone), a padded view.
    for (const auto &[shape, layout] : {std::pair<Shape, LayoutKind>{{7, 31}, LayoutKind::kContiguous},
                                        std::pair<Shape, LayoutKind>{{3, 4096}, LayoutKind::kContiguous},
                                        std::pair<Shape, LayoutKind>{{2, 3, 5, 7}, LayoutKind::kPadded}}) {
      const size_t before = problems.size();
      AddIfApplies(problems, dtype, shape, names, Uniform(tensors, layout), false);
      if (problems.size() > before) problems.back().subnormal = true;
    }
  }
  return problems;
}

bool ComputedExactly(const char *subject) {
  for (infiniDtype_t dtype : FloatDtypes()) {
    const Tolerance tolerance = ToleranceFor(subject, dtype);
    if (tolerance.atol != 0.0 || tolerance.rtol != 0.0) return false;
  }
  return true;
}

void PlantSubnormals(HostTensor &input, Rng &rng) {
  // The dtype's smallest subnormal is 2^-tiny; its subnormals are k·2^-tiny for 0 < k < 2^digits.
  int tiny = 0, digits = 0;
  switch (input.dtype()) {
    case INFINI_DTYPE_F16: tiny = 24, digits = 10; break;
    case INFINI_DTYPE_BF16: tiny = 133, digits = 7; break;
    case INFINI_DTYPE_F32: tiny = 149, digits = 23; break;
    case INFINI_DTYPE_F64: tiny = 1074, digits = 52; break;
    default: return;
  }
  std::uniform_int_distribution<uint64_t> steps(1, (uint64_t{1} << digits) - 1);
  for (size_t e = 0; e < input.numel(); ++e) {
    if (rng() % 2 == 0) continue;
    const double value = std::ldexp(static_cast<double>(steps(rng)), -tiny);
    input.SetAt(e, rng() % 2 ? value : -value);
  }
}

ElementwiseProblem ElementwiseSmall(const std::vector<std::string> &names, infiniDtype_t dtype) {
  ElementwiseProblem p;
  p.dtype = dtype;
  p.shape = {4, 5};
  p.names = names;
  p.layouts = Uniform(names.size(), LayoutKind::kContiguous);
  return p;
}

std::vector<ElementwiseProblem> ElementwiseConformanceProblems(const std::vector<std::string> &names,
                                                               const std::vector<infiniDtype_t> &dtypes) {
  std::vector<ElementwiseProblem> problems = {ElementwiseSmall(names, INFINI_DTYPE_F32)};
  for (infiniDtype_t dtype : dtypes) {
    if (dtype != INFINI_DTYPE_F32) problems.push_back(ElementwiseSmall(names, dtype));
  }
  return problems;
}

std::vector<TensorSpec> ElementwiseSpecs(const ElementwiseProblem &p) {
  std::vector<TensorSpec> specs;
  for (size_t i = 0; i < p.names.size(); ++i) {
    specs.push_back({p.names[i], i == 0 ? Role::kOutput : Role::kInput, p.dtype, MakeLayout(p.layouts[i], p.shape)});
  }
  return specs;
}

std::vector<BadDescriptorOf<ElementwiseProblem>> ElementwiseBadDescriptors(const std::vector<std::string> &names) {
  using Specs = std::vector<TensorSpec>;
  const size_t last = names.size() - 1;
  BadDescriptorList<ElementwiseProblem> bad(ElementwiseSmall(names, INFINI_DTYPE_F32));
  bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
    for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
  });
  bad.Add(names[1] + "_f16_among_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_F16; });
  bad.Add(names[0] + "_f64_among_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_F64; });
  bad.Add(names[1] + "_4x6", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {4, 6}); });
  bad.Add(names[last] + "_5x4", INFINI_STATUS_BAD_TENSOR_SHAPE, [last](Specs &s) { Reshape(s[last], {5, 4}); });
  bad.Add(names[0] + "_3d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {4, 5, 1}); });
  bad.Add(names[1] + "_implicit_broadcast", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {5}); });
  bad.Add(names[0] + "_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES, [](Specs &s) { s[0].layout.strides = {0, 1}; });
  bad.AddRecommended(names[0] + "_rows_overlap", INFINI_STATUS_BAD_TENSOR_STRIDES,
          [](Specs &s) { s[0].layout.strides = {2, 1}; });
  bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
          [](Specs &s) {
            s[1].dtype = INFINI_DTYPE_I32;
            Reshape(s[1], {4, 6});
          },
          INFINI_STATUS_BAD_TENSOR_SHAPE);
  bad.Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
          [](Specs &s) {
            Reshape(s[1], {4, 6});
            s[0].layout.strides = {0, 1};
          },
          INFINI_STATUS_BAD_TENSOR_STRIDES);
  return bad;
}

std::vector<infiniDtype_t> IntegerDtypesOf(IntegerOperands operands) {
  switch (operands) {
    case IntegerOperands::kNone: return {};
    case IntegerOperands::kSums:
    case IntegerOperands::kProducts: return {INFINI_DTYPE_I32, INFINI_DTYPE_I64};
    case IntegerOperands::kAnyValues:
      return {INFINI_DTYPE_I32, INFINI_DTYPE_I64, INFINI_DTYPE_I8,  INFINI_DTYPE_I16, INFINI_DTYPE_U8,
              INFINI_DTYPE_U16, INFINI_DTYPE_U32, INFINI_DTYPE_U64, INFINI_DTYPE_BYTE, INFINI_DTYPE_BOOL};
  }
  return {};
}

namespace {

std::pair<int64_t, int64_t> AnyValueRange(infiniDtype_t dtype) {
  constexpr int64_t kExact = int64_t{1} << 53;
  switch (dtype) {
    case INFINI_DTYPE_BOOL: return {0, 1};
    case INFINI_DTYPE_BYTE:
    case INFINI_DTYPE_U8: return {0, UINT8_MAX};
    case INFINI_DTYPE_I8: return {INT8_MIN, INT8_MAX};
    case INFINI_DTYPE_I16: return {INT16_MIN, INT16_MAX};
    case INFINI_DTYPE_U16: return {0, UINT16_MAX};
    case INFINI_DTYPE_I32: return {-int64_t{INT32_MAX}, INT32_MAX};
    case INFINI_DTYPE_U32: return {0, UINT32_MAX};
    case INFINI_DTYPE_I64: return {-kExact, kExact};
    case INFINI_DTYPE_U64: return {0, kExact};
    default: throw std::logic_error(std::string("no integer values for dtype ") + DtypeName(dtype));
  }
}

}  // namespace

void FillIntegerOperands(std::vector<HostTensor> &tensors, Rng &rng, IntegerOperands operands) {
  const infiniDtype_t dtype = tensors.at(0).dtype();
  const bool wide = dtype == INFINI_DTYPE_I64;
  if (operands == IntegerOperands::kAnyValues) {
    // Any value of the dtype's range that the fp64 oracle holds exactly (to 2^53).
    const auto [low, high] = AnyValueRange(dtype);
    std::uniform_int_distribution<int64_t> value(low, high);
    for (size_t i = 1; i < tensors.size(); ++i) {
      for (size_t e = 0; e < tensors[i].numel(); ++e) tensors[i].SetAt(e, static_cast<double>(value(rng)));
    }
    return;
  }
  if (operands == IntegerOperands::kNone || tensors.size() != 3) {
    throw std::logic_error("integer operands are for Add, Sub and Mul");
  }
  // Magnitudes in [2^low, 2^(low + 1)) for each input, random signs. Sums: the first input
  // odd and 8 times larger than the even second, so |a ± b| is odd and lies in (2^28, 2^31)
  // (I32) or (2^50, 2^53) (I64). Products: both odd, so |a·b| is odd and in [2^24, 2^26) (I32)
  // or [2^49, 2^51) (I64). An odd integer above 2^24 has no F32 representation: every
  // element of an integer operator computed through F32 comes out wrong, and every exact
  // result stays within the dtype and within the fp64 oracle's 2^53.
  const bool sums = operands == IntegerOperands::kSums;
  const int low[2] = {sums ? (wide ? 51 : 29) : (wide ? 24 : 12), sums ? (wide ? 48 : 26) : (wide ? 25 : 12)};
  const bool odd[2] = {true, !sums};
  for (size_t input = 0; input < 2; ++input) {
    std::uniform_int_distribution<int64_t> magnitude(int64_t{1} << low[input], (int64_t{2} << low[input]) - 1);
    HostTensor &tensor = tensors[input + 1];
    for (size_t e = 0; e < tensor.numel(); ++e) {
      const int64_t value = (magnitude(rng) & ~int64_t{1}) | (odd[input] ? 1 : 0);
      tensor.SetAt(e, static_cast<double>(rng() % 2 ? value : -value));  // exact: below 2^53
    }
  }
}

void PlantNonFinite(std::vector<HostTensor> &tensors, Rng &rng,
                    const std::function<std::vector<double>(size_t input)> &values_for) {
  for (size_t input = 1; input < tensors.size(); ++input) {
    const std::vector<double> values = values_for(input);
    if (values.empty()) continue;
    HostTensor &tensor = tensors[input];
    size_t planted = 0;
    for (size_t e = 0; e < tensor.numel(); ++e) {
      if (rng() % 6 == 0) tensor.SetAt(e, values[planted++ % values.size()]);
    }
  }
}

void FillInputsAwayFromZero(std::vector<HostTensor> &tensors, Rng &rng, double low, double high) {
  for (size_t i = 1; i < tensors.size(); ++i) FillAwayFromZero(tensors[i], rng, low, high);
}

void FillInputsLogUniform(std::vector<HostTensor> &tensors, Rng &rng, double low, double high) {
  std::uniform_real_distribution<double> exponent(std::log(low), std::log(high));
  for (size_t i = 1; i < tensors.size(); ++i) {
    for (size_t e = 0; e < tensors[i].numel(); ++e) {
      const double magnitude = std::exp(exponent(rng));
      tensors[i].SetAt(e, rng() % 2 ? magnitude : -magnitude);
    }
  }
}

double LargestFinite(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return 65504.0;
    case INFINI_DTYPE_BF16: return 3.3895313892515355e38;
    case INFINI_DTYPE_F32: return 3.4028234663852886e38;
    default: return 1.7976931348623157e308;
  }
}

}  // namespace infinicts::op_cases

namespace infinicts::op_cases {

std::vector<std::string> NamesOfDataArguments(const std::string &arguments) {
  std::vector<std::string> names;
  std::string name;
  for (char c : arguments) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      name += c;
    } else if (!name.empty()) {
      names.push_back(name);
      name.clear();
    }
  }
  if (!name.empty()) names.push_back(name);
  return names;
}

}  // namespace infinicts::op_cases
