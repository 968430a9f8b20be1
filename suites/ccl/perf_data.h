// Data of the collective perf cases: small integers, periodic in the element index and
// different from rank to rank, so that a reduction over the ranks is exact in the dtype and a
// result built from the wrong ranks, the wrong elements or the wrong root differs from
// the one expected. PROD takes 1s and 2s (a product of n ranks reaches 2^n); AVG takes the
// same values on every rank, so that the average is exact however a backend divides. Buffers are made by repeating one encoded period, which keeps
// 64 MiB ones cheap; results are checked in windows.
#pragma once

#include <cstddef>

#include "ccl_data.h"
#include "perf_params.h"
#include "perf_shape.h"

namespace infinicts::ccl_cases {

class PerfData {
 public:
  PerfData(PerfCollective collective, infiniDtype_t dtype, infinicclReduceOp_t op, int ranks, const PerfShape &shape);

  // Whether the values fit the dtype exactly, reductions over every rank included (false
  // with more ranks than a narrow dtype allows).
  bool Exact() const { return period_ >= 2; }
  // Rank r's send buffer, encoded.
  Bytes SendBuffer(int rank) const;
  // Elements [first, first + count) of what rank r's receive buffer must hold, encoded.
  Bytes ExpectedReceive(int rank, size_t first, size_t count) const;

 private:
  int Value(size_t element, int rank) const {
    if (reduces_ && op_ == INFINICCL_AVG) rank = 0;
    return 1 + static_cast<int>((element + 5 * rank) % period_);
  }

  PerfCollective collective_;
  infiniDtype_t dtype_;
  infinicclReduceOp_t op_;
  bool reduces_;
  int ranks_;
  PerfShape shape_;
  size_t period_;
};

}  // namespace infinicts::ccl_cases
