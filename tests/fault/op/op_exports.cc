// The exported InfiniOP functions of the wrapper: each forwards to the active table,
// which is the real library's call unless the requested fault replaced it.
#include "op/op_table.h"

#define X(name, params, args) \
  extern "C" infiniStatus_t name params { return infinicts::fault::ActiveOp().name args; }
#include "backend/op_symbols.def"
#undef X
