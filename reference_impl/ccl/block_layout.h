// Where each rank's block lies in the buffers of a variable-size collective (AllGatherV,
// ReduceScatterV): block r holds counts[r] elements and starts at the sum of the counts
// before it. The counts are copied: the caller's array may change once the call returns,
// while the work it enqueued has yet to run.
#ifndef INFINICTS_REF_CCL_BLOCK_LAYOUT_H
#define INFINICTS_REF_CCL_BLOCK_LAYOUT_H

#include <cstddef>
#include <limits>
#include <vector>

namespace infinicts::ref::ccl {

class BlockLayout {
 public:
  // `counts` holds `nranks` (>= 1) counts of elements of `element_size` bytes.
  BlockLayout(const size_t *counts, int nranks, size_t element_size)
      : counts_(counts, counts + nranks), offsets_(static_cast<size_t>(nranks) + 1, 0) {
    constexpr size_t kMax = std::numeric_limits<size_t>::max();
    for (size_t r = 0; r < counts_.size(); ++r) {
      if (counts_[r] > kMax - offsets_[r]) overflows_ = true;
      offsets_[r + 1] = offsets_[r] + counts_[r];
    }
    if (element_size != 0 && total() > kMax / element_size) overflows_ = true;
  }

  size_t count(int rank) const { return counts_[static_cast<size_t>(rank)]; }
  size_t offset(int rank) const { return offsets_[static_cast<size_t>(rank)]; }
  size_t total() const { return offsets_.back(); }
  // The largest block's count: how far a walk over every block in windows must go.
  size_t longest() const {
    size_t longest = 0;
    for (size_t count : counts_) longest = count > longest ? count : longest;
    return longest;
  }
  // The elements, or their bytes, do not fit in a size_t: no buffer can hold them.
  bool overflows() const { return overflows_; }

 private:
  std::vector<size_t> counts_;
  std::vector<size_t> offsets_;  // offsets_[r]: where block r starts; the last one is the total
  bool overflows_ = false;
};

// The address `elements` elements of `element_size` bytes past `base`.
inline const char *ElementAt(const void *base, size_t elements, size_t element_size) {
  return static_cast<const char *>(base) + elements * element_size;
}
inline char *ElementAt(void *base, size_t elements, size_t element_size) {
  return static_cast<char *>(base) + elements * element_size;
}

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_BLOCK_LAYOUT_H
