// infinicts-reference-speed: how fast the CPU reference is next to the host's own
// figures, measured side by side in one process (see bench/README.md).
//
//   infinicts-reference-speed [--smoke] [--report-only] [Google Benchmark flags]
//
// Exit: 0 every ratio reached its target (or is BOUND); 1 a ratio is SHORT (not with --report-only);
// 2 a ratio could not be measured (a benchmark failed or was filtered out), or bad usage.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <exception>
#include <string>
#include <vector>

#include "benchmarks.h"
#include "ratio_table.h"

namespace {

struct Options {
  bool smoke = false;
  bool report_only = false;
  bool color = false;
};

// Takes this program's own flags out of argv, leaving Google Benchmark's.
Options TakeOwnFlags(int *argc, char **argv) {
  Options options;
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    if (std::strcmp(argv[i], "--smoke") == 0) {
      options.smoke = true;
    } else if (std::strcmp(argv[i], "--report-only") == 0) {
      options.report_only = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  argv[kept] = nullptr;
  // Our reporter replaces Google Benchmark's console one, so --benchmark_color is read here:
  // colour on a terminal unless it says false/no/0.
  options.color = isatty(fileno(stdout)) != 0;
  for (int i = 1; i < *argc; ++i) {
    const std::string flag = argv[i];
    if (flag.rfind("--benchmark_color=", 0) == 0) {
      const std::string value = flag.substr(std::strlen("--benchmark_color="));
      options.color = !(value == "false" || value == "no" || value == "0");
    }
  }
  return options;
}

}  // namespace

int main(int argc, char **argv) {
  using namespace infinicts::bench;
  if (IsAllReduceRankProcess(argc, argv)) return RunAllReduceRankProcess(argv[1]);
  const Options options = TakeOwnFlags(&argc, argv);
  const SpeedConfig config = options.smoke ? SpeedConfig::Smoke() : SpeedConfig::Full();
  // The AllReduce ranks are CPU devices; the runtime reads this when it starts.
  const std::string devices = std::to_string(config.allreduce_ranks);
  setenv("INFINICTS_CPU_DEVICES", devices.c_str(), /*overwrite=*/0);

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  std::vector<RatioRow> rows;
  try {
    RegisterSgemmBaseline(config);
    RegisterOpBenchmarks(config, &rows);
    RegisterI8GemmBenchmarks(config, &rows);
    RegisterAllReduceBenchmarks(config, &rows);
    RegisterAllReduceProcessBenchmarks(config, &rows);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "infinicts-reference-speed: %s\n", error.what());
    return 2;
  }

  RecordingReporter reporter(options.color);
  try {
    benchmark::RunSpecifiedBenchmarks(&reporter);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "infinicts-reference-speed: %s\n", error.what());
    return 2;
  }
  benchmark::Shutdown();

  std::fflush(stdout);
  std::printf("\nBandwidth: memcpy = (bytes read + bytes written) / time, one copy of %.2f MiB timed just before "
              "each timed call of the reference (%zu threads for the operators, %d for AllReduce); operator = (every "
              "input read once + the output written once) / time; AllReduce busbw = 2(n-1)/n x bytes / time. Each "
              "figure is the best of %d repetition(s).\n",
              static_cast<double>(config.memcpy_bytes) / (1 << 20), ReferenceThreads(), config.allreduce_ranks, config.repetitions);
  const TableOutcome outcome = PrintRatioTable(rows, reporter, stdout);
  std::fflush(stdout);
  if (outcome.measured < outcome.rows) return 2;
  if (outcome.short_rows > 0 && !options.report_only) return 1;
  return 0;
}
