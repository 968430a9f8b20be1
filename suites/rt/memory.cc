// Subject `memory`: allocation, copies of every kind and size, memset, capacity
// accounting, stream-ordered allocation, pinned host memory, and the statuses for
// bad pointers and kinds (spec section RT-MEM, minimal level).
//
// Copies are checked byte for byte: a destination starts as random canary bytes
// around the complement of the data, so a short copy, a long copy or a copy to the
// wrong place changes a byte the case compares.
#include <cstdint>
#include <limits>

#include "cts/case.h"
#include "rt_data.h"
#include "rt_params.h"
#include "rt_pending.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {
namespace {

using cts::rt;

class MemoryCase : public cts::CaseBase {};

bool AlignedTo(const void *p, uintptr_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

// Where device memory is host memory (device type CPU), the OS keeps the free count, which
// untouched pages do not lower, and a backend may keep no account of its allocations: the
// clauses that need either bind elsewhere, and are recorded here (docs/spec/rt.md RT-MEM-5, -14).
bool DeviceMemoryIsHostMemory() { return cts::device_type() == INFINI_DEVICE_CPU; }

// Whether the backend checks a copy's sides against its allocations, asked harmlessly: an H2D
// copy of 16 bytes from one host vector into another, which such a backend refuses and one
// without the checks performs (host memory to host memory, nothing out of bounds).
bool ChecksCopySides() {
  std::vector<uint8_t> from(16, 1), to(16, 2);
  const int status = cts::ProbeInvalidInput(
      "infinirtMemcpy(host, host, 16, H2D)", [&] { return rt().infinirtMemcpy(to.data(), from.data(), 16, INFINIRT_MEMCPY_H2D); });
  return status != INFINI_STATUS_SUCCESS;
}

// ---------------------------------------------------------------- allocation

class MallocSizes : public cts::ParamCase<SizeParam> {};

CTS_TEST_P(MallocSizes, malloc_sizes, "memory", "RT-MEM-2", "RT-MEM-3", "RT-MEM-22") {
  const size_t bytes = GetParam().bytes;
  auto rng = CaseRng();
  void *a = reinterpret_cast<void *>(uintptr_t{0x10});  // a sentinel SUCCESS must replace
  void *b = reinterpret_cast<void *>(uintptr_t{0x10});
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&a, bytes), a, bytes);
  ScopedDeviceMemory hold_a(a);
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&b, bytes), b, bytes);
  ScopedDeviceMemory hold_b(b);
  if (bytes == 0) {
    if (a != nullptr && b != nullptr) {
      EXPECT_NE(a, b) << "two live zero-byte allocations share a pointer";
    }
    CTS_ASSERT_OK(rt().infinirtFree(hold_a.Release()));
    CTS_ASSERT_OK(rt().infinirtFree(hold_b.Release()));
    return;
  }
  EXPECT_TRUE(AlignedTo(a, 16)) << "RT-MEM-2: " << a << " is not 16-byte aligned";
  EXPECT_TRUE(AlignedTo(b, 16)) << "RT-MEM-2: " << b << " is not 16-byte aligned";
  cts::RecordMetric("aligned_256", AlignedTo(a, 256) && AlignedTo(b, 256) ? 1 : 0);  // RT-MEM-22, a SHOULD
  const auto lo_a = reinterpret_cast<uintptr_t>(a), lo_b = reinterpret_cast<uintptr_t>(b);
  EXPECT_TRUE(lo_a + bytes <= lo_b || lo_b + bytes <= lo_a) << "two live allocations overlap";

  // Every byte of both is usable and holds what was written to it.
  const std::vector<uint8_t> data_a = RandomBytes(rng, bytes), data_b = RandomBytes(rng, bytes);
  CTS_ASSERT_OK(rt().infinirtMemcpy(a, data_a.data(), bytes, INFINIRT_MEMCPY_H2D));
  CTS_ASSERT_OK(rt().infinirtMemcpy(b, data_b.data(), bytes, INFINIRT_MEMCPY_H2D));
  std::vector<uint8_t> back = Complement(data_a);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), a, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(data_a.data(), back.data(), bytes)) << "first allocation";
  back = Complement(data_b);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), b, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(data_b.data(), back.data(), bytes)) << "second allocation";
  CTS_ASSERT_OK(rt().infinirtFree(hold_a.Release()));
  CTS_ASSERT_OK(rt().infinirtFree(hold_b.Release()));
}

