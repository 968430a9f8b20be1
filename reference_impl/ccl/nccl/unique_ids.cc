#include "ccl/nccl/unique_ids.h"

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace infinicts::ref::ccl::nccl {
namespace {

struct Claims {
  int nranks = 0;           // 0 until the first rank claims
  std::vector<bool> taken;  // per rank
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<std::string, Claims> by_id;
};

// Never destroyed: a rank may still initialize while static destructors run at exit.
Registry &TheRegistry() {
  static Registry *registry = new Registry;
  return *registry;
}

std::string Key(const ncclUniqueId &id) { return std::string(id.internal, sizeof id.internal); }

}  // namespace

void RememberUniqueId(const ncclUniqueId &id) {
  Registry &registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.by_id.emplace(Key(id), Claims{});
}

infiniStatus_t ClaimRank(const ncclUniqueId &id, int nranks, int rank) {
  Registry &registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  const auto found = registry.by_id.find(Key(id));
  if (found == registry.by_id.end()) return INFINI_STATUS_BAD_PARAM;
  Claims &claims = found->second;
  if (claims.nranks == 0) {
    claims.nranks = nranks;
    claims.taken.assign(static_cast<size_t>(nranks), false);
  }
  if (claims.nranks != nranks || claims.taken[static_cast<size_t>(rank)]) return INFINI_STATUS_BAD_PARAM;
  claims.taken[static_cast<size_t>(rank)] = true;
  return INFINI_STATUS_SUCCESS;
}

}  // namespace infinicts::ref::ccl::nccl
