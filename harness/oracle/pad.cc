// Pad (docs/spec/op.md OP-PAD-4): torch.nn.functional.pad's four modes, in fp64.
#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {
namespace {

// The position along a dim of extent n that output position i (i − before relative to x's
// start) reads, or -1 for the constant.
int64_t SourceIndex(int64_t i, int64_t n, const std::string &mode) {
  if (i >= 0 && i < n) return i;
  if (mode == "constant") return -1;
  if (mode == "replicate") return i < 0 ? 0 : n - 1;
  if (mode == "circular") return ((i % n) + n) % n;
  // reflect: mirror about the edge elements, never repeating them (needs a pad < n).
  return i < 0 ? -i : 2 * (n - 1) - i;
}

}  // namespace

HostTensor Pad(const HostTensor &x, const std::vector<int> &pads, const std::string &mode, double value) {
  const Shape &in = x.shape();
  const size_t ndim = in.size();
  Require(pads.size() % 2 == 0 && pads.size() <= 2 * ndim, "Pad", "pads must be pairs, at most one per dim");
  Require(mode == "constant" || mode == "reflect" || mode == "replicate" || mode == "circular", "Pad",
          "unknown mode " + mode);
  std::vector<int64_t> before(ndim, 0), after(ndim, 0);
  for (size_t j = 0; j < pads.size() / 2; ++j) {
    const size_t d = ndim - 1 - j;
    before[d] = pads[2 * j];
    after[d] = pads[2 * j + 1];
    Require(before[d] >= 0 && after[d] >= 0, "Pad", "negative pads");
    const int64_t n = static_cast<int64_t>(in[d]);
    if (mode == "reflect") Require(before[d] < n && after[d] < n, "Pad", "reflect needs pads below the dim");
    if (mode == "circular" || mode == "replicate") Require(n > 0, "Pad", "nothing to repeat");
  }
  Shape out(ndim);
  for (size_t d = 0; d < ndim; ++d) out[d] = in[d] + static_cast<size_t>(before[d] + after[d]);
  std::vector<double> y(NumElements(out));
  std::vector<size_t> index(ndim, 0);
  for (size_t i = 0; i < y.size(); ++i) {
    size_t position = 0;  // x's row-major position
    bool inside = true;
    for (size_t d = 0; d < ndim && inside; ++d) {
      const int64_t source =
          SourceIndex(static_cast<int64_t>(index[d]) - before[d], static_cast<int64_t>(in[d]), mode);
      inside = source >= 0;
      position = position * in[d] + static_cast<size_t>(inside ? source : 0);
    }
    y[i] = inside ? x.GetAt(position) : value;
    for (size_t d = ndim; d-- > 0;) {
      if (++index[d] < out[d]) break;
      index[d] = 0;
    }
  }
  return F64Tensor(out, y);
}

}  // namespace infinicts::oracle
