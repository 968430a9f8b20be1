// Unit tests of the CPU runtime's allocation map and configuration parsing.
#include <gtest/gtest.h>

#include "cpu/allocation_map.h"
#include "cpu/config.h"

namespace infinicts::ref::cpu {
namespace {

const void *At(uintptr_t address) { return reinterpret_cast<const void *>(address); }

TEST(AllocationMapTest, FindsContainingAllocationsAndOverlaps) {
  AllocationMap map;
  map.Insert(Allocation{1000, 100, 256, 0});
  map.Insert(Allocation{2000, 50, 256, 1});
  EXPECT_FALSE(map.Containing(At(999)).has_value());
  ASSERT_TRUE(map.Containing(At(1000)).has_value());
  EXPECT_EQ(map.Containing(At(1099))->base, 1000u);
  EXPECT_FALSE(map.Containing(At(1100)).has_value()) << "the reserved tail is not usable";
  EXPECT_EQ(map.Containing(At(2049))->device, 1);

  EXPECT_FALSE(map.Overlaps(At(1100), 900));
  EXPECT_TRUE(map.Overlaps(At(1100), 901));
  EXPECT_TRUE(map.Overlaps(At(900), 101));
  EXPECT_FALSE(map.Overlaps(At(900), 100));
  EXPECT_TRUE(map.Overlaps(At(1050), 1));
  EXPECT_TRUE(map.Overlaps(At(0), SIZE_MAX)) << "a range past the address space";

  EXPECT_FALSE(map.TakeStartingAt(At(1001)).has_value());
  ASSERT_TRUE(map.TakeStartingAt(At(1000)).has_value());
  EXPECT_FALSE(map.TakeStartingAt(At(1000)).has_value());
  EXPECT_FALSE(map.Containing(At(1050)).has_value());
}

TEST(ConfigTest, ParsesByteCounts) {
  size_t bytes = 0;
  ASSERT_TRUE(ParseByteCount("4096", &bytes));
  EXPECT_EQ(bytes, 4096u);
  ASSERT_TRUE(ParseByteCount("512M", &bytes));
  EXPECT_EQ(bytes, size_t{512} << 20);
  ASSERT_TRUE(ParseByteCount("2g", &bytes));
  EXPECT_EQ(bytes, size_t{2} << 30);
  for (const char *bad : {"", "0", "-1", "12Q", "1G2", "G", "99999999999999999999T"}) {
    EXPECT_FALSE(ParseByteCount(bad, &bytes)) << bad;
  }
}

}  // namespace
}  // namespace infinicts::ref::cpu
