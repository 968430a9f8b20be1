// Seeded random test data and byte-exact checks for the runtime cases.
// Every input comes from the running case's own engine (seeded from its name),
// so a failure reproduces with the same bytes.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace infinicts::rt_cases {

// The running case's random engine, seeded from cts::CaseSeed().
std::mt19937_64 CaseRng();

std::vector<uint8_t> RandomBytes(std::mt19937_64 &rng, size_t count);

// A value in [low, high], both included.
size_t RandomIn(std::mt19937_64 &rng, size_t low, size_t high);

// An odd value in [low, high] (high >= low + 1 or low odd).
size_t RandomOddIn(std::mt19937_64 &rng, size_t low, size_t high);

// The bitwise complement: a destination pre-filled with it differs from the expected
// content at every byte, so any byte a copy misses shows up.
std::vector<uint8_t> Complement(const std::vector<uint8_t> &bytes);

// Compares every byte; on a mismatch says how many differ and where the first and last are.
testing::AssertionResult SameBytes(const void *expected, const void *actual, size_t count);

// Every byte of `actual` equals `value`.
testing::AssertionResult AllBytesAre(const void *actual, size_t count, uint8_t value);

// The size used where a case needs "much more work than call overhead" (64 MiB).
inline constexpr size_t kLargeBytes = size_t{64} << 20;

}  // namespace infinicts::rt_cases
