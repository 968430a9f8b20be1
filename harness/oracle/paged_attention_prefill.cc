// PagedAttentionPrefill in double precision, from OP-PAGEDATTENTIONPREFILL-3: each query
// attends causally to its sequence's keys, read through the block table.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {
namespace {

constexpr const char *kOp = "PagedAttentionPrefill";

// Every value of a 16-bit float dtype, by its bits, as the harness converts it (once per
// dtype): the pools are read row by row, too often for a conversion per element.
std::vector<double> AllValuesOf(infiniDtype_t dtype) {
  std::vector<double> values(size_t{1} << 16);
  for (size_t bits = 0; bits < values.size(); ++bits) {
    const uint16_t stored = static_cast<uint16_t>(bits);
    values[bits] = LoadElement(dtype, &stored);
  }
  return values;
}

const std::vector<double> *ValueTableFor(infiniDtype_t dtype) {
  static const std::vector<double> f16 = AllValuesOf(INFINI_DTYPE_F16), bf16 = AllValuesOf(INFINI_DTYPE_BF16);
  if (dtype == INFINI_DTYPE_F16) return &f16;
  if (dtype == INFINI_DTYPE_BF16) return &bf16;
  return nullptr;
}

// Rows along the last dim read straight from a tensor's storage, by the index of the rest.
class RowReader {
 public:
  explicit RowReader(const HostTensor &tensor)
      : tensor_(tensor), table_(ValueTableFor(tensor.dtype())), element_size_(tensor.element_size()) {}

  void Row(std::initializer_list<size_t> index, size_t count, double *out) const {
    ptrdiff_t at = tensor_.offset();
    size_t d = 0;
    for (size_t i : index) at += static_cast<ptrdiff_t>(i) * tensor_.strides()[d++];
    const ptrdiff_t step = tensor_.strides().back();
    for (size_t k = 0; k < count; ++k, at += step) {
      const uint8_t *address = tensor_.storage() + at * static_cast<ptrdiff_t>(element_size_);
      if (table_ != nullptr) {
        uint16_t bits;
        std::memcpy(&bits, address, sizeof bits);
        out[k] = (*table_)[bits];
      } else {
        out[k] = LoadElement(tensor_.dtype(), address);
      }
    }
  }

 private:
  const HostTensor &tensor_;
  const std::vector<double> *table_;
  size_t element_size_;
};

}  // namespace

