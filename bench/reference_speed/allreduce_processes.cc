// AllReduce (sum, out of place) of libinfiniccl.so with its ranks in separate processes,
// as under mpirun: this process is rank 0, and ranks 1..n-1 are this program started again
// with --all-reduce-rank (RunAllReduceRankProcess), which calls the same AllReduces in the
// same order. The time of a collective is rank 0's span from start event to end event: its
// part ends only once every rank has passed the collective's last barrier. The counters are
// the threaded benchmark's (SetAllReduceCounters), so the two stand side by side.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "benchmarks.h"
#include "infiniccl.h"
#include "tensors.h"

extern char **environ;

namespace infinicts::bench {
namespace {

constexpr char kRankFlag[] = "--all-reduce-rank=";

std::string Hex(const infinicclUniqueId_t &id) {
  std::string hex;
  char two[3];
  for (char byte : id.internal) {
    std::snprintf(two, sizeof two, "%02x", static_cast<unsigned char>(byte));
    hex += two;
  }
  return hex;
}

bool FromHex(const std::string &hex, infinicclUniqueId_t *id) {
  if (hex.size() != 2 * sizeof id->internal) return false;
  for (size_t i = 0; i < sizeof id->internal; ++i) {
    id->internal[i] = static_cast<char>(std::strtoul(hex.substr(2 * i, 2).c_str(), nullptr, 16));
  }
  return true;
}

// Rank processes 1..ranks-1, killed and reaped at destruction unless they ended.
class RankProcesses {
 public:
  RankProcesses(int ranks, const infinicclUniqueId_t &id, size_t count, int collectives) {
    for (int rank = 1; rank < ranks; ++rank) {
      std::vector<std::string> args = {"/proc/self/exe", kRankFlag + std::to_string(rank) + "," + std::to_string(ranks) +
                                                             "," + Hex(id) + "," + std::to_string(count) + "," +
                                                             std::to_string(collectives)};
      std::vector<char *> argv;
      for (std::string &arg : args) argv.push_back(arg.data());
      argv.push_back(nullptr);
      pid_t pid = -1;
      if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) == 0) pids_.push_back(pid);
    }
  }
  // Whether every rank process ended with exit 0.
  bool AllSucceeded() {
    bool succeeded = true;
    for (pid_t &pid : pids_) {
      int status = 0;
      succeeded = succeeded && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
      pid = -1;
    }
    return succeeded;
  }
  ~RankProcesses() {
    for (pid_t pid : pids_) {
      if (pid <= 0) continue;
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
  size_t started() const { return pids_.size(); }

 private:
  std::vector<pid_t> pids_;
};

void AllReduceAcrossProcesses(benchmark::State &state, int ranks, size_t count, size_t memcpy_bytes, int iterations) {
  infinicclUniqueId_t id;
  Check(infinicclGetUniqueId(&id), "infinicclGetUniqueId");
  // One warm-up collective, then one per timed iteration.
  RankProcesses others(ranks, id, count, iterations + 1);
  if (others.started() != static_cast<size_t>(ranks - 1)) {
    state.SkipWithError("cannot start the rank processes");
    for (auto _ : state) {
    }
    return;
  }
  ReferenceDevice &device = ReferenceDevice::Get(0);
  device.MakeCurrent();
  infinicclComm_t comm = nullptr;
  Check(infinicclCommInitRank(&comm, ranks, id, 0), "infinicclCommInitRank");
  const size_t bytes = count * sizeof(float);
  DeviceBuffer send(device, bytes), recv(device, bytes);
  FillPattern(send.data(), count, INFINI_DTYPE_F32, 0);
  StreamTimer timer(device);
  const auto once = [&] {
    return timer.Time([&] {
      Check(infinicclAllReduce(send.data(), recv.data(), count, INFINI_DTYPE_F32, INFINICCL_SUM, comm, device.stream()),
            "infinicclAllReduce");
    });
  };
  once();
  PairedMemcpy paired(static_cast<size_t>(ranks), memcpy_bytes);
  for (auto _ : state) {
    paired.CopyOnce();
    state.SetIterationTime(once());
  }
  infinicclCommDestroy(comm);
  if (!others.AllSucceeded()) {
    state.SkipWithError("a rank process failed");
    return;
  }
  paired.Report(state);
  SetAllReduceCounters(state, ranks, bytes);
}

}  // namespace

bool IsAllReduceRankProcess(int argc, char **argv) {
  return argc == 2 && std::strncmp(argv[1], kRankFlag, std::strlen(kRankFlag)) == 0;
}

int RunAllReduceRankProcess(char *flag) {
  std::vector<std::string> fields;
  std::string rest = flag + std::strlen(kRankFlag);
  for (size_t comma; (comma = rest.find(',')) != std::string::npos; rest = rest.substr(comma + 1)) {
    fields.push_back(rest.substr(0, comma));
  }
  fields.push_back(rest);
  infinicclUniqueId_t id;
  if (fields.size() != 5 || !FromHex(fields[2], &id)) return 2;
  const int rank = std::atoi(fields[0].c_str()), ranks = std::atoi(fields[1].c_str());
  const size_t count = std::strtoull(fields[3].c_str(), nullptr, 10);
  const int collectives = std::atoi(fields[4].c_str());
  ReferenceDevice &device = ReferenceDevice::Get(rank % CpuDeviceCount());
  device.MakeCurrent();
  infinicclComm_t comm = nullptr;
  if (infinicclCommInitRank(&comm, ranks, id, rank) != INFINI_STATUS_SUCCESS) return 1;
  DeviceBuffer send(device, count * sizeof(float)), recv(device, count * sizeof(float));
  FillPattern(send.data(), count, INFINI_DTYPE_F32, static_cast<unsigned>(rank));
  for (int i = 0; i < collectives; ++i) {
    if (infinicclAllReduce(send.data(), recv.data(), count, INFINI_DTYPE_F32, INFINICCL_SUM, comm, device.stream()) !=
            INFINI_STATUS_SUCCESS ||
        infinirtStreamSynchronize(device.stream()) != INFINI_STATUS_SUCCESS) {
      return 1;
    }
  }
  infinicclCommDestroy(comm);
  return 0;
}

void RegisterAllReduceProcessBenchmarks(const SpeedConfig &config, std::vector<RatioRow> *rows) {
  const int ranks = config.allreduce_ranks;
  const size_t count = config.allreduce_count;
  const int iterations = config.allreduce_process_iterations;
  const std::string name =
      "ref/all_reduce_processes/f32/ranks:" + std::to_string(ranks) + "/count:" + std::to_string(count);
  const size_t memcpy_bytes = config.memcpy_bytes;
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State &state) {
    AllReduceAcrossProcesses(state, ranks, count, memcpy_bytes, iterations);
  })
      ->UseManualTime()
      ->Iterations(iterations)  // the rank processes call exactly as many
      ->Repetitions(config.repetitions)
      ->ComputeStatistics("max", MaxOf)
      ->DisplayAggregatesOnly(config.repetitions > 1)
      ->Unit(benchmark::kMillisecond);
  rows->push_back({"all_reduce F32 sum " + std::to_string(ranks) + " processes memory traffic vs memcpy", name, name,
                   "traffic_bytes_per_second", kPairedMemcpyCounter, 0.5});
}

}  // namespace infinicts::bench
