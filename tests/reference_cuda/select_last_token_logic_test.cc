// SelectLastTokenHidden's CUDA kernel logic (reference_impl/op/cuda/select_last_token_hidden.h)
// on the CPU: the kernel's element loop replayed through LastTokenRow, against the
// definition output[0, r, :] = hidden_states' token input_offsets[r + 1] − 1 (tokens
// counted over batch · seq), rows whose token is outside left untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "cuda/select_last_token_hidden.h"

namespace reference_cuda_test {
namespace {

namespace op = infinicts::ref::op::cuda;

template <class I>
void ExpectSelected(const std::vector<I> &offsets, int64_t offsets_step, bool offsets_64) {
  // hidden_states [batch 2, seq 3, hidden 4] stored as [seq][batch][hidden + 1] (batch
  // stride 5, seq stride 10); output [1, requests, hidden] transposed (hidden outermost).
  const int64_t batch = 2, seq = 3, hidden = 4;
  const int64_t requests = static_cast<int64_t>(offsets.size()) / offsets_step - 1;
  op::SelectLastTokenGeometry g{};
  g.requests = requests, g.seq = seq, g.tokens = batch * seq, g.hidden = hidden;
  g.in_batch = hidden + 1, g.in_seq = batch * (hidden + 1), g.in_hidden = 1;
  g.out_request = 1, g.out_hidden = requests;
  g.offsets_step = offsets_step, g.offsets_64 = offsets_64 ? 1 : 0;
  std::vector<int> states(static_cast<size_t>(seq * batch * (hidden + 1)));
  std::iota(states.begin(), states.end(), 100);
  std::vector<int> got(static_cast<size_t>(requests * hidden), -1);
  for (int64_t i = 0; i < requests * hidden; ++i) {  // the kernel's loop
    const int64_t r = i / hidden, j = i % hidden;
    int64_t from = 0;
    if (!op::LastTokenRow(g, offsets.data(), r, &from)) continue;
    got[static_cast<size_t>(r * g.out_request + j * g.out_hidden)] = states[static_cast<size_t>(from + j * g.in_hidden)];
  }
  for (int64_t r = 0; r < requests; ++r) {
    const int64_t token = static_cast<int64_t>(offsets[static_cast<size_t>((r + 1) * offsets_step)]) - 1;
    for (int64_t j = 0; j < hidden; ++j) {
      int want = -1;
      if (token >= 0 && token < batch * seq) {
        const int64_t b = token / seq, s = token % seq;
        want = states[static_cast<size_t>(s * batch * (hidden + 1) + b * (hidden + 1) + j)];
      }
      EXPECT_EQ(got[static_cast<size_t>(r + j * requests)], want) << "request " << r << " element " << j;
    }
  }
}

TEST(SelectLastTokenLogic, EachRequestTakesItsLastTokensRowOrNothing) {
  // I32 offsets with a stride of 2 (odd entries must not be read): ends 3 (token 2, batch
  // 0), 4 (token 3: batch 1's first), 6 (the last token), 0 (token -1), 7 (past the end).
  ExpectSelected<int32_t>({0, 99, 3, 99, 4, 99, 6, 99, 0, 99, 7, 99}, 2, false);
  // I64 offsets, one a value no I32 holds.
  ExpectSelected<int64_t>({0, 1, 5, int64_t{1} << 33, 2}, 1, true);
}

}  // namespace
}  // namespace reference_cuda_test
