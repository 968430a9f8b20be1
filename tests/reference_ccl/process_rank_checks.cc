#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "process_rank_checks.h"

namespace ccl_test {
namespace {

thread_local bool failed = false;

#define CHECK_OK(expr)                                                                        \
  do {                                                                                        \
    const int status_ = (expr);                                                               \
    if (status_ != INFINI_STATUS_SUCCESS) {                                                   \
      std::fprintf(stderr, "rank %d: %s answered %d\n", rank, #expr, status_);                \
      failed = true;                                                                          \
      return;                                                                                 \
    }                                                                                         \
  } while (0)

int32_t Value(int rank, size_t i) { return static_cast<int32_t>((i * 7919 + static_cast<size_t>(rank) * 104729) % 100003) - 50000; }

struct Device {
  int rank;
  infinirtStream_t stream = nullptr;
  // A device buffer holding `values` (or `count` zeros), read back after a synchronize.
  void *Upload(const std::vector<int32_t> &values) {
    void *buffer = nullptr;
    infinirtMalloc(&buffer, values.size() * 4 + 4);
    infinirtMemcpy(buffer, values.data(), values.size() * 4, INFINIRT_MEMCPY_H2D);
    return buffer;
  }
  std::vector<int32_t> Download(void *buffer, size_t count) {
    std::vector<int32_t> values(count);
    infinirtMemcpy(values.data(), buffer, count * 4, INFINIRT_MEMCPY_D2H);
    return values;
  }
};

void Expect(int rank, const char *what, const std::vector<int32_t> &got, const std::vector<int32_t> &want) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      std::fprintf(stderr, "rank %d: %s: element %zu of %zu is %d, expected %d\n", rank, what, i, want.size(), got[i],
                   want[i]);
      failed = true;
      return;
    }
  }
}

// The mappings of the reference runtime's shareable device blocks in this process, its own
// and its peers' (the memfd's name shows in /proc/self/maps).
int MappedDeviceBlocks() {
  FILE *maps = std::fopen("/proc/self/maps", "r");
  if (maps == nullptr) return 0;
  int blocks = 0;
  char line[4096];
  while (std::fgets(line, sizeof line, maps) != nullptr) {
    if (std::strstr(line, "memfd:infinicts-device-block") != nullptr) ++blocks;
  }
  std::fclose(maps);
  return blocks;
}

std::vector<int32_t> Data(int rank, size_t count, size_t shift = 0) {
  std::vector<int32_t> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = Value(rank, i + shift);
  return values;
}

