// The fault `free_async_reused_at_once`: a caching allocator that files a FreeAsync'd block as
// free at the call, not when its stream reaches the free, and hands it to the next Malloc of
// the same size, as a pool without stream events does. Work still queued on the stream then
// writes into the new owner's memory. A cached block a later Malloc takes is freed for real
// by its Free; blocks never taken again stay with the target until the process ends.
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "rt/rt_faults.h"

namespace infinicts::fault {
namespace {

std::mutex g_mutex;
std::unordered_map<void *, size_t> g_sizes;   // live blocks from Malloc, by size
std::multimap<size_t, void *> g_free_blocks;  // FreeAsync'd blocks, filed at once
std::unordered_set<void *> g_filed;

infiniStatus_t MallocFromCache(void **p, size_t size) {
  if (p != nullptr && size > 0) {
    std::lock_guard<std::mutex> lock(g_mutex);
    const auto cached = g_free_blocks.find(size);
    if (cached != g_free_blocks.end()) {
      *p = cached->second;
      g_filed.erase(cached->second);
      g_free_blocks.erase(cached);
      return INFINI_STATUS_SUCCESS;
    }
  }
  const infiniStatus_t status = TargetRt().infinirtMalloc(p, size);
  if (status == INFINI_STATUS_SUCCESS && p != nullptr && *p != nullptr) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_sizes[*p] = size;
  }
  return status;
}

infiniStatus_t FreeAsyncFilingAtOnce(void *p, infinirtStream_t stream) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_filed.count(p) != 0) return INFINI_STATUS_BAD_PARAM;  // freed twice
    const auto live = g_sizes.find(p);
    if (live != g_sizes.end()) {
      g_free_blocks.emplace(live->second, p);
      g_filed.insert(p);
      return INFINI_STATUS_SUCCESS;
    }
  }
  return TargetRt().infinirtFreeAsync(p, stream);
}

infiniStatus_t FreeForgetting(void *p) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_filed.count(p) != 0) return INFINI_STATUS_BAD_PARAM;  // already freed
    g_sizes.erase(p);
  }
  return TargetRt().infinirtFree(p);
}

}  // namespace

void InstallFreeAsyncReusedAtOnce(RtTable &calls) {
  calls.infinirtMalloc = &MallocFromCache;
  calls.infinirtFreeAsync = &FreeAsyncFilingAtOnce;
  calls.infinirtFree = &FreeForgetting;
}

INFINICTS_FAULT(RtTable, "free_async_reused_at_once",
                "FreeAsync files its block as free at the call, and the next Malloc of its size takes it before "
                "the stream reached the free",
                InstallFreeAsyncReusedAtOnce);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// A FreeAsync'd block handed to the next Malloc before its stream reached the free.
// fault-detection: free_async_reused_at_once TIMEOUT 30 FILTER rt.memory.* EXPECT
// fault-detection:   rt.memory.conformance/free_async_waits_for_its_stream
