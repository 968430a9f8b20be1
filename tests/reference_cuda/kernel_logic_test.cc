// The CUDA kernels' index and selection logic, run on the CPU through the very functions
// the kernels call: RandomSample's bitonic ranking under its launch schedule, the causal
// bound of CausalSoftmax, the direct Conv's element and tap location, the arrangement of
// Gemm's operands into one cuBLAS call, checked against cuBLAS's rules, where PagedCaching
// and KVCaching write each element, and which heads, keys and elements Attention reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "cuda/attention.h"
#include "cuda/conv_geometry.h"
#include "cuda/gemm_layout.h"
#include "cuda/kv_caching.h"
#include "cuda/paged_caching.h"
#include "cuda/rows/bitonic_rank.h"

namespace reference_cuda_test {
namespace {

namespace rows = infinicts::ref::op::cuda_rows;
namespace op = infinicts::ref::op::cuda;

// ---- RandomSample's ranking ----

// The sort as the kernels run it: every tile's steps (each step's pairs are disjoint, so
// running a step's threads one after another is what the block does) and the global steps.
void SortAsTheKernelsDo(std::vector<double> *keys, std::vector<int64_t> *indices, int64_t tile) {
  const int64_t padded = static_cast<int64_t>(keys->size());
  rows::RunBitonicSchedule(
      padded, tile,
      [&](int64_t k_first, int64_t k_last) {
        for (int64_t base = 0; base < padded; base += tile) {
          rows::ForEachTileStep(tile, k_first, k_last, [&](int64_t k, int64_t j) {
            for (int64_t t = 0; t < tile / 2; ++t) {
              const int64_t i = rows::PairFirst(t, j);
              rows::CompareExchange(keys->data() + base, indices->data() + base, i, j, base + i, k);
            }
          });
        }
      },
      [&](int64_t k, int64_t j) {
        for (int64_t t = 0; t < padded / 2; ++t) {
          const int64_t i = rows::PairFirst(t, j);
          rows::CompareExchange(keys->data(), indices->data(), i, j, i, k);
        }
      });
}

void ExpectRanked(const std::vector<double> &logits, int64_t tile_limit) {
  const int64_t n = static_cast<int64_t>(logits.size());
  const int64_t padded = rows::PaddedCount(n);
  std::vector<double> keys(static_cast<size_t>(padded), -INFINITY);
  std::vector<int64_t> indices(static_cast<size_t>(padded));
  for (int64_t i = 0; i < padded; ++i) {
    if (i < n) keys[static_cast<size_t>(i)] = rows::RankKey(logits[static_cast<size_t>(i)]);
    indices[static_cast<size_t>(i)] = i;
  }
  SortAsTheKernelsDo(&keys, &indices, std::min(padded, tile_limit));
  // Expected: larger logit first, NaN as -Inf, lower index on ties; padding last.
  std::vector<int64_t> want(static_cast<size_t>(padded));
  std::iota(want.begin(), want.end(), 0);
  const auto key_of = [&](int64_t i) -> double {
    if (i >= n) return -INFINITY;
    const double v = logits[static_cast<size_t>(i)];
    return std::isnan(v) ? -INFINITY : v;
  };
  std::stable_sort(want.begin(), want.end(), [&](int64_t a, int64_t b) { return key_of(a) > key_of(b); });
  ASSERT_EQ(indices, want) << "n " << n << ", tile " << std::min(padded, tile_limit);
}

TEST(KernelLogic, BitonicRankingOrdersEveryCountAndTile) {
  std::mt19937_64 random(20261203);
  for (int64_t n : {1, 2, 3, 5, 8, 31, 100, 1000, 2047, 2048, 2049, 5000}) {
    std::vector<double> logits(static_cast<size_t>(n));
    // Few distinct values (many ties), a NaN, -Inf and +Inf among them.
    std::uniform_int_distribution<int> value(-6, 6);
    for (double &v : logits) v = value(random) * 0.5;
    if (n > 3) logits[1] = std::nan(""), logits[2] = -INFINITY, logits[static_cast<size_t>(n) - 1] = INFINITY;
    ExpectRanked(logits, rows::kSortTile);
    ExpectRanked(logits, 4);  // small tiles: the global steps do most of the work
  }
}

TEST(KernelLogic, PairFirstVisitsEveryPairOnce) {
  for (int64_t padded : {2, 8, 64}) {
    for (int64_t j = 1; j < padded; j <<= 1) {
      std::vector<int> seen(static_cast<size_t>(padded), 0);
      for (int64_t t = 0; t < padded / 2; ++t) {
        const int64_t i = rows::PairFirst(t, j);
        ASSERT_EQ(i & j, 0) << "the first of a pair has bit j clear";
        ++seen[static_cast<size_t>(i)];
        ++seen[static_cast<size_t>(i + j)];
      }
      for (int count : seen) ASSERT_EQ(count, 1);
    }
  }
}

// ---- CausalSoftmax's bound ----

TEST(KernelLogic, CausalRowsSeeTheColumnsUpToTheirDiagonal) {
  for (int64_t seq : {1, 3, 7}) {
    for (int64_t length : {seq, seq + 1, seq + 5}) {
      for (int64_t row = 0; row < 3 * seq; ++row) {  // three matrices' rows, batch-major
        const int64_t i = row % seq;
        int64_t visible = 0;
        for (int64_t j = 0; j < length; ++j) visible += j <= i + (length - seq) ? 1 : 0;
        EXPECT_EQ(rows::CausalValidColumns(length, seq, row), visible) << seq << " " << length << " " << row;
      }
    }
  }
  EXPECT_EQ(rows::CausalValidColumns(9, 0, 4), 9);  // not causal
}

// ---- Conv's direct kernel ----

struct ConvCase {
  size_t batch, in_channels, out_channels;
  std::vector<size_t> in_size, kernel, pads, dilations;
  std::vector<ptrdiff_t> steps;
  bool channels_last;
};

std::vector<ptrdiff_t> Strides(const std::vector<size_t> &shape, bool channels_last) {
  // shape is (N, C, spatial...); channels last stores (N, spatial..., C).
  std::vector<size_t> order(shape.size());
  std::iota(order.begin(), order.end(), 0);
  if (channels_last) std::rotate(order.begin() + 1, order.begin() + 2, order.end());
  std::vector<ptrdiff_t> strides(shape.size());
  ptrdiff_t step = 1;
  for (size_t i = order.size(); i-- > 0;) {
    strides[order[i]] = step;
    step *= static_cast<ptrdiff_t>(shape[order[i]]);
  }
  return strides;
}

TEST(KernelLogic, ConvLocatesEveryOutputAndTapLikeTheDefinition) {
  const std::vector<ConvCase> cases = {
      {2, 3, 4, {7}, {3}, {1}, {1}, {2}, false},
      {1, 2, 3, {6, 5}, {3, 2}, {1, 0}, {2, 1}, {1, 2}, true},
      {2, 1, 2, {4, 5, 3}, {2, 3, 1}, {0, 1, 0}, {1, 2, 1}, {2, 1, 1}, false},
  };
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(-1, 1);
  for (const ConvCase &c : cases) {
    const size_t n = c.in_size.size();
    std::vector<size_t> out_size(n);
    for (size_t d = 0; d < n; ++d) {
      const size_t reach = c.dilations[d] * (c.kernel[d] - 1) + 1;
      out_size[d] = (c.in_size[d] + 2 * c.pads[d] - reach) / static_cast<size_t>(c.steps[d]) + 1;
    }
    std::vector<size_t> x_shape = {c.batch, c.in_channels}, w_shape = {c.out_channels, c.in_channels},
                        y_shape = {c.batch, c.out_channels};
    x_shape.insert(x_shape.end(), c.in_size.begin(), c.in_size.end());
    w_shape.insert(w_shape.end(), c.kernel.begin(), c.kernel.end());
    y_shape.insert(y_shape.end(), out_size.begin(), out_size.end());
    const std::vector<ptrdiff_t> xs = Strides(x_shape, c.channels_last), ws = Strides(w_shape, false),
                                 ys = Strides(y_shape, c.channels_last);
    const auto volume = [](const std::vector<size_t> &s) {
      return std::accumulate(s.begin(), s.end(), size_t{1}, std::multiplies<size_t>());
    };
    std::vector<double> x(volume(x_shape)), w(volume(w_shape));
    for (double &v : x) v = value(random);
    for (double &v : w) v = value(random);

    const op::ConvProblem problem{INFINI_DTYPE_F64, c.batch, c.in_channels, c.out_channels, c.in_size, c.kernel,
                                  out_size, c.pads, c.dilations, c.steps, xs, ws, ys, false, 0};
    const op::ConvGeometry g = op::MakeGeometry(problem);
    // What the kernel computes, element by element.
    std::vector<double> got(volume(y_shape), NAN);
    const uint64_t total = g.batch * g.out_channels * g.out_volume;
    for (uint64_t i = 0; i < total; ++i) {
      const op::OutputElement e = op::Locate(g, i);
      double sum = 0;
      for (uint64_t ci = 0; ci < g.in_channels; ++ci) {
        for (uint64_t r = 0; r < g.kernel_volume; ++r) {
          int64_t x_offset = 0, w_offset = 0;
          if (!op::Tap(g, e.window, r, &x_offset, &w_offset)) continue;
          sum += x[static_cast<size_t>(static_cast<int64_t>(e.b) * xs[0] + static_cast<int64_t>(ci) * xs[1] + x_offset)] *
                 w[static_cast<size_t>(static_cast<int64_t>(e.co) * ws[0] + static_cast<int64_t>(ci) * ws[1] + w_offset)];
        }
      }
      got[static_cast<size_t>(e.y_offset)] = sum;
    }
    // The definition: y[b, co, o] = sum over ci and kernel positions q of
    // x[b, ci, o * step - pad + q * dilation] * w[co, ci, q], positions outside x being zero.
    std::vector<size_t> o(n, 0);
    for (size_t b = 0; b < c.batch; ++b) {
      for (size_t co = 0; co < c.out_channels; ++co) {
        for (size_t flat = 0; flat < volume(out_size); ++flat) {
          size_t rest = flat;
          ptrdiff_t y_at = static_cast<ptrdiff_t>(b) * ys[0] + static_cast<ptrdiff_t>(co) * ys[1];
          for (size_t d = n; d-- > 0;) o[d] = rest % out_size[d], rest /= out_size[d], y_at += static_cast<ptrdiff_t>(o[d]) * ys[d + 2];
          double want = 0;
          for (size_t ci = 0; ci < c.in_channels; ++ci) {
            for (size_t q_flat = 0; q_flat < volume(c.kernel); ++q_flat) {
              size_t q_rest = q_flat;
              bool inside = true;
              ptrdiff_t x_at = static_cast<ptrdiff_t>(b) * xs[0] + static_cast<ptrdiff_t>(ci) * xs[1];
              ptrdiff_t w_at = static_cast<ptrdiff_t>(co) * ws[0] + static_cast<ptrdiff_t>(ci) * ws[1];
              for (size_t d = n; d-- > 0;) {
                const ptrdiff_t q = static_cast<ptrdiff_t>(q_rest % c.kernel[d]);
                q_rest /= c.kernel[d];
                const ptrdiff_t at = static_cast<ptrdiff_t>(o[d]) * c.steps[d] - static_cast<ptrdiff_t>(c.pads[d]) +
                                     q * static_cast<ptrdiff_t>(c.dilations[d]);
                inside = inside && at >= 0 && at < static_cast<ptrdiff_t>(c.in_size[d]);
                x_at += at * xs[d + 2];
                w_at += q * ws[d + 2];
              }
              if (inside) want += x[static_cast<size_t>(x_at)] * w[static_cast<size_t>(w_at)];
            }
          }
          ASSERT_NEAR(got[static_cast<size_t>(y_at)], want, 1e-12) << "conv of " << n << " spatial dims, element " << flat;
        }
      }
    }
  }
}

// ---- Gemm's one cuBLAS call ----

double At(const std::vector<double> &data, const op::GemmMatrix &m, size_t r, size_t c) {
  return data[m.column_major ? r + c * static_cast<size_t>(m.ld) : r * static_cast<size_t>(m.ld) + c];
}

TEST(KernelLogic, GemmArrangementObeysCublasRulesAndComputesTheProduct) {
  std::mt19937_64 random(42);
  std::uniform_int_distribution<int> extent(1, 6), pad(0, 2), coin(0, 1), small(-3, 3);
  for (int trial = 0; trial < 2000; ++trial) {
    const size_t m = static_cast<size_t>(extent(random)), n = static_cast<size_t>(extent(random)),
                 k = static_cast<size_t>(extent(random));
    const auto matrix = [&](size_t rows, size_t cols) {
      op::GemmMatrix g;
      g.column_major = coin(random) == 1;
      g.ld = static_cast<int>((g.column_major ? rows : cols) + static_cast<size_t>(pad(random)));
      return g;
    };
    const op::GemmProblem p{INFINI_DTYPE_F64, 1, m, n, k, matrix(m, k), matrix(k, n), matrix(m, n)};
    const auto storage = [&](const op::GemmMatrix &g, size_t rows, size_t cols) {
      std::vector<double> data(static_cast<size_t>(g.ld) * (g.column_major ? cols : rows));
      for (double &v : data) v = small(random);
      return data;
    };
    const std::vector<double> a = storage(p.a, m, k), b = storage(p.b, k, n);
    std::vector<double> c = storage(p.c, m, n);

    const op::ColumnMajorCall call = op::Arrange(p);
    // cuBLAS's rules for a column-major call: op(first) is rows x depth, op(second) depth x
    // cols, C' rows x cols; each leading dimension at least its stored matrix's rows.
    const int first_rows = call.transpose_first ? call.depth : call.rows;
    const int second_rows = call.transpose_second ? call.cols : call.depth;
    ASSERT_GE(call.first.ld, std::max(1, first_rows));
    ASSERT_GE(call.second.ld, std::max(1, second_rows));
    ASSERT_GE(p.c.ld, std::max(1, call.rows));
    ASSERT_EQ(static_cast<size_t>(call.depth), k);
    const std::vector<double> &first = call.swapped ? b : a, &second = call.swapped ? a : b;
    // What cuBLAS computes, column-major: C'[r + col * ldc] = sum_d op(first)(r, d) * op(second)(d, col).
    for (int r = 0; r < call.rows; ++r) {
      for (int col = 0; col < call.cols; ++col) {
        double sum = 0;
        for (int d = 0; d < call.depth; ++d) {
          const double f = call.transpose_first ? first[static_cast<size_t>(d + r * call.first.ld)]
                                                : first[static_cast<size_t>(r + d * call.first.ld)];
          const double s = call.transpose_second ? second[static_cast<size_t>(col + d * call.second.ld)]
                                                 : second[static_cast<size_t>(d + col * call.second.ld)];
          sum += f * s;
        }
        c[static_cast<size_t>(r + col * p.c.ld)] = sum;
      }
    }
    // ...must be C = A * B in C's own layout.
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) {
        double want = 0;
        for (size_t d = 0; d < k; ++d) want += At(a, p.a, i, d) * At(b, p.b, d, j);
        ASSERT_EQ(At(c, p.c, i, j), want) << "trial " << trial << ": C(" << i << ", " << j << ")";
      }
    }
  }
}


