// Problem sizes and run lengths of one benchmark run: the full run (large tensors, out
// of cache) or the smoke run (small tensors, a few iterations, for CI).
#ifndef INFINICTS_BENCH_REFERENCE_SPEED_SPEED_CONFIG_H
#define INFINICTS_BENCH_REFERENCE_SPEED_SPEED_CONFIG_H

#include <cstddef>

namespace infinicts::bench {

struct SpeedConfig {
  bool smoke = false;
  double min_time_s = 0.3;         // per benchmark and repetition
  int repetitions = 3;             // the ratio table takes the best of them
  size_t row_length = 4096;        // last dim of elementwise, norm and softmax tensors
  size_t rows = 4096;              // rows of those tensors: 16 M elements
  size_t causal_heads = 16;        // CausalSoftmax (heads, seq, seq)
  size_t causal_seq = 1024;
  size_t gemm_size = 1024;         // m = n = k
  size_t allreduce_count = 8 << 20;  // F32 elements per rank
  int allreduce_ranks = 4;
  int allreduce_process_iterations = 20;  // timed collectives of the rank processes, per repetition
  size_t memcpy_bytes = size_t{64} << 20;  // = one F32 tensor of rows x row_length

  static SpeedConfig Full() { return SpeedConfig{}; }
  static SpeedConfig Smoke() {
    SpeedConfig config;
    config.smoke = true;
    config.min_time_s = 0.01;
    config.repetitions = 1;
    config.row_length = 256;
    config.rows = 64;
    config.causal_heads = 2;
    config.causal_seq = 64;
    config.gemm_size = 64;
    config.allreduce_count = 16 << 10;
    config.allreduce_process_iterations = 3;
    config.memcpy_bytes = config.rows * config.row_length * 4;
    return config;
  }
};

}  // namespace infinicts::bench

#endif  // INFINICTS_BENCH_REFERENCE_SPEED_SPEED_CONFIG_H
