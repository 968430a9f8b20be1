#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F64;

const double kNan = std::numeric_limits<double>::quiet_NaN();

// A pool [blocks, kv_heads, block_size, dim] of NaN: only the rows a test sets are live.
HostTensor NanPool(size_t blocks, size_t kv_heads, size_t block_size, size_t dim) {
  HostTensor pool(INFINI_DTYPE_F64, Shape{blocks, kv_heads, block_size, dim});
  pool.FillStorage(kNan);
  return pool;
}

void SetRow(HostTensor &pool, size_t block, size_t kv, size_t slot, const std::vector<double> &row) {
  for (size_t d = 0; d < row.size(); ++d) pool.Set({block, kv, slot, d}, row[d]);
}

HostTensor Indices(const Shape &shape, const std::vector<double> &values) {
  return HostTensor::FromValues(INFINI_DTYPE_I64, shape, values);
}

// One key: p = 1 whatever the score, so out is that key's value, read from the block the
// table names (block 2), not from block 0.
TEST(PagedAttentionOracle, OneKeyGivesItsValueThroughTheTable) {
  HostTensor k = NanPool(3, 1, 2, 2), v = NanPool(3, 1, 2, 2);
  SetRow(k, 2, 0, 0, {1, 1});
  SetRow(v, 2, 0, 0, {7, -3});
  const HostTensor q = F64({1, 1, 2}, {0.5, 2});
  ExpectValues(oracle::PagedAttention(q, k, v, Indices({1, 2}, {2, 0}), Indices({1}, {1}), nullptr, 0.3), {1, 1, 2},
               {7, -3});
}

// Scores 0 and ln 3 give p = (1/4, 3/4); values (4, 0) and (0, 8) give (1, 6). Key 0 lies in
// block 1 and key 1 in block 0 (block_size 1), and the scale is used as given: with scale
// 0.5 the key must be twice as long for the same score.
TEST(PagedAttentionOracle, SoftmaxOfScaledScoresWeightsTheValues) {
  for (double scale : {1.0, 0.5}) {
    HostTensor k = NanPool(3, 1, 1, 2), v = NanPool(3, 1, 1, 2);
    SetRow(k, 1, 0, 0, {0, 0});
    SetRow(k, 0, 0, 0, {std::log(3.0) / scale, 0});
    SetRow(v, 1, 0, 0, {4, 0});
    SetRow(v, 0, 0, 0, {0, 8});
    const HostTensor q = F64({1, 1, 2}, {1, 5});
    ExpectValues(oracle::PagedAttention(q, k, v, Indices({1, 3}, {1, 0, 2}), Indices({1}, {2}), nullptr, scale),
                 {1, 1, 2}, {1, 6});
  }
}

// With q = 0 the scores are the ALiBi bias alone, slope·(j − (L − 1)) = (−ln 3, 0): p = (1/4, 3/4).
TEST(PagedAttentionOracle, AlibiBiasFavoursTheLatestKeys) {
  HostTensor k = NanPool(1, 1, 2, 1), v = NanPool(1, 1, 2, 1);
  SetRow(k, 0, 0, 0, {1});
  SetRow(k, 0, 0, 1, {2});
  SetRow(v, 0, 0, 0, {4});
  SetRow(v, 0, 0, 1, {8});
  const HostTensor q = F64({1, 1, 1}, {0});
  const HostTensor slopes = HostTensor::FromValues(INFINI_DTYPE_F32, {1}, {std::log(3.0)});
  const double three_quarters = 0.25 * 4 + 0.75 * 8;
  ExpectValues(oracle::PagedAttention(q, k, v, Indices({1, 1}, {0}), Indices({1}, {2}), &slopes, 1.0), {1, 1, 1},
               {three_quarters}, 1e-6);  // the slope is stored in F32
}

