#include "tolerance/output_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "tolerance/ulp.h"
#include "tensor/dtype.h"

namespace infinicts {
namespace {

// Share of expected values that, for the data to count as discriminating, may at most be
// matched by an all-zero output.
constexpr double kMaxZeroMatchShare = 0.75;

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

std::string IndexText(const std::vector<size_t> &index) {
  std::ostringstream out;
  out << '[';
  for (size_t d = 0; d < index.size(); ++d) out << (d ? ", " : "") << index[d];
  out << ']';
  return out.str();
}

bool Within(double expected, double got, const Tolerance &tolerance) {
  return std::fabs(got - expected) <= tolerance.atol + tolerance.rtol * std::fabs(expected);
}

// The smallest magnitude a float dtype rounds to infinity (its largest finite value plus half
// an ulp there); infinity for the others.
double OverflowThreshold(infiniDtype_t dtype) {
  if (dtype != INFINI_DTYPE_F16 && dtype != INFINI_DTYPE_BF16 && dtype != INFINI_DTYPE_F32) return HUGE_VAL;
  const double largest = MaxFinite(dtype);
  return largest + std::ldexp(1.0, std::ilogb(largest) - MantissaBits(dtype) - 1);
}

// An expected value beyond the dtype's range is infinity once rounded to it (1/x of a bf16
// subnormal), so that infinity is the right answer there.
bool ElementMatches(double expected, double got, const Tolerance &tolerance, double overflow) {
  if (std::isnan(expected)) return std::isnan(got);
  if (std::isinf(expected)) return got == expected;
  if (std::fabs(expected) >= overflow) return got == std::copysign(HUGE_VAL, expected);
  return std::isfinite(got) && Within(expected, got, tolerance);
}

// Why the expected values cannot tell a right output from a wrong one, or "" when they can.
std::string WeakReason(const std::vector<double> &expected, const Tolerance &tolerance) {
  if (expected.empty()) return "the output is empty";
  size_t finite = 0, zero_matches = 0;
  double lowest = HUGE_VAL, highest = -HUGE_VAL, largest_magnitude = 0.0;
  for (double value : expected) {
    if (!std::isfinite(value)) continue;
    ++finite;
    if (Within(value, 0.0, tolerance)) ++zero_matches;
    lowest = std::min(lowest, value);
    highest = std::max(highest, value);
    largest_magnitude = std::max(largest_magnitude, std::fabs(value));
  }
  if (2 * finite < expected.size()) {
    return "most expected values are NaN or Inf";
  }
  if (static_cast<double>(zero_matches) > kMaxZeroMatchShare * static_cast<double>(finite)) {
    return Number(100.0 * static_cast<double>(zero_matches) / static_cast<double>(finite)) +
           "% of expected values are within tolerance of 0, so an all-zero output would pass there";
  }
  if (finite > 1 && highest - lowest <= tolerance.atol + tolerance.rtol * largest_magnitude) {
    return "the expected output is constant (" + Number(lowest) + "), so a constant output would pass";
  }
  return "";
}

}  // namespace

std::vector<std::pair<std::string, double>> CompareResult::Metrics() const {
  return {{"max_abs_err", max_abs_err},
          {"max_rel_err", max_rel_err},
          {"max_ulp", max_ulp},
          {"mismatch_count", static_cast<double>(mismatch_count)}};
}

std::string WeakDataReason(const HostTensor &expected_fp64, const Tolerance &tolerance) {
  return WeakReason(expected_fp64.ToDoubles(), tolerance);
}

CompareResult Compare(const HostTensor &expected_fp64, const HostTensor &got, const Tolerance &tolerance) {
  CompareResult result;
  if (expected_fp64.shape() != got.shape()) {
    result.message = "FAIL: output shape " + ShapeText(got.shape()) + " differs from the expected " +
                     ShapeText(expected_fp64.shape());
    return result;
  }
  const std::vector<double> expected = expected_fp64.ToDoubles();
  const std::vector<double> actual = got.ToDoubles();
  result.count = expected.size();
  const double overflow = OverflowThreshold(got.dtype());

  for (size_t i = 0; i < expected.size(); ++i) {
    const double want = expected[i], have = actual[i];
    if (std::isfinite(want) && std::isfinite(have)) {
      const double error = std::fabs(have - want);
      result.max_abs_err = std::max(result.max_abs_err, error);
      if (want != 0.0) result.max_rel_err = std::max(result.max_rel_err, error / std::fabs(want));
      result.max_ulp = std::max(result.max_ulp, UlpError(got.dtype(), want, have));
    }
    if (ElementMatches(want, have, tolerance, overflow)) continue;
    ++result.mismatch_count;
    if (std::isfinite(want) != std::isfinite(have)) ++result.nonfinite_mismatch_count;
    if (result.first_mismatches.size() < kMaxListedMismatches) {
      result.first_mismatches.push_back(Mismatch{UnravelIndex(i, got.shape()), want, have});
    }
  }
  result.pass = result.mismatch_count == 0;
  result.weak_reason = WeakReason(expected, tolerance);
  result.weak_data = !result.weak_reason.empty();

  std::ostringstream message;
  if (result.pass) {
    message << "pass: " << result.count << " elements";
  } else {
    message << "FAIL: " << result.mismatch_count << " of " << result.count << " elements outside atol "
            << Number(tolerance.atol) << ", rtol " << Number(tolerance.rtol);
    if (result.nonfinite_mismatch_count > 0) {
      message << " (" << result.nonfinite_mismatch_count << " NaN/Inf where a number was expected, or the reverse)";
    }
  }
  message << "; max_abs_err " << Number(result.max_abs_err) << ", max_rel_err " << Number(result.max_rel_err)
          << ", max_ulp " << Number(result.max_ulp) << " (" << DtypeName(got.dtype()) << ")";
  if (!result.first_mismatches.empty()) {
    message << "; first mismatches:";
    for (size_t m = 0; m < result.first_mismatches.size(); ++m) {
      const Mismatch &mismatch = result.first_mismatches[m];
      message << (m ? ", " : " ") << IndexText(mismatch.index) << " expected " << Number(mismatch.expected)
              << " got " << Number(mismatch.got);
    }
  }
  if (result.weak_data) message << "; weak data: " << result.weak_reason;
  result.message = message.str();
  return result;
}

}  // namespace infinicts
