#include "ccl_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "ccl_dtype.h"
#include "tolerance/ulp.h"

namespace infinicts::ccl_cases {
namespace {

// The spec's allowance for AVG on floating dtypes (CCL-NUM-3).
constexpr double kAvgUlps = 1.0;

}  // namespace

void MismatchLog::Record(const std::string &line) {
  ++mismatched_;
  if (shown_.size() < kShown) shown_.push_back(line);
}

void MismatchLog::Note(const std::string &line) { notes_.push_back(line); }

void MismatchLog::Compare(infiniDtype_t dtype, bool within_ulps, int rank, const char *what, const uint8_t *expected,
                          const uint8_t *got, size_t count) {
  // An empty block (a V collective's count of 0) may come as NULL, which memcmp must not see.
  if (count == 0) return;
  const size_t size = ElementSize(dtype);
  if (!within_ulps && std::memcmp(expected, got, count * size) == 0) return;
  VisitNumberDtype(dtype, [&](auto format) {
    using Format = decltype(format);
    for (size_t i = 0; i < count; ++i) {
      const uint8_t *want = expected + i * size;
      const uint8_t *have = got + i * size;
      bool same = std::memcmp(want, have, size) == 0;
      if constexpr (Format::kind == NumberKind::kFloat) {
        if (within_ulps) {
          typename Format::Bits want_bits, have_bits;
          std::memcpy(&want_bits, want, size);
          std::memcpy(&have_bits, have, size);
          const double ulps = UlpError(dtype, Format::Decode(want_bits), Format::Decode(have_bits));
          same = ulps <= kAvgUlps;  // false for NaN
          if (std::isnan(ulps)) {
            max_ulp_ = INFINITY;
          } else if (ulps > max_ulp_) {
            max_ulp_ = ulps;
          }
        }
      }
      if (same) continue;
      if (shown_.size() >= kShown) {  // counted, not described: millions may differ
        ++mismatched_;
        continue;
      }
      Record("rank " + std::to_string(rank) + ", " + what + " element " + std::to_string(i) + ": expected " +
             DescribeElement(dtype, want) + (within_ulps ? " (within 1 ULP)" : "") + ", got " +
             DescribeElement(dtype, have));
    }
  });
}

std::string MismatchLog::Message() const {
  std::string message;
  for (const std::string &note : notes_) message += note + "\n";
  if (mismatched_ > 0) {
    message += std::to_string(mismatched_) + " element(s) differ";
    if (mismatched_ > shown_.size()) message += "; the first " + std::to_string(shown_.size());
    message += ":\n";
    for (const std::string &line : shown_) message += "  " + line + "\n";
  }
  return message;
}

void ExpectNoMismatch(const MismatchLog &log) {
  if (!log.ok()) ADD_FAILURE() << log.Message();
}

}  // namespace infinicts::ccl_cases
