// One process of a communicator whose ranks are separate processes, started by
// processes_test.cc: `reference_ccl_process_rank NRANKS RANK ID_HEX THREADS [late_ms]`.
// It drives THREADS consecutive ranks (RANK, RANK+1, …), one thread each, through
// process_rank_checks.h. Exit 0 when every check held; else 1, with what differed on stderr.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "process_rank_checks.h"

namespace {

bool ParseId(const char *hex, infinicclUniqueId_t *id) {
  if (std::strlen(hex) != 2 * sizeof id->internal) return false;
  for (size_t i = 0; i < sizeof id->internal; ++i) {
    unsigned value = 0;
    if (std::sscanf(hex + 2 * i, "%2x", &value) != 1) return false;
    id->internal[i] = static_cast<char>(value);
  }
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  infinicclUniqueId_t id;
  if (argc < 5 || !ParseId(argv[3], &id)) {
    std::fprintf(stderr, "usage: %s NRANKS RANK ID_HEX THREADS [late_ms]\n", argv[0]);
    return 2;
  }
  const int nranks = std::atoi(argv[1]), first = std::atoi(argv[2]), threads = std::atoi(argv[4]);
  if (argc > 5) std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(argv[5])));
  std::atomic<bool> passed{true};
  std::vector<std::thread> ranks;
  for (int rank = first; rank < first + threads; ++rank) {
    ranks.emplace_back([&passed, nranks, rank, id] {
      if (!ccl_test::RunProcessRank(nranks, rank, id, ccl_test::PeerBuffers::kMapped)) passed = false;
    });
  }
  for (std::thread &rank : ranks) rank.join();
  return passed ? 0 : 1;
}