CTS_PROBE_F(MemoryCase, malloc_null, "conformance", "memory", "RT-MEM-1", "RT-MEM-21") {
  CTS_ASSERT_STATUS(rt().infinirtMalloc(nullptr, 4097), INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(rt().infinirtMalloc(nullptr, 0), INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(rt().infinirtMallocHost(nullptr, 4097), INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(rt().infinirtMallocAsync(nullptr, 4097, nullptr), INFINI_STATUS_NULL_POINTER);
}

CTS_PROBE_F(MemoryCase, malloc_over_capacity, "conformance", "memory", "RT-MEM-4") {
  size_t free_bytes = 0, total_bytes = 0;
  CTS_ASSERT_OK(rt().infinirtGetMemInfo(cts::device_type(), cts::device_ids().front(), &free_bytes, &total_bytes));
  const size_t max = std::numeric_limits<size_t>::max();
  for (size_t request : {total_bytes + (size_t{1} << 20), max, max - 255}) {
    SCOPED_TRACE("request of " + std::to_string(request) + " bytes");
    void *const sentinel = reinterpret_cast<void *>(uintptr_t{0x10});
    void *p = sentinel;
    const int status = cts::ProbeInvalidInput("infinirtMalloc(&p, request)", [&] { return rt().infinirtMalloc(&p, request); });
    if (status == INFINI_STATUS_SUCCESS) rt().infinirtFree(p);  // an allocation that should not exist
    CTS_ASSERT_STATUS_AS(status, "infinirtMalloc(&p, request)", INFINI_STATUS_INTERNAL_ERROR);
    EXPECT_TRUE(p == sentinel || p == nullptr) << "a failed infinirtMalloc wrote " << p;
  }
}

class MemInfoOnPick : public cts::ParamCase<DeviceParam> {};

CTS_TEST_P(MemInfoOnPick, mem_info_tracks_allocations, "memory", "RT-MEM-5", "RT-DEV-19") {
  const infiniDevice_t type = cts::device_type();
  const int id = PickedId(GetParam().pick);
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, id));
  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 16 << 20, 32 << 20);
  size_t free_before = 0, free_allocated = 0, free_after = 0, total = 0;
  CTS_ASSERT_OK(rt().infinirtGetMemInfo(type, id, &free_before, &total));
  void *p = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, bytes), p, bytes);
  ScopedDeviceMemory hold(p);
  CTS_ASSERT_OK(rt().infinirtGetMemInfo(type, id, &free_allocated, &total));
  CTS_ASSERT_OK(rt().infinirtFree(hold.Release()));
  CTS_ASSERT_OK(rt().infinirtGetMemInfo(type, id, &free_after, &total));
  EXPECT_GT(total, 0u) << "total memory";
  EXPECT_LE(free_before, total) << "free memory exceeds the total";
  if (DeviceMemoryIsHostMemory()) {
    cts::RecordMetric("free_bytes_track_allocations", free_allocated + bytes <= free_before ? 1 : 0);
  } else {
    EXPECT_LE(free_allocated + bytes, free_before) << "free memory dropped by less than the " << bytes
                                                   << " bytes allocated";
    EXPECT_GE(free_after, free_before) << "free memory did not come back after infinirtFree";
  }
  cts::RecordMetric("free_drop_bytes", static_cast<double>(free_before - free_allocated));
  cts::RecordMetric("total_bytes", static_cast<double>(total));
}

CTS_TEST_F(MemoryCase, malloc_async_round_trip, "conformance", "memory", "RT-MEM-20", "RT-STREAM-3") {
  auto rng = CaseRng();
  infinirtStream_t raw = nullptr;
  CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
  ScopedStream stream(raw);
  for (infinirtStream_t target : {raw, static_cast<infinirtStream_t>(nullptr)}) {
    SCOPED_TRACE(target == nullptr ? "on the NULL stream" : "on a created stream");
    const size_t bytes = RandomOddIn(rng, 4097, 1 << 20);
    const std::vector<uint8_t> data = RandomBytes(rng, bytes);
    std::vector<uint8_t> back = Complement(data);
    void *p = nullptr;
    RT_ASSERT_ALLOCATED(rt().infinirtMallocAsync(&p, bytes, target), p, bytes);
    CTS_ASSERT_OK(rt().infinirtMemcpyAsync(p, data.data(), bytes, INFINIRT_MEMCPY_H2D, target));
    CTS_ASSERT_OK(rt().infinirtMemcpyAsync(back.data(), p, bytes, INFINIRT_MEMCPY_D2H, target));
    CTS_ASSERT_OK(rt().infinirtFreeAsync(p, target));
    CTS_ASSERT_OK(rt().infinirtStreamSynchronize(target));
    EXPECT_TRUE(SameBytes(data.data(), back.data(), bytes));
  }
}