// ---- PagedCaching's scatter ----

TEST(KernelLogic, PagedCachingWritesEachTokensEntriesAtItsSlotOnly) {
  // Pools [blocks, heads, block_size, dim] with padded strides and heads outermost in v's;
  // tokens [tokens, heads, dim] with a transposed k; slots with padding (-1), one past the
  // end, and a stride of 2.
  const int64_t tokens = 5, heads = 3, blocks = 4, block_size = 3, k_dim = 4, v_dim = 2;
  op::PagedCachingGeometry g{};
  g.tokens = tokens, g.heads = heads, g.blocks = blocks, g.block_size = block_size, g.slot_step = 2;
  g.k = {{heads * block_size * 5, block_size * 5, 5, 1}, {1, tokens * k_dim, tokens}, k_dim};
  g.v = {{block_size * v_dim, blocks * block_size * v_dim, v_dim, 1}, {heads * v_dim, v_dim, 1}, v_dim};
  const std::vector<int64_t> slots = {7, 99, -1, 99, 0, 99, blocks * block_size, 99, 11, 99};
  for (const op::PagedPool *pool : {&g.k, &g.v}) {
    const int64_t pool_size = blocks * heads * block_size * 5 + 8, entry_size = tokens * heads * pool->dim + 8;
    std::vector<int> cache(static_cast<size_t>(pool_size), -1), entries(static_cast<size_t>(entry_size));
    std::iota(entries.begin(), entries.end(), 1000);
    // What the kernel does, element by element.
    const uint64_t total = static_cast<uint64_t>(tokens * heads * pool->dim);
    for (uint64_t i = 0; i < total; ++i) {
      const op::PagedElement e = op::LocatePagedElement(g, *pool, i);
      int64_t block = 0, offset = 0;
      if (!op::SlotPlace(g, slots[static_cast<size_t>(e.token * g.slot_step)], &block, &offset)) continue;
      cache[static_cast<size_t>(op::PoolOffset(*pool, e, block, offset))] =
          entries[static_cast<size_t>(op::EntryOffset(*pool, e))];
    }
    // The definition: cache[slot / block_size, h, slot % block_size, d] = entries[t, h, d]
    // for 0 <= slot < blocks * block_size; nothing else changes.
    std::vector<int> want(static_cast<size_t>(pool_size), -1);
    for (int64_t t = 0; t < tokens; ++t) {
      const int64_t slot = slots[static_cast<size_t>(2 * t)];
      if (slot < 0 || slot >= blocks * block_size) continue;
      for (int64_t h = 0; h < heads; ++h) {
        for (int64_t d = 0; d < pool->dim; ++d) {
          const int64_t at = slot / block_size * pool->pool_strides[0] + h * pool->pool_strides[1] +
                             slot % block_size * pool->pool_strides[2] + d * pool->pool_strides[3];
          want[static_cast<size_t>(at)] =
              entries[static_cast<size_t>(t * pool->entry_strides[0] + h * pool->entry_strides[1] +
                                          d * pool->entry_strides[2])];
        }
      }
    }
    EXPECT_EQ(cache, want) << (pool == &g.k ? "k" : "v");
  }
}


