#include "ccl/mpi/mpi_rendezvous.h"

#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "ccl/mpi/mpi_group.h"

namespace infinicts::ref::ccl {
namespace {

// What each rank tells the maker.
struct Hello {
  uint64_t key;   // the id's: a message of another id is told apart
  uint64_t host;  // HostKey()
  int32_t rank;
  int32_t nranks;
  int32_t world_rank;
  int32_t device;
};

// The maker's answer, the same for every rank, followed by one Member per rank.
struct Answer {
  uint64_t key;
  int32_t status;
  int32_t same_host;
};
struct Member {
  int32_t world_rank;
  int32_t device;
};

// Host name and boot id: processes that agree on both share /dev/shm.
uint64_t HostKey() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  std::string text = name;
  std::ifstream boot_id("/proc/sys/kernel/random/boot_id");
  std::string boot;
  std::getline(boot_id, boot);
  text += "/" + boot;
  uint64_t hash = 14695981039346656037ULL;  // FNV-1a
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ULL;
  return hash;
}

// The id's pair of tags on MPI_COMM_WORLD: hellos on the even one, answers on the odd one.
int HelloTag(uint64_t key) {
  int *tag_ub = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found);
  const uint64_t span = (static_cast<uint64_t>(found && tag_ub ? *tag_ub : 32767) - 1) / 2;
  return static_cast<int>(2 * (key % span));
}