HostTensor PagedAttentionPrefill(const HostTensor &q, const HostTensor &k_cache, const HostTensor &v_cache,
                                 const HostTensor &block_tables, const HostTensor &seq_lens,
                                 const HostTensor &cum_seq_lens_q, const HostTensor *alibi_slopes, double scale) {
  Require(q.ndim() == 3, kOp, "q must be [total_q, num_heads, head_size]");
  Require(k_cache.ndim() == 4 && v_cache.ndim() == 4, kOp,
          "the pools must be [num_blocks, num_kv_heads, block_size, head_size or value_size]");
  const size_t total_q = q.shape()[0], heads = q.shape()[1], head_size = q.shape()[2];
  const size_t num_blocks = k_cache.shape()[0], kv_heads = k_cache.shape()[1], block_size = k_cache.shape()[2];
  const size_t value_size = v_cache.shape()[3];
  Require(k_cache.shape()[3] == head_size, kOp, "k_cache's rows must have q's head_size");
  Require(v_cache.shape()[0] == num_blocks && v_cache.shape()[1] == kv_heads && v_cache.shape()[2] == block_size,
          kOp, "v_cache " + ShapeText(v_cache.shape()) + " does not match k_cache " + ShapeText(k_cache.shape()));
  Require(kv_heads > 0 && heads % kv_heads == 0 && block_size > 0, kOp,
          "num_heads must be a multiple of num_kv_heads, block_size positive");
  Require(block_tables.ndim() == 2 && seq_lens.ndim() == 1 && cum_seq_lens_q.ndim() == 1, kOp,
          "block_tables must be 2-D, seq_lens and cum_seq_lens_q 1-D");
  const size_t num_seqs = seq_lens.shape()[0], max_blocks = block_tables.shape()[1];
  Require(block_tables.shape()[0] == num_seqs && cum_seq_lens_q.shape()[0] == num_seqs + 1, kOp,
          "block_tables must have num_seqs rows and cum_seq_lens_q num_seqs + 1 entries");
  Require(alibi_slopes == nullptr || (alibi_slopes->ndim() == 1 && alibi_slopes->shape()[0] == heads), kOp,
          "alibi_slopes must be [num_heads]");
  Require(IntegerAt(cum_seq_lens_q, 0) == 0 && IntegerAt(cum_seq_lens_q, num_seqs) == static_cast<int64_t>(total_q),
          kOp, "cum_seq_lens_q must run from 0 to total_q");

  const size_t group = heads / kv_heads;
  const RowReader q_rows(q), k_rows(k_cache), v_rows(v_cache);
  std::vector<double> out(total_q * heads * value_size, 0.0);
  std::vector<double> query(head_size), scores, weighted(value_size), keys_of, values_of;
  std::vector<size_t> block_of;  // the pool block of each key position of the sequence at hand

  for (size_t s = 0; s < num_seqs; ++s) {
    const int64_t length = IntegerAt(seq_lens, s);
    const int64_t first = IntegerAt(cum_seq_lens_q, s), count = IntegerAt(cum_seq_lens_q, s + 1) - first;
    const std::string which = "sequence " + std::to_string(s) + ": ";
    Require(count >= 1 && count <= length, kOp, which + "needs 1 <= queries <= seq_len");
    Require(static_cast<uint64_t>(length) <= max_blocks * block_size, kOp, which + "seq_len beyond its table");
    const size_t keys = static_cast<size_t>(length);
    block_of.assign(keys, 0);
    for (size_t j = 0; j < keys; ++j) {
      const int64_t block = IntegerAt(block_tables, s * max_blocks + j / block_size);
      Require(block >= 0 && static_cast<size_t>(block) < num_blocks, kOp,
              which + "table entry " + std::to_string(block) + " outside the pool");
      block_of[j] = static_cast<size_t>(block);
    }
    for (size_t kv = 0; kv < kv_heads; ++kv) {
      // K_j and V_j of this kv head, j < L: the sequence's live rows, nothing else.
      keys_of.resize(keys * head_size);
      values_of.resize(keys * value_size);
      for (size_t j = 0; j < keys; ++j) {
        k_rows.Row({block_of[j], kv, j % block_size}, head_size, keys_of.data() + j * head_size);
        v_rows.Row({block_of[j], kv, j % block_size}, value_size, values_of.data() + j * value_size);
      }
      for (size_t h = kv * group; h < (kv + 1) * group; ++h) {  // the query heads of kv = h / group
        const double slope = alibi_slopes != nullptr ? alibi_slopes->GetAt(h) : 0.0;
        for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
          const size_t row = static_cast<size_t>(first) + i;
          const size_t position = keys - static_cast<size_t>(count) + i;  // P: the query's own key
          q_rows.Row({row, h}, head_size, query.data());
          scores.assign(position + 1, 0.0);
          for (size_t j = 0; j <= position; ++j) {
            const double *key = keys_of.data() + j * head_size;
            double dot = 0.0;
            for (size_t d = 0; d < head_size; ++d) dot += query[d] * key[d];
            scores[j] = scale * dot + slope * (static_cast<double>(j) - static_cast<double>(position));
          }
          const double largest = *std::max_element(scores.begin(), scores.end());
          double sum = 0.0;
          std::fill(weighted.begin(), weighted.end(), 0.0);
          for (size_t j = 0; j <= position; ++j) {
            const double weight = std::exp(scores[j] - largest);
            const double *value = values_of.data() + j * value_size;
            sum += weight;
            for (size_t e = 0; e < value_size; ++e) weighted[e] += weight * value[e];
          }
          for (size_t e = 0; e < value_size; ++e) out[(row * heads + h) * value_size + e] = weighted[e] / sum;
        }
      }
    }
  }
  return F64Tensor({total_q, heads, value_size}, out);
}

}  // namespace infinicts::oracle
