// Conv perf: ResNet-50's conv2_x 3×3 convolution, 64 → 64 channels on 56×56, batch 1, pad 1,
// stride 1, with bias (y and x [1, 64, 56, 56], w [64, 64, 3, 3]). Dyadic data as in the
// accuracy cases; 256 sampled elements, each the oracle over its zero-padded 3×3 patch.
#include <memory>

#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr size_t kChannels = 64, kSide = 56, kKernel = 3, kPad = 1;

struct ConvPerf {
  static constexpr const char *kSubject = "conv";
  static std::vector<std::string> MathClauses() { return {"OP-CONV-4", "OP-CONV-5"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<PerfProblem> problems;
    for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
      PerfProblem p;
      p.dtype = dtype;
      p.model = "resnet50";
      p.part = "conv2_3x3";
      p.dims = {{"batch", 1}, {"c_in", kChannels}, {"c_out", kChannels}, {"h", kSide}, {"w", kSide},
                {"kernel", kKernel}, {"pad", kPad}};
      problems.push_back(p);
    }
    return problems;
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const Layout image = ContiguousLayout({1, kChannels, kSide, kSide});
    return {{"y", Role::kOutput, p.dtype, image},
            {"x", Role::kInput, p.dtype, image},
            {"w", Role::kInput, p.dtype, ContiguousLayout({kChannels, kChannels, kKernel, kKernel})},
            {"b", Role::kInput, p.dtype, ContiguousLayout({kChannels})}};
  }
  static OpCalls Calls(const PerfProblem &) {
    return OperatorCalls<api::Conv>(std::make_tuple(AttributeArray(std::vector<size_t>(2, kPad)),
                                                    AttributeArray(std::vector<ptrdiff_t>(2, 1)),
                                                    AttributeArray(std::vector<size_t>(2, 1)), size_t{2}));
  }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    for (size_t i = 1; i < t.size(); ++i) FillDyadic(t[i], rng, -8, 8, 2);
  }
  static PerfCost Cost(const PerfProblem &, const std::vector<TensorSpec> &specs) {
    return ConvCost(1, kChannels, kChannels, {kSide, kSide}, {kKernel, kKernel}, specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.element = [](const std::vector<HostTensor> &t, size_t, size_t flat) {
      const size_t out_channel = flat / (kSide * kSide), row = flat / kSide % kSide, column = flat % kSide;
      // The receptive field of y[0, out_channel, row, column], zeros where the padding is.
      HostTensor patch(t[1].dtype(), Shape{1, kChannels, kKernel, kKernel});
      for (size_t c = 0; c < kChannels; ++c) {
        for (size_t i = 0; i < kKernel; ++i) {
          for (size_t j = 0; j < kKernel; ++j) {
            const ptrdiff_t r = static_cast<ptrdiff_t>(row + i) - static_cast<ptrdiff_t>(kPad);
            const ptrdiff_t s = static_cast<ptrdiff_t>(column + j) - static_cast<ptrdiff_t>(kPad);
            const bool inside = r >= 0 && s >= 0 && r < static_cast<ptrdiff_t>(kSide) && s < static_cast<ptrdiff_t>(kSide);
            patch.Set({0, c, i, j}, inside ? t[1].Get({0, c, static_cast<size_t>(r), static_cast<size_t>(s)}) : 0.0);
          }
        }
      }
      const size_t filter = kChannels * kKernel * kKernel;
      const HostTensor w = GatherElements(t[2], {1, kChannels, kKernel, kKernel}, out_channel * filter, 1);
      const HostTensor b = GatherElements(t[3], {1}, out_channel, 1);
      return oracle::Conv(patch, w, &b, {}, {}, {}).GetAt(0);
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(ConvPerf);

}  // namespace
}  // namespace infinicts::op_cases
