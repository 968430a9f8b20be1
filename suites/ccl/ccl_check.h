// Comparison of what the ranks hold with what they must hold. Mismatches of every rank
// are collected into one message that names rank, element index, expected and got for
// the first few, and how many elements differ in all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "infinicore.h"

namespace infinicts::ccl_cases {

class MismatchLog {
 public:
  static constexpr int kShown = 5;

  // Compares `count` elements bit for bit, or (within_ulps) within 1 ULP of the dtype
  // around `expected` (the spec's AVG allowance; NaN never matches).
  void Compare(infiniDtype_t dtype, bool within_ulps, int rank, const char *what, const uint8_t *expected,
               const uint8_t *got, size_t count);
  // A finding that is not about elements (guard bytes, ranks that disagree).
  void Note(const std::string &line);

  bool ok() const { return mismatched_ == 0 && notes_.empty(); }
  double max_ulp() const { return max_ulp_; }
  std::string Message() const;

 private:
  void Record(const std::string &line);
  size_t mismatched_ = 0;
  std::vector<std::string> shown_;
  std::vector<std::string> notes_;
  double max_ulp_ = 0;
};

// Fails the running case (without ending it) with the log's message when anything differs.
void ExpectNoMismatch(const MismatchLog &log);

}  // namespace infinicts::ccl_cases
