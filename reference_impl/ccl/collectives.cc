#include "ccl/collectives.h"

#include <algorithm>
#include <cstring>
#include <vector>

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

const char *Bytes(const void *pointer) { return static_cast<const char *>(pointer); }
char *Bytes(void *pointer) { return static_cast<char *>(pointer); }

// In place, source and destination are the same; memmove, since callers may pass
// overlapping buffers that are not exactly in place.
void Copy(void *dst, const void *src, size_t bytes) {
  if (dst != src && bytes > 0) std::memmove(dst, src, bytes);
}

// Every rank's send buffer, offset by `byte_offset`.
std::vector<const void *> SendsAt(const Meeting &meeting, size_t byte_offset) {
  std::vector<const void *> sources(static_cast<size_t>(meeting.nranks()));
  for (int q = 0; q < meeting.nranks(); ++q)
    sources[static_cast<size_t>(q)] = Bytes(meeting.buffers(q).send) + byte_offset;
  return sources;
}

}  // namespace

void RunAllReduce(Meeting &meeting, int rank, RankBuffers mine, size_t count, size_t element_size,
                  ReduceFunction reduce) {
  const int nranks = meeting.nranks();
  meeting.Arrive(rank, mine);

  // Reduce-scatter: my chunk of everyone's send buffer into my receive buffer. In place,
  // only I read or write my chunk of my own buffer in this phase.
  const ElementRange own = Chunk(count, nranks, rank);
  if (own.end > own.begin) {
    const std::vector<const void *> sources = SendsAt(meeting, own.begin * element_size);
    reduce(sources.data(), nranks, Bytes(mine.recv) + own.begin * element_size, own.end - own.begin, nranks);
  }
  // All-gather may overwrite send buffers (in place) only after every rank reduced.
  meeting.Synchronize();

  for (int q = 0; q < nranks; ++q) {
    if (q == rank) continue;
    const ElementRange theirs = Chunk(count, nranks, q);
    const size_t offset = theirs.begin * element_size;
    Copy(Bytes(mine.recv) + offset, Bytes(meeting.buffers(q).recv) + offset,
         (theirs.end - theirs.begin) * element_size);
  }
  // My reduced chunk must stay until every rank has copied it.
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

void RunBroadcast(Meeting &meeting, int rank, RankBuffers mine, size_t count, size_t element_size, int root) {
  meeting.Arrive(rank, mine);
  Copy(mine.recv, meeting.buffers(root).send, count * element_size);
  meeting.Synchronize();
}

}  // namespace infinicts::ref::ccl
