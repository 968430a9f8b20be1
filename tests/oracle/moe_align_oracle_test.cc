#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "oracle/oracles.h"

namespace infinicts {
namespace {

HostTensor Ids(const Shape &shape, const std::vector<int> &values) {
  HostTensor tensor(INFINI_DTYPE_I32, shape);
  for (size_t i = 0; i < values.size(); ++i) tensor.SetAt(i, values[i]);
  return tensor;
}

std::vector<int64_t> Values(const HostTensor &tensor) {
  std::vector<int64_t> values;
  for (size_t i = 0; i < tensor.numel(); ++i) values.push_back(static_cast<int64_t>(tensor.GetAt(i)));
  return values;
}

// topk_ids [3, 2]: slots 0 … 5 to experts 2 0 / 2 1 / 0 2.
HostTensor ThreeTokens() { return Ids({3, 2}, {2, 0, 2, 1, 0, 2}); }

TEST(MoeAlignOracle, GroupsSlotsByExpertPaddedToBlocks) {
  const oracle::MoeAlignResult r = oracle::MoeAlign(ThreeTokens(), {}, 4, 2, 12, 6);
  // Expert 0: slots 1 4; expert 1: slot 3 and a pad; expert 2: slots 0 2 5 and a pad; expert 3: none.
  EXPECT_EQ(Values(r.sorted_token_ids), (std::vector<int64_t>{1, 4, 3, 6, 0, 2, 5, 6, 6, 6, 6, 6}));
  EXPECT_EQ(Values(r.expert_ids), (std::vector<int64_t>{0, 1, 2, 2, -1, -1}));
  EXPECT_EQ(Values(r.num_tokens_post_padded), (std::vector<int64_t>{8}));
  EXPECT_EQ(r.group_starts, (std::vector<size_t>{0, 2, 4, 8, 8}));
  EXPECT_EQ(r.group_counts, (std::vector<size_t>{2, 1, 3, 0}));
}

TEST(MoeAlignOracle, AFullBlockTakesNoPadding) {
  const oracle::MoeAlignResult r = oracle::MoeAlign(Ids({2, 2}, {1, 0, 0, 1}), {}, 2, 2, 6, 3);
  EXPECT_EQ(Values(r.sorted_token_ids), (std::vector<int64_t>{1, 2, 0, 3, 4, 4}));
  EXPECT_EQ(Values(r.num_tokens_post_padded), (std::vector<int64_t>{4}));
}

TEST(MoeAlignOracle, TheExpertMapRenamesAndLeavesOut) {
  // Global experts 0 … 3; this rank holds 2 (as local 0) and 0 (as local 1).
  const oracle::MoeAlignResult r = oracle::MoeAlign(ThreeTokens(), {1, -1, 0, -1}, 2, 4, 12, 3);
  EXPECT_EQ(Values(r.sorted_token_ids), (std::vector<int64_t>{0, 2, 5, 6, 1, 4, 6, 6, 6, 6, 6, 6}));
  EXPECT_EQ(Values(r.expert_ids), (std::vector<int64_t>{0, 1, -1}));
  EXPECT_EQ(Values(r.num_tokens_post_padded), (std::vector<int64_t>{8}));
}

TEST(MoeAlignOracle, RejectsIdsItCannotPlace) {
  EXPECT_THROW(oracle::MoeAlign(ThreeTokens(), {}, 2, 2, 12, 6), std::invalid_argument);  // expert 2 of 2
  EXPECT_THROW(oracle::MoeAlign(ThreeTokens(), {}, 4, 2, 6, 6), std::invalid_argument);   // 8 slots needed
}

TEST(PrepareMoeInputOracle, SizesOffsetsAndPermutations) {
  const oracle::PrepareMoeInputResult r = oracle::PrepareMoeInput(ThreeTokens(), 3, 5, 7);
  EXPECT_EQ(Values(r.problem_sizes1), (std::vector<int64_t>{2, 10, 7, 1, 10, 7, 3, 10, 7}));
  EXPECT_EQ(Values(r.problem_sizes2), (std::vector<int64_t>{2, 7, 5, 1, 7, 5, 3, 7, 5}));
  EXPECT_EQ(Values(r.expert_offsets), (std::vector<int64_t>{0, 2, 3, 6}));
  EXPECT_EQ(Values(r.blockscale_offsets), (std::vector<int64_t>{0, 128, 256, 384}));
  // Expert 0 gets slots 1 and 4 (tokens 0 and 2), expert 1 slot 3 (token 1), expert 2 slots 0 2 5.
  EXPECT_EQ(Values(r.input_permutation), (std::vector<int64_t>{0, 2, 1, 0, 1, 2}));
  EXPECT_EQ(Values(r.output_permutation), (std::vector<int64_t>{3, 0, 4, 2, 1, 5}));
}

TEST(PrepareMoeInputOracle, IdsOutsideTheExpertsGoNowhere) {
  const oracle::PrepareMoeInputResult r = oracle::PrepareMoeInput(Ids({2, 2}, {0, 5, -1, 0}), 2, 1, 1);
  EXPECT_EQ(Values(r.expert_offsets), (std::vector<int64_t>{0, 2, 2}));
  EXPECT_EQ(Values(r.input_permutation), (std::vector<int64_t>{0, 1, -1, -1}));
  EXPECT_EQ(Values(r.output_permutation), (std::vector<int64_t>{0, -1, -1, 1}));
  EXPECT_EQ(Values(r.blockscale_offsets), (std::vector<int64_t>{0, 128, 128}));
}

}  // namespace
}  // namespace infinicts
