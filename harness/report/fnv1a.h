// FNV-1a, 64 bits: a digest that is the same on every build and machine, for seeds, case-id
// sets and the bits ranks in other processes received.
#pragma once

#include <cstddef>
#include <cstdint>

namespace infinicts::report {

class Fnv1a {
 public:
  static constexpr uint64_t kOffsetBasis = 0xcbf29ce484222325ULL;
  explicit Fnv1a(uint64_t basis = kOffsetBasis) : hash_(basis) {}

  void Add(const void *bytes, size_t size) {
    const auto *byte = static_cast<const unsigned char *>(bytes);
    for (size_t i = 0; i < size; ++i) {
      hash_ ^= byte[i];
      hash_ *= 0x100000001b3ULL;
    }
  }
  void Add(unsigned char byte) { Add(&byte, 1); }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_;
};

}  // namespace infinicts::report
