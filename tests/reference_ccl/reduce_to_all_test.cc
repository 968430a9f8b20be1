// The one-pass AllReduce kernels (ccl/reduce_to_all.h) against the block reduction
// (ccl/reduce.h) they stand in for: bit-identical results (signed zeros, infinities and
// subnormals included; a NaN where the other has a NaN, whatever its payload: the compiler
// may swap an addition's operands, and x86 keeps the first operand's payload), for every
// length around the vector widths, misaligned destinations, streaming or not, in place,
// F32 in both instruction-set forms, F16 and BF16 in the AVX-512 one.
#include "ccl/reduce.h"
#include "ccl/reduce_to_all.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "ccl/half_float.h"

namespace ccl_test {
namespace {

using infinicts::ref::ccl::BitsOfFloat;
using infinicts::ref::ccl::FindReduceFunction;
using infinicts::ref::ccl::FindReduceToAllFunction;
using infinicts::ref::ccl::FloatToBfloat16;
using infinicts::ref::ccl::FloatToHalf;

size_t SizeOf(infiniDtype_t dtype) { return dtype == INFINI_DTYPE_F32 ? 4 : 2; }

uint32_t ElementBits(infiniDtype_t dtype, const std::vector<uint8_t> &bytes, size_t i) {
  uint32_t bits = 0;
  std::memcpy(&bits, bytes.data() + i * SizeOf(dtype), SizeOf(dtype));
  return bits;
}

bool IsNan(infiniDtype_t dtype, uint32_t bits) {
  switch (dtype) {
    case INFINI_DTYPE_F16:
      return (bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu) != 0;
    case INFINI_DTYPE_BF16:
      return (bits & 0x7f80u) == 0x7f80u && (bits & 0x7fu) != 0;
    default:
      return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu) != 0;
  }
}

// Mostly ordinary numbers, one in four from the values the max/min, rounding and NaN rules
// are about (NaNs, infinities, signed zeros, subnormals, the largest finite values).
std::vector<uint8_t> Values(infiniDtype_t dtype, size_t count, unsigned seed) {
  static const uint32_t kF32[] = {0x7fc00001u, 0xffc00002u, 0x7f800000u, 0xff800000u, 0u,
                                  0x80000000u, 0x00000003u, 0x7f7fffffu, 0xff7fffffu};
  static const uint32_t kF16[] = {0x7e01u, 0xfe02u, 0x7c01u, 0x7c00u, 0xfc00u, 0u, 0x8000u, 0x0003u, 0x7bffu, 0xfbffu};
  static const uint32_t kBf16[] = {0x7fc1u, 0xffc2u, 0x7f81u, 0x7f80u, 0xff80u, 0u, 0x8000u, 0x0003u, 0x7f7fu, 0xff7fu};
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> ordinary(-4.0f, 4.0f);
  std::vector<uint8_t> bytes(count * SizeOf(dtype));
  for (size_t i = 0; i < count; ++i) {
    const bool special = random() % 4 == 0;
    const float number = ordinary(random);
    uint32_t bits = 0;
    switch (dtype) {
      case INFINI_DTYPE_F16:
        bits = special ? kF16[random() % (sizeof kF16 / sizeof kF16[0])] : FloatToHalf(number);
        break;
      case INFINI_DTYPE_BF16:
        bits = special ? kBf16[random() % (sizeof kBf16 / sizeof kBf16[0])] : FloatToBfloat16(number);
        break;
      default:
        bits = special ? kF32[random() % (sizeof kF32 / sizeof kF32[0])] : BitsOfFloat(number);
    }
    std::memcpy(bytes.data() + i * SizeOf(dtype), &bits, SizeOf(dtype));
  }
  return bytes;
}

using Case = std::tuple<infiniDtype_t, infinicclReduceOp_t, bool>;  // dtype, op, AVX-512 allowed

class ReduceToAllTest : public testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    std::tie(dtype_, op_, allow_avx512_) = GetParam();
    one_pass_ = FindReduceToAllFunction(dtype_, op_, allow_avx512_);
    block_ = FindReduceFunction(dtype_, op_);
    ASSERT_NE(block_, nullptr);
    if (one_pass_ == nullptr) {
      // Only F16 and BF16 may lack a kernel, on a CPU without AVX-512.
      ASSERT_NE(dtype_, INFINI_DTYPE_F32);
      GTEST_SKIP() << "no one-pass kernel for this dtype on this CPU";
    }
  }

  // The same bits, or NaN for NaN, at every element.
  void ExpectSame(const std::vector<uint8_t> &expected, const void *got, size_t count, const std::string &where) {
    std::vector<uint8_t> got_bytes(count * SizeOf(dtype_));
    std::memcpy(got_bytes.data(), got, got_bytes.size());
    for (size_t i = 0; i < count; ++i) {
      const uint32_t want = ElementBits(dtype_, expected, i), have = ElementBits(dtype_, got_bytes, i);
      const bool same = want == have || (IsNan(dtype_, want) && IsNan(dtype_, have));
      ASSERT_TRUE(same) << where << ", element " << i << ": got bits 0x" << std::hex << have << ", expected 0x" << want;
    }
  }

  infiniDtype_t dtype_ = INFINI_DTYPE_F32;
  infinicclReduceOp_t op_ = INFINICCL_SUM;
  bool allow_avx512_ = false;
  infinicts::ref::ccl::ReduceToAllFunction one_pass_ = nullptr;
  infinicts::ref::ccl::ReduceFunction block_ = nullptr;
};

