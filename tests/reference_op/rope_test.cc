// RoPE: the two pairings, tables indexed by position, per-batch positions.
#include "op_test_support.h"

namespace infiniop_test {
namespace {

class RoPETest : public OpTest {
 protected:
  // Table row 0 is the identity rotation; row 1 turns pair 0 by 90 degrees and leaves
  // pair 1 alone; row 2 holds values no rotation has, so a wrong row shows.
  void UploadTables(Tensor &sin_table, Tensor &cos_table) {
    sin_table.Upload({0, 0, 1, 0, 7, 7});
    cos_table.Upload({1, 1, 0, 1, 7, 7});
  }

  std::vector<double> Run(Tensor &y, Tensor &x, Tensor &pos, Tensor &sin_table, Tensor &cos_table,
                          infiniopRoPEAlgo_t algo) {
    infiniopRoPEDescriptor_t desc = nullptr;
    EXPECT_OK(infiniopCreateRoPEDescriptor(handle_, &desc, y.desc(), x.desc(), pos.desc(), sin_table.desc(),
                                           cos_table.desc(), algo));
    EXPECT_OK(infiniopRoPE(desc, nullptr, 0, y.data(), x.data(), pos.data(), sin_table.data(), cos_table.data(),
                           stream_));
    Sync();
    EXPECT_OK(infiniopDestroyRoPEDescriptor(desc));
    return y.Download();
  }
};

TEST_F(RoPETest, GptJPairsNeighboursAndGptNeoxPairsHalves) {
  Tensor x({1, 1, 4}, INFINI_DTYPE_F32), y({1, 1, 4}, INFINI_DTYPE_F32), pos({1}, INFINI_DTYPE_I32);
  Tensor sin_table({3, 2}, INFINI_DTYPE_F32), cos_table({3, 2}, INFINI_DTYPE_F32);
  x.Upload({1, 2, 3, 4});
  pos.Upload({1});
  UploadTables(sin_table, cos_table);
  // GPT_J: pair (0, 1) turns: (1, 2) -> (-2, 1); pair (2, 3) stays.
  ExpectNear(Run(y, x, pos, sin_table, cos_table, INFINIOP_ROPE_ALGO_GPT_J), {-2, 1, 3, 4}, 0);
  // GPT_NEOX: pair (0, 2) turns: (1, 3) -> (-3, 1); pair (1, 3) stays.
  ExpectNear(Run(y, x, pos, sin_table, cos_table, INFINIOP_ROPE_ALGO_GPT_NEOX), {-3, 2, 1, 4}, 0);
}

TEST_F(RoPETest, PerBatchPositionsOfAnIntegerDtype) {
  Tensor x({2, 1, 1, 4}, INFINI_DTYPE_F16), y({2, 1, 1, 4}, INFINI_DTYPE_F16), pos({2, 1}, INFINI_DTYPE_U64);
  Tensor sin_table({3, 2}, INFINI_DTYPE_F16), cos_table({3, 2}, INFINI_DTYPE_F16);
  x.Upload({1, 2, 3, 4, 1, 2, 3, 4});
  pos.Upload({0, 1});
  UploadTables(sin_table, cos_table);
  ExpectNear(Run(y, x, pos, sin_table, cos_table, INFINIOP_ROPE_ALGO_GPT_J), {1, 2, 3, 4, -2, 1, 3, 4}, 0);
}

}  // namespace
}  // namespace infiniop_test