// ---- KVCaching's append ----

TEST(KernelLogic, KVCachingAppendsEachSequenceAtItsPastLengthOnly) {
  // Caches [batch, heads, max_seq, dim] padded, k heads-major; sequences that fit, one that
  // would run past max_seq, a negative length; lengths I32 with a stride of 3.
  const int64_t batch = 4, heads = 2, max_seq = 6, new_len = 2, dim = 3;
  op::KVCachingGeometry g{};
  g.batch = batch, g.heads = heads, g.max_seq = max_seq, g.new_len = new_len, g.head_dim = dim;
  g.length_step = 3, g.lengths_64 = false;
  const int64_t cache[4] = {heads * max_seq * 4, max_seq * 4, 4, 1};
  const int64_t entries[4] = {new_len * dim, batch * new_len * dim, dim, 1};
  for (int d = 0; d < 4; ++d) g.k_cache[d] = g.v_cache[d] = cache[d], g.k[d] = g.v[d] = entries[d];
  const std::vector<int32_t> lengths = {0, 9, 9, 4, 9, 9, 5, 9, 9, -1, 9, 9};  // b: 0, 4 (fits), 5 (does not), -1
  const int64_t cache_size = batch * heads * max_seq * 4, entry_size = batch * heads * new_len * dim;
  std::vector<int> got(static_cast<size_t>(cache_size), -1), k(static_cast<size_t>(entry_size));
  std::iota(k.begin(), k.end(), 100);
  const uint64_t total = static_cast<uint64_t>(batch * heads * new_len * dim);
  for (uint64_t i = 0; i < total; ++i) {
    const op::KVElement e = op::LocateKVElement(g, i);
    const int64_t past = lengths[static_cast<size_t>(e.b * g.length_step)];
    if (!op::FitsCache(g, past)) continue;
    got[static_cast<size_t>(op::Offset4(g.k_cache, e.b, e.h, past + e.s, e.d))] =
        k[static_cast<size_t>(op::Offset4(g.k, e.b, e.h, e.s, e.d))];
  }
  // The definition: cache[b, h, past_b + s, d] = k[b, h, s, d] where 0 <= past_b and
  // past_b + new_len <= max_seq; nothing else changes.
  std::vector<int> want(static_cast<size_t>(cache_size), -1);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t past = lengths[static_cast<size_t>(3 * b)];
    if (past < 0 || past + new_len > max_seq) continue;
    for (int64_t h = 0; h < heads; ++h) {
      for (int64_t s = 0; s < new_len; ++s) {
        for (int64_t d = 0; d < dim; ++d) {
          want[static_cast<size_t>(b * cache[0] + h * cache[1] + (past + s) * cache[2] + d)] =
              k[static_cast<size_t>(b * entries[0] + h * entries[1] + s * entries[2] + d)];
        }
      }
    }
  }
  EXPECT_EQ(got, want);
}