// FreeAsync releases its memory only when the stream reaches the free (RT-MEM-20). Behind long
// pending work, a stream copies into a block and frees it; the host at once allocates as much
// and writes its own data. A runtime that hands the block out again too early is seen doing so
// (the new block overlaps the old one while an event recorded before the free is still
// NOT_READY), or its stream's late copy lands in the new owner's data. A runtime whose stream
// is already done by then shows neither, rightly (metric saw_stream_behind: whether it was not).
CTS_TEST_F(MemoryCase, free_async_waits_for_its_stream, "conformance", "memory", "RT-MEM-20") {
  auto rng = CaseRng();
  PendingWork behind;
  behind.Prepare(kLargeBytes);
  if (HasFatalFailure() || IsSkipped()) return;
  infinirtStream_t raw_stream = nullptr;
  CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw_stream));
  ScopedStream stream(raw_stream);
  infinirtEvent_t raw_event = nullptr;
  CTS_ASSERT_OK(rt().infinirtEventCreate(&raw_event));
  ScopedEvent before_free(raw_event);
  const size_t bytes = RandomOddIn(rng, 1 << 20, 2 << 20);
  const std::vector<uint8_t> streamed = RandomBytes(rng, bytes), owned = Complement(streamed);
  void *freed = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&freed, bytes), freed, bytes);
  CTS_ASSERT_OK(behind.Enqueue(raw_stream, 8));
  CTS_ASSERT_OK(rt().infinirtMemcpyAsync(freed, streamed.data(), bytes, INFINIRT_MEMCPY_H2D, raw_stream));
  CTS_ASSERT_OK(rt().infinirtEventRecord(raw_event, raw_stream));
  CTS_ASSERT_OK(rt().infinirtFreeAsync(freed, raw_stream));
  void *taken = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&taken, bytes), taken, bytes);
  ScopedDeviceMemory hold(taken);
  infinirtEventStatus_t state = INFINIRT_EVENT_COMPLETE;
  CTS_ASSERT_OK(rt().infinirtEventQuery(raw_event, &state));
  const bool stream_behind = state == INFINIRT_EVENT_NOT_READY;
  const auto *freed_bytes = static_cast<const uint8_t *>(freed), *taken_bytes = static_cast<const uint8_t *>(taken);
  const bool overlaps = taken_bytes < freed_bytes + bytes && freed_bytes < taken_bytes + bytes;
  cts::RecordMetric("saw_stream_behind", stream_behind ? 1 : 0);
  EXPECT_FALSE(stream_behind && overlaps)
      << "RT-MEM-20: infinirtMalloc handed out memory of an infinirtFreeAsync whose stream had not reached the "
         "free (an event recorded before the free was still NOT_READY)";
  CTS_ASSERT_OK(rt().infinirtMemcpy(taken, owned.data(), bytes, INFINIRT_MEMCPY_H2D));
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(raw_stream));
  std::vector<uint8_t> back(bytes);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), taken, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(owned.data(), back.data(), bytes))
      << "RT-MEM-20: a copy the stream made before its infinirtFreeAsync changed a later allocation";
}

CTS_PROBE_F(MemoryCase, malloc_async_rejects, "conformance", "memory", "RT-MEM-21") {
  std::vector<uint8_t> host(64);
  CTS_ASSERT_OK(rt().infinirtFreeAsync(nullptr, nullptr));
  CTS_ASSERT_STATUS(rt().infinirtFreeAsync(host.data(), nullptr), INFINI_STATUS_BAD_PARAM);
  void *p = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMallocAsync(&p, 4097, nullptr), p, 4097);
  ScopedDeviceMemory hold(p);
  CTS_ASSERT_STATUS(rt().infinirtFreeAsync(static_cast<uint8_t *>(p) + 1, nullptr), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_OK(rt().infinirtFreeAsync(hold.Release(), nullptr));
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(nullptr));
  CTS_ASSERT_STATUS(rt().infinirtFreeAsync(p, nullptr), INFINI_STATUS_BAD_PARAM);
}

CTS_TEST_F(MemoryCase, malloc_host, "conformance", "memory", "RT-MEM-6", "RT-MEM-3") {
  auto rng = CaseRng();
  void *empty = reinterpret_cast<void *>(uintptr_t{0x10});
  RT_ASSERT_ALLOCATED(rt().infinirtMallocHost(&empty, 0), empty, 0);
  CTS_ASSERT_OK(rt().infinirtFreeHost(empty));
  infinirtStream_t raw = nullptr;
  CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
  ScopedStream stream(raw);
  for (size_t bytes : {size_t{1}, size_t{777}, size_t{4097}, (size_t{1} << 20) + 3}) {
    SCOPED_TRACE(std::to_string(bytes) + " bytes");
    void *source = nullptr, *target = nullptr, *device = nullptr;
    RT_ASSERT_ALLOCATED(rt().infinirtMallocHost(&source, bytes), source, bytes);
    ScopedHostMemory hold_source(source);
    RT_ASSERT_ALLOCATED(rt().infinirtMallocHost(&target, bytes), target, bytes);
    ScopedHostMemory hold_target(target);
    RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&device, bytes), device, bytes);
    ScopedDeviceMemory hold_device(device);
    // Host memory the CPU writes directly, used as the host side of blocking and async copies.
    const std::vector<uint8_t> data = RandomBytes(rng, bytes);
    std::copy(data.begin(), data.end(), static_cast<uint8_t *>(source));
    const std::vector<uint8_t> complement = Complement(data);
    std::copy(complement.begin(), complement.end(), static_cast<uint8_t *>(target));
    CTS_ASSERT_OK(rt().infinirtMemcpyAsync(device, source, bytes, INFINIRT_MEMCPY_H2D, raw));
    CTS_ASSERT_OK(rt().infinirtStreamSynchronize(raw));
    CTS_ASSERT_OK(rt().infinirtMemcpy(target, device, bytes, INFINIRT_MEMCPY_D2H));
    EXPECT_TRUE(SameBytes(data.data(), target, bytes));
    CTS_ASSERT_OK(rt().infinirtFreeHost(hold_source.Release()));
    CTS_ASSERT_OK(rt().infinirtFreeHost(hold_target.Release()));
  }
}

