// Row (and vocabulary) lengths at and around the block sizes real kernels reduce a row in:
// a warp of 32 lanes, a block of 1024 threads, several blocks with a tail of one element
// (4097), and beyond 65,536 (past a 16-bit index and past what one block keeps in shared
// memory, where kernels switch to a multi-pass path). A kernel whose tail handling, block
// count or path switch is wrong gets one of them wrong while the round LLM widths pass.
#pragma once

#include <cstddef>

namespace infinicts::op_cases {

inline constexpr size_t kBlockStraddlingLengths[] = {31, 32, 33, 1023, 1024, 1025, 4097, 70001};

// Beyond this a row takes a kernel's multi-pass path.
inline constexpr size_t kLongestBlockRow = 65536;

// How many rows of one length a problem takes: a few, so one row's luck (a tail element
// of little weight) does not decide the case; two of the longest, which cost the most.
inline size_t RowsOfLength(size_t length) { return length > kLongestBlockRow ? 2 : 4; }

}  // namespace infinicts::op_cases
