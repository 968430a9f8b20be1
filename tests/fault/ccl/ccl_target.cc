#include <dlfcn.h>

#include "ccl/ccl_faults.h"
#include "ccl/ccl_table.h"
#include "common/fault_env.h"
#include "common/fault_registry.h"

namespace infinicts::fault {
namespace {

namespace not_exported {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define X(name, params, args) \
  infiniStatus_t name params { return INFINI_STATUS_NOT_IMPLEMENTED; }
#include "backend/ccl_symbols.def"
#undef X
#pragma GCC diagnostic pop
}  // namespace not_exported

CclTable LoadTarget() {
  void *handle = OpenTargetLibrary("libinfiniccl.so", reinterpret_cast<const void *>(&LoadTarget));
  CclTable table;
#define X(name, params, args)                                             \
  if (void *symbol = dlsym(handle, #name)) {                              \
    table.name = reinterpret_cast<decltype(&::name)>(symbol);             \
  } else {                                                                \
    table.name = &not_exported::name;                                     \
  }
#include "backend/ccl_symbols.def"
#undef X
  return table;
}

}  // namespace

const CclTable &TargetCcl() {
  static const CclTable table = LoadTarget();
  return table;
}

const CclTable &ActiveCcl() {
  static const CclTable table = WithFault(TargetCcl(), RequestedFaultName(), CclFaults());
  return table;
}

}  // namespace infinicts::fault
