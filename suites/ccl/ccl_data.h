// Seeded test data for the collectives. Reductions get data whose exact answer is
// representable and independent of the reduction order (as nccl-tests chooses it):
//   SUM, AVG  integers (floats: quarters) small enough that every partial sum over the
//             ranks fits the dtype's range or mantissa;
//   PROD      factors ±2^a·3^c whose product over the ranks stays in range and within the
//             mantissa; no factor is +1, so every rank's contribution shows in the result;
//   MAX, MIN  values that differ between the ranks at every element.
// Data-moving collectives get random bytes (they must copy bit for bit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "infiniccl.h"

namespace infinicts::ccl_cases {

using Bytes = std::vector<uint8_t>;

// The running case's random engine (seeded from cts::CaseSeed()), offset by `stream`
// so one case can draw several independent sequences.
std::mt19937_64 CaseRng(uint64_t stream = 0);

struct ReductionData {
  std::vector<Bytes> inputs;  // one per rank: `count` encoded elements
  // op over the ranks at every element, encoded; for AVG on a floating dtype the
  // correctly rounded average (the spec allows 1 ULP around it).
  Bytes expected;
};

ReductionData MakeReductionData(infiniDtype_t dtype, infinicclReduceOp_t op, int ranks, size_t count,
                                std::mt19937_64 &rng);

Bytes RandomBytes(size_t count, std::mt19937_64 &rng);

// Every byte inverted: a buffer pre-filled with it differs from `bytes` everywhere.
Bytes Complement(const uint8_t *bytes, size_t count);
inline Bytes Complement(const Bytes &bytes) { return Complement(bytes.data(), bytes.size()); }

// Whether results of (dtype, op) are compared within an ULP allowance instead of bit for bit.
bool ComparedWithinUlps(infiniDtype_t dtype, infinicclReduceOp_t op);

// Small integers (exact in every number dtype) encoded as elements of `dtype`.
Bytes EncodeIntegers(infiniDtype_t dtype, const std::vector<int> &values);

}  // namespace infinicts::ccl_cases
