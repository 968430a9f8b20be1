// What one collective moves, in nccl-tests' terms (doc/PERFORMANCE.md of
// NVIDIA/nccl-tests): S is the size of the operation and
//   algbw = S / t,   busbw = algbw × factor,
// with S = count × element size for AllReduce and Broadcast, and for AllGather and
// ReduceScatter the size of the total array, count × element size × n, where count is
// the per-rank count the call takes (AllGather's send_count, ReduceScatter's
// recv_count). The factors: AllReduce 2(n-1)/n, AllGather and ReduceScatter (n-1)/n,
// Broadcast 1.
#pragma once

#include <cstddef>

#include "ccl_dtype.h"
#include "perf_params.h"

namespace infinicts::ccl_cases {

struct PerfShape {
  size_t count = 0;          // the call's count argument
  size_t send_elements = 0;  // per rank
  size_t recv_elements = 0;  // per rank
  size_t bytes = 0;          // S: the requested size rounded down to whole per-rank counts
  double bus_factor = 1;
};

// The shape of `collective` over `ranks` ranks for a requested S of `bytes` (as
// nccl-tests does, the count is rounded down so every rank gets the same share).
inline PerfShape ShapeOf(PerfCollective collective, infiniDtype_t dtype, size_t bytes, int ranks) {
  const size_t element = ElementSize(dtype);
  const size_t n = static_cast<size_t>(ranks);
  PerfShape shape;
  switch (collective) {
    case PerfCollective::kAllReduce:
    case PerfCollective::kBroadcast:
      shape.count = bytes / element;
      shape.send_elements = shape.recv_elements = shape.count;
      shape.bytes = shape.count * element;
      shape.bus_factor = collective == PerfCollective::kAllReduce ? 2.0 * (ranks - 1) / ranks : 1.0;
      break;
    case PerfCollective::kAllGather:
      shape.count = bytes / (element * n);
      shape.send_elements = shape.count;
      shape.recv_elements = shape.count * n;
      shape.bytes = shape.recv_elements * element;
      shape.bus_factor = static_cast<double>(ranks - 1) / ranks;
      break;
    case PerfCollective::kReduceScatter:
      shape.count = bytes / (element * n);
      shape.send_elements = shape.count * n;
      shape.recv_elements = shape.count;
      shape.bytes = shape.send_elements * element;
      shape.bus_factor = static_cast<double>(ranks - 1) / ranks;
      break;
  }
  return shape;
}

}  // namespace infinicts::ccl_cases
