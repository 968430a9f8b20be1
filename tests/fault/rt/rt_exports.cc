// The exported InfiniRT functions of the wrapper: each forwards to the active table,
// which is the real backend's call unless the requested fault replaced it.
#include "rt/rt_table.h"

#define X(name, params, args) \
  extern "C" infiniStatus_t name params { return infinicts::fault::ActiveRt().name args; }
#include "backend/rt_symbols.def"
#undef X
