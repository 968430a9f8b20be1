// The layouts the accuracy cases draw from, by name, and the names shapes take in case ids.
#pragma once

#include <string>
#include <vector>

#include "common/problem_grammar.h"
#include "tensor/layout.h"

namespace infinicts::op_cases {

enum class LayoutKind {
  kContiguous,        // row-major
  kTransposed,        // the last two dims column-major
  kPadded,            // row-major with 3 unused elements after each row (1-D: every other element)
  kTransposedPadded,  // column-major last two dims with a padded leading dimension
  kBroadcastFirst,    // stride 0 in dim 0: every index of dim 0 reads the same elements
  kBroadcastLast,     // stride 0 in the last dim
  kOffset,            // row-major, 5 elements into its storage (so misaligned for vector loads)
  kView,              // padded and 7 elements in: a slice of a larger tensor
  kFlipped,           // dim 0 walked backwards (a negative stride)
  kBroadcastAll,      // every stride 0: one element read for every index
  kUnitOddStrides,    // row-major, but each dim of size 1 carries a stride no row-major layout
                      // gives it (0, 1, or past the whole tensor, in turn): what reshapes and
                      // unsqueezes leave behind; the elements sit exactly where row-major puts them
  kOuterSwapped,      // 3-D and more: dims 0 and 1 exchanged in memory, as a head-major KV cache
                      // [heads, tokens, dim] holds a [tokens, heads, dim] write
};

const char *LayoutName(LayoutKind kind);

// In problem lines: LayoutName, and the long names ("padded", "contiguous", "transposed") read too.
template <>
struct EnumNames<LayoutKind> {
  static std::vector<std::pair<LayoutKind, std::string>> All();
};

// Whether the kind means something for the shape (a transposed 1-D tensor does not, a
// broadcast of a dim of size 1 changes nothing).
bool LayoutApplies(LayoutKind kind, const Shape &shape);

// Throws std::invalid_argument where the kind does not apply.
Layout MakeLayout(LayoutKind kind, const Shape &shape);

// "7x31", "1", "scalar" (0-D).
std::string ShapeName(const Shape &shape);

// A number as a case id writes it: 1.5 -> "1_5", -0.75 -> "m0_75", 1e-05 -> "1em05".
std::string NumberName(double value);

// A name for a list of layout kinds, e.g. "a_trans_b_contig".
std::string LayoutsName(const std::vector<std::pair<std::string, LayoutKind>> &named);

}  // namespace infinicts::op_cases