// ---------------------------------------------------------------- freeing

CTS_PROBE_F(MemoryCase, free_null, "conformance", "memory", "RT-MEM-7") {
  CTS_ASSERT_STATUS(rt().infinirtFree(nullptr), INFINI_STATUS_SUCCESS);
  CTS_ASSERT_STATUS(rt().infinirtFreeHost(nullptr), INFINI_STATUS_SUCCESS);
}

CTS_PROBE_F(MemoryCase, free_rejects_non_allocations, "conformance", "memory", "RT-MEM-8") {
  int on_stack = 0;
  std::vector<uint8_t> on_heap(4096);
  CTS_ASSERT_STATUS(rt().infinirtFree(&on_stack), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_STATUS(rt().infinirtFree(on_heap.data()), INFINI_STATUS_BAD_PARAM);

  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 4097, 65537);
  void *p = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, bytes), p, bytes);
  ScopedDeviceMemory hold(p);
  CTS_ASSERT_STATUS(rt().infinirtFree(static_cast<uint8_t *>(p) + 1), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_STATUS(rt().infinirtFree(static_cast<uint8_t *>(p) + bytes / 2), INFINI_STATUS_BAD_PARAM);
  void *pinned = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMallocHost(&pinned, bytes), pinned, bytes);
  ScopedHostMemory hold_pinned(pinned);
  CTS_ASSERT_STATUS(rt().infinirtFree(pinned), INFINI_STATUS_BAD_PARAM);

  // The rejected calls left the allocation live and intact.
  const std::vector<uint8_t> data = RandomBytes(rng, bytes);
  std::vector<uint8_t> back = Complement(data);
  CTS_ASSERT_OK(rt().infinirtMemcpy(p, data.data(), bytes, INFINIRT_MEMCPY_H2D));
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), p, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(data.data(), back.data(), bytes));
  CTS_ASSERT_OK(rt().infinirtFree(hold.Release()));
}

CTS_PROBE_F(MemoryCase, double_free, "conformance", "memory", "RT-MEM-8") {
  void *p = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, 4097), p, 4097);
  CTS_ASSERT_OK(rt().infinirtFree(p));
  CTS_ASSERT_STATUS(rt().infinirtFree(p), INFINI_STATUS_BAD_PARAM);
}

CTS_PROBE_F(MemoryCase, free_host_rejects, "conformance", "memory", "RT-MEM-9") {
  int on_stack = 0;
  CTS_ASSERT_STATUS(rt().infinirtFreeHost(&on_stack), INFINI_STATUS_BAD_PARAM);
  void *device = nullptr, *pinned = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&device, 4097), device, 4097);
  ScopedDeviceMemory hold_device(device);
  CTS_ASSERT_STATUS(rt().infinirtFreeHost(device), INFINI_STATUS_BAD_PARAM);
  RT_ASSERT_ALLOCATED(rt().infinirtMallocHost(&pinned, 4097), pinned, 4097);
  CTS_ASSERT_STATUS(rt().infinirtFreeHost(static_cast<uint8_t *>(pinned) + 1), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_OK(rt().infinirtFreeHost(pinned));
  CTS_ASSERT_STATUS(rt().infinirtFreeHost(pinned), INFINI_STATUS_BAD_PARAM);
}

// ---------------------------------------------------------------- copies

class Copies : public cts::ParamCase<CopyParam> {
 protected:
  static constexpr size_t kDstPad = 3;  // odd, so copies land unaligned
  static constexpr size_t kSrcPad = 5;

