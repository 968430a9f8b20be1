// Position-dependent bytes for the perf copies. Byte p of a pattern is a function of
// (seed, p) alone, so any window of a copy's destination can be checked without keeping
// the source around, and a copy of the wrong bytes or to the wrong offset shows up.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace infinicts::rt_cases {

// Writes bytes [offset, offset + count) of the pattern of `seed` to dst[0, count).
void FillPattern(uint8_t *dst, size_t offset, size_t count, uint64_t seed);

// `actual[0, count)` holds bytes [offset, offset + count) of the pattern of `seed`.
testing::AssertionResult MatchesPattern(const uint8_t *actual, size_t offset, size_t count, uint64_t seed);

// Where a copy of `bytes` is checked: `window` bytes at its start, middle and end, as
// one window when they would overlap.
struct ByteWindow {
  size_t offset;
  size_t count;
};
std::vector<ByteWindow> CheckedWindows(size_t bytes, size_t window);

}  // namespace infinicts::rt_cases
