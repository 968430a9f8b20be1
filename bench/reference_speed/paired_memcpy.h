// The memcpy baseline of the bandwidth ratios, timed next to the reference: one threaded
// copy just before each timed call of the operator (or collective). This machine's memory
// bandwidth drifts by up to 3x within minutes as other tenants load it; a baseline from
// another moment of the run would decide the ratios more than the code does. Paired, both
// figures come from the same window of time.
#ifndef INFINICTS_BENCH_REFERENCE_SPEED_PAIRED_MEMCPY_H
#define INFINICTS_BENCH_REFERENCE_SPEED_PAIRED_MEMCPY_H

#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>
#include <string>

#include "host_workers.h"

namespace infinicts::bench {

// The counter each paired benchmark reports: (bytes read + bytes written) / time of its
// memcpy runs.
inline const std::string kPairedMemcpyCounter = "memcpy_bytes_per_second";

class PairedMemcpy {
 public:
  // `bytes` copied by `threads` persistent threads (equal parts), pages touched first.
  PairedMemcpy(size_t threads, size_t bytes);

  // One copy, timed with the host's steady clock; also counted for Report().
  void CopyOnce();
  // Sets kPairedMemcpyCounter on `state` from the copies made so far.
  void Report(benchmark::State &state) const;

 private:
  HostWorkers workers_;
  size_t bytes_;
  std::unique_ptr<char[]> src_, dst_;
  double seconds_ = 0;
  size_t copies_ = 0;
};

}  // namespace infinicts::bench

#endif  // INFINICTS_BENCH_REFERENCE_SPEED_PAIRED_MEMCPY_H
