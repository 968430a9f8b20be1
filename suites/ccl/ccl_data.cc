#include "ccl_data.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ccl_dtype.h"
#include "cts/case.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace infinicts::ccl_cases {
namespace {

#if defined(__GLIBC__)
// Large cases make and drop host buffers of tens of MiB per rank; kept on the heap after
// free, their pages are reused instead of page-faulted afresh for every case.
const bool kKeepLargeHostBuffers [[maybe_unused]] = [] {
  mallopt(M_MMAP_THRESHOLD, 512 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  return true;
}();
#endif

// A value in [low, high], both included (the whole 64-bit range allowed).
uint64_t UnsignedIn(std::mt19937_64 &rng, uint64_t low, uint64_t high) {
  const uint64_t span = high - low + 1;
  return span == 0 ? rng() : low + rng() % span;
}

int64_t SignedIn(std::mt19937_64 &rng, int64_t low, int64_t high) {
  const uint64_t offset = UnsignedIn(rng, 0, static_cast<uint64_t>(high) - static_cast<uint64_t>(low));
  return static_cast<int64_t>(static_cast<uint64_t>(low) + offset);
}

template <class Format>
void Store(Bytes &bytes, size_t index, typename Format::Value value) {
  const typename Format::Bits bits = Format::Encode(value);
  std::memcpy(bytes.data() + index * sizeof bits, &bits, sizeof bits);
}

// Bits of the largest power of two within an integer format's range (I8: 6, U8: 7).
template <class Format>
int PowerOfTwoBits() {
  int bits = 0;
  while (bits + 1 < 64 && (uint64_t{1} << (bits + 1)) <= static_cast<uint64_t>(Format::kMax)) ++bits;
  return bits;
}

// One rank's addend for SUM and AVG: n of them never leave the exact range in any order.
template <class Format>
typename Format::Value Addend(std::mt19937_64 &rng, int ranks) {
  if constexpr (Format::kind == NumberKind::kSigned) {
    const int64_t bound = Format::kMax / ranks;
    return SignedIn(rng, -bound, bound);
  } else if constexpr (Format::kind == NumberKind::kUnsigned) {
    return UnsignedIn(rng, 0, Format::kMax / static_cast<uint64_t>(ranks));
  } else {
    // Quarters: integers k with n·|k| <= 2^precision, scaled by 1/4.
    const int64_t bound = static_cast<int64_t>((uint64_t{1} << std::min(Format::precision, 62)) / ranks);
    return static_cast<double>(SignedIn(rng, -bound, bound)) * 0.25;
  }
}

// The magnitudes a rank may contribute to a PROD: 2^a·3^c whose n-th power stays within
// the range (integers) or whose product over n ranks stays within mantissa and exponent
// range (floats). 1 is left out of unsigned formats whenever anything else fits.
template <class Format>
std::vector<typename Format::Value> ProductFactors(int ranks) {
  std::vector<typename Format::Value> factors;
  if constexpr (Format::kind == NumberKind::kFloat) {
    const bool threes = ranks * std::log2(3.0) < Format::precision;
    const double budget = std::min({Format::max_exponent - 2, -Format::min_exponent - 1, 60});
    const int span = static_cast<int>(std::floor((budget - (threes ? ranks * std::log2(3.0) : 0.0)) / ranks));
    for (int a = -span; a <= span; ++a) {
      for (int c = 0; c <= (threes ? 1 : 0); ++c) factors.push_back(std::ldexp(c ? 3.0 : 1.0, a));
    }
  } else {
    const double budget = PowerOfTwoBits<Format>();
    for (int a = 0; a < 64; ++a) {
      for (int c = 0; c < 41; ++c) {
        const double log_factor = a + c * std::log2(3.0);
        if (log_factor * ranks > budget + 1e-9) break;
        uint64_t factor = uint64_t{1} << a;
        for (int i = 0; i < c; ++i) factor *= 3;
        factors.push_back(static_cast<typename Format::Value>(factor));
      }
    }
    if (Format::kind == NumberKind::kUnsigned && factors.size() > 1) {
      factors.erase(std::remove(factors.begin(), factors.end(), typename Format::Value{1}), factors.end());
    }
  }
  return factors;
}

template <class Format>
typename Format::Value Factor(std::mt19937_64 &rng, const std::vector<typename Format::Value> &factors) {
  const typename Format::Value magnitude = factors[UnsignedIn(rng, 0, factors.size() - 1)];
  if constexpr (Format::kind == NumberKind::kUnsigned) {
    return magnitude;
  } else {
    // A factor of magnitude 1 is always -1: a contribution of +1 could go unnoticed.
    const bool negative = magnitude == 1 || (rng() & 1) != 0;
    return negative ? -magnitude : magnitude;
  }
}

// A value for MAX and MIN, drawn from a wide part of the format's range.
template <class Format>
typename Format::Value Extreme(std::mt19937_64 &rng) {
  if constexpr (Format::kind == NumberKind::kSigned) {
    return SignedIn(rng, Format::kMin, Format::kMax);
  } else if constexpr (Format::kind == NumberKind::kUnsigned) {
    return UnsignedIn(rng, 0, Format::kMax);
  } else {
    const uint64_t mantissa = UnsignedIn(rng, 1, (uint64_t{1} << Format::precision) - 1);
    const int low = Format::precision == 11 ? -8 : -20;  // F16: keep 2047·2^e within its range
    const int high = Format::precision == 11 ? 4 : 20;
    const double magnitude = std::ldexp(static_cast<double>(mantissa), static_cast<int>(SignedIn(rng, low, high)));
    return (rng() & 1) != 0 ? -magnitude : magnitude;
  }
}

template <class Format>
ReductionData MakeTyped(infinicclReduceOp_t op, int ranks, size_t count, std::mt19937_64 &rng) {
  using Value = typename Format::Value;
  constexpr size_t kSize = sizeof(typename Format::Bits);
  ReductionData data;
  data.inputs.assign(ranks, Bytes(count * kSize));
  data.expected.resize(count * kSize);
  const std::vector<Value> factors = op == INFINICCL_PROD ? ProductFactors<Format>(ranks) : std::vector<Value>{};
  std::vector<Value> values(ranks);
  for (size_t i = 0; i < count; ++i) {
    for (int r = 0; r < ranks; ++r) {
      switch (op) {
        case INFINICCL_PROD: values[r] = Factor<Format>(rng, factors); break;
        case INFINICCL_MAX:
        case INFINICCL_MIN:
          // Distinct at every element: the winner is one rank's value, whatever the order.
          do {
            values[r] = Extreme<Format>(rng);
          } while (std::find(values.begin(), values.begin() + r, values[r]) != values.begin() + r);
          break;
        default: values[r] = Addend<Format>(rng, ranks); break;
      }
      Store<Format>(data.inputs[r], i, values[r]);
    }
    Value result = values[0];
    for (int r = 1; r < ranks; ++r) {
      switch (op) {
        case INFINICCL_PROD: result *= values[r]; break;
        case INFINICCL_MAX: result = std::max(result, values[r]); break;
        case INFINICCL_MIN: result = std::min(result, values[r]); break;
        default: result += values[r]; break;
      }
    }
    // Integer AVG truncates toward zero (C division); floating AVG rounds once to the dtype.
    if (op == INFINICCL_AVG) result /= static_cast<Value>(ranks);
    Store<Format>(data.expected, i, result);
  }
  return data;
}

}  // namespace

std::mt19937_64 CaseRng(uint64_t stream) { return std::mt19937_64(cts::CaseSeed() ^ (stream * 0x9E3779B97F4A7C15ull)); }

ReductionData MakeReductionData(infiniDtype_t dtype, infinicclReduceOp_t op, int ranks, size_t count,
                                std::mt19937_64 &rng) {
  return VisitNumberDtype(dtype, [&](auto format) { return MakeTyped<decltype(format)>(op, ranks, count, rng); });
}

Bytes RandomBytes(size_t count, std::mt19937_64 &rng) {
  Bytes bytes(count);
  size_t offset = 0;
  for (; offset + 8 <= count; offset += 8) {
    const uint64_t word = rng();
    std::memcpy(bytes.data() + offset, &word, 8);
  }
  if (offset < count) {
    const uint64_t word = rng();
    std::memcpy(bytes.data() + offset, &word, count - offset);
  }
  return bytes;
}

Bytes Complement(const uint8_t *bytes, size_t count) {
  Bytes inverted(count);
  for (size_t i = 0; i < count; ++i) inverted[i] = static_cast<uint8_t>(~bytes[i]);
  return inverted;
}

bool ComparedWithinUlps(infiniDtype_t dtype, infinicclReduceOp_t op) {
  return op == INFINICCL_AVG && IsFloatingDtype(dtype);
}

Bytes EncodeIntegers(infiniDtype_t dtype, const std::vector<int> &values) {
  return VisitNumberDtype(dtype, [&values](auto format) {
    using Format = decltype(format);
    Bytes bytes(values.size() * sizeof(typename Format::Bits));
    for (size_t i = 0; i < values.size(); ++i) Store<Format>(bytes, i, static_cast<typename Format::Value>(values[i]));
    return bytes;
  });
}

}  // namespace infinicts::ccl_cases
