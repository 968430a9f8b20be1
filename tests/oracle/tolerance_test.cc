// The tolerance model and Compare: NaN/Inf rules, an all-zero output against real data,
// weak-data flags, ULP counting and the mismatch report.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "tensor/dtype.h"
#include "tolerance/output_check.h"
#include "tolerance/ulp.h"
#include "oracle/oracles.h"
#include "tensor/generate.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::F32;
using testing_helpers::F64;

const Tolerance kLoose{0.5, 0.5, "test"};

TEST(Compare, IdenticalValuesPassWithZeroErrors) {
  const HostTensor expected = F64({3}, {1, -2, 3});
  const CompareResult result = Compare(expected, F32({3}, {1, -2, 3}), DefaultTolerance(INFINI_DTYPE_F32));
  EXPECT_TRUE(result.pass) << result.message;
  EXPECT_EQ(result.count, 3u);
  EXPECT_EQ(result.max_abs_err, 0.0);
  EXPECT_EQ(result.max_ulp, 0.0);
  EXPECT_FALSE(result.weak_data) << result.weak_reason;
}

TEST(Compare, NanWhereANumberIsExpectedAlwaysFails) {
  const Tolerance huge{1e30, 1e30, "anything goes"};
  const CompareResult result = Compare(F64({2}, {1, 2}), F32({2}, {1, NAN}), huge);
  EXPECT_FALSE(result.pass);
  EXPECT_EQ(result.mismatch_count, 1u);
  EXPECT_EQ(result.nonfinite_mismatch_count, 1u);
  EXPECT_NE(result.message.find("NaN"), std::string::npos) << result.message;
  EXPECT_FALSE(Compare(F64({1}, {1}), F32({1}, {INFINITY}), huge).pass);
}

TEST(Compare, NanAndInfMustMatchWhereExpected) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(Compare(F64({3}, {NAN, inf, -inf}), F32({3}, {NAN, INFINITY, -INFINITY}), kLoose).pass);
  EXPECT_FALSE(Compare(F64({1}, {NAN}), F32({1}, {0}), kLoose).pass);
  EXPECT_FALSE(Compare(F64({1}, {inf}), F32({1}, {-INFINITY}), kLoose).pass);
  EXPECT_FALSE(Compare(F64({1}, {inf}), F32({1}, {3e38f}), kLoose).pass);
  const HostTensor half = HostTensor::FromValues(INFINI_DTYPE_F16, {1}, {65504});
  EXPECT_FALSE(Compare(F64({1}, {inf}), half, kLoose).pass);
}

// A value beyond the dtype's range rounds to infinity there: that infinity is right, and
// nothing else is (found by fuzzing: 1/x of bf16 subnormals).
TEST(Compare, BeyondTheDtypesRangeOnlyInfinityOfItsSignMatches) {
  const double inf = std::numeric_limits<double>::infinity();
  const auto bf16 = [](double value) { return HostTensor::FromValues(INFINI_DTYPE_BF16, {1}, {value}); };
  const auto f16 = [](double value) { return HostTensor::FromValues(INFINI_DTYPE_F16, {1}, {value}); };
  EXPECT_TRUE(Compare(F64({1}, {7.26e38}), bf16(inf), DefaultTolerance(INFINI_DTYPE_BF16)).pass);
  EXPECT_TRUE(Compare(F64({1}, {-7.26e38}), bf16(-inf), DefaultTolerance(INFINI_DTYPE_BF16)).pass);
  EXPECT_FALSE(Compare(F64({1}, {7.26e38}), bf16(-inf), kLoose).pass);
  EXPECT_FALSE(Compare(F64({1}, {7.26e38}), bf16(MaxFinite(INFINI_DTYPE_BF16)), kLoose).pass);
  EXPECT_FALSE(Compare(F64({1}, {7.26e38}), bf16(NAN), kLoose).pass);
  // F16: 65520 rounds to infinity (ties to even), 65519 to 65504.
  EXPECT_TRUE(Compare(F64({1}, {65520}), f16(inf), DefaultTolerance(INFINI_DTYPE_F16)).pass);
  EXPECT_FALSE(Compare(F64({1}, {65519}), f16(inf), DefaultTolerance(INFINI_DTYPE_F16)).pass);
  EXPECT_TRUE(Compare(F64({1}, {65519}), f16(65504), DefaultTolerance(INFINI_DTYPE_F16)).pass);
  // Within F32's range, infinity stays wrong.
  EXPECT_FALSE(Compare(F64({1}, {3.3e38}), F32({1}, {INFINITY}), kLoose).pass);
}

TEST(Compare, AnAllZeroOutputFailsAgainstRealData) {
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}) {
    HostTensor x(dtype, Shape{16, 64});
    Rng rng(11);
    FillAwayFromZero(x, rng);
    const HostTensor expected = oracle::Silu(x);
    const HostTensor zeros(dtype, Shape{16, 64});
    const CompareResult result = Compare(expected, zeros, ToleranceFor("silu", dtype));
    EXPECT_FALSE(result.pass);
    EXPECT_EQ(result.mismatch_count, result.count);
    EXPECT_FALSE(result.weak_data) << result.weak_reason;
    // The correctly rounded output passes.
    const CompareResult rounded = Compare(expected, expected.ToDtype(dtype), ToleranceFor("silu", dtype));
    EXPECT_TRUE(rounded.pass) << rounded.message;
    EXPECT_LE(rounded.max_ulp, 0.5);
  }
}