void RunRank(int nranks, int rank, infinicclUniqueId_t id, PeerBuffers expected) {
  failed = false;
  int devices = 0;
  CHECK_OK(infinirtGetDeviceCount(INFINI_DEVICE_CPU, &devices));
  if (devices <= 0) {
    std::fprintf(stderr, "rank %d: no CPU device (INFINICTS_CPU_DEVICES)\n", rank);
    failed = true;
    return;
  }
  CHECK_OK(infinirtSetDevice(INFINI_DEVICE_CPU, rank % devices));
  infinicclComm_t comm = nullptr;
  CHECK_OK(infinicclCommInitRank(&comm, nranks, id, rank));
  Device device{rank};
  CHECK_OK(infinirtStreamCreate(&device.stream));
  const auto sync = [&] { return infinirtStreamSynchronize(device.stream); };

  // AllReduce SUM over several windows, in place.
  {
    const size_t count = 2500007;
    void *buffer = device.Upload(Data(rank, count));
    CHECK_OK(infinicclAllReduce(buffer, buffer, count, INFINI_DTYPE_I32, INFINICCL_SUM, comm, device.stream));
    CHECK_OK(sync());
    std::vector<int32_t> want(count, 0);
    for (int q = 0; q < nranks; ++q) {
      for (size_t i = 0; i < count; ++i) want[i] += Value(q, i);
    }
    Expect(rank, "AllReduce SUM in place", device.Download(buffer, count), want);
    // Buffers this large are shared, not staged, in shared memory: this process maps every
    // peer's block besides its own (the ranks of a process share the one block of theirs it
    // maps). Over MPI no block is made shareable at all.
    const int blocks = MappedDeviceBlocks();
    if (expected == PeerBuffers::kMapped && blocks < nranks) {
      std::fprintf(stderr, "rank %d: %d shareable device block(s) mapped after a 10 MB AllReduce of %d ranks: "
                   "the peers' buffers were not mapped (staged instead)\n", rank, blocks, nranks);
      failed = true;
    }
    if (expected == PeerBuffers::kUnmapped && blocks != 0) {
      std::fprintf(stderr, "rank %d: %d shareable device block(s) mapped after a 10 MB AllReduce: the ranks met in "
                   "shared memory, not over MPI\n", rank, blocks);
      failed = true;
    }
    infinirtFree(buffer);
  }
  // AllReduce MAX, apart.
  {
    const size_t count = 1001;
    void *send = device.Upload(Data(rank, count));
    void *recv = device.Upload(std::vector<int32_t>(count, 0));
    CHECK_OK(infinicclAllReduce(send, recv, count, INFINI_DTYPE_I32, INFINICCL_MAX, comm, device.stream));
    CHECK_OK(sync());
    std::vector<int32_t> want = Data(0, count);
    for (int q = 1; q < nranks; ++q) {
      for (size_t i = 0; i < count; ++i) want[i] = std::max(want[i], Value(q, i));
    }
    Expect(rank, "AllReduce MAX", device.Download(recv, count), want);
    infinirtFree(send);
    infinirtFree(recv);
  }
  // Broadcast from the last rank; the others pass no send buffer.
  {
    const size_t count = 1300001;
    const int root = nranks - 1;
    void *send = rank == root ? device.Upload(Data(rank, count)) : nullptr;
    void *recv = device.Upload(std::vector<int32_t>(count, 0));
    CHECK_OK(infinicclBroadcast(send, recv, count, INFINI_DTYPE_I32, root, comm, device.stream));
    CHECK_OK(sync());
    Expect(rank, "Broadcast", device.Download(recv, count), Data(root, count));
    if (send) infinirtFree(send);
    infinirtFree(recv);
  }
  // AllGather and ReduceScatter with segments past one window.
  {
    const size_t count = 300001;
    void *send = device.Upload(Data(rank, count));
    void *recv = device.Upload(std::vector<int32_t>(count * nranks, 0));
    CHECK_OK(infinicclAllGather(send, recv, count, INFINI_DTYPE_I32, comm, device.stream));
    CHECK_OK(sync());
    std::vector<int32_t> want;
    for (int q = 0; q < nranks; ++q) {
      const std::vector<int32_t> part = Data(q, count);
      want.insert(want.end(), part.begin(), part.end());
    }
    Expect(rank, "AllGather", device.Download(recv, count * nranks), want);
    infinirtFree(send);
    infinirtFree(recv);

    void *all = device.Upload(Data(rank, count * nranks));
    void *mine = device.Upload(std::vector<int32_t>(count, 0));
    CHECK_OK(infinicclReduceScatter(all, mine, count, INFINI_DTYPE_I32, INFINICCL_SUM, comm, device.stream));
    CHECK_OK(sync());
    std::vector<int32_t> sums(count, 0);
    for (int q = 0; q < nranks; ++q) {
      for (size_t i = 0; i < count; ++i) sums[i] += Value(q, static_cast<size_t>(rank) * count + i);
    }
    Expect(rank, "ReduceScatter", device.Download(mine, count), sums);
    infinirtFree(all);
    infinirtFree(mine);
  }
  // The variable-size forms: unequal blocks past one window, one of them empty.
  {
    std::vector<size_t> counts(static_cast<size_t>(nranks));
    std::vector<size_t> offsets(static_cast<size_t>(nranks) + 1, 0);
    for (int q = 0; q < nranks; ++q) {
      counts[static_cast<size_t>(q)] = q == 1 ? 0 : 150001 * static_cast<size_t>(q + 1);
      offsets[static_cast<size_t>(q) + 1] = offsets[static_cast<size_t>(q)] + counts[static_cast<size_t>(q)];
    }
    const size_t total = offsets.back(), own = counts[static_cast<size_t>(rank)];
    void *send = own > 0 ? device.Upload(Data(rank, own)) : nullptr;
    void *recv = device.Upload(std::vector<int32_t>(total, 0));
    CHECK_OK(infinicclAllGatherV(send, recv, counts.data(), nranks, INFINI_DTYPE_I32, comm, device.stream));
    CHECK_OK(sync());
    std::vector<int32_t> want;
    for (int q = 0; q < nranks; ++q) {
      const std::vector<int32_t> part = Data(q, counts[static_cast<size_t>(q)]);
      want.insert(want.end(), part.begin(), part.end());
    }
    Expect(rank, "AllGatherV", device.Download(recv, total), want);
    if (send) infinirtFree(send);
    infinirtFree(recv);

    void *all = device.Upload(Data(rank, total));
    void *block = own > 0 ? device.Upload(std::vector<int32_t>(own, 0)) : nullptr;
    CHECK_OK(infinicclReduceScatterV(all, block, counts.data(), nranks, INFINI_DTYPE_I32, INFINICCL_SUM, comm,
                                     device.stream));
    CHECK_OK(sync());
    std::vector<int32_t> sums(own, 0);
    for (int q = 0; q < nranks; ++q) {
      for (size_t i = 0; i < own; ++i) sums[i] += Value(q, offsets[static_cast<size_t>(rank)] + i);
    }
    if (own > 0) Expect(rank, "ReduceScatterV", device.Download(block, own), sums);
    infinirtFree(all);
    if (block) infinirtFree(block);
  }
  // A ring of Send then Recv, no group: Send never waits. A small message and a large one.
  if (nranks > 1) {
    for (size_t count : {size_t{17}, size_t{3000001}}) {
      void *send = device.Upload(Data(rank, count, 11));
      void *recv = device.Upload(std::vector<int32_t>(count, 0));
      const int next = (rank + 1) % nranks, previous = (rank + nranks - 1) % nranks;
      CHECK_OK(infinicclSend(send, count, INFINI_DTYPE_I32, next, comm, device.stream));
      CHECK_OK(infinicclRecv(recv, count, INFINI_DTYPE_I32, previous, comm, device.stream));
      CHECK_OK(sync());
      Expect(rank, "Send/Recv ring", device.Download(recv, count), Data(previous, count, 11));
      infinirtFree(send);
      infinirtFree(recv);
    }
  }
  CHECK_OK(infinirtStreamDestroy(device.stream));
  CHECK_OK(infinicclCommDestroy(comm));
}

}  // namespace

bool RunProcessRank(int nranks, int rank, infinicclUniqueId_t id, PeerBuffers expected) {
  RunRank(nranks, rank, id, expected);
  return !failed;
}

}  // namespace ccl_test