  // Copies `bytes` random bytes of the parameter's kind and checks the destination and
  // the canaries around it. Ends the case on the first failed call.
  void CheckCopy(bool async) {
    const infinirtMemcpyKind_t kind = GetParam().kind;
    const size_t bytes = GetParam().bytes;
    const bool device_source = kind == INFINIRT_MEMCPY_D2H || kind == INFINIRT_MEMCPY_D2D;
    const bool device_target = kind == INFINIRT_MEMCPY_H2D || kind == INFINIRT_MEMCPY_D2D;
    auto rng = CaseRng();
    const std::vector<uint8_t> data = RandomBytes(rng, bytes);
    // Destination image: random canaries around the complement of the data.
    std::vector<uint8_t> before = RandomBytes(rng, bytes + 2 * kDstPad);
    for (size_t i = 0; i < bytes; ++i) before[kDstPad + i] = static_cast<uint8_t>(~data[i]);
    std::vector<uint8_t> expected = before;
    std::copy(data.begin(), data.end(), expected.begin() + kDstPad);

    const void *source = data.data();
    void *device_in = nullptr;
    if (device_source) {
      RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&device_in, bytes + 2 * kSrcPad), device_in, bytes + 2 * kSrcPad);
    }
    ScopedDeviceMemory hold_in(device_in);
    if (device_source) {
      source = static_cast<uint8_t *>(device_in) + kSrcPad;
      CTS_ASSERT_OK(rt().infinirtMemcpy(const_cast<void *>(source), data.data(), bytes, INFINIRT_MEMCPY_H2D));
    }
    // `before` is the host destination, or the staging buffer of the device one (and
    // then, refilled, the buffer it is read back into).
    std::vector<uint8_t> &host_out = before;
    void *device_out = nullptr, *target = nullptr;
    if (device_target) {
      RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&device_out, before.size()), device_out, before.size());
      CTS_ASSERT_OK(rt().infinirtMemcpy(device_out, before.data(), before.size(), INFINIRT_MEMCPY_H2D));
      target = static_cast<uint8_t *>(device_out) + kDstPad;
    } else {
      target = host_out.data() + kDstPad;
    }
    ScopedDeviceMemory hold_out(device_out);

    if (async) {
      infinirtStream_t raw = nullptr;
      CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
      ScopedStream stream(raw);
      CTS_ASSERT_OK(rt().infinirtMemcpyAsync(target, source, bytes, kind, raw));
      CTS_ASSERT_OK(rt().infinirtStreamSynchronize(raw));
    } else {
      CTS_ASSERT_OK(rt().infinirtMemcpy(target, source, bytes, kind));
    }
    if (device_target) {
      for (size_t i = 0; i < expected.size(); ++i) host_out[i] = static_cast<uint8_t>(~expected[i]);
      CTS_ASSERT_OK(rt().infinirtMemcpy(host_out.data(), device_out, host_out.size(), INFINIRT_MEMCPY_D2H));
    }
    EXPECT_TRUE(SameBytes(expected.data(), host_out.data(), expected.size()))
        << KindName(kind) << " copy of " << bytes << " bytes (destination with " << kDstPad
        << " canary bytes each side)";
    if (bytes == 0) {
      // Nothing is touched, so NULL pointers are fine too.
      CTS_ASSERT_OK(rt().infinirtMemcpy(nullptr, nullptr, 0, kind));
      CTS_ASSERT_OK(rt().infinirtMemcpyAsync(nullptr, nullptr, 0, kind, nullptr));
    }
  }
};

CTS_TEST_P(Copies, memcpy, "memory", "RT-MEM-10", "RT-MEM-11") { CheckCopy(/*async=*/false); }

class AsyncCopies : public Copies {};

CTS_TEST_P(AsyncCopies, memcpy_async, "memory", "RT-MEM-16", "RT-STREAM-6") { CheckCopy(/*async=*/true); }

// A peer copy, blocking or on a stream of the current device, with the source's device or the
// destination's current (a backend that moves data only from, or only to, the current device
// fails one of them).
struct PeerParam : Param<PeerParam> {
  bool async;
  bool source_current;
  PeerParam(bool a, bool s) : async(a), source_current(s) {}
  std::string Name() const {
    return std::string(async ? "async" : "blocking") + (source_current ? "__source_current" : "__destination_current");
  }
  std::string Json() const {
    return nlohmann::json{{"async", async}, {"current", source_current ? "source" : "destination"}}.dump();
  }
};

class PeerCopies : public cts::ParamCase<PeerParam> {};

CTS_TEST_P(PeerCopies, peer_copy, "memory", "RT-MEM-15") {
  const auto &ids = cts::device_ids();
  if (ids.size() < 2) GTEST_SKIP() << "needs two devices; the run has one";
  const infiniDevice_t type = cts::device_type();
  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 4097, 1 << 20);
  const std::vector<uint8_t> data = RandomBytes(rng, bytes);
  void *source = nullptr, *target = nullptr;  // on the first and the last device
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, ids.back()));
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&target, bytes), target, bytes);
  ScopedDeviceMemory hold_target(target);
  CTS_ASSERT_OK(rt().infinirtMemset(target, 0, bytes));
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, ids.front()));
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&source, bytes), source, bytes);
  ScopedDeviceMemory hold_source(source);
  CTS_ASSERT_OK(rt().infinirtMemcpy(source, data.data(), bytes, INFINIRT_MEMCPY_H2D));
  const int current = GetParam().source_current ? ids.front() : ids.back();
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, current));
  if (GetParam().async) {
    infinirtStream_t raw = nullptr;
    CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
    ScopedStream stream(raw);
    CTS_CHECK_OK(rt().infinirtMemcpyAsync(target, source, bytes, INFINIRT_MEMCPY_D2D, raw));
    CTS_ASSERT_OK(rt().infinirtStreamSynchronize(raw));
  } else {
    CTS_CHECK_OK(rt().infinirtMemcpy(target, source, bytes, INFINIRT_MEMCPY_D2D));
  }
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, ids.back()));
  std::vector<uint8_t> back = Complement(data);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), target, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(data.data(), back.data(), bytes))
      << "device " << ids.back() << " after a peer copy from device " << ids.front() << " with device " << current
      << " current";
}