TEST(Compare, FlagsDataTooWeakToDiscriminate) {
  std::vector<double> mostly_zero(100, 0.0);
  mostly_zero[3] = 1.0;
  const Tolerance tolerance = DefaultTolerance(INFINI_DTYPE_F32);
  const CompareResult zero = Compare(F64({100}, mostly_zero), HostTensor(INFINI_DTYPE_F32, Shape{100}), tolerance);
  EXPECT_TRUE(zero.weak_data);
  EXPECT_NE(zero.message.find("weak data"), std::string::npos) << zero.message;
  EXPECT_NE(zero.weak_reason.find("within tolerance of 0"), std::string::npos) << zero.weak_reason;

  const CompareResult constant =
      Compare(F64({4}, {0.25, 0.25, 0.25, 0.25}), F32({4}, {0.25, 0.25, 0.25, 0.25}), tolerance);
  EXPECT_TRUE(constant.pass);
  EXPECT_TRUE(constant.weak_data);
  EXPECT_NE(constant.weak_reason.find("constant"), std::string::npos) << constant.weak_reason;

  EXPECT_TRUE(Compare(F64({0}, {}), F32({0}, {}), tolerance).weak_data);
  EXPECT_TRUE(Compare(F64({3}, {NAN, NAN, 1}), F32({3}, {NAN, NAN, 1}), tolerance).weak_data);
  // Half zeros (a ReLU output) is still discriminating.
  EXPECT_FALSE(Compare(F64({4}, {0, 1, 0, 2}), F32({4}, {0, 1, 0, 2}), tolerance).weak_data);
}

TEST(Compare, UlpsAreCountedInTheOutputDtype) {
  const double f16_ulp_at_one = std::ldexp(1.0, -10);
  EXPECT_EQ(UlpOf(INFINI_DTYPE_F16, 1.0), f16_ulp_at_one);
  EXPECT_EQ(UlpOf(INFINI_DTYPE_F16, 1.5), f16_ulp_at_one);
  EXPECT_EQ(UlpOf(INFINI_DTYPE_F16, 0.0), std::ldexp(1.0, -24));
  EXPECT_EQ(UlpOf(INFINI_DTYPE_F16, 1e-7), std::ldexp(1.0, -24));  // subnormal spacing
  EXPECT_EQ(UlpOf(INFINI_DTYPE_F16, 1e6), 32.0);                    // beyond the range: the last spacing
  EXPECT_EQ(UlpOf(INFINI_DTYPE_BF16, 1.0), std::ldexp(1.0, -7));
  EXPECT_EQ(UlpOf(INFINI_DTYPE_F32, 1.0), std::ldexp(1.0, -23));
  EXPECT_EQ(UlpOf(INFINI_DTYPE_I32, 7.0), 1.0);

  const HostTensor one_up = HostTensor::FromValues(INFINI_DTYPE_F16, {1}, {1.0 + f16_ulp_at_one});
  EXPECT_EQ(Compare(F64({1}, {1.0}), one_up, kLoose).max_ulp, 1.0);
  const HostTensor three_up = HostTensor::FromValues(INFINI_DTYPE_F16, {1}, {1.0 + 3 * f16_ulp_at_one});
  EXPECT_EQ(Compare(F64({1}, {1.0}), three_up, kLoose).max_ulp, 3.0);
  const HostTensor below = HostTensor::FromValues(INFINI_DTYPE_F32, {1}, {std::nextafter(2.0f, 0.0f)});
  EXPECT_EQ(Compare(F64({1}, {2.0}), below, kLoose).max_ulp, 0.5);  // spacing below 2 is half of that above
}

TEST(Compare, RelativeAndAbsoluteBounds) {
  const Tolerance relative{0.0, 0.01, "1%"};
  EXPECT_TRUE(Compare(F64({1}, {1000}), F32({1}, {1010}), relative).pass);
  const CompareResult over = Compare(F64({1}, {1000}), F32({1}, {1010.5}), relative);
  EXPECT_FALSE(over.pass);
  EXPECT_NEAR(over.max_rel_err, 0.0105, 1e-12);
  EXPECT_NEAR(over.max_abs_err, 10.5, 1e-12);
  const Tolerance absolute{0.25, 0.0, "quarter"};
  EXPECT_TRUE(Compare(F64({2}, {0, 5}), F32({2}, {0.25, 4.75}), absolute).pass);
  EXPECT_FALSE(Compare(F64({2}, {0, 5}), F32({2}, {0.5, 5}), absolute).pass);
}

