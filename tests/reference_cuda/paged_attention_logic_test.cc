// PagedAttention's CUDA kernel logic (reference_impl/op/cuda/paged_attention.h), run on the
// CPU through the functions the kernel calls: which sequence owns each packed query row and
// what the row gets (computed, NaN, untouched), where each key and value row lies in the
// pools, the index dtypes, and the online softmax the warps keep and merge. The kernel's
// schedule (warp w takes keys w, w + warps, ...) is replayed here and compared with the
// definition in double.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "cuda/paged_attention.h"

namespace reference_cuda_test {
namespace {

namespace op = infinicts::ref::op::cuda;

// A prefill problem with strided everything: k pools slot-major [block, slot, head, dim],
// v pools head-major with padded rows, q and out with padded heads and rows, block tables
// I32 with a column stride of 2.
struct PrefillProblem {
  static constexpr int64_t kSeqs = 5, kRows = 8, kHeads = 4, kKvHeads = 2, kDim = 4;
  static constexpr int64_t kBlocks = 6, kBlockSize = 3, kMaxBlocks = 3, kTableRow = 7;
  op::PagedAttentionGeometry g{};
  std::vector<int32_t> tables = std::vector<int32_t>(kSeqs * kTableRow, -77);
  std::vector<int32_t> lens, cum;
  std::vector<float> alibi = {0.5f, -0.25f, 0.125f, 0.0f};
  std::vector<double> q, k_pool, v_pool;