INSTANTIATE_TEST_SUITE_P(conformance, PeerCopies,
                         testing::Values(PeerParam(false, true), PeerParam(false, false), PeerParam(true, true),
                                         PeerParam(true, false)),
                         cts::NameFromParam());

CTS_PROBE_F(MemoryCase, memcpy_null, "conformance", "memory", "RT-MEM-12", "RT-MEM-16") {
  void *device = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&device, 4097), device, 4097);
  ScopedDeviceMemory hold(device);
  std::vector<uint8_t> host(4097);
  for (infinirtMemcpyKind_t kind : kAllKinds) {
    SCOPED_TRACE(KindName(kind));
    const bool device_source = kind == INFINIRT_MEMCPY_D2H || kind == INFINIRT_MEMCPY_D2D;
    const bool device_target = kind == INFINIRT_MEMCPY_H2D || kind == INFINIRT_MEMCPY_D2D;
    void *target = device_target ? device : host.data();
    const void *source = device_source ? device : host.data();
    CTS_ASSERT_STATUS(rt().infinirtMemcpy(nullptr, source, 16, kind), INFINI_STATUS_NULL_POINTER);
    CTS_ASSERT_STATUS(rt().infinirtMemcpy(target, nullptr, 16, kind), INFINI_STATUS_NULL_POINTER);
    CTS_ASSERT_STATUS(rt().infinirtMemcpyAsync(nullptr, source, 16, kind, nullptr), INFINI_STATUS_NULL_POINTER);
    CTS_ASSERT_STATUS(rt().infinirtMemcpyAsync(target, nullptr, 16, kind, nullptr), INFINI_STATUS_NULL_POINTER);
  }
}

CTS_PROBE_F(MemoryCase, memcpy_bad_kind, "conformance", "memory", "RT-MEM-13", "RT-MEM-16") {
  std::vector<uint8_t> a(64), b(64);
  for (int kind : {-1, 4, 100}) {
    SCOPED_TRACE("kind " + std::to_string(kind));
    // Converted at each call, never kept in an enum variable: UBSan stops a load of one
    // that holds a value outside the enum.
    CTS_ASSERT_STATUS(rt().infinirtMemcpy(a.data(), b.data(), 64, static_cast<infinirtMemcpyKind_t>(kind)),
                      INFINI_STATUS_BAD_PARAM);
    CTS_ASSERT_STATUS(
        rt().infinirtMemcpyAsync(a.data(), b.data(), 64, static_cast<infinirtMemcpyKind_t>(kind), nullptr),
        INFINI_STATUS_BAD_PARAM);
  }
}

CTS_PROBE_F(MemoryCase, memcpy_wrong_kind, "conformance", "memory", "RT-MEM-14", "RT-MEM-16") {
  if (DeviceMemoryIsHostMemory() && !ChecksCopySides()) {
    cts::RecordMetric("copies_checked", 0);
    cts::NoteHowItRan("did not probe: the backend checks no copy's sides, which RT-MEM-14 only recommends where device memory is host memory");
    return;
  }
  auto rng = CaseRng();
  constexpr size_t kBytes = 4097;
  void *device = nullptr, *pinned = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&device, kBytes), device, kBytes);
  ScopedDeviceMemory hold_device(device);
  RT_ASSERT_ALLOCATED(rt().infinirtMallocHost(&pinned, kBytes), pinned, kBytes);
  ScopedHostMemory hold_pinned(pinned);
  const std::vector<uint8_t> device_data = RandomBytes(rng, kBytes);
  CTS_ASSERT_OK(rt().infinirtMemcpy(device, device_data.data(), kBytes, INFINIRT_MEMCPY_H2D));
  const std::vector<uint8_t> host_data = RandomBytes(rng, kBytes);
  std::vector<uint8_t> host = host_data, other_host = RandomBytes(rng, kBytes);
  struct Wrong {
    const char *what;
    void *dst;
    const void *src;
    infinirtMemcpyKind_t kind;
  };
  const Wrong wrongs[] = {
      {"H2D into host memory", host.data(), other_host.data(), INFINIRT_MEMCPY_H2D},
      {"H2D into pinned host memory", pinned, other_host.data(), INFINIRT_MEMCPY_H2D},
      {"H2D from device memory", device, device, INFINIRT_MEMCPY_H2D},
      {"D2H from host memory", host.data(), other_host.data(), INFINIRT_MEMCPY_D2H},
      {"D2H into device memory", device, device, INFINIRT_MEMCPY_D2H},
      {"D2D into host memory", host.data(), device, INFINIRT_MEMCPY_D2D},
      {"D2D from host memory", device, other_host.data(), INFINIRT_MEMCPY_D2D},
      {"H2H into device memory", device, other_host.data(), INFINIRT_MEMCPY_H2H},
      {"H2H from device memory", host.data(), device, INFINIRT_MEMCPY_H2H},
  };
  for (const Wrong &wrong : wrongs) {
    SCOPED_TRACE(wrong.what);
    CTS_ASSERT_STATUS(rt().infinirtMemcpy(wrong.dst, wrong.src, kBytes, wrong.kind), INFINI_STATUS_BAD_PARAM);
    CTS_ASSERT_STATUS(rt().infinirtMemcpyAsync(wrong.dst, wrong.src, kBytes, wrong.kind, nullptr),
                      INFINI_STATUS_BAD_PARAM);
  }
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(nullptr));
  // Rejected copies touch nothing.
  EXPECT_TRUE(SameBytes(host_data.data(), host.data(), kBytes)) << "host memory after rejected copies";
  std::vector<uint8_t> back = Complement(device_data);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), device, kBytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(device_data.data(), back.data(), kBytes)) << "device memory after rejected copies";
}