// Four heads over two kv heads: heads 0 and 1 read kv head 0 (values 1), heads 2 and 3 kv
// head 1 (values 5), whatever the scores (h / 2, not h mod 2).
TEST(PagedAttentionOracle, GroupedHeadsShareTheirKvHead) {
  HostTensor k = NanPool(1, 2, 2, 1), v = NanPool(1, 2, 2, 1);
  for (size_t slot = 0; slot < 2; ++slot) {
    SetRow(k, 0, 0, slot, {static_cast<double>(slot)});
    SetRow(k, 0, 1, slot, {-static_cast<double>(slot)});
    SetRow(v, 0, 0, slot, {1});
    SetRow(v, 0, 1, slot, {5});
  }
  const HostTensor q = F64({1, 4, 1}, {1, 2, 3, 4});
  ExpectValues(oracle::PagedAttention(q, k, v, Indices({1, 1}, {0}), Indices({1}, {2}), nullptr, 1.0), {1, 4, 1},
               {1, 1, 5, 5});
}

// A sequence of 3 keys whose last 2 positions are the queries: with q = 0 each query averages
// the keys up to its own position: query 0 (position 1) keys 0..1, query 1 keys 0..2.
TEST(PagedAttentionPrefillOracle, QueriesAreTheLastPositionsAndAttendCausally) {
  HostTensor k = NanPool(2, 1, 2, 1), v = NanPool(2, 1, 2, 1);
  const double values[] = {3, 6, 9};
  const size_t block_of[] = {1, 1, 0};  // keys 0 and 1 in block 1, key 2 in block 0
  for (size_t j = 0; j < 3; ++j) {
    SetRow(k, block_of[j], 0, j % 2, {1});
    SetRow(v, block_of[j], 0, j % 2, {values[j]});
  }
  const HostTensor q = F64({2, 1, 1}, {0, 0});
  ExpectValues(oracle::PagedAttentionPrefill(q, k, v, Indices({1, 2}, {1, 0}), Indices({1}, {3}),
                                             Indices({2}, {0, 2}), nullptr, 1.0),
               {2, 1, 1}, {4.5, 6});
}

// Two sequences packed: rows 0..1 are sequence 0's (2 queries over 2 keys), row 2 sequence 1's
// (1 query over 3 keys); with q = 0 every row averages its visible keys. The ALiBi bias is
// relative to each query's own position: query 0 of sequence 0 (position 0) sees only key 0.
TEST(PagedAttentionPrefillOracle, PackedSequencesFollowCumSeqLensQ) {
  HostTensor k = NanPool(4, 1, 2, 1), v = NanPool(4, 1, 2, 1);
  // Sequence 0: keys 0, 1 in block 3 (values 2, 4). Sequence 1: keys 0, 1 in block 0, key 2 in block 2 (values 1, 2, 6).
  SetRow(v, 3, 0, 0, {2});
  SetRow(v, 3, 0, 1, {4});
  SetRow(v, 0, 0, 0, {1});
  SetRow(v, 0, 0, 1, {2});
  SetRow(v, 2, 0, 0, {6});
  const size_t live[5][2] = {{3, 0}, {3, 1}, {0, 0}, {0, 1}, {2, 0}};  // (block, slot)
  for (const auto &row : live) SetRow(k, row[0], 0, row[1], {1});
  const HostTensor q = F64({3, 1, 1}, {0, 0, 0});
  const HostTensor tables = Indices({2, 2}, {3, 1, 0, 2});  // sequence 0's unused entry: block 1, all NaN
  ExpectValues(oracle::PagedAttentionPrefill(q, k, v, tables, Indices({2}, {2, 3}), Indices({3}, {0, 2, 3}), nullptr,
                                             1.0),
               {3, 1, 1}, {2, 3, 3});
  // Slope ln 3: row 1 (position 1 of 2 keys) weights keys 0, 1 by 1/4, 3/4; row 0 still sees key 0 alone.
  const HostTensor slopes = HostTensor::FromValues(INFINI_DTYPE_F32, {1}, {std::log(3.0)});
  const HostTensor out =
      oracle::PagedAttentionPrefill(q, k, v, tables, Indices({2}, {2, 3}), Indices({3}, {0, 2, 3}), &slopes, 1.0);
  EXPECT_NEAR(out.GetAt(0), 2, 1e-12);
  EXPECT_NEAR(out.GetAt(1), 0.25 * 2 + 0.75 * 4, 1e-6);
}

