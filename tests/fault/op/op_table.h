// One pointer per InfiniOP function, generated from the loader's X-macro list.
#pragma once

#include "infiniop.h"

namespace infinicts::fault {

struct OpTable {
#define X(name, params, args) decltype(&::name) name = nullptr;
#include "backend/op_symbols.def"
#undef X
};

// The real library's calls (loaded on first use); a function it does not export answers
// INFINI_STATUS_NOT_IMPLEMENTED, as the harness's loader would.
const OpTable &TargetOp();

// TargetOp() with the fault of $INFINICTS_FAULT installed: what the exports call.
const OpTable &ActiveOp();

}  // namespace infinicts::fault
