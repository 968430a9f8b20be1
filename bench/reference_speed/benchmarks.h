// Registration of every benchmark of the run with Google Benchmark; each adds the ratio
// rows that compare its reference figures with their baselines.
#ifndef INFINICTS_BENCH_REFERENCE_SPEED_BENCHMARKS_H
#define INFINICTS_BENCH_REFERENCE_SPEED_BENCHMARKS_H

#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <vector>

#include "paired_memcpy.h"
#include "ratio_table.h"
#include "reference_device.h"
#include "speed_config.h"

namespace infinicts::bench {

// Threads of the reference's operator pool, which sizes itself to the hardware; the
// memcpy baseline of the operators uses the same number.
size_t ReferenceThreads();

// Name of the host baseline of the Gemm ratio.
std::string SgemmName(size_t size);

void RegisterSgemmBaseline(const SpeedConfig &config);
void RegisterOpBenchmarks(const SpeedConfig &config, std::vector<RatioRow> *rows);
// I8Gemm against oneDNN's int8 matmul (int8_gemm_benchmarks.cc).
void RegisterI8GemmBenchmarks(const SpeedConfig &config, std::vector<RatioRow> *rows);
void RegisterAllReduceBenchmarks(const SpeedConfig &config, std::vector<RatioRow> *rows);
// An AllReduce benchmark's busbw (nccl-tests), memory traffic (2n x bytes) and algbw counters,
// for `bytes` per rank per call over the state's iterations.
void SetAllReduceCounters(benchmark::State &state, int ranks, size_t bytes);
// The same AllReduce with each rank in a process of its own (allreduce_processes.cc): this
// program started again as a rank process, told so by its one argument.
void RegisterAllReduceProcessBenchmarks(const SpeedConfig &config, std::vector<RatioRow> *rows);
bool IsAllReduceRankProcess(int argc, char **argv);
int RunAllReduceRankProcess(char *flag);

// The "max" statistic over repetitions (of a rate: the best one), which the ratio table reads.
double MaxOf(const std::vector<double> &values);

// Registers `body` as a benchmark timed manually (SetIterationTime) at the run's minimum time
// and repetitions, with the "max" statistic the ratio table reads.
void RegisterTimed(const SpeedConfig &config, const std::string &name, std::function<void(benchmark::State &)> body);

// The timing loop of a reference benchmark: each iteration is one call of `enqueue`
// (which queues the work on `device`'s stream), timed by the stream's events, preceded by
// one copy of `paired` when it is not null (the bandwidth ratios' baseline, see
// paired_memcpy.h). The rates come from bytes and flops per call.
void RunReferenceLoop(benchmark::State &state, const ReferenceDevice &device, const std::function<void()> &enqueue,
                      double bytes_per_call, double flops_per_call, PairedMemcpy *paired);

}  // namespace infinicts::bench

#endif  // INFINICTS_BENCH_REFERENCE_SPEED_BENCHMARKS_H