// Decode is the prefill of one query per sequence, at each sequence's last position.
TEST(PagedAttentionOracle, DecodeIsPrefillWithOneQueryEach) {
  HostTensor k = NanPool(3, 1, 2, 2), v = NanPool(3, 1, 2, 2);
  const double keys[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 2}}, values[4][2] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
  const size_t blocks[4] = {2, 2, 0, 1};  // sequence 0: keys 0..2 in blocks 2, 0; sequence 1: key 0 in block 1
  const size_t slots[4] = {0, 1, 0, 0};
  for (size_t r = 0; r < 4; ++r) {
    SetRow(k, blocks[r], 0, slots[r], {keys[r][0], keys[r][1]});
    SetRow(v, blocks[r], 0, slots[r], {values[r][0], values[r][1]});
  }
  const HostTensor q = F64({2, 1, 2}, {0.5, -1, 2, 3});
  const HostTensor tables = Indices({2, 2}, {2, 0, 1, 1}), lengths = Indices({2}, {3, 1});
  const HostTensor decode = oracle::PagedAttention(q, k, v, tables, lengths, nullptr, 0.7);
  const HostTensor prefill = oracle::PagedAttentionPrefill(q, k, v, tables, lengths, Indices({3}, {0, 1, 2}), nullptr, 0.7);
  ExpectValues(decode, {2, 1, 2}, prefill.ToDoubles());
  // Sequence 1 has one key: its value.
  EXPECT_DOUBLE_EQ(decode.GetAt(2), 7);
  EXPECT_DOUBLE_EQ(decode.GetAt(3), 8);
}

TEST(PagedAttentionOracle, RejectsWhatDoesNotFit) {
  const HostTensor k = NanPool(2, 1, 2, 1), v = NanPool(2, 1, 2, 1), q = F64({1, 1, 1}, {1});
  // More keys than the table's blocks hold, a used entry outside the pool, no keys.
  EXPECT_THROW(oracle::PagedAttention(q, k, v, Indices({1, 1}, {0}), Indices({1}, {3}), nullptr, 1),
               std::invalid_argument);
  EXPECT_THROW(oracle::PagedAttention(q, k, v, Indices({1, 1}, {2}), Indices({1}, {1}), nullptr, 1),
               std::invalid_argument);
  EXPECT_THROW(oracle::PagedAttention(q, k, v, Indices({1, 1}, {0}), Indices({1}, {0}), nullptr, 1),
               std::invalid_argument);
  // 3 heads over 2 kv heads; value pool of another block size.
  EXPECT_THROW(oracle::PagedAttention(F64({1, 3, 1}, {1, 1, 1}), NanPool(2, 2, 2, 1), NanPool(2, 2, 2, 1),
                                      Indices({1, 1}, {0}), Indices({1}, {1}), nullptr, 1),
               std::invalid_argument);
  EXPECT_THROW(oracle::PagedAttention(q, k, NanPool(2, 1, 1, 1), Indices({1, 1}, {0}), Indices({1}, {1}), nullptr, 1),
               std::invalid_argument);
  // Prefill: more queries than keys; cum_seq_lens_q not ending at total_q.
  EXPECT_THROW(oracle::PagedAttentionPrefill(F64({2, 1, 1}, {1, 1}), k, v, Indices({1, 1}, {0}), Indices({1}, {1}),
                                             Indices({2}, {0, 2}), nullptr, 1),
               std::invalid_argument);
  EXPECT_THROW(oracle::PagedAttentionPrefill(F64({2, 1, 1}, {1, 1}), k, v, Indices({1, 1}, {0}), Indices({1}, {2}),
                                             Indices({2}, {0, 1}), nullptr, 1),
               std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
