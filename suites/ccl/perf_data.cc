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

PerfData::PerfData(PerfCollective collective, infiniDtype_t dtype, infinicclReduceOp_t op, int ranks,
                   const PerfShape &shape)
    : collective_(collective), dtype_(dtype), op_(op), ranks_(ranks), shape_(shape) {
  reduces_ = collective == PerfCollective::kAllReduce || collective == PerfCollective::kReduceScatter ||
             collective == PerfCollective::kReduceScatterV;
  const size_t largest = LargestExactInteger(dtype);
  if (reduces_ && op == INFINICCL_PROD) {
    // Values 1 and 2: a product over n ranks reaches 2^n.
    period_ = ranks < 63 && (size_t{1} << ranks) <= largest ? 2 : 0;
  } else if (reduces_ && (op == INFINICCL_SUM || op == INFINICCL_AVG)) {
    // Values lie in [1, period]; a sum over n ranks reaches n·period.
    period_ = std::min(kLongestPeriod, largest / static_cast<size_t>(ranks));
  } else {
    period_ = std::min(kLongestPeriod, largest);
  }
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
        long long result = Value(element, 0);
        for (int q = 1; q < ranks_; ++q) {
          const int value = Value(element, q);
          switch (op_) {
            case INFINICCL_PROD: result *= value; break;
            case INFINICCL_MAX: result = std::max<long long>(result, value); break;
            case INFINICCL_MIN: result = std::min<long long>(result, value); break;
            default: result += value; break;  // SUM, and AVG's sum
          }
        }
        if (op_ == INFINICCL_AVG) result /= ranks_;  // every rank holds the same value
        values[k] = static_cast<int>(result);
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
