#include "perf_data.h"

#include <algorithm>
#include <cstring>

namespace infinicts::ccl_cases {
namespace {

// The largest integer every value up to which the dtype holds exactly.
size_t LargestExactInteger(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_I8: return 127;
    case INFINI_DTYPE_U8: return 255;
    case INFINI_DTYPE_BF16: return 256;
    case INFINI_DTYPE_F16: return 2048;
    case INFINI_DTYPE_I16: return 32767;
    case INFINI_DTYPE_U16: return 65535;
    default: return size_t{1} << 24;
  }
}

// Periods are at most this long: 13 is prime, so 5·r mod 13 differs for 13 ranks in a row.
constexpr size_t kLongestPeriod = 13;

}  // namespace

PerfData::PerfData(PerfCollective collective, infiniDtype_t dtype, int ranks, const PerfShape &shape)
    : collective_(collective), dtype_(dtype), ranks_(ranks), shape_(shape) {
  const bool sums = collective == PerfCollective::kAllReduce || collective == PerfCollective::kReduceScatter ||
                    collective == PerfCollective::kReduceScatterV;
  // Values lie in [1, period]; a sum over n ranks reaches n·period.
  period_ = std::min(kLongestPeriod, LargestExactInteger(dtype) / (sums ? static_cast<size_t>(ranks) : 1));
}

Bytes PerfData::SendBuffer(int rank) const {
  std::vector<int> period(period_);
  for (size_t i = 0; i < period_; ++i) period[i] = Value(i, rank);
  const Bytes encoded = EncodeIntegers(dtype_, period);
  // Doubling copies: each starts at a multiple of the period, so the pattern carries on.
  Bytes buffer(shape_.send_elements * ElementSize(dtype_));
  size_t filled = std::min(encoded.size(), buffer.size());
  std::memcpy(buffer.data(), encoded.data(), filled);
  while (filled < buffer.size()) {
    const size_t chunk = std::min(filled, buffer.size() - filled);
    std::memcpy(buffer.data() + filled, buffer.data(), chunk);
    filled += chunk;
  }
  return buffer;
}

Bytes PerfData::ExpectedReceive(int rank, size_t first, size_t count) const {
  std::vector<int> values(count);
  for (size_t k = 0; k < count; ++k) {
    const size_t j = first + k;
    switch (collective_) {
      case PerfCollective::kAllReduce:
      case PerfCollective::kReduceScatter:
      case PerfCollective::kReduceScatterV: {
        // ReduceScatter(V): rank r receives the sums of its block of the send buffers.
        const size_t element = collective_ == PerfCollective::kAllReduce ? j : shape_.BlockOffset(rank) + j;
        int sum = 0;
        for (int q = 0; q < ranks_; ++q) sum += Value(element, q);
        values[k] = sum;
        break;
      }
      case PerfCollective::kAllGather:
      case PerfCollective::kAllGatherV: {
        const int from = shape_.BlockOf(j);
        values[k] = Value(j - shape_.BlockOffset(from), from);
        break;
      }
      case PerfCollective::kBroadcast: values[k] = Value(j, 0); break;  // root 0
    }
  }
  return EncodeIntegers(dtype_, values);
}

}  // namespace infinicts::ccl_cases