CTS_PROBE_F(MemoryCase, memcpy_outside_allocation, "conformance", "memory", "RT-MEM-14") {
  // A backend that checks nothing would copy past its allocations here: not probed.
  if (DeviceMemoryIsHostMemory() && !ChecksCopySides()) {
    cts::RecordMetric("copies_checked", 0);
    cts::NoteHowItRan("did not probe: the backend checks no copy's sides, which RT-MEM-14 only recommends where device memory is host memory");
    return;
  }
  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 4097, 65537);
  std::vector<uint8_t> host = RandomBytes(rng, bytes + 16);
  void *p = nullptr, *q = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, bytes), p, bytes);
  ScopedDeviceMemory hold_p(p);
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&q, bytes), q, bytes);
  ScopedDeviceMemory hold_q(q);
  auto *pb = static_cast<uint8_t *>(p);
  CTS_ASSERT_STATUS(rt().infinirtMemcpy(p, host.data(), bytes + 1, INFINIRT_MEMCPY_H2D), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_STATUS(rt().infinirtMemcpy(pb + 1, host.data(), bytes, INFINIRT_MEMCPY_H2D), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_STATUS(rt().infinirtMemcpy(host.data(), p, bytes + 1, INFINIRT_MEMCPY_D2H), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_STATUS(rt().infinirtMemcpy(q, pb + 2, bytes - 1, INFINIRT_MEMCPY_D2D), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_STATUS(rt().infinirtMemcpyAsync(pb + bytes / 2, host.data(), bytes, INFINIRT_MEMCPY_H2D, nullptr),
                    INFINI_STATUS_BAD_PARAM);
  // Wholly inside: an interior window is fine.
  CTS_ASSERT_OK(rt().infinirtMemcpy(pb + 1, host.data(), bytes - 1, INFINIRT_MEMCPY_H2D));
  CTS_ASSERT_OK(rt().infinirtFree(hold_p.Release()));
  CTS_ASSERT_STATUS(rt().infinirtMemcpy(p, host.data(), 1, INFINIRT_MEMCPY_H2D), INFINI_STATUS_BAD_PARAM);
}

// ---------------------------------------------------------------- memset

struct PatternParam : Param<PatternParam> {
  const char *name;
  int value;
  bool random;  // the value comes from the case's seeded engine
  PatternParam(const char *n, int v, bool r = false) : name(n), value(v), random(r) {}
  std::string Name() const { return name; }
  std::string Json() const {
    nlohmann::json json{{"pattern", name}};
    if (!random) json["value"] = value;
    return json.dump();
  }
};

const std::vector<PatternParam> kPatterns = {
    {"zero", 0x00},      {"all_ones", 0xff}, {"high_bit", 0x80},
    {"low_byte_only", 0x1a5}, {"negative", -2},  {"random", 0, true},
};

class MemsetPatterns : public cts::ParamCase<PatternParam> {};

CTS_TEST_P(MemsetPatterns, memset_pattern, "memory", "RT-MEM-17") {
  auto rng = CaseRng();
  const int value = GetParam().random ? static_cast<int>(rng()) : GetParam().value;
  const size_t bytes = RandomOddIn(rng, 4097, 65537);
  const size_t offset = RandomOddIn(rng, 1, bytes / 3);
  const size_t length = RandomOddIn(rng, 1, bytes - offset - 1);
  std::vector<uint8_t> expected = RandomBytes(rng, bytes);
  void *p = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, bytes), p, bytes);
  ScopedDeviceMemory hold(p);
  CTS_ASSERT_OK(rt().infinirtMemcpy(p, expected.data(), bytes, INFINIRT_MEMCPY_H2D));
  CTS_ASSERT_OK(rt().infinirtMemset(static_cast<uint8_t *>(p) + offset, value, length));
  std::fill_n(expected.begin() + offset, length, static_cast<uint8_t>(value));
  std::vector<uint8_t> back = Complement(expected);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), p, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(expected.data(), back.data(), bytes))
      << "memset of value " << value << " over [" << offset << ", " << offset + length << ") of " << bytes;
}