TEST(Compare, MessageListsTheFirstMismatchesByMultiIndex) {
  const HostTensor expected = F64({2, 3}, {1, 2, 3, 4, 5, 6});
  const HostTensor got = F32({2, 3}, {1, 2, 3, 4, 5, 7}).WithLayout(TransposedLayout({2, 3}));
  const CompareResult result = Compare(expected, got, Tolerance{0.1, 0.0, "test"});
  EXPECT_FALSE(result.pass);
  ASSERT_EQ(result.first_mismatches.size(), 1u);
  EXPECT_EQ(result.first_mismatches[0].index, (std::vector<size_t>{1, 2}));
  EXPECT_NE(result.message.find("[1, 2] expected 6 got 7"), std::string::npos) << result.message;
  EXPECT_NE(result.message.find("1 of 6"), std::string::npos) << result.message;

  std::vector<double> many(50, 1.0);
  const CompareResult lots =
      Compare(F64({50}, many), HostTensor(INFINI_DTYPE_F32, Shape{50}), Tolerance{0.1, 0.0, "test"});
  EXPECT_EQ(lots.mismatch_count, 50u);
  EXPECT_EQ(lots.first_mismatches.size(), kMaxListedMismatches);
}

TEST(Compare, ShapeMismatchFails) {
  const CompareResult result = Compare(F64({2}, {1, 2}), F32({1, 2}, {1, 2}), kLoose);
  EXPECT_FALSE(result.pass);
  EXPECT_NE(result.message.find("shape"), std::string::npos);
}

TEST(Compare, MetricsCarryUnitsInTheirNames) {
  const CompareResult result = Compare(F64({1}, {1}), F32({1}, {1.5}), kLoose);
  const auto metrics = result.Metrics();
  ASSERT_EQ(metrics.size(), 4u);
  EXPECT_EQ(metrics[0].first, "max_abs_err");
  EXPECT_EQ(metrics[0].second, 0.5);
  EXPECT_EQ(metrics[3].first, "mismatch_count");
}

TEST(Tolerance, DefaultsAndOverrides) {
  EXPECT_GT(DefaultTolerance(INFINI_DTYPE_F16).rtol, DefaultTolerance(INFINI_DTYPE_F32).rtol);
  EXPECT_GT(DefaultTolerance(INFINI_DTYPE_BF16).rtol, DefaultTolerance(INFINI_DTYPE_F16).rtol);
  EXPECT_EQ(DefaultTolerance(INFINI_DTYPE_I64).atol, 0.0);
  EXPECT_EQ(ToleranceFor("relu", INFINI_DTYPE_F16).rtol, 0.0);
  EXPECT_EQ(ToleranceFor("softmax", INFINI_DTYPE_F16).rtol, DefaultTolerance(INFINI_DTYPE_F16).rtol);
  const Tolerance gemm = ToleranceFor("gemm", INFINI_DTYPE_F32);
  EXPECT_GT(gemm.atol, DefaultTolerance(INFINI_DTYPE_F32).atol);
  EXPECT_NE(gemm.reason.find("gemm"), std::string::npos);
  for (const ToleranceOverride &entry : ToleranceOverrides()) {
    EXPECT_GT(std::string(entry.reason).size(), 20u) << entry.op;
  }
}

// A row is keyed by the operator's subject string: a row whose key no operator has (a typo)
// would never apply, and its operator would fall back to the default without a word. A second
// row for one operator and dtype, or a row for every dtype beside per-dtype rows, would be
// shadowed by the first the lookup meets.
TEST(Tolerance, EveryOverrideNamesOneOperatorAndDtypeOnce) {
  const std::set<std::string> subjects = {
#define OPERATOR(Name, subject, ...) #subject,
#include "infiniop/operators.def"
#undef OPERATOR
  };
  std::map<std::string, std::set<int>> dtypes_of;
  for (const ToleranceOverride &entry : ToleranceOverrides()) {
    EXPECT_TRUE(subjects.count(entry.op)) << "tolerance row '" << entry.op << "' names no operator of operators.def";
    std::set<int> &dtypes = dtypes_of[entry.op];
    EXPECT_TRUE(dtypes.insert(entry.dtype).second) << entry.op << " has two rows for " << DtypeName(entry.dtype);
    const bool every = dtypes.count(INFINI_DTYPE_INVALID) > 0;
    EXPECT_FALSE(every && dtypes.size() > 1) << entry.op << " has a row for every dtype beside rows for some";
  }
}

// The default F16 tolerance separates a correctly rounded result from one that is a few
// ulps off, and a softmax row of 4096 values (about 2^-12 each) from an all-zero row.
TEST(Tolerance, HalfDefaultsDiscriminate) {
  const Tolerance f16 = DefaultTolerance(INFINI_DTYPE_F16);
  const double ulp = std::ldexp(1.0, -10);
  const HostTensor four_off = HostTensor::FromValues(INFINI_DTYPE_F16, {1}, {1.0 + 4 * ulp});
  EXPECT_FALSE(Compare(F64({1}, {1.0}), four_off, f16).pass);
  const std::vector<double> uniform(4096, 1.0 / 4096);
  EXPECT_FALSE(Compare(F64({4096}, uniform), HostTensor(INFINI_DTYPE_F16, Shape{4096}), f16).pass);
}

}  // namespace
}  // namespace infinicts
