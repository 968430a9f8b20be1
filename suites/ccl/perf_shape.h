// What one collective moves, in nccl-tests' terms (doc/PERFORMANCE.md of
// NVIDIA/nccl-tests): S is the size of the operation and
//   algbw = S / t,   busbw = algbw × factor,
// with S = count × element size for AllReduce and Broadcast, and for AllGather and
// ReduceScatter the size of the total array, count × element size × n, where count is
// the per-rank count the call takes (AllGather's send_count, ReduceScatter's
// recv_count). The factors: AllReduce 2(n-1)/n, AllGather and ReduceScatter (n-1)/n,
// Broadcast 1. AllGatherV and ReduceScatterV count the total array too (the sum of the
// blocks, S), with AllGather's and ReduceScatter's factor (n-1)/n; their blocks are
// uneven, rank r's holding (r + 1) units of S / (n(n+1)/2) elements.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "ccl_dtype.h"
#include "perf_params.h"

namespace infinicts::ccl_cases {

struct PerfShape {
  size_t count = 0;          // the call's count argument
  size_t send_elements = 0;  // per rank
  size_t recv_elements = 0;  // per rank
  size_t bytes = 0;          // S: the requested size rounded down to whole per-rank counts
  double bus_factor = 1;
  // AllGatherV and ReduceScatterV: rank r's block holds counts[r] elements from offsets[r];
  // send_elements and recv_elements are then the largest of any rank.
  std::vector<size_t> counts;
  std::vector<size_t> offsets;
  size_t BlockCount(int rank) const { return counts.empty() ? count : counts[static_cast<size_t>(rank)]; }
  size_t BlockOffset(int rank) const {
    return offsets.empty() ? count * static_cast<size_t>(rank) : offsets[static_cast<size_t>(rank)];
  }
  // The rank whose block holds element j of the total array.
  int BlockOf(size_t j) const {
    if (offsets.empty()) return static_cast<int>(j / count);
    return static_cast<int>(std::upper_bound(offsets.begin(), offsets.end(), j) - offsets.begin()) - 1;
  }
};

// Uneven blocks over `ranks` ranks for a total of at most `elements`: rank r gets (r + 1) units.
inline void SetUnevenBlocks(PerfShape &shape, size_t elements, int ranks) {
  const size_t n = static_cast<size_t>(ranks);
  const size_t unit = elements / (n * (n + 1) / 2);
  size_t offset = 0;
  for (size_t r = 0; r < n; ++r) {
    shape.offsets.push_back(offset);
    shape.counts.push_back(unit * (r + 1));
    offset += unit * (r + 1);
  }
  shape.count = unit;  // 0: no element per unit, the case skips
  shape.bus_factor = static_cast<double>(ranks - 1) / ranks;
}

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
    case PerfCollective::kAllGatherV:
    case PerfCollective::kReduceScatterV: {
      SetUnevenBlocks(shape, bytes / element, ranks);
      const size_t total = shape.offsets.back() + shape.counts.back();
      const bool gathers = collective == PerfCollective::kAllGatherV;
      shape.send_elements = gathers ? shape.counts.back() : total;
      shape.recv_elements = gathers ? total : shape.counts.back();
      shape.bytes = total * element;
      break;
    }
  }
  return shape;
}

}  // namespace infinicts::ccl_cases