// ---- Attention's four steps ----

TEST(KernelLogic, AttentionReadsTheGroupsKvHeadAndTheVisibleKeysOnly) {
  // 4 q heads over 2 kv heads, 3 new tokens after 2 cached ones, d = 3; q heads-major with
  // padding, out [seq, n_q, d] transposed in its last two dims, caches with spare rows.
  const int64_t n_q = 4, n_kv = 2, seq = 3, dim = 3, pos = 2, capacity = 7;
  op::AttentionGeometry g{n_q, n_kv, n_q / n_kv, seq, dim, pos, {}, {}, {}, {}, {}, {}};
  const int64_t out_s[3] = {n_q * dim, 1, n_q}, q_s[3] = {seq * 4, 4, 1}, kv_s[3] = {seq * dim, dim, 1},
                cache_s[3] = {capacity * dim, dim, 1};
  for (int d = 0; d < 3; ++d) {
    g.out[d] = out_s[d], g.q[d] = q_s[d], g.k[d] = g.v[d] = kv_s[d], g.k_cache[d] = g.v_cache[d] = cache_s[d];
  }
  std::mt19937 random(5);
  std::uniform_real_distribution<double> value(-1, 1);
  const auto filled = [&](size_t n) {
    std::vector<double> data(n);
    for (double &x : data) x = value(random);
    return data;
  };
  const std::vector<double> q = filled(n_q * seq * 4), k = filled(n_kv * seq * dim), v = filled(n_kv * seq * dim);
  std::vector<double> k_cache = filled(n_kv * capacity * dim), v_cache = filled(n_kv * capacity * dim);
  const std::vector<double> k_cache_before = k_cache, v_cache_before = v_cache;

  // The kernels' steps through the geometry's functions.
  for (int64_t h = 0; h < n_kv; ++h) {
    for (int64_t s = 0; s < seq; ++s) {
      for (int64_t c = 0; c < dim; ++c) {
        k_cache[static_cast<size_t>(op::At3(g.k_cache, h, pos + s, c))] = k[static_cast<size_t>(op::At3(g.k, h, s, c))];
        v_cache[static_cast<size_t>(op::At3(g.v_cache, h, pos + s, c))] = v[static_cast<size_t>(op::At3(g.v, h, s, c))];
      }
    }
  }
  const int64_t length = op::ScoreRowLength(g);
  std::vector<double> scores(static_cast<size_t>(n_q * seq * length), NAN), got(static_cast<size_t>(seq * n_q * dim), NAN);
  for (int64_t row = 0; row < n_q * seq; ++row) {
    const int64_t h = op::HeadOfRow(g, row), token = op::TokenOfRow(g, row), kv = op::KvHeadOf(g, h);
    const int64_t valid = op::VisibleKeys(g, token);
    double *p = scores.data() + row * length;
    double max = -INFINITY, sum = 0;
    for (int64_t j = 0; j < valid; ++j) {
      double dot = 0;
      for (int64_t c = 0; c < dim; ++c) {
        dot += q[static_cast<size_t>(op::At3(g.q, h, token, c))] * k_cache[static_cast<size_t>(op::At3(g.k_cache, kv, j, c))];
      }
      p[j] = dot / std::sqrt(static_cast<double>(dim));
      max = std::max(max, p[j]);
    }
    for (int64_t j = 0; j < valid; ++j) sum += p[j] = std::exp(p[j] - max);
    for (int64_t c = 0; c < dim; ++c) {
      double acc = 0;
      for (int64_t j = 0; j < valid; ++j) acc += p[j] / sum * v_cache[static_cast<size_t>(op::At3(g.v_cache, kv, j, c))];
      got[static_cast<size_t>(op::At3(g.out, token, h, c))] = acc;
    }
  }

  // The definition (ops/attention.cc): rows pos .. pos + seq - 1 of the caches take k and v;
  // out[i, h, :] = softmax_j(q[h, i] · k_cache[h / group, j] / sqrt(d)) · v_cache[h / group, j]
  // over j <= pos + i.
  for (int64_t kv = 0; kv < n_kv; ++kv) {
    for (int64_t r = 0; r < capacity; ++r) {
      for (int64_t c = 0; c < dim; ++c) {
        const size_t at = static_cast<size_t>(kv * capacity * dim + r * dim + c);
        const bool written = r >= pos && r < pos + seq;
        const size_t from = static_cast<size_t>(kv * seq * dim + (r - pos) * dim + c);
        ASSERT_EQ(k_cache[at], written ? k[from] : k_cache_before[at]);
        ASSERT_EQ(v_cache[at], written ? v[from] : v_cache_before[at]);
      }
    }
  }
  for (int64_t i = 0; i < seq; ++i) {
    for (int64_t h = 0; h < n_q; ++h) {
      const int64_t kv = h / (n_q / n_kv);
      std::vector<double> w;
      for (int64_t j = 0; j <= pos + i; ++j) {
        double dot = 0;
        for (int64_t c = 0; c < dim; ++c) {
          dot += q[static_cast<size_t>(h * seq * 4 + i * 4 + c)] * k_cache[static_cast<size_t>(kv * capacity * dim + j * dim + c)];
        }
        w.push_back(std::exp(dot / std::sqrt(static_cast<double>(dim))));
      }
      const double total = std::accumulate(w.begin(), w.end(), 0.0);
      for (int64_t c = 0; c < dim; ++c) {
        double want = 0;
        for (size_t j = 0; j < w.size(); ++j) want += w[j] / total * v_cache[static_cast<size_t>(kv * capacity * dim + static_cast<int64_t>(j) * dim + c)];
        ASSERT_NEAR(got[static_cast<size_t>(i * n_q * dim + c * n_q + h)], want, 1e-12) << "token " << i << " head " << h;
      }
    }
  }
}

}  // namespace
}  // namespace reference_cuda_test
