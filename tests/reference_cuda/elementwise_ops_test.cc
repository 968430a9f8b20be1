// The elementwise rules (reference_impl/op/rules/elementwise.h), which the CPU and the CUDA
// kernels both run, compiled for the host, against each operator's definition in long double: special values exactly
// (NaN, infinities, signed zero, the breakpoints of the piecewise ones), everything else
// within a few units in the last place of the compute type (float for F16/BF16/F32,
// double for F64).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "rules/elementwise.h"

namespace reference_cuda_test {
namespace {

namespace rules = infinicts::ref::op::rules;
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
  ExpectUnary<C>("Relu", rules::Relu{}, [&](Real x) { return std::isnan(x) ? nan : (x > 0 ? x : Real(0)); }, 0);
  // Silu and Gelu at -Inf: NaN, as the CPU functors give (-Inf / Inf, -Inf * 0).
  ExpectUnary<C>("Silu", rules::Silu{}, [&](Real x) { return std::isinf(x) && x < 0 ? nan : x * sigmoid(x); }, 4);
  ExpectUnary<C>("Sigmoid", rules::Sigmoid{}, sigmoid, 4);
  // Gelu's erfc argument -x / sqrt(2) is rounded to double, as on the CPU: erfc magnifies
  // that rounding in the tail.
  ExpectUnary<C>("Gelu", rules::Gelu{}, [&](Real x) {
    if (std::isinf(x) && x < 0) return nan;
    return x / 2 * std::erfc(static_cast<Real>(static_cast<double>(x) * -0.70710678118654752440));
  }, 4);
  ExpectUnary<C>("Erf", rules::Erf{}, [](Real x) { return std::erf(x); }, 4);
  ExpectUnary<C>("Floor", rules::Floor{}, [](Real x) { return std::floor(x); }, 0);
  ExpectUnary<C>("Tanh", rules::Tanh{}, [](Real x) { return std::tanh(x); }, 4);
  ExpectUnary<C>("Sinh", rules::Sinh{}, [](Real x) { return std::sinh(x); }, 4);
  ExpectUnary<C>("Log1p", rules::Log1p{}, [](Real x) { return std::log1p(x); }, 4);
  ExpectUnary<C>("Reciprocal", rules::Reciprocal{}, [](Real x) { return 1 / x; }, 1);
  ExpectUnary<C>("Relu6", rules::Relu6{}, [&](Real x) { return std::isnan(x) ? nan : std::min<Real>(std::max<Real>(x, 0), 6); }, 0);
  ExpectUnary<C>("HardSwish", rules::HardSwish{},
                 [&](Real x) { return std::isnan(x) ? nan : (x <= -3 ? Real(0) : x * std::min<Real>(x + 3, 6) / 6); }, 2);
  ExpectUnary<C>("GeluTanh", rules::GeluTanh{}, [](Real x) {
    if (std::isinf(x)) return x < 0 ? Real(0) : x;
    return x / 2 * (1 + std::tanh(std::sqrt(2 / Real(3.14159265358979323846264338327950288L)) * (x + Real(0.044715) * x * x * x)));
  }, 4, /*absolute: 1 + tanh cancels in double for x << 0, on the CPU as here*/ Real(1e-15));
  // 1.702 x is rounded to C before exp, as on the CPU: exp magnifies that rounding by |1.702 x|.
  ExpectUnary<C>("QuickGelu", rules::QuickGelu{}, [](Real x) {
    if (std::isinf(x)) return x < 0 ? Real(0) : x;
    const C scaled = static_cast<C>(1.702) * static_cast<C>(x);
    return x / (1 + std::exp(-static_cast<Real>(scaled)));
  }, 4);
  ExpectUnary<C>("Selu", rules::Selu{}, [](Real x) {
    const Real alpha = 1.6732632423543772848170429916717L, scale = 1.0507009873554804934193349852946L;
    return x > 0 ? scale * x : scale * alpha * std::expm1(x);
  }, 2);
  ExpectUnary<C>("Softsign", rules::Softsign{}, [](Real x) { return std::isinf(x) ? std::copysign(Real(1), x) : x / (1 + std::fabs(x)); }, 2);
}

// HardTanh and Softplus under several create-time attributes (bounds crossing nothing,
// equal bounds, a negative beta, thresholds below zero and past e^x's range).
template <class C>
void CheckAttributedUnary() {
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  for (const auto &[low, high] : {std::pair{-1.0f, 1.0f}, std::pair{-0.5f, 6.0f}, std::pair{2.0f, 2.0f},
                                 std::pair{-3.0f, -2.5f}}) {
    ExpectUnary<C>("HardTanh", rules::HardTanh{low, high}, [&](Real x) {
      return std::isnan(x) ? nan : std::min<Real>(std::max<Real>(x, low), high);
    }, 0);
  }
  for (const auto &[beta, threshold] : {std::pair{1.0f, 20.0f}, std::pair{2.0f, 5.0f}, std::pair{-1.5f, 20.0f},
                                       std::pair{0.5f, -2.0f}, std::pair{1.0f, 1e30f}}) {
    ExpectUnary<C>("Softplus", rules::Softplus{beta, threshold}, [&](Real x) {
      // The branch on beta·x as the compute type rounds it; the rest exact.
      const C bx = static_cast<C>(beta) * static_cast<C>(x);
      if (bx > static_cast<C>(threshold)) return x;
      if (std::isnan(bx)) return nan;
      // ln(1 + e^bx) = max(bx, 0) + ln(1 + e^-|bx|) in long double (e^bx alone overflows).
      const Real wide = static_cast<Real>(bx);
      return (std::max<Real>(wide, 0) + std::log1p(std::exp(-std::fabs(wide)))) / beta;
    }, 4);
  }
}

TEST(ElementwiseOps, AttributedUnaryFunctorsMatchTheirDefinitions) {
  CheckAttributedUnary<float>();
  CheckAttributedUnary<double>();
}

TEST(ElementwiseOps, IntegersWrapAroundAndOnesZerosIgnoreTheirInput) {
  const int32_t i32_max = std::numeric_limits<int32_t>::max(), i32_min = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(rules::Add{}(i32_max, int32_t{1}), i32_min);
  EXPECT_EQ(rules::Sub{}(i32_min, int32_t{1}), i32_max);
  EXPECT_EQ(rules::Mul{}(int32_t{65536}, int32_t{65537}), 65536);
  EXPECT_EQ(rules::Add{}(int32_t{-7}, int32_t{3}), -4);
  const int64_t i64_max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(rules::Add{}(i64_max, int64_t{2}), std::numeric_limits<int64_t>::min() + 1);
  EXPECT_EQ(rules::Mul{}(int64_t{-3}, int64_t{5}), -15);
  EXPECT_EQ(rules::Mul{}(int64_t{1} << 62, int64_t{4}), 0);
  for (float x : Samples<float>()) {
    EXPECT_EQ(rules::Ones{}(x), 1.0f);
    EXPECT_EQ(rules::Zeros{}(x), 0.0f);
    EXPECT_FALSE(std::signbit(rules::Zeros{}(x)));
  }
  EXPECT_EQ(rules::Ones{}(int64_t{-9}), 1);
  EXPECT_EQ(rules::Zeros{}(int32_t{5}), 0);
}

TEST(ElementwiseOps, UnaryFunctorsMatchTheirDefinitionsInFloat) { CheckEveryUnary<float>(); }
TEST(ElementwiseOps, UnaryFunctorsMatchTheirDefinitionsInDouble) { CheckEveryUnary<double>(); }

bool SameFloat(float got, float want) { return got == want || (std::isnan(got) && std::isnan(want)); }

TEST(ElementwiseOps, BinaryAndTernaryFunctors) {
  for (float a : Samples<float>()) {
    for (float b : {-2.5f, -0.0f, 1.0f, 7.0f}) {
      // Bit for bit (NaN included): one IEEE operation each.
      EXPECT_TRUE(SameFloat(rules::Add{}(a, b), a + b));
      EXPECT_TRUE(SameFloat(rules::Sub{}(a, b), a - b));
      EXPECT_TRUE(SameFloat(rules::Mul{}(a, b), a * b));
      // SwiGLU: a * silu(b), b the gate.
      ExpectMatches<float>(rules::SwiGLU{}(a, b), static_cast<Real>(a) * b / (1 + std::exp(-static_cast<Real>(b))), 4,
                           "SwiGLU");
    }
  }
  // Clip: min(x, high) then max(., low); low wins where the bounds cross; NaN x stays NaN.
  EXPECT_EQ(rules::Clip{}(5.0f, -1.0f, 2.0f), 2.0f);
  EXPECT_EQ(rules::Clip{}(-5.0f, -1.0f, 2.0f), -1.0f);
  EXPECT_EQ(rules::Clip{}(0.5f, 3.0f, 2.0f), 3.0f);
  EXPECT_TRUE(std::isnan(rules::Clip{}(std::nanf(""), -1.0f, 2.0f)));
}

}  // namespace
}  // namespace reference_cuda_test