  PrefillProblem() {
    g.rows = kRows, g.num_seqs = kSeqs, g.heads = kHeads, g.kv_heads = kKvHeads, g.head_size = kDim,
    g.value_size = kDim;
    g.num_blocks = kBlocks, g.block_size = kBlockSize, g.max_blocks = kMaxBlocks;
    g.q_head = 6, g.q_row = kHeads * 6 + 2, g.out_head = kDim, g.out_row = kHeads * kDim;
    g.k_block = kBlockSize * kKvHeads * kDim, g.k_slot = kKvHeads * kDim, g.k_head = kDim;
    g.v_block = kKvHeads * kBlockSize * 5, g.v_head = kBlockSize * 5, g.v_slot = 5;
    g.table_row = kTableRow, g.table_column = 2, g.lens_step = 1, g.cum_step = 1, g.alibi_step = 1;
    g.index = op::PagedIndex::kI32, g.prefill = 1, g.has_alibi = 1, g.scale = 0.7f;
    // s0: 3 queries over 7 keys (rows 0-2); s1: 2 queries over 1 key (rows 3-4, NaN);
    // s2: no query; s3: 1 query over 5 keys (row 5), its unused table entry -1; s4: a block
    // outside the pool (row 6, NaN). Row 7 is in no range.
    SetTable(0, {4, 0, 5});
    SetTable(1, {1});
    SetTable(3, {1, 3, -1});
    SetTable(4, {7});
    lens = {7, 1, 4, 5, 2};
    cum = {0, 3, 5, 5, 6, 7};
    std::mt19937 random(11);
    std::uniform_real_distribution<double> value(-1, 1);
    auto filled = [&](int64_t n) {
      std::vector<double> data(static_cast<size_t>(n));
      for (double &x : data) x = static_cast<float>(value(random));  // F32 values: the kernel loads F32
      return data;
    };
    q = filled(kRows * g.q_row);
    k_pool = filled(kBlocks * g.k_block);
    v_pool = filled(kBlocks * g.v_block);
  }
  void SetTable(int64_t s, std::vector<int32_t> blocks) {
    for (size_t b = 0; b < blocks.size(); ++b) tables[static_cast<size_t>(s * kTableRow + 2 * static_cast<int64_t>(b))] = blocks[b];
  }
  double Q(int64_t r, int64_t h, int64_t c) const { return q[static_cast<size_t>(r * g.q_row + h * g.q_head + c)]; }
};

// What the kernel computes for one computed row: warps over keys, lanes' dot in F32, the
// online softmax per warp, the parts merged, the F32 result.
std::vector<double> KernelRow(const PrefillProblem &p, int64_t r, int64_t h, const op::QueryRow &fate) {
  const op::PagedAttentionGeometry &g = p.g;
  const int64_t kv = op::PagedKvHead(g, h);
  std::vector<std::vector<float>> accumulators(op::kPagedAttentionWarps, std::vector<float>(g.value_size, 0.0f));
  std::vector<op::RunningSoftmax> parts(op::kPagedAttentionWarps, op::EmptySoftmax());
  for (int w = 0; w < op::kPagedAttentionWarps; ++w) {
    for (int64_t j = w; j <= fate.position; j += op::kPagedAttentionWarps) {
      const int64_t block = op::BlockOfKey(g, p.tables.data(), fate.seq, j);
      const int64_t key = op::KeyRowOffset(g, block, kv, j), value = op::ValueRowOffset(g, block, kv, j);
      float dot = 0.0f;
      for (int64_t c = 0; c < g.head_size; ++c) {
        dot += static_cast<float>(p.Q(r, h, c)) * static_cast<float>(p.k_pool[static_cast<size_t>(key + c)]);
      }
      float score = dot * g.scale;
      if (g.has_alibi) score += p.alibi[static_cast<size_t>(h)] * static_cast<float>(j - fate.position);
      float rescale = 0, weight = 0;
      op::Absorb(&parts[static_cast<size_t>(w)], score, &rescale, &weight);
      for (int64_t e = 0; e < g.value_size; ++e) {
        float &a = accumulators[static_cast<size_t>(w)][static_cast<size_t>(e)];
        a = a * rescale + weight * static_cast<float>(p.v_pool[static_cast<size_t>(value + e)]);
      }
    }
  }
  float overall = -INFINITY;
  for (const op::RunningSoftmax &part : parts) overall = std::max(overall, part.max);
  double total = 0;
  std::vector<float> factors;
  for (const op::RunningSoftmax &part : parts) {
    factors.push_back(op::MergeFactor(part, overall));
    total += part.sum * factors.back();
  }
  std::vector<double> row(static_cast<size_t>(g.value_size));
  for (int64_t e = 0; e < g.value_size; ++e) {
    float merged = 0;
    for (size_t w = 0; w < parts.size(); ++w) merged += accumulators[w][static_cast<size_t>(e)] * factors[w];
    row[static_cast<size_t>(e)] = merged * static_cast<float>(1.0 / total);
  }
  return row;
}

// The definition (docs/spec/op.md, OP-PAGEDATTENTIONPREFILL): query i of sequence s's n
// sits at P = L − n + i and attends its keys 0..P through the block table, with ALiBi
// slope_h·(j − P), in double.
std::vector<double> DefinitionRow(const PrefillProblem &p, int64_t s, int64_t i, int64_t h) {
  const int64_t length = p.lens[static_cast<size_t>(s)];
  const int64_t n = p.cum[static_cast<size_t>(s + 1)] - p.cum[static_cast<size_t>(s)];
  const int64_t position = length - n + i, r = p.cum[static_cast<size_t>(s)] + i, kv = h / 2;
  std::vector<double> weights;
  for (int64_t j = 0; j <= position; ++j) {
    const int64_t block = p.tables[static_cast<size_t>(s * PrefillProblem::kTableRow + 2 * (j / 3))];
    double dot = 0;
    for (int64_t c = 0; c < PrefillProblem::kDim; ++c) {
      // k pool [block, slot, head, dim] contiguous.
      dot += p.Q(r, h, c) * p.k_pool[static_cast<size_t>(((block * 3 + j % 3) * 2 + kv) * 4 + c)];
    }
    weights.push_back(0.7 * dot + p.alibi[static_cast<size_t>(h)] * static_cast<double>(j - position));
  }
  const double max = *std::max_element(weights.begin(), weights.end());
  double total = 0;
  for (double &w : weights) total += w = std::exp(w - max);
  std::vector<double> row(4, 0.0);
  for (int64_t j = 0; j <= position; ++j) {
    const int64_t block = p.tables[static_cast<size_t>(s * PrefillProblem::kTableRow + 2 * (j / 3))];
    for (int64_t e = 0; e < 4; ++e) {
      // v pool [block, head, slot, 5] padded.
      row[static_cast<size_t>(e)] += weights[static_cast<size_t>(j)] / total *
                                     p.v_pool[static_cast<size_t>(((block * 2 + kv) * 3 + j % 3) * 5 + e)];
    }
  }
  return row;
}

TEST(PagedAttentionLogic, PrefillRowsGetTheirSequencesAttentionNanOrNothing) {
  const PrefillProblem p;
  // Row r: (sequence, query index) where computed; NaN rows; untouched rows.
  const std::vector<std::pair<int64_t, int64_t>> computed = {{0, 0}, {0, 1}, {0, 2}, {-1, 0}, {-1, 0},
                                                             {3, 0}, {-1, 0}, {-2, 0}};
  for (int64_t r = 0; r < PrefillProblem::kRows; ++r) {
    const op::QueryRow fate = op::PlaceQueryRow(p.g, p.tables.data(), p.lens.data(), p.cum.data(), r);
    const auto [seq, index] = computed[static_cast<size_t>(r)];
    if (seq == -2) {
      EXPECT_EQ(fate.fate, op::RowFate::kUntouched) << "row " << r;
      continue;
    }
    if (seq == -1) {
      EXPECT_EQ(fate.fate, op::RowFate::kNan) << "row " << r;
      continue;
    }
    ASSERT_EQ(fate.fate, op::RowFate::kComputed) << "row " << r;
    ASSERT_EQ(fate.seq, seq) << "row " << r;
    for (int64_t h = 0; h < PrefillProblem::kHeads; ++h) {
      const std::vector<double> got = KernelRow(p, r, h, fate), want = DefinitionRow(p, seq, index, h);
      for (size_t e = 0; e < want.size(); ++e) {
        EXPECT_NEAR(got[e], want[e], 2e-6 * (1 + std::fabs(want[e]))) << "row " << r << " head " << h << " e " << e;
      }
    }
  }
}

TEST(PagedAttentionLogic, OverlappingRangesGoToTheLastSequenceAndRangesOutsideQAreSkipped) {
  // cum with a stride of 2 (the odd entries are never read): s0 [0, 4); s1 [4, 2) backwards,
  // skipped; s2 [2, 3) inside s0's range, so the last writer of row 2; s3 [3, 9) past the
  // 8 rows, skipped; s4 [9, 5) skipped. Rows 4-7 belong to no sequence.
  op::PagedAttentionGeometry g = PrefillProblem().g;
  g.num_seqs = 5, g.rows = 8, g.cum_step = 2;
  const std::vector<int32_t> cum = {0, -9, 4, -9, 2, -9, 3, -9, 9, -9, 5};
  const int64_t want[8] = {0, 0, 2, 0, -1, -1, -1, -1};
  for (int64_t r = 0; r < 8; ++r) EXPECT_EQ(op::OwnerOfRow(g, cum.data(), r), want[r]) << "row " << r;
}

TEST(PagedAttentionLogic, DecodeRowIsItsSequenceAtTheLastPosition) {
  PrefillProblem p;
  p.g.prefill = 0, p.g.rows = p.g.num_seqs = 3, p.g.lens_step = 2, p.g.index = op::PagedIndex::kI64;
  p.g.table_row = 3, p.g.table_column = 1;
  const std::vector<int64_t> tables = {2, 5, 0, 1, 6, 0, 3, 3, 3};  // s1's second block outside the pool
  const std::vector<int64_t> lens = {7, 99, 4, 99, 9};              // s2: 9 = max_blocks · block_size
  const int64_t seq_of[3] = {0, -1, 2}, position_of[3] = {6, -1, 8};
  for (int64_t r = 0; r < 3; ++r) {
    const op::QueryRow fate = op::PlaceQueryRow(p.g, tables.data(), lens.data(), nullptr, r);
    if (seq_of[r] < 0) {
      EXPECT_EQ(fate.fate, op::RowFate::kNan) << "row " << r;
      continue;
    }
    EXPECT_EQ(fate.fate, op::RowFate::kComputed) << "row " << r;
    EXPECT_EQ(fate.seq, seq_of[r]);
    EXPECT_EQ(fate.position, position_of[r]);
  }
  // Lengths 0, negative and one past max_blocks · block_size are NaN.
  for (int64_t length : {int64_t{0}, int64_t{-3}, int64_t{10}}) {
    const std::vector<int64_t> one = {length, 0, length, 0, length};
    EXPECT_EQ(op::PlaceQueryRow(p.g, tables.data(), one.data(), nullptr, 2).fate, op::RowFate::kNan) << length;
  }
}

TEST(PagedAttentionLogic, IndexDtypesWidenAsTheirSign) {
  const int32_t i32[2] = {-1, 7};
  const uint32_t u32[2] = {0xffffffffu, 7};
  const int64_t i64[2] = {int64_t{1} << 40, -2};
  EXPECT_EQ(op::ReadPagedIndex(i32, op::PagedIndex::kI32, 0), -1);
  EXPECT_EQ(op::ReadPagedIndex(u32, op::PagedIndex::kU32, 0), int64_t{0xffffffff});
  EXPECT_EQ(op::ReadPagedIndex(i64, op::PagedIndex::kI64, 0), int64_t{1} << 40);
  EXPECT_EQ(op::ReadPagedIndex(i64, op::PagedIndex::kI64, 1), -2);
}

TEST(PagedAttentionLogic, OnlineSoftmaxMatchesTheMaxSubtractedOneAndKeepsItsEdges) {
  std::mt19937 random(3);
  std::uniform_real_distribution<float> score(-30, 30);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + trial % 17;
    std::vector<float> scores(static_cast<size_t>(n));
    for (float &s : scores) s = score(random);
    // Split over 4 parts as the warps do; each part's weights are kept relative to its max.
    std::vector<op::RunningSoftmax> parts(4, op::EmptySoftmax());
    std::vector<std::vector<double>> weights(4, std::vector<double>(static_cast<size_t>(n), 0.0));
    for (int j = 0; j < n; ++j) {
      float rescale = 0, weight = 0;
      op::RunningSoftmax &part = parts[static_cast<size_t>(j % 4)];
      op::Absorb(&part, scores[static_cast<size_t>(j)], &rescale, &weight);
      for (double &w : weights[static_cast<size_t>(j % 4)]) w *= rescale;
      weights[static_cast<size_t>(j % 4)][static_cast<size_t>(j)] = weight;
    }
    float overall = -INFINITY;
    for (const auto &part : parts) overall = std::max(overall, part.max);
    double total = 0;
    std::vector<double> got(static_cast<size_t>(n), 0.0);
    for (size_t w = 0; w < 4; ++w) {
      const float factor = op::MergeFactor(parts[w], overall);
      total += parts[w].sum * factor;
      for (int j = 0; j < n; ++j) got[static_cast<size_t>(j)] += weights[w][static_cast<size_t>(j)] * factor;
    }
    const double max = *std::max_element(scores.begin(), scores.end());
    double sum = 0;
    for (float s : scores) sum += std::exp(s - max);
    for (int j = 0; j < n; ++j) {
      const double want = std::exp(scores[static_cast<size_t>(j)] - max) / sum;
      ASSERT_NEAR(got[static_cast<size_t>(j)] / total, want, 1e-5 * want + 1e-12) << "trial " << trial << " j " << j;
    }
  }
  // −∞ weighs nothing; a run of −∞ alone has sum 0 (its row becomes NaN); NaN poisons.
  op::RunningSoftmax run = op::EmptySoftmax();
  float rescale = 0, weight = 0;
  op::Absorb(&run, -INFINITY, &rescale, &weight);
  EXPECT_EQ(weight, 0.0f);
  EXPECT_EQ(run.sum, 0.0);
  EXPECT_EQ(op::MergeFactor(run, 1.0f), 0.0f);
  EXPECT_TRUE(std::isnan(op::MergeFactor(run, -INFINITY)));  // every part empty: the row is NaN
  op::Absorb(&run, 2.0f, &rescale, &weight);
  op::Absorb(&run, -INFINITY, &rescale, &weight);
  EXPECT_EQ(run.sum, 1.0);
  EXPECT_EQ(run.max, 2.0f);
  op::Absorb(&run, std::numeric_limits<float>::quiet_NaN(), &rescale, &weight);
  EXPECT_TRUE(std::isnan(run.sum));
}

TEST(PagedAttentionLogic, TheLaunchOptsInWhenStaticAndDynamicSharedMemoryPassTheDefault) {
  // Head and value sizes whose dynamic part alone sits just under 48 KB.
  op::PagedAttentionGeometry g{};
  g.head_size = g.value_size = op::kDefaultSharedBytesPerBlock / sizeof(float) / (1 + op::kPagedAttentionWarps) - 1;
  const size_t dynamic = op::PagedAttentionSharedBytes(g);
  ASSERT_LT(dynamic, op::kDefaultSharedBytesPerBlock);
  // The kernel's own __shared__ state (the row's fate, one softmax per warp) tips it over.
  const size_t static_bytes = sizeof(op::QueryRow) + op::kPagedAttentionWarps * sizeof(op::RunningSoftmax);
  ASSERT_GT(static_bytes + dynamic, op::kDefaultSharedBytesPerBlock);
  EXPECT_TRUE(op::NeedsSharedMemoryOptIn(static_bytes, dynamic));
  EXPECT_FALSE(op::NeedsSharedMemoryOptIn(0, dynamic));
  EXPECT_FALSE(op::NeedsSharedMemoryOptIn(op::kDefaultSharedBytesPerBlock - dynamic, dynamic));
  EXPECT_TRUE(op::NeedsSharedMemoryOptIn(op::kDefaultSharedBytesPerBlock - dynamic + 1, dynamic));
}

}  // namespace
}  // namespace reference_cuda_test