TEST_P(ReduceToAllTest, MatchesTheBlockReductionBitForBit) {
  const size_t size = SizeOf(dtype_);
  for (int nsources : {1, 2, 4, 5}) {
    for (size_t count : {0, 1, 3, 4, 5, 15, 16, 17, 33, 100, 1027}) {
      for (size_t misalign : {0, 1}) {  // destinations one element past a 64-byte boundary
        for (bool streaming : {false, true}) {
          const std::string where = "sources " + std::to_string(nsources) + ", count " + std::to_string(count) +
                                    ", misaligned " + std::to_string(misalign) + ", streaming " +
                                    std::to_string(streaming);
          std::vector<std::vector<uint8_t>> inputs;
          std::vector<const void *> sources;
          for (int s = 0; s < nsources; ++s) inputs.push_back(Values(dtype_, count, static_cast<unsigned>(count * 10 + s)));
          for (const auto &input : inputs) sources.push_back(input.data());
          std::vector<uint8_t> expected(count * size);
          block_(sources.data(), nsources, expected.data(), count, nsources);
          // Three destinations in 64-byte-aligned storage, each followed by a guard element.
          const size_t pitch = (count + misalign + 64) / 64 * 64 * size;
          std::vector<uint8_t> storage(3 * pitch + 64, 0x5a);
          uint8_t *base = storage.data();
          while (reinterpret_cast<uintptr_t>(base) % 64 != 0) ++base;
          std::vector<void *> dsts;
          for (size_t d = 0; d < 3; ++d) dsts.push_back(base + d * pitch + misalign * size);
          one_pass_(sources.data(), nsources, dsts.data(), 3, count, streaming);
          for (size_t d = 0; d < 3; ++d) {
            ExpectSame(expected, dsts[d], count, where + ", destination " + std::to_string(d));
            const uint8_t *guard = static_cast<const uint8_t *>(dsts[d]) + count * size;
            for (size_t b = 0; b < size; ++b) ASSERT_EQ(guard[b], 0x5a) << where << ": written past the end";
          }
        }
      }
    }
  }
}

TEST_P(ReduceToAllTest, InPlaceReadsEveryElementBeforeStoringIt) {
  const size_t count = 1000;
  std::vector<std::vector<uint8_t>> inputs;
  for (unsigned s = 0; s < 4; ++s) inputs.push_back(Values(dtype_, count, 100 + s));
  std::vector<const void *> sources;
  std::vector<void *> dsts;
  for (auto &input : inputs) {
    sources.push_back(input.data());
    dsts.push_back(input.data());  // every rank in place
  }
  std::vector<uint8_t> expected(count * SizeOf(dtype_));
  block_(sources.data(), 4, expected.data(), count, 4);
  one_pass_(sources.data(), 4, dsts.data(), 4, count, true);
  for (size_t q = 0; q < inputs.size(); ++q) ExpectSame(expected, inputs[q].data(), count, "rank " + std::to_string(q));
}

std::string CaseName(const testing::TestParamInfo<Case> &info) {
  static const char *const kOps[] = {"Sum", "Prod", "Max", "Min"};
  const infiniDtype_t dtype = std::get<0>(info.param);
  const std::string type = dtype == INFINI_DTYPE_F32 ? "F32" : dtype == INFINI_DTYPE_F16 ? "F16" : "Bf16";
  return type + kOps[std::get<1>(info.param)] + (std::get<2>(info.param) ? "Best" : "Sse");
}

const auto kOps = testing::Values(INFINICCL_SUM, INFINICCL_PROD, INFINICCL_MAX, INFINICCL_MIN);

INSTANTIATE_TEST_SUITE_P(F32, ReduceToAllTest, testing::Combine(testing::Values(INFINI_DTYPE_F32), kOps, testing::Bool()),
                         CaseName);
INSTANTIATE_TEST_SUITE_P(Half, ReduceToAllTest,
                         testing::Combine(testing::Values(INFINI_DTYPE_F16, INFINI_DTYPE_BF16), kOps,
                                          testing::Values(true)),
                         CaseName);

TEST(ReduceToAllChoice, NoKernelForAverageOtherDtypesOrHalvesWithoutAvx512) {
  for (infiniDtype_t dtype : {INFINI_DTYPE_F32, INFINI_DTYPE_F16, INFINI_DTYPE_BF16}) {
    EXPECT_EQ(FindReduceToAllFunction(dtype, INFINICCL_AVG), nullptr) << dtype;
  }
  for (infiniDtype_t dtype : {INFINI_DTYPE_F64, INFINI_DTYPE_I32, INFINI_DTYPE_U8}) {
    EXPECT_EQ(FindReduceToAllFunction(dtype, INFINICCL_SUM), nullptr) << dtype;
  }
  EXPECT_EQ(FindReduceToAllFunction(INFINI_DTYPE_F16, INFINICCL_SUM, false), nullptr);
  EXPECT_EQ(FindReduceToAllFunction(INFINI_DTYPE_BF16, INFINICCL_SUM, false), nullptr);
  EXPECT_NE(FindReduceToAllFunction(INFINI_DTYPE_F32, INFINICCL_SUM, false), nullptr);
}

}  // namespace
}  // namespace ccl_test
