// I8Gemm through libinfiniop.so against oneDNN's int8 matmul called directly (s8 × s8 into
// s32, the same operand layouts: x row-major, weights column-major), m = n = k. The reference
// also scales, adds the bias and rounds to F16, which oneDNN's plain matmul does not: the
// ratio charges that epilogue to the reference. oneDNN's sums are checked against exact ones
// on a sample (counter `inexact_sums`): without VNNI it multiplies with vpmaddubsw, whose
// saturating pair sums OP-I8GEMM-4 forbids, so its rate there is not one an exact kernel can
// reach (bench/README.md).
#include <oneapi/dnnl/dnnl.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "benchmarks.h"
#include "infiniop.h"
#include "tensors.h"

namespace infinicts::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Full-range int8 in a fixed pattern shifted by `seed` (every value, −128 included).
void FillInt8(int8_t *data, size_t count, unsigned seed) {
  for (size_t i = 0; i < count; ++i) data[i] = static_cast<int8_t>(static_cast<int>((i * 37 + seed * 101) % 256) - 128);
}

double Flops(size_t size) { return 2.0 * static_cast<double>(size) * static_cast<double>(size) * static_cast<double>(size); }

void ReferenceI8Gemm(benchmark::State &state, size_t size) {
  const ReferenceDevice &device = ReferenceDevice::Get(0);
  const ptrdiff_t n = static_cast<ptrdiff_t>(size);
  const TensorDesc out({size, size}, INFINI_DTYPE_F16), bias({size}, INFINI_DTYPE_F16),
      x({size, size}, INFINI_DTYPE_I8), scale({size}, INFINI_DTYPE_F32),
      weights({size, size}, {1, n}, INFINI_DTYPE_I8);
  infiniopI8GemmDescriptor_t desc = nullptr;
  Check(infiniopCreateI8GemmDescriptor(device.handle(), &desc, out.get(), bias.get(), x.get(), scale.get(),
                                       weights.get(), scale.get()),
        "i8_gemm");
  size_t workspace_bytes = 0;
  Check(infiniopGetI8GemmWorkspaceSize(desc, &workspace_bytes), "i8_gemm workspace");
  const auto workspace = workspace_bytes > 0 ? std::make_unique<DeviceBuffer>(device, workspace_bytes) : nullptr;
  DeviceBuffer out_data(device, size * size * 2), bias_data(device, size * 2), x_data(device, size * size),
      weights_data(device, size * size), scales(device, size * 4);
  FillInt8(static_cast<int8_t *>(x_data.data()), size * size, 1);
  FillInt8(static_cast<int8_t *>(weights_data.data()), size * size, 2);
  FillPattern(bias_data.data(), size, INFINI_DTYPE_F16, 3);
  auto *scale_values = static_cast<float *>(scales.data());
  for (size_t i = 0; i < size; ++i) scale_values[i] = 1.0f / 4096.0f;
  RunReferenceLoop(state, device, [&] {
    Check(infiniopI8Gemm(desc, workspace ? workspace->data() : nullptr, workspace_bytes, out_data.data(),
                         bias_data.data(), x_data.data(), scales.data(), weights_data.data(), scales.data(),
                         device.stream()),
          "i8_gemm");
  }, static_cast<double>(size * size * 4), Flops(size), nullptr);
  infiniopDestroyI8GemmDescriptor(desc);
}

// How many of a sample of 64 sums (a diagonal and its neighbours) differ from the exact ones.
size_t InexactSums(const dnnl::memory &x, const dnnl::memory &weights, const dnnl::memory &sums, size_t size) {
  const auto *xs = static_cast<const int8_t *>(x.get_data_handle());
  const auto *ws = static_cast<const int8_t *>(weights.get_data_handle());
  const auto *got = static_cast<const int32_t *>(sums.get_data_handle());
  size_t inexact = 0;
  for (size_t i = 0; i < 64; ++i) {
    const size_t row = (i * 7) % size, column = (i * 13 + 1) % size;
    int64_t exact = 0;
    for (size_t k = 0; k < size; ++k) exact += int64_t{xs[row * size + k]} * int64_t{ws[column * size + k]};
    inexact += exact != got[row * size + column] ? 1 : 0;
  }
  return inexact;
}

void OnednnS8Matmul(benchmark::State &state, size_t size) {
  using dnnl::memory;
  const memory::dim n = static_cast<memory::dim>(size);
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const memory::desc src({n, n}, memory::data_type::s8, memory::format_tag::ab);
  const memory::desc weights({n, n}, memory::data_type::s8, memory::format_tag::ba);  // column-major [k, n]
  const memory::desc dst({n, n}, memory::data_type::s32, memory::format_tag::ab);
  const dnnl::matmul matmul(dnnl::matmul::primitive_desc(dnnl::matmul::desc(src, weights, dst), engine));
  memory src_memory(src, engine), weights_memory(weights, engine), dst_memory(dst, engine);
  FillInt8(static_cast<int8_t *>(src_memory.get_data_handle()), size * size, 1);
  FillInt8(static_cast<int8_t *>(weights_memory.get_data_handle()), size * size, 2);
  const std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, src_memory}, {DNNL_ARG_WEIGHTS, weights_memory}, {DNNL_ARG_DST, dst_memory}};
  const auto multiply = [&] {
    matmul.execute(stream, args);
    stream.wait();
  };
  multiply();
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    multiply();
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
  }
  state.counters["inexact_sums"] = static_cast<double>(InexactSums(src_memory, weights_memory, dst_memory, size));
  state.counters["flop_per_second"] =
      benchmark::Counter(Flops(size) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

void RegisterI8GemmBenchmarks(const SpeedConfig &config, std::vector<RatioRow> *rows) {
  // Half of oneDNN's rate: on a CPU without VNNI its saturating pair sums have twice the
  // throughput of the exact vpmaddwd sums (bench/README.md).
  constexpr double kI8GemmTarget = 0.4;
  const size_t size = config.gemm_size;
  const std::string reference = "ref/i8_gemm/f16/" + std::to_string(size);
  const std::string baseline = "host/onednn_s8_matmul/" + std::to_string(size);
  RegisterTimed(config, reference, [=](benchmark::State &state) { ReferenceI8Gemm(state, size); });
  RegisterTimed(config, baseline, [=](benchmark::State &state) { OnednnS8Matmul(state, size); });
  rows->push_back({"I8Gemm F16 " + std::to_string(size) + "^3 vs oneDNN s8 matmul", reference, baseline,
                   "flop_per_second", "flop_per_second", kI8GemmTarget});
}

}  // namespace infinicts::bench
