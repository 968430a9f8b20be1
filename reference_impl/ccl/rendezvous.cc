#include "ccl/rendezvous.h"

#include "ccl/process_group.h"
#ifdef INFINICTS_REF_CCL_WITH_MPI
#include "ccl/mpi/mpi_rendezvous.h"
#endif

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

namespace infinicts::ref::ccl {
namespace {

// What an id holds: a tag, the process that made it, its serial number there, and a random
// number, so that a later process with a reused pid never meets a dead one's leftovers;
// and, where the maker had MPI ready, its MPI_COMM_WORLD rank (else -1): the ranks then
// meet over MPI first (mpi/mpi_rendezvous.h).
struct IdContents {
  char tag[16];
  uint64_t process;
  uint64_t serial;
  uint64_t nonce;
  int64_t mpi_maker;
};
static_assert(sizeof(IdContents) <= sizeof(infinicclUniqueId_t::internal), "an id must fit the public struct");

constexpr char kIdTag[16] = "infinicts-ccl";

std::atomic<uint64_t> last_serial{0};

constexpr long kDefaultTimeoutMs = 60000;

std::chrono::milliseconds RendezvousTimeout() {
  const char *text = std::getenv("INFINICTS_CCL_INIT_TIMEOUT_MS");
  if (text == nullptr || *text == '\0') return std::chrono::milliseconds(kDefaultTimeoutMs);
  char *end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value <= 0) return std::chrono::milliseconds(kDefaultTimeoutMs);
  return std::chrono::milliseconds(value);
}

IdContents ReadId(const infinicclUniqueId_t &id) {
  IdContents contents;
  std::memcpy(&contents, id.internal, sizeof contents);
  return contents;
}

}  // namespace

void NewUniqueId(infinicclUniqueId_t *id) {
  IdContents contents{};
  std::memcpy(contents.tag, kIdTag, sizeof contents.tag);
  contents.process = static_cast<uint64_t>(getpid());
  contents.serial = ++last_serial;
  contents.nonce = (static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
#ifdef INFINICTS_REF_CCL_WITH_MPI
  contents.mpi_maker = MpiWorldRankIfReady();
#else
  contents.mpi_maker = -1;
#endif
  std::memset(id->internal, 0, sizeof id->internal);
  std::memcpy(id->internal, &contents, sizeof contents);
}

bool IsUniqueId(const infinicclUniqueId_t &id) {
  const IdContents contents = ReadId(id);
  return std::memcmp(contents.tag, kIdTag, sizeof contents.tag) == 0 && contents.process != 0 && contents.serial >= 1;
}

infiniStatus_t JoinRendezvous(const infinicclUniqueId_t &id, int nranks, int rank, int device,
                              std::shared_ptr<CommGroup> *group) {
  const IdContents contents = ReadId(id);
#ifdef INFINICTS_REF_CCL_WITH_MPI
  if (contents.mpi_maker >= 0) {
    bool same_host = false;
    const uint64_t key = contents.nonce ^ (contents.serial * 0x9E3779B97F4A7C15ULL) ^ (contents.process << 40);
    const infiniStatus_t met = JoinOverMpi(static_cast<int>(contents.mpi_maker), key, nranks, rank, device,
                                           RendezvousTimeout(), group, &same_host);
    if (met != INFINI_STATUS_SUCCESS || !same_host) return met;
  } else if (MessagesRequested()) {
    std::fprintf(stderr, "libinfiniccl: INFINICTS_REF_CCL_TRANSPORT=mpi, but the id was made where MPI was not "
                 "initialized with MPI_THREAD_MULTIPLE\n");
    return INFINI_STATUS_INTERNAL_ERROR;
  }
#endif
  const std::string name = "/infinicts-ccl-id-" + std::to_string(contents.process) + "-" +
                           std::to_string(contents.serial) + "-" + std::to_string(contents.nonce);
  return JoinAcrossProcesses(name, nranks, rank, device, RendezvousTimeout(), group);
}

}  // namespace infinicts::ref::ccl
