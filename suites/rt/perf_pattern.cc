#include "perf_pattern.h"

#include "rt_data.h"

namespace infinicts::rt_cases {
namespace {

// splitmix64's finalizer: consecutive words come out unrelated.
uint64_t PatternWord(uint64_t seed, uint64_t word_index) {
  uint64_t z = seed + (word_index + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

void FillPattern(uint8_t *dst, size_t offset, size_t count, uint64_t seed) {
  constexpr size_t kWord = sizeof(uint64_t);
  size_t done = 0;
  // Whole words from the first word boundary on; the partial words at both ends byte by byte.
  while (done < count && (offset + done) % kWord != 0) {
    const size_t position = offset + done;
    dst[done++] = static_cast<uint8_t>(PatternWord(seed, position / kWord) >> (8 * (position % kWord)));
  }
  for (; done + kWord <= count; done += kWord) {
    const uint64_t word = PatternWord(seed, (offset + done) / kWord);
    for (size_t k = 0; k < kWord; ++k) dst[done + k] = static_cast<uint8_t>(word >> (8 * k));
  }
  for (; done < count; ++done) {
    const size_t position = offset + done;
    dst[done] = static_cast<uint8_t>(PatternWord(seed, position / kWord) >> (8 * (position % kWord)));
  }
}

testing::AssertionResult MatchesPattern(const uint8_t *actual, size_t offset, size_t count, uint64_t seed) {
  std::vector<uint8_t> expected(count);
  FillPattern(expected.data(), offset, count, seed);
  return SameBytes(expected.data(), actual, count);
}

std::vector<ByteWindow> CheckedWindows(size_t bytes, size_t window) {
  if (bytes <= 3 * window) return {{0, bytes}};
  return {{0, window}, {bytes / 2 - window / 2, window}, {bytes - window, window}};
}

}  // namespace infinicts::rt_cases
