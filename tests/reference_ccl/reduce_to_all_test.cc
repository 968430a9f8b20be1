// The one-pass AllReduce kernels (ccl/reduce_to_all.h) against the block reduction
// (ccl/reduce.h) they stand in for: bit-identical results (signed zeros, infinities and
// subnormals included; a NaN where the other has a NaN, whatever its payload: the compiler
// may swap an addition's operands, and x86 keeps the first operand's payload), for every length around the vector widths,
// misaligned destinations, streaming or not, in place, in both instruction-set forms.
#include "ccl/reduce.h"
#include "ccl/reduce_to_all.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace ccl_test {
namespace {

using infinicts::ref::ccl::FindReduceFunction;
using infinicts::ref::ccl::FindReduceToAllFunction;

float FromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

uint32_t Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// The same bits, or NaN for NaN.
testing::AssertionResult SameResult(float got, float expected) {
  if (Bits(got) == Bits(expected) || (std::isnan(got) && std::isnan(expected))) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "got bits 0x" << std::hex << Bits(got) << ", expected 0x" << Bits(expected);
}

// Mostly ordinary numbers, one in four from the values the max/min and NaN rules are about.
std::vector<float> Values(size_t count, unsigned seed) {
  static const float kSpecial[] = {FromBits(0x7fc00001u), FromBits(0xffc00002u), FromBits(0x7f800000u),
                                   FromBits(0xff800000u), 0.0f, -0.0f, FromBits(0x00000003u), 3e38f, -3e38f};
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> ordinary(-4.0f, 4.0f);
  std::vector<float> values(count);
  for (float &value : values) {
    value = random() % 4 == 0 ? kSpecial[random() % (sizeof kSpecial / sizeof kSpecial[0])] : ordinary(random);
  }
  return values;
}

using Case = std::tuple<infinicclReduceOp_t, bool>;  // op, AVX-512 allowed

class ReduceToAllTest : public testing::TestWithParam<Case> {};

TEST_P(ReduceToAllTest, MatchesTheBlockReductionBitForBit) {
  const auto [op, allow_avx512] = GetParam();
  const auto one_pass = FindReduceToAllFunction(INFINI_DTYPE_F32, op, allow_avx512);
  const auto block = FindReduceFunction(INFINI_DTYPE_F32, op);
  ASSERT_NE(one_pass, nullptr);
  ASSERT_NE(block, nullptr);
  for (int nsources : {1, 2, 4, 5}) {
    for (size_t count : {0, 1, 3, 4, 5, 15, 16, 17, 33, 100, 1027}) {
      for (size_t misalign : {0, 1}) {  // destinations one element past a 64-byte boundary
        for (bool streaming : {false, true}) {
          SCOPED_TRACE("sources " + std::to_string(nsources) + ", count " + std::to_string(count) + ", misaligned " +
                       std::to_string(misalign) + ", streaming " + std::to_string(streaming));
          std::vector<std::vector<float>> inputs;
          std::vector<const void *> sources;
          for (int s = 0; s < nsources; ++s) inputs.push_back(Values(count, static_cast<unsigned>(count * 10 + s)));
          for (const auto &input : inputs) sources.push_back(input.data());
          std::vector<float> expected(count);
          block(sources.data(), nsources, expected.data(), count, nsources);
          // Three destinations inside 64-byte-aligned storage.
          const size_t pitch = (count + misalign + 16) / 16 * 16;
          std::vector<float> storage(3 * pitch + 16, 7.0f);
          float *base = storage.data();
          while (reinterpret_cast<uintptr_t>(base) % 64 != 0) ++base;
          std::vector<void *> dsts;
          for (int d = 0; d < 3; ++d) dsts.push_back(base + d * pitch + misalign);
          one_pass(sources.data(), nsources, dsts.data(), 3, count, streaming);
          for (int d = 0; d < 3; ++d) {
            const float *got = static_cast<const float *>(dsts[static_cast<size_t>(d)]);
            for (size_t i = 0; i < count; ++i) {
              ASSERT_TRUE(SameResult(got[i], expected[i])) << "destination " << d << ", element " << i;
            }
            EXPECT_EQ(Bits(got[count]), Bits(7.0f)) << "destination " << d << " written past its end";
          }
        }
      }
    }
  }
}

TEST_P(ReduceToAllTest, InPlaceReadsEveryElementBeforeStoringIt) {
  const auto [op, allow_avx512] = GetParam();
  const auto one_pass = FindReduceToAllFunction(INFINI_DTYPE_F32, op, allow_avx512);
  const auto block = FindReduceFunction(INFINI_DTYPE_F32, op);
  const size_t count = 1000;
  std::vector<std::vector<float>> inputs;
  for (unsigned s = 0; s < 4; ++s) inputs.push_back(Values(count, 100 + s));
  std::vector<const void *> sources;
  std::vector<void *> dsts;
  for (auto &input : inputs) {
    sources.push_back(input.data());
    dsts.push_back(input.data());  // every rank in place
  }
  std::vector<float> expected(count);
  block(sources.data(), 4, expected.data(), count, 4);
  one_pass(sources.data(), 4, dsts.data(), 4, count, true);
  for (const auto &input : inputs) {
    for (size_t i = 0; i < count; ++i) ASSERT_TRUE(SameResult(input[i], expected[i])) << "element " << i;
  }
}

std::string CaseName(const testing::TestParamInfo<Case> &info) {
  static const char *const kOps[] = {"Sum", "Prod", "Max", "Min"};
  return std::string(kOps[std::get<0>(info.param)]) + (std::get<1>(info.param) ? "Best" : "Sse");
}

INSTANTIATE_TEST_SUITE_P(F32, ReduceToAllTest,
                         testing::Combine(testing::Values(INFINICCL_SUM, INFINICCL_PROD, INFINICCL_MAX, INFINICCL_MIN),
                                          testing::Bool()),
                         CaseName);

TEST(ReduceToAllChoice, OnlyF32AndNotAverage) {
  EXPECT_EQ(FindReduceToAllFunction(INFINI_DTYPE_F32, INFINICCL_AVG), nullptr);
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F64, INFINI_DTYPE_I32}) {
    EXPECT_EQ(FindReduceToAllFunction(dtype, INFINICCL_SUM), nullptr) << dtype;
  }
}

}  // namespace
}  // namespace ccl_test
