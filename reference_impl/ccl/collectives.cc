#include "ccl/collectives.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <emmintrin.h>

namespace infinicts::ref::ccl {
namespace {

// AllReduce chunks start at multiples of this many elements (whole vectors and cache
// lines for every dtype), except that the last chunk takes the remainder.
constexpr size_t kChunkAlignment = 64;

struct ElementRange {
  size_t begin;
  size_t end;
};

// Chunk `rank` of `count` elements split into `nranks` nearly equal aligned chunks.
ElementRange Chunk(size_t count, int nranks, int rank) {
  const size_t blocks = (count + kChunkAlignment - 1) / kChunkAlignment;
  const size_t n = static_cast<size_t>(nranks);
  const auto first_block = [&](size_t r) { return blocks / n * r + blocks % n * r / n; };
  const size_t begin = std::min(count, first_block(static_cast<size_t>(rank)) * kChunkAlignment);
  const size_t end = std::min(count, first_block(static_cast<size_t>(rank) + 1) * kChunkAlignment);
  return {begin, end};
}

// AllReduce reduces this many bytes at a time into a per-worker block that stays in L1/L2
// while it is copied out to every receive buffer.
constexpr size_t kBlockBytes = 16 * 1024;
// Receive buffers at least this large are written with streaming stores.
constexpr size_t kStreamingBytes = 8 * 1024 * 1024;

const char *Bytes(const void *pointer) { return static_cast<const char *>(pointer); }
char *Bytes(void *pointer) { return static_cast<char *>(pointer); }

// In place, source and destination are the same; memmove, since callers may pass
// overlapping buffers that are not exactly in place.
void Copy(void *dst, const void *src, size_t bytes) {
  if (dst != src && bytes > 0) std::memmove(dst, src, bytes);
}

// Writes a reduced block to a receive buffer nobody reads again in this collective. With
// `streaming`, 16-byte-aligned destinations get streaming stores, which skip the read-for-ownership of
// the destination lines and leave the caches to the source buffers.
void CopyOut(char *dst, const unsigned char *block, size_t bytes, bool streaming) {
  size_t done = 0;
  if (streaming && (reinterpret_cast<uintptr_t>(dst) & 15) == 0) {
    for (; done + 64 <= bytes; done += 64) {
      const __m128i *from = reinterpret_cast<const __m128i *>(block + done);
      __m128i *to = reinterpret_cast<__m128i *>(dst + done);
      _mm_stream_si128(to, _mm_loadu_si128(from));
      _mm_stream_si128(to + 1, _mm_loadu_si128(from + 1));
      _mm_stream_si128(to + 2, _mm_loadu_si128(from + 2));
      _mm_stream_si128(to + 3, _mm_loadu_si128(from + 3));
    }
  }
  if (done < bytes) std::memcpy(dst + done, block + done, bytes - done);
}

// Every rank's send buffer, offset by `byte_offset`.
std::vector<const void *> SendsAt(const Meeting &meeting, size_t byte_offset) {
  std::vector<const void *> sources(static_cast<size_t>(meeting.nranks()));
  for (int q = 0; q < meeting.nranks(); ++q)
    sources[static_cast<size_t>(q)] = Bytes(meeting.buffers(q).send) + byte_offset;
  return sources;
}

// Every rank's receive buffer, offset by `byte_offset`.
std::vector<void *> ReceivesAt(const Meeting &meeting, size_t byte_offset) {
  std::vector<void *> receives(static_cast<size_t>(meeting.nranks()));
  for (int q = 0; q < meeting.nranks(); ++q)
    receives[static_cast<size_t>(q)] = Bytes(meeting.buffers(q).recv) + byte_offset;
  return receives;
}

// AllReduce's chunk `own`, kBlockBytes at a time: each block reduced into a buffer of this
// worker's, then copied out to every receive buffer.
void ReduceByBlocks(const Meeting &meeting, ElementRange own, size_t element_size, ReduceFunction reduce,
                    bool streaming) {
  const int nranks = meeting.nranks();
  const size_t block_elements = std::max<size_t>(1, kBlockBytes / element_size);
  // On the heap: a library loaded with dlopen has little static TLS room.
  static thread_local std::vector<uint64_t> block_storage(kBlockBytes / sizeof(uint64_t));
  unsigned char *block = reinterpret_cast<unsigned char *>(block_storage.data());
  std::vector<const void *> sources(static_cast<size_t>(nranks));
  for (size_t begin = own.begin; begin < own.end; begin += block_elements) {
    const size_t n = std::min(block_elements, own.end - begin);
    const size_t offset = begin * element_size;
    for (int q = 0; q < nranks; ++q) sources[static_cast<size_t>(q)] = Bytes(meeting.buffers(q).send) + offset;
    reduce(sources.data(), nranks, block, n, nranks);
    for (int q = 0; q < nranks; ++q)
      CopyOut(Bytes(meeting.buffers(q).recv) + offset, block, n * element_size, streaming);
  }
}

// Whether every receive buffer either is a send buffer (the same address) or overlaps
// none: then reading an element of every source before storing it anywhere is safe.
bool ReceivesAliasOnlyExactly(const Meeting &meeting, size_t bytes) {
  for (int q = 0; q < meeting.nranks(); ++q) {
    const char *recv = Bytes(meeting.buffers(q).recv);
    for (int p = 0; p < meeting.nranks(); ++p) {
      const char *send = Bytes(meeting.buffers(p).send);
      const bool overlaps = recv < send + bytes && send < recv + bytes;
      if (overlaps && recv != send) return false;
    }
  }
  return true;
}

}  // namespace

void RunAllReduce(Meeting &meeting, int rank, RankBuffers mine, size_t count, size_t element_size,
                  ReduceFunction reduce, ReduceToAllFunction reduce_to_all) {
  const int nranks = meeting.nranks();
  meeting.Arrive(rank, mine);

  // One pass: each element is reduced once, by the rank owning its chunk, and written
  // straight into every rank's receive buffer. Only this rank touches its chunk of any
  // buffer, and an element's (a block's) inputs are all read before any receive buffer gets
  // the result, so a receive buffer may alias its send buffer.
  const ElementRange own = Chunk(count, nranks, rank);
  // Results larger than the caches bypass them; smaller ones stay cached for their reader.
  const bool streaming = count * element_size >= kStreamingBytes;
  if (reduce_to_all != nullptr && ReceivesAliasOnlyExactly(meeting, count * element_size)) {
    // Reads and writes stream together, nothing is stored twice (figures in reduce_to_all.cc).
    const size_t offset = own.begin * element_size;
    const std::vector<const void *> sources = SendsAt(meeting, offset);
    const std::vector<void *> receives = ReceivesAt(meeting, offset);
    reduce_to_all(sources.data(), nranks, receives.data(), nranks, own.end - own.begin, streaming);
  } else {
    ReduceByBlocks(meeting, own, element_size, reduce, streaming);
  }
  // Streaming stores are weakly ordered: complete them before the others may read.
  if (streaming) _mm_sfence();
  // No rank may reuse its buffers while another still reads or writes them.
  meeting.Synchronize();
}

void RunReduceScatter(Meeting &meeting, int rank, RankBuffers mine, size_t recv_count, size_t element_size,
                      ReduceFunction reduce) {
  const int nranks = meeting.nranks();
  meeting.Arrive(rank, mine);
  const std::vector<const void *> sources = SendsAt(meeting, static_cast<size_t>(rank) * recv_count * element_size);
  reduce(sources.data(), nranks, mine.recv, recv_count, nranks);
  // Others read my send buffer until they are done.
  meeting.Synchronize();
}

void RunAllGather(Meeting &meeting, int rank, RankBuffers mine, size_t send_count, size_t element_size) {
  meeting.Arrive(rank, mine);
  const size_t segment_bytes = send_count * element_size;
  for (int q = 0; q < meeting.nranks(); ++q) {
    Copy(Bytes(mine.recv) + static_cast<size_t>(q) * segment_bytes, meeting.buffers(q).send, segment_bytes);
  }
  meeting.Synchronize();
}

void RunAllGatherV(Meeting &meeting, int rank, RankBuffers mine, const BlockLayout &layout, size_t element_size) {
  meeting.Arrive(rank, mine);
  // In place, rank r's own block is its send buffer already (Copy skips it), and nobody
  // else writes there, so the others read it intact.
  for (int q = 0; q < meeting.nranks(); ++q) {
    Copy(Bytes(mine.recv) + layout.offset(q) * element_size, meeting.buffers(q).send, layout.count(q) * element_size);
  }
  meeting.Synchronize();
}

void RunReduceScatterV(Meeting &meeting, int rank, RankBuffers mine, const BlockLayout &layout, size_t element_size,
                       ReduceFunction reduce) {
  const int nranks = meeting.nranks();
  meeting.Arrive(rank, mine);
  // Only rank r reads block r, so in place (the receive buffer is block r of the send
  // buffer) the reduction writes what no other rank reads.
  const std::vector<const void *> sources = SendsAt(meeting, layout.offset(rank) * element_size);
  reduce(sources.data(), nranks, mine.recv, layout.count(rank), nranks);
  meeting.Synchronize();
}

void RunBroadcast(Meeting &meeting, int rank, RankBuffers mine, size_t count, size_t element_size, int root) {
  meeting.Arrive(rank, mine);
  Copy(mine.recv, meeting.buffers(root).send, count * element_size);
  meeting.Synchronize();
}

void RunCollective(Meeting &meeting, int rank, const CollectiveCall &call) {
  switch (call.kind) {
    case CollectiveKind::kAllReduce:
      return RunAllReduce(meeting, rank, call.mine, call.count, call.element_size, call.reduce, call.reduce_to_all);
    case CollectiveKind::kReduceScatter:
      return RunReduceScatter(meeting, rank, call.mine, call.count, call.element_size, call.reduce);
    case CollectiveKind::kAllGather:
      return RunAllGather(meeting, rank, call.mine, call.count, call.element_size);
    case CollectiveKind::kAllGatherV:
      return RunAllGatherV(meeting, rank, call.mine, *call.layout, call.element_size);
    case CollectiveKind::kReduceScatterV:
      return RunReduceScatterV(meeting, rank, call.mine, *call.layout, call.element_size, call.reduce);
    case CollectiveKind::kBroadcast:
      return RunBroadcast(meeting, rank, call.mine, call.count, call.element_size, call.root);
  }
}

}  // namespace infinicts::ref::ccl
