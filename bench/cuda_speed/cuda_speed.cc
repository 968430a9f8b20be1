// infinicts-cuda-speed: the CUDA reference on nvidia:0 next to cuBLAS called directly and
// the card's own device-to-device copy, measured in one process (see bench/README.md).
//
//   infinicts-cuda-speed [--smoke] [--report-only]
//
// Exit: 0 every ratio reached its target; 1 a ratio is SHORT (not with --report-only);
// 2 a measurement or a check of an output failed, or bad usage; 77 no NVIDIA device (skip).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_cases.h"
#include "cuda_timing.h"
#include "infiniop/handle.h"

namespace {

using namespace infinicts::bench::cuda;

constexpr int kSkipped = 77;

// The vendor's datasheet HBM bandwidth of the parts we know (bytes/s), 0 for any other.
double DatasheetBandwidth(const std::string &name) {
  if (name.find("H200") != std::string::npos) return 4.8e12;
  return 0;
}

void PrintTable(const std::vector<RatioRow> &rows, double datasheet, size_t *short_rows) {
  std::printf("\n%-44s %16s %16s %7s %7s %s\n", "ratio", "reference", "baseline", "ratio", "target", "verdict");
  for (const RatioRow &row : rows) {
    const double ratio = row.reference / row.baseline;
    const bool reached = ratio >= row.target;
    if (!reached) ++*short_rows;
    const double scale = row.bandwidth ? 1e-9 : 1e-12;
    const char *unit = row.bandwidth ? "GB/s" : "TFLOP/s";
    std::printf("%-44s %9.1f %-6s %9.1f %-6s %7.3f %7.2f %s", row.label.c_str(), row.reference * scale, unit,
                row.baseline * scale, unit, ratio, row.target, reached ? "PASS" : "SHORT");
    if (row.bandwidth && datasheet > 0) std::printf("  (%.0f%% of the datasheet)", 100.0 * row.reference / datasheet);
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char **argv) {
  bool smoke = false, report_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--smoke") == 0) {
      smoke = true;
    } else if (std::strcmp(argv[i], "--report-only") == 0) {
      report_only = true;
    } else {
      std::fprintf(stderr, "infinicts-cuda-speed: unknown argument '%s' (usage: [--smoke] [--report-only])\n", argv[i]);
      return 2;
    }
  }
  int devices = 0;
  if (infinirtGetDeviceCount(INFINI_DEVICE_NVIDIA, &devices) != INFINI_STATUS_SUCCESS || devices == 0) {
    std::printf("infinicts-cuda-speed: skip: the runtime reports no NVIDIA device, so nothing was measured\n");
    return kSkipped;
  }
  try {
    CheckRt(infinirtSetDevice(INFINI_DEVICE_NVIDIA, 0), "infinirtSetDevice(nvidia, 0)");
    CheckCuda(cudaSetDevice(0), "cudaSetDevice(0)");
    cudaDeviceProp properties{};
    CheckCuda(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
    BenchContext context;
    context.smoke = smoke;
    CheckRt(infinirtStreamCreate(&context.stream), "infinirtStreamCreate");
    CheckRt(infiniopCreateHandle(&context.handle), "infiniopCreateHandle");
    cudaStream_t cuda_stream = nullptr;
    CheckCuda(cudaStreamCreate(&cuda_stream), "cudaStreamCreate");
    context.cuda_stream = cuda_stream;
    cublasHandle_t cublas = nullptr;
    if (cublasCreate(&cublas) != CUBLAS_STATUS_SUCCESS || cublasSetStream(cublas, cuda_stream) != CUBLAS_STATUS_SUCCESS) {
      throw std::runtime_error("cublasCreate failed");
    }
    // Like for like: the direct call gets a workspace of the size the reference's Gemm
    // asks for (kCublasWorkspaceBytes, 32 MiB), not cuBLAS's default pool.
    void *cublas_workspace = nullptr;
    constexpr size_t kCublasWorkspaceBytes = size_t{32} << 20;
    CheckCuda(cudaMalloc(&cublas_workspace, kCublasWorkspaceBytes), "cudaMalloc(cuBLAS workspace)");
    if (cublasSetWorkspace(cublas, cublas_workspace, kCublasWorkspaceBytes) != CUBLAS_STATUS_SUCCESS) {
      throw std::runtime_error("cublasSetWorkspace failed");
    }
    context.cublas = cublas;
    if (smoke) context.timing = TimingPlan{0.002, 2};

    std::printf("infinicts-cuda-speed on nvidia:0 = %s (%d SMs, %.1f GiB)%s\n", properties.name,
                properties.multiProcessorCount, properties.totalGlobalMem / 1073741824.0, smoke ? ", smoke sizes" : "");
    std::vector<RatioRow> rows;
    AddGemmRows(context, &rows);
    AddBandwidthRows(context, &rows);
    const double datasheet = DatasheetBandwidth(properties.name);
    std::printf("\nGemm: 2mnk / time (row-major, alpha 1, beta 0; the direct call is the same cublasGemmEx the reference "
                "makes: F32 compute, no TF32). Bandwidth: (every input read once + the output written once) / time; "
                "baseline: cudaMemcpyAsync device to device, (bytes read + bytes written) / time. Each figure: the best "
                "batch's time per call.%s\n",
                datasheet > 0 ? " The datasheet figure is the vendor's HBM bandwidth." : "");
    size_t short_rows = 0;
    PrintTable(rows, datasheet, &short_rows);
    std::printf("\n%zu ratios, %zu at target, %zu short\n", rows.size(), rows.size() - short_rows, short_rows);
    cublasDestroy(cublas);
    cudaFree(cublas_workspace);
    cudaStreamDestroy(cuda_stream);
    infiniopDestroyHandle(context.handle);
    infinirtStreamDestroy(context.stream);
    return short_rows > 0 && !report_only ? 1 : 0;
  } catch (const std::exception &error) {
    std::fprintf(stderr, "infinicts-cuda-speed: %s\n", error.what());
    return 2;
  }
}
