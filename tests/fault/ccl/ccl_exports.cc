// The exported InfiniCCL functions of the wrapper: each forwards to the active table,
// which is the real library's call unless the requested fault replaced it.
#include "ccl/ccl_table.h"

#define X(name, params, args) \
  extern "C" infiniStatus_t name params { return infinicts::fault::ActiveCcl().name args; }
#include "backend/ccl_symbols.def"
#undef X
