// How a KV cache [outer, kv_heads, positions, head_dim] lies in memory: KVCaching's caches
// (outer = batch, positions = max_seq_len) and PagedCaching's pools (outer = num_blocks,
// positions = block_size).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/layouts.h"
#include "common/problem_grammar.h"

namespace infinicts::op_cases {

enum class CacheLayout {
  kContiguous,
  kPositionMajor,  // memory [outer, positions, kv_heads, head_dim] (vLLM's flash layout), viewed head-first
  kSpareRows,      // spare positions after each (outer, head)'s rows: a write one late lands in a gap
  kPadded,         // each head_dim row padded (common/layouts.h kPadded)
  kView,           // padded and offset (kView)
};

inline const char *CacheLayoutName(CacheLayout kind) {
  switch (kind) {
    case CacheLayout::kContiguous: return "contig";
    case CacheLayout::kPositionMajor: return "position_major";
    case CacheLayout::kSpareRows: return "spare_rows";
    case CacheLayout::kPadded: return "pad";
    case CacheLayout::kView: return "view";
  }
  return "layout";
}

// The names CacheLayoutName gives, for problem lines.
template <>
struct EnumNames<CacheLayout> {
  static std::vector<std::pair<CacheLayout, std::string>> All() {
    return {{CacheLayout::kContiguous, "contig"},
            {CacheLayout::kPositionMajor, "position_major"},
            {CacheLayout::kSpareRows, "spare_rows"},
            {CacheLayout::kPadded, "pad"},
            {CacheLayout::kView, "view"}};
  }
};

// `spare`: the unused positions after each (outer, head)'s rows of kSpareRows.
inline Layout MakeCacheLayout(CacheLayout kind, const Shape &shape, size_t spare) {
  const ptrdiff_t heads = static_cast<ptrdiff_t>(shape[1]), positions = static_cast<ptrdiff_t>(shape[2]),
                  dim = static_cast<ptrdiff_t>(shape[3]);
  switch (kind) {
    case CacheLayout::kContiguous: return ContiguousLayout(shape);
    case CacheLayout::kPositionMajor: return Layout{shape, {positions * heads * dim, dim, heads * dim, 1}, 0};
    case CacheLayout::kSpareRows: {
      const ptrdiff_t room = positions + static_cast<ptrdiff_t>(spare);
      return Layout{shape, {heads * room * dim, room * dim, dim, 1}, 0};
    }
    case CacheLayout::kPadded: return MakeLayout(LayoutKind::kPadded, shape);
    case CacheLayout::kView: return MakeLayout(LayoutKind::kView, shape);
  }
  throw std::invalid_argument("unknown cache layout");
}

}  // namespace infinicts::op_cases
