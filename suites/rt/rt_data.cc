#include "rt_data.h"

#include <cstring>
#include <iomanip>
#include <sstream>

#include "cts/case.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace infinicts::rt_cases {
namespace {

#if defined(__GLIBC__)
// The large cases make and drop host buffers of 64 MiB again and again. By default glibc
// maps each with mmap and unmaps it at free, so every case page-faults fresh memory (slow
// on virtual machines); served from the heap and kept after free, the pages are reused.
const bool kKeepLargeHostBuffers [[maybe_unused]] = [] {
  mallopt(M_MMAP_THRESHOLD, 512 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  return true;
}();
#endif

std::string Hex(uint8_t byte) {
  std::ostringstream out;
  out << "0x" << std::hex << std::setw(2) << std::setfill('0') << static_cast<int>(byte);
  return out.str();
}

}  // namespace

std::mt19937_64 CaseRng() { return std::mt19937_64(cts::CaseSeed()); }

std::vector<uint8_t> RandomBytes(std::mt19937_64 &rng, size_t count) {
  std::vector<uint8_t> bytes(count);
  size_t offset = 0;
  // Eight bytes per draw: 64 MiB buffers stay cheap to make.
  for (; offset + sizeof(uint64_t) <= count; offset += sizeof(uint64_t)) {
    const uint64_t word = rng();
    std::memcpy(bytes.data() + offset, &word, sizeof(word));
  }
  if (offset < count) {
    const uint64_t word = rng();
    std::memcpy(bytes.data() + offset, &word, count - offset);
  }
  return bytes;
}

size_t RandomIn(std::mt19937_64 &rng, size_t low, size_t high) {
  return std::uniform_int_distribution<size_t>(low, high)(rng);
}

size_t RandomOddIn(std::mt19937_64 &rng, size_t low, size_t high) {
  size_t value = RandomIn(rng, low, high);
  if (value % 2 == 0) value = value + 1 <= high ? value + 1 : value - 1;
  return value;
}

std::vector<uint8_t> Complement(const std::vector<uint8_t> &bytes) {
  std::vector<uint8_t> complement(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) complement[i] = static_cast<uint8_t>(~bytes[i]);
  return complement;
}

testing::AssertionResult SameBytes(const void *expected, const void *actual, size_t count) {
  const auto *want = static_cast<const uint8_t *>(expected);
  const auto *got = static_cast<const uint8_t *>(actual);
  if (count == 0 || std::memcmp(want, got, count) == 0) return testing::AssertionSuccess();
  size_t first = count, last = 0, differing = 0;
  for (size_t i = 0; i < count; ++i) {
    if (want[i] == got[i]) continue;
    if (first == count) first = i;
    last = i;
    ++differing;
  }
  return testing::AssertionFailure() << differing << " of " << count << " bytes differ; first at offset " << first
                                     << " (expected " << Hex(want[first]) << ", got " << Hex(got[first])
                                     << "), last at offset " << last << " (expected " << Hex(want[last])
                                     << ", got " << Hex(got[last]) << ")";
}

testing::AssertionResult AllBytesAre(const void *actual, size_t count, uint8_t value) {
  const auto *got = static_cast<const uint8_t *>(actual);
  size_t first = count, last = 0, differing = 0;
  for (size_t i = 0; i < count; ++i) {
    if (got[i] == value) continue;
    if (first == count) first = i;
    last = i;
    ++differing;
  }
  if (differing == 0) return testing::AssertionSuccess();
  return testing::AssertionFailure() << differing << " of " << count << " bytes are not " << Hex(value)
                                     << "; first at offset " << first << " (" << Hex(got[first])
                                     << "), last at offset " << last << " (" << Hex(got[last]) << ")";
}

}  // namespace infinicts::rt_cases
