#include "paired_memcpy.h"

#include <chrono>
#include <cstring>

namespace infinicts::bench {

PairedMemcpy::PairedMemcpy(size_t threads, size_t bytes)
    : workers_(threads), bytes_(bytes), src_(new char[bytes]), dst_(new char[bytes]) {
  std::memset(src_.get(), 1, bytes_);
  ThreadedMemcpy(workers_, dst_.get(), src_.get(), bytes_);  // first touch of dst on the copying threads
}

void PairedMemcpy::CopyOnce() {
  const auto start = std::chrono::steady_clock::now();
  ThreadedMemcpy(workers_, dst_.get(), src_.get(), bytes_);
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++copies_;
}

void PairedMemcpy::Report(benchmark::State &state) const {
  if (copies_ == 0 || !(seconds_ > 0)) return;
  state.counters[kPairedMemcpyCounter] = 2.0 * static_cast<double>(bytes_) * static_cast<double>(copies_) / seconds_;
}

}  // namespace infinicts::bench
