// MRoPE's CUDA kernel logic (reference_impl/op/cuda/mrope.h) on the CPU: the kernel's work
// items replayed through LocateMRoPE, MRoPEAxis and MRoPEPositions, against the definition
// (docs/spec/op.md, OP-MROPE) with the frequency-to-axis tables written out by hand for
// sections (4, 2, 2): contiguous t t t t h h w w; interleaved t h w t h w t t (h and w only
// while i < 3·section).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "cuda/mrope.h"

namespace reference_cuda_test {
namespace {

namespace op = infinicts::ref::op::cuda;

constexpr int64_t kTokens = 5, kQHeads = 2, kKHeads = 1, kHeadSize = 19, kRotary = 16, kHalf = 8, kTable = 6;

struct Problem {
  op::MRoPEGeometry g{};
  std::vector<double> q, k, cos, sin;
  std::vector<int32_t> positions;  // [3, tokens] with a token stride of 2
};

Problem MakeProblem(bool interleaved) {
  Problem p;
  op::MRoPEGeometry &g = p.g;
  g.tokens = kTokens, g.q_heads = kQHeads, g.k_heads = kKHeads, g.head_size = kHeadSize, g.rotary_dim = kRotary;
  g.table_len = kTable, g.section_t = 4, g.section_h = 2, g.section_w = 2;
  // q rows padded; k transposed (element stride kTokens); the outputs packed; cos and sin
  // transposed with padding.
  g.q[0] = kQHeads * kHeadSize + 3, g.q[1] = 1;
  g.k[0] = 1, g.k[1] = kTokens;
  g.q_out[0] = kQHeads * kHeadSize, g.q_out[1] = 1;
  g.k_out[0] = kKHeads * kHeadSize, g.k_out[1] = 1;
  g.cos[0] = 1, g.cos[1] = kTable + 1;
  g.sin[0] = 1, g.sin[1] = kTable + 1;
  g.pos_axis_step = 2 * kTokens, g.pos_token_step = 2, g.per_axis = 1, g.positions_64 = 0;
  g.interleaved = interleaved ? 1 : 0;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> value(-1, 1);
  auto filled = [&](int64_t n) {
    std::vector<double> data(static_cast<size_t>(n));
    for (double &x : data) x = value(random);
    return data;
  };
  p.q = filled(kTokens * g.q[0]);
  p.k = filled(kKHeads * kHeadSize * kTokens);
  p.cos = filled(kHalf * (kTable + 1));
  p.sin = filled(kHalf * (kTable + 1));
  // Token 3's w position is one past the table, token 4's t position negative: both unwritten.
  const int32_t t_row[kTokens] = {0, 5, 2, 1, -1}, h_row[kTokens] = {3, 4, 0, 1, 2}, w_row[kTokens] = {1, 0, 5, 6, 2};
  p.positions.assign(static_cast<size_t>(3 * 2 * kTokens), 77);
  for (int64_t t = 0; t < kTokens; ++t) {
    p.positions[static_cast<size_t>(2 * t)] = t_row[t];
    p.positions[static_cast<size_t>(2 * kTokens + 2 * t)] = h_row[t];
    p.positions[static_cast<size_t>(4 * kTokens + 2 * t)] = w_row[t];
  }
  return p;
}

void ExpectRotated(bool interleaved) {
  const Problem p = MakeProblem(interleaved);
  const op::MRoPEGeometry &g = p.g;
  const double untouched = -1e9;
  std::vector<double> q_out(static_cast<size_t>(kTokens * g.q_out[0]), untouched);
  std::vector<double> k_out(static_cast<size_t>(kTokens * g.k_out[0]), untouched);
  // The kernel's work items.
  const uint64_t total = static_cast<uint64_t>(kTokens * (kQHeads + kKHeads) * op::MRoPELanes(g));
  for (uint64_t i = 0; i < total; ++i) {
    const op::MRoPEItem item = op::LocateMRoPE(g, i);
    int64_t position[3];
    if (!op::MRoPEPositions(g, p.positions.data(), item.token, position)) continue;
    const bool is_q = item.head < g.q_heads;
    const int64_t head = is_q ? item.head : item.head - g.q_heads;
    const int64_t *xs = is_q ? g.q : g.k, *ys = is_q ? g.q_out : g.k_out;
    const double *x = (is_q ? p.q : p.k).data() + item.token * xs[0] + head * g.head_size * xs[1];
    double *y = (is_q ? q_out : k_out).data() + item.token * ys[0] + head * g.head_size * ys[1];
    if (item.lane >= kHalf) {
      const int64_t j = g.rotary_dim + (item.lane - kHalf);
      y[j * ys[1]] = x[j * xs[1]];
      continue;
    }
    const int64_t f = item.lane, at = position[op::MRoPEAxis(g, f)];
    const double c = p.cos[static_cast<size_t>(at * g.cos[0] + f * g.cos[1])];
    const double s = p.sin[static_cast<size_t>(at * g.sin[0] + f * g.sin[1])];
    const double x0 = x[f * xs[1]], x1 = x[(f + kHalf) * xs[1]];
    y[f * ys[1]] = x0 * c - x1 * s;
    y[(f + kHalf) * ys[1]] = x1 * c + x0 * s;
  }
  // The definition.
  const int axis_contiguous[kHalf] = {0, 0, 0, 0, 1, 1, 2, 2}, axis_interleaved[kHalf] = {0, 1, 2, 0, 1, 2, 0, 0};
  const int *axis = interleaved ? axis_interleaved : axis_contiguous;
  for (int64_t t = 0; t < kTokens; ++t) {
    const int64_t pos[3] = {p.positions[static_cast<size_t>(2 * t)], p.positions[static_cast<size_t>(2 * kTokens + 2 * t)],
                            p.positions[static_cast<size_t>(4 * kTokens + 2 * t)]};
    const bool written = t < 3;
    for (int64_t h = 0; h < kQHeads + kKHeads; ++h) {
      const bool is_q = h < kQHeads;
      const int64_t hh = is_q ? h : h - kQHeads;
      auto in = [&](int64_t e) {
        return is_q ? p.q[static_cast<size_t>(t * g.q[0] + hh * kHeadSize + e)]
                    : p.k[static_cast<size_t>(t + (hh * kHeadSize + e) * kTokens)];
      };
      auto out = [&](int64_t e) {
        return is_q ? q_out[static_cast<size_t>(t * g.q_out[0] + hh * kHeadSize + e)]
                    : k_out[static_cast<size_t>(t * g.k_out[0] + hh * kHeadSize + e)];
      };
      for (int64_t e = 0; e < kHeadSize; ++e) {
        double want = untouched;
        if (written && e >= kRotary) want = in(e);
        if (written && e < kRotary) {
          const int64_t f = e % kHalf, at = pos[axis[f]];
          const double c = p.cos[static_cast<size_t>(at + f * (kTable + 1))], s = p.sin[static_cast<size_t>(at + f * (kTable + 1))];
          want = e < kHalf ? in(f) * c - in(f + kHalf) * s : in(f + kHalf) * c + in(f) * s;
        }
        EXPECT_EQ(out(e), want) << (interleaved ? "interleaved" : "sections") << " token " << t << " head " << h
                                << " element " << e;
      }
    }
  }
}

TEST(MRoPELogic, ContiguousSectionsRotateEachPairByItsAxisPosition) { ExpectRotated(false); }
TEST(MRoPELogic, InterleavedSectionsRotateEachPairByItsAxisPosition) { ExpectRotated(true); }

TEST(MRoPELogic, OnePositionRowServesAllThreeAxes) {
  Problem p = MakeProblem(false);
  p.g.per_axis = 0, p.g.positions_64 = 1, p.g.pos_token_step = 1;
  const std::vector<int64_t> positions = {4, 0, int64_t{1} << 32, -3, 5};
  const bool inside[kTokens] = {true, true, false, false, true};
  for (int64_t t = 0; t < kTokens; ++t) {
    int64_t position[3] = {-9, -9, -9};
    EXPECT_EQ(op::MRoPEPositions(p.g, positions.data(), t, position), inside[t]) << "token " << t;
    if (inside[t]) {
      for (int64_t axis_position : position) EXPECT_EQ(axis_position, positions[static_cast<size_t>(t)]);
    }
  }
}

}  // namespace
}  // namespace reference_cuda_test
