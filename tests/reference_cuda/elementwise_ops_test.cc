// The CUDA elementwise functors (reference_impl/op/cuda/elementwise_ops.h), compiled for
// the host, against each operator's definition in long double: special values exactly
// (NaN, infinities, signed zero, the breakpoints of the piecewise ones), everything else
// within a few units in the last place of the compute type (float for F16/BF16/F32,
// double for F64).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cuda/elementwise_ops.h"

namespace reference_cuda_test {
namespace {

namespace op = infinicts::ref::op::cuda;
using Real = long double;

template <class C>
std::vector<C> Samples() {
  std::vector<C> values = {C(0), -C(0), std::numeric_limits<C>::infinity(), -std::numeric_limits<C>::infinity(),
                           std::numeric_limits<C>::quiet_NaN(), std::numeric_limits<C>::denorm_min()};
  for (double v : {1e-30, 1e-8, 1e-3, 0.25, 0.5, 1.0, 1.5, 2.9, 3.0, 3.1, 5.9, 6.0, 6.1, 10.0, 19.5, 20.0, 40.0, 80.0,
                   1e4, 1e30}) {
    values.push_back(C(v));
    values.push_back(C(-v));
  }
  std::mt19937 random(11);
  std::uniform_real_distribution<double> spread(-12, 12);
  for (int i = 0; i < 300; ++i) values.push_back(static_cast<C>(spread(random)));
  return values;
}

// got matches the definition's value, rounded to C, within `ulps` of C or `absolute` (or
// exactly, where it is not finite).
template <class C>
void ExpectMatches(C got, Real want, int ulps, const std::string &what, Real absolute = 0) {
  const C rounded = static_cast<C>(want);
  if (std::isnan(rounded)) {
    EXPECT_TRUE(std::isnan(got)) << what << ": " << got << ", expected NaN";
    return;
  }
  if (!std::isfinite(rounded) || !std::isfinite(got)) {
    EXPECT_EQ(got, rounded) << what;
    return;
  }
  const Real scale = std::max<Real>(std::fabs(want), std::numeric_limits<C>::min());
  const Real ulp = scale * std::numeric_limits<C>::epsilon();
  EXPECT_LE(std::fabs(static_cast<Real>(got) - want), std::max(ulps * ulp, absolute))
      << what << ": " << got << " vs " << rounded;
}

template <class C, class Op>
void ExpectUnary(const char *name, Op op, const std::function<Real(Real)> &definition, int ulps, Real absolute = 0) {
  for (C x : Samples<C>()) {
    ExpectMatches<C>(op(x), definition(static_cast<Real>(x)), ulps,
                     std::string(name) + "(" + std::to_string(static_cast<double>(x)) + ") in " +
                         (sizeof(C) == 4 ? "float" : "double"),
                     absolute);
  }
}

template <class C>
void CheckEveryUnary() {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  const auto sigmoid = [](Real x) { return 1 / (1 + std::exp(-x)); };
  ExpectUnary<C>("Relu", op::ReluOp{}, [&](Real x) { return std::isnan(x) ? nan : (x > 0 ? x : Real(0)); }, 0);
  // Silu and Gelu at -Inf: NaN, as the CPU functors give (-Inf / Inf, -Inf * 0).
  ExpectUnary<C>("Silu", op::SiluOp{}, [&](Real x) { return std::isinf(x) && x < 0 ? nan : x * sigmoid(x); }, 4);
  ExpectUnary<C>("Sigmoid", op::SigmoidOp{}, sigmoid, 4);
  // Gelu's erfc argument -x / sqrt(2) is rounded to double, as on the CPU: erfc magnifies
  // that rounding in the tail.
  ExpectUnary<C>("Gelu", op::GeluOp{}, [&](Real x) {
    if (std::isinf(x) && x < 0) return nan;
    return x / 2 * std::erfc(static_cast<Real>(static_cast<double>(x) * -0.70710678118654752440));
  }, 4);
  ExpectUnary<C>("Erf", op::ErfOp{}, [](Real x) { return std::erf(x); }, 4);
  ExpectUnary<C>("Floor", op::FloorOp{}, [](Real x) { return std::floor(x); }, 0);
  ExpectUnary<C>("Tanh", op::TanhOp{}, [](Real x) { return std::tanh(x); }, 4);
  ExpectUnary<C>("Sinh", op::SinhOp{}, [](Real x) { return std::sinh(x); }, 4);
  ExpectUnary<C>("Log1p", op::Log1pOp{}, [](Real x) { return std::log1p(x); }, 4);
  ExpectUnary<C>("Reciprocal", op::ReciprocalOp{}, [](Real x) { return 1 / x; }, 1);
  ExpectUnary<C>("Relu6", op::Relu6Op{}, [&](Real x) { return std::isnan(x) ? nan : std::min<Real>(std::max<Real>(x, 0), 6); }, 0);
  ExpectUnary<C>("HardSwish", op::HardSwishOp{},
                 [&](Real x) { return std::isnan(x) ? nan : (x <= -3 ? Real(0) : x * std::min<Real>(x + 3, 6) / 6); }, 2);
  ExpectUnary<C>("GeluTanh", op::GeluTanhOp{}, [](Real x) {
    if (std::isinf(x)) return x < 0 ? Real(0) : x;
    return x / 2 * (1 + std::tanh(std::sqrt(2 / Real(3.14159265358979323846264338327950288L)) * (x + Real(0.044715) * x * x * x)));
  }, 4, /*absolute: 1 + tanh cancels in double for x << 0, on the CPU as here*/ Real(1e-15));
  // 1.702 x is rounded to C before exp, as on the CPU: exp magnifies that rounding by |1.702 x|.
  ExpectUnary<C>("QuickGelu", op::QuickGeluOp{}, [](Real x) {
    if (std::isinf(x)) return x < 0 ? Real(0) : x;
    const C scaled = static_cast<C>(1.702) * static_cast<C>(x);
    return x / (1 + std::exp(-static_cast<Real>(scaled)));
  }, 4);
  ExpectUnary<C>("Selu", op::SeluOp{}, [](Real x) {
    const Real alpha = 1.6732632423543772848170429916717L, scale = 1.0507009873554804934193349852946L;
    return x > 0 ? scale * x : scale * alpha * std::expm1(x);
  }, 2);
  ExpectUnary<C>("Softsign", op::SoftsignOp{}, [](Real x) { return std::isinf(x) ? std::copysign(Real(1), x) : x / (1 + std::fabs(x)); }, 2);
}

TEST(ElementwiseOps, UnaryFunctorsMatchTheirDefinitionsInFloat) { CheckEveryUnary<float>(); }
TEST(ElementwiseOps, UnaryFunctorsMatchTheirDefinitionsInDouble) { CheckEveryUnary<double>(); }

bool SameFloat(float got, float want) { return got == want || (std::isnan(got) && std::isnan(want)); }

TEST(ElementwiseOps, BinaryAndTernaryFunctors) {
  for (float a : Samples<float>()) {
    for (float b : {-2.5f, -0.0f, 1.0f, 7.0f}) {
      // Bit for bit (NaN included): one IEEE operation each.
      EXPECT_TRUE(SameFloat(op::AddOp{}(a, b), a + b));
      EXPECT_TRUE(SameFloat(op::SubOp{}(a, b), a - b));
      EXPECT_TRUE(SameFloat(op::MulOp{}(a, b), a * b));
      // SwiGLU: a * silu(b), b the gate.
      ExpectMatches<float>(op::SwiGLUOp{}(a, b), static_cast<Real>(a) * b / (1 + std::exp(-static_cast<Real>(b))), 4,
                           "SwiGLU");
    }
  }
  // Clip: min(x, high) then max(., low); low wins where the bounds cross; NaN x stays NaN.
  EXPECT_EQ(op::ClipOp{}(5.0f, -1.0f, 2.0f), 2.0f);
  EXPECT_EQ(op::ClipOp{}(-5.0f, -1.0f, 2.0f), -1.0f);
  EXPECT_EQ(op::ClipOp{}(0.5f, 3.0f, 2.0f), 3.0f);
  EXPECT_TRUE(std::isnan(op::ClipOp{}(std::nanf(""), -1.0f, 2.0f)));
}

}  // namespace
}  // namespace reference_cuda_test
