#include <gtest/gtest.h>

#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;

HostTensor Integers(infiniDtype_t dtype, const std::vector<double> &values) {
  return HostTensor::FromValues(dtype, {values.size()}, values);
}

// Caches [batch 2, heads 1, max_seq 3, dim 2] holding 0..11: sequence 0 has 2 past entries,
// sequence 1 none, so sequence 0's new entry lands at its last position, sequence 1's at its first.
TEST(KVCachingOracle, AppendsAtEachSequencesOwnLength) {
  const HostTensor cache = F32({2, 1, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  const HostTensor entries = F32({2, 1, 1, 2}, {100, 101, 200, 201});
  for (infiniDtype_t length_dtype : {INFINI_DTYPE_I32, INFINI_DTYPE_I64}) {
    ExpectValues(oracle::KVCaching(cache, entries, Integers(length_dtype, {2, 0})), {2, 1, 3, 2},
                 {0, 1, 2, 3, 100, 101, 200, 201, 8, 9, 10, 11});
  }
}

// Two new entries per head after one past entry: positions 1 and 2 of each head, the others kept.
TEST(KVCachingOracle, WritesAChunkOfEveryHead) {
  const HostTensor cache = F32({1, 2, 4, 1}, {0, 1, 2, 3, 4, 5, 6, 7});
  const HostTensor entries = F32({1, 2, 2, 1}, {10, 11, 20, 21});
  ExpectValues(oracle::KVCaching(cache, entries, Integers(INFINI_DTYPE_I64, {1})), {1, 2, 4, 1},
               {0, 10, 11, 3, 4, 20, 21, 7});
  // The entries read through a column-major view give the same values.
  const HostTensor strided = entries.WithLayout(TransposedLayout({1, 2, 2, 1}));
  ExpectValues(oracle::KVCaching(cache, strided, Integers(INFINI_DTYPE_I64, {1})), {1, 2, 4, 1},
               {0, 10, 11, 3, 4, 20, 21, 7});
}

TEST(KVCachingOracle, RejectsLengthsThatDoNotFit) {
  const HostTensor cache = F32({1, 1, 3, 1}, {0, 1, 2});
  const HostTensor entries = F32({1, 1, 2, 1}, {5, 6});
  EXPECT_THROW(oracle::KVCaching(cache, entries, Integers(INFINI_DTYPE_I64, {2})), std::invalid_argument);
  EXPECT_THROW(oracle::KVCaching(cache, entries, Integers(INFINI_DTYPE_I64, {-1})), std::invalid_argument);
  EXPECT_THROW(oracle::KVCaching(cache, entries, Integers(INFINI_DTYPE_I64, {0, 0})), std::invalid_argument);
  EXPECT_THROW(oracle::KVCaching(cache, F32({1, 1, 2, 2}, {1, 2, 3, 4}), Integers(INFINI_DTYPE_I64, {0})),
               std::invalid_argument);
}

// A pool of 3 blocks × 2 heads × 2 slots × dim 1 holding 0..11 ([block][head][offset]): slot 5
// is block 2's offset 1 (elements 9 and 11 for heads 0 and 1), slot 0 block 0's offset 0
// (elements 0 and 2); the padding token (-1) writes nothing.
TEST(PagedCachingOracle, ScattersTokensToTheirSlotsHeadsBeforeSlots) {
  const HostTensor pool = F32({3, 2, 2, 1}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  const HostTensor entries = F32({3, 2, 1}, {100, 101, 200, 201, 300, 301});
  ExpectValues(oracle::PagedCaching(pool, entries, Integers(INFINI_DTYPE_I64, {5, -1, 0})), {3, 2, 2, 1},
               {300, 1, 301, 3, 4, 5, 6, 7, 8, 100, 10, 101});
}

// block_size + 1 tokens of one sequence in blocks 1 then 0: slots 2, 3 (block 1) and 0 (block 0).
TEST(PagedCachingOracle, FollowsTheSequenceAcrossBlocks) {
  const HostTensor pool = F32({2, 1, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  const HostTensor entries = F32({3, 1, 2}, {10, 11, 20, 21, 30, 31});
  ExpectValues(oracle::PagedCaching(pool, entries, Integers(INFINI_DTYPE_I64, {2, 3, 0})), {2, 1, 2, 2},
               {30, 31, 2, 3, 10, 11, 20, 21});
}

TEST(PagedCachingOracle, RejectsSlotsOutsideThePoolAndSharedSlots) {
  const HostTensor pool = F32({2, 1, 2, 1}, {0, 1, 2, 3});
  const HostTensor entries = F32({2, 1, 1}, {10, 20});
  EXPECT_THROW(oracle::PagedCaching(pool, entries, Integers(INFINI_DTYPE_I64, {4, 0})), std::invalid_argument);
  EXPECT_THROW(oracle::PagedCaching(pool, entries, Integers(INFINI_DTYPE_I64, {1, 1})), std::invalid_argument);
  EXPECT_THROW(oracle::PagedCaching(pool, entries, Integers(INFINI_DTYPE_I64, {1})), std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