CTS_TEST_F(MemoryCase, memset_async_odd_offsets, "conformance", "memory", "RT-MEM-17", "RT-MEM-19") {
  constexpr int kMemsets = 12;
  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 1 << 20, 2 << 20);
  std::vector<uint8_t> expected = RandomBytes(rng, bytes);
  infinirtStream_t raw = nullptr;
  CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
  ScopedStream stream(raw);
  void *p = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, bytes), p, bytes);
  ScopedDeviceMemory hold(p);
  const std::vector<uint8_t> initial = expected;  // the H2D source: unchanged until the sync, unlike `expected`
  CTS_ASSERT_OK(rt().infinirtMemcpyAsync(p, initial.data(), bytes, INFINIRT_MEMCPY_H2D, raw));
  for (int i = 0; i < kMemsets; ++i) {
    const size_t offset = RandomOddIn(rng, 1, bytes - 2);
    const size_t length = RandomIn(rng, 1, bytes - offset);
    const int value = static_cast<int>(rng());
    CTS_ASSERT_OK(rt().infinirtMemsetAsync(static_cast<uint8_t *>(p) + offset, value, length, raw));
    std::fill_n(expected.begin() + offset, length, static_cast<uint8_t>(value));
  }
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(raw));
  std::vector<uint8_t> back = Complement(expected);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), p, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(expected.data(), back.data(), bytes)) << "after " << kMemsets << " overlapping async memsets";
}

CTS_PROBE_F(MemoryCase, memset_rejects, "conformance", "memory", "RT-MEM-18") {
  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 4097, 65537);
  std::vector<uint8_t> host = RandomBytes(rng, bytes);
  const std::vector<uint8_t> host_before = host;
  void *p = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, bytes), p, bytes);
  ScopedDeviceMemory hold(p);
  CTS_ASSERT_STATUS(rt().infinirtMemset(nullptr, 1, bytes), INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(rt().infinirtMemsetAsync(nullptr, 1, bytes, nullptr), INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(rt().infinirtMemset(host.data(), 1, bytes), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_STATUS(rt().infinirtMemsetAsync(host.data(), 1, bytes, nullptr), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_STATUS(rt().infinirtMemset(p, 1, bytes + 1), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_STATUS(rt().infinirtMemset(static_cast<uint8_t *>(p) + 1, 1, bytes), INFINI_STATUS_BAD_PARAM);
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(nullptr));
  EXPECT_TRUE(SameBytes(host_before.data(), host.data(), bytes)) << "host memory after rejected memsets";
  CTS_ASSERT_OK(rt().infinirtFree(hold.Release()));
  CTS_ASSERT_STATUS(rt().infinirtMemset(p, 1, 1), INFINI_STATUS_BAD_PARAM);
}

CTS_TEST_F(MemoryCase, zero_byte_operations, "conformance", "memory", "RT-MEM-11") {
  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 17, 4097);
  const std::vector<uint8_t> data = RandomBytes(rng, bytes);
  void *p = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, bytes), p, bytes);
  ScopedDeviceMemory hold(p);
  CTS_ASSERT_OK(rt().infinirtMemcpy(p, data.data(), bytes, INFINIRT_MEMCPY_H2D));
  CTS_ASSERT_OK(rt().infinirtMemset(p, static_cast<int>(rng()), 0));
  CTS_ASSERT_OK(rt().infinirtMemsetAsync(p, static_cast<int>(rng()), 0, nullptr));
  CTS_ASSERT_OK(rt().infinirtMemset(nullptr, 1, 0));
  CTS_ASSERT_OK(rt().infinirtMemsetAsync(nullptr, 1, 0, nullptr));
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(nullptr));
  std::vector<uint8_t> back = Complement(data);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), p, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(data.data(), back.data(), bytes)) << "memory after zero-byte memsets";
}

INSTANTIATE_TEST_SUITE_P(conformance, MallocSizes, testing::ValuesIn(SizeParams(kAllSizes)), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, MemInfoOnPick, testing::ValuesIn(DeviceParams()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, Copies, testing::ValuesIn(CopyMatrix(kAllSizes)), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, AsyncCopies, testing::ValuesIn(CopyMatrix({(size_t{1} << 20) + 3})),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, MemsetPatterns, testing::ValuesIn(kPatterns), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::rt_cases