bool PollFor(int source, int tag, std::chrono::steady_clock::time_point deadline, MPI_Status *status) {
  for (;;) {
    int arrived = 0;
    MPI_Iprobe(source, tag, MPI_COMM_WORLD, &arrived, status);
    if (arrived) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The ids whose hellos a thread of this process is collecting (the maker's first caller).
std::mutex collecting_mutex;
std::set<uint64_t> collecting;

// The maker's part: collects `nranks` hellos and answers each one's sender. Returns at the
// deadline without answering when not all came: the ranks then time out on their own.
void CollectAndAnswer(uint64_t key, int nranks, int tag, std::chrono::steady_clock::time_point deadline) {
  std::vector<Hello> hellos;
  while (static_cast<int>(hellos.size()) < nranks) {
    MPI_Status status;
    if (!PollFor(MPI_ANY_SOURCE, tag, deadline, &status)) return;
    Hello hello{};
    MPI_Recv(&hello, sizeof hello, MPI_BYTE, status.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (hello.key != key) {
      std::fprintf(stderr, "libinfiniccl: CommInitRank: a message of another id came on MPI tag %d: ignored\n", tag);
      continue;
    }
    hellos.push_back(hello);
  }
  std::vector<unsigned char> answer(sizeof(Answer) + sizeof(Member) * static_cast<size_t>(nranks), 0);
  Answer head{key, INFINI_STATUS_SUCCESS, 1};
  auto *members = reinterpret_cast<Member *>(answer.data() + sizeof(Answer));
  std::vector<bool> taken(static_cast<size_t>(nranks), false);
  std::set<int32_t> processes;
  for (const Hello &hello : hellos) {
    if (hello.nranks != nranks || hello.rank < 0 || hello.rank >= nranks || taken[static_cast<size_t>(hello.rank)]) {
      head.status = INFINI_STATUS_BAD_PARAM;
      continue;
    }
    taken[static_cast<size_t>(hello.rank)] = true;
    members[hello.rank] = {hello.world_rank, hello.device};
    processes.insert(hello.world_rank);
    if (hello.host != hellos.front().host) head.same_host = 0;
  }
  const bool one_rank_per_process = static_cast<int>(processes.size()) == nranks;
  if (head.same_host && MessagesRequested() && one_rank_per_process) head.same_host = 0;
  if (head.status == INFINI_STATUS_SUCCESS && !head.same_host && !one_rank_per_process) {
    std::fprintf(stderr, "libinfiniccl: CommInitRank: ranks on several hosts need one rank per process\n");
    head.status = INFINI_STATUS_INTERNAL_ERROR;
  }
  std::memcpy(answer.data(), &head, sizeof head);
  std::vector<MPI_Request> sent(hellos.size());
  for (size_t i = 0; i < hellos.size(); ++i) {
    MPI_Isend(answer.data(), static_cast<int>(answer.size()), MPI_BYTE, hellos[i].world_rank, tag + 1, MPI_COMM_WORLD,
              &sent[i]);
  }
  MPI_Waitall(static_cast<int>(sent.size()), sent.data(), MPI_STATUSES_IGNORE);
}

}  // namespace

int MpiWorldRankIfReady() {
  int initialized = 0, finalized = 0, level = MPI_THREAD_SINGLE, rank = -1;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return -1;
  MPI_Query_thread(&level);
  if (level != MPI_THREAD_MULTIPLE) return -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

bool MessagesRequested() {
  const char *transport = std::getenv("INFINICTS_REF_CCL_TRANSPORT");
  return transport != nullptr && std::strcmp(transport, "mpi") == 0;
}

infiniStatus_t JoinOverMpi(int maker, uint64_t key, int nranks, int rank, int device, std::chrono::milliseconds timeout,
                           std::shared_ptr<CommGroup> *group, bool *same_host) {
  const int me = MpiWorldRankIfReady();
  if (me < 0) {
    std::fprintf(stderr, "libinfiniccl: CommInitRank: the id was made under MPI, but this process has not "
                 "initialized MPI with MPI_THREAD_MULTIPLE\n");
    return INFINI_STATUS_INTERNAL_ERROR;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const int tag = HelloTag(key);
  // On the heap: a hello the maker never takes stays MPI's to send after a timeout.
  auto hello = std::make_unique<Hello>(Hello{key, HostKey(), rank, nranks, me, device});
  MPI_Request hello_sent;
  MPI_Isend(hello.get(), sizeof(Hello), MPI_BYTE, maker, tag, MPI_COMM_WORLD, &hello_sent);
  if (me == maker) {
    bool collects = false;
    {
      std::lock_guard<std::mutex> lock(collecting_mutex);
      collects = collecting.insert(key).second;
    }
    if (collects) {
      CollectAndAnswer(key, nranks, tag, deadline);
      std::lock_guard<std::mutex> lock(collecting_mutex);
      collecting.erase(key);
    }
  }
  MPI_Status status;
  if (!PollFor(maker, tag + 1, deadline, &status)) {
    MPI_Request_free(&hello_sent);
    hello.release();  // MPI may still read it: left allocated (a few bytes, on a failed init only)
    return INFINI_STATUS_INTERNAL_ERROR;
  }
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  std::vector<unsigned char> answer(static_cast<size_t>(bytes));
  MPI_Recv(answer.data(), bytes, MPI_BYTE, maker, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&hello_sent, MPI_STATUS_IGNORE);
  Answer head{};
  if (answer.size() != sizeof(Answer) + sizeof(Member) * static_cast<size_t>(nranks)) return INFINI_STATUS_BAD_PARAM;
  std::memcpy(&head, answer.data(), sizeof head);
  if (head.key != key) return INFINI_STATUS_INTERNAL_ERROR;
  if (head.status != INFINI_STATUS_SUCCESS) return static_cast<infiniStatus_t>(head.status);
  if (head.same_host) {
    *same_host = true;
    return INFINI_STATUS_SUCCESS;
  }

  std::vector<Member> members(static_cast<size_t>(nranks));
  std::memcpy(members.data(), answer.data() + sizeof(Answer), sizeof(Member) * members.size());
  std::vector<int> world_ranks, devices;
  for (const Member &member : members) {
    world_ranks.push_back(member.world_rank);
    devices.push_back(member.device);
  }
  MPI_Group world_group, member_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_incl(world_group, nranks, world_ranks.data(), &member_group);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_create_group(MPI_COMM_WORLD, member_group, tag, &comm);
  MPI_Group_free(&member_group);
  MPI_Group_free(&world_group);
  if (comm == MPI_COMM_NULL) return INFINI_STATUS_INTERNAL_ERROR;
  *group = std::make_shared<CommGroup>(devices, std::make_shared<MpiGroup>(comm));
  return INFINI_STATUS_SUCCESS;
}

}  // namespace infinicts::ref::ccl
