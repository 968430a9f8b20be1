// One pointer per InfiniCCL function, generated from the loader's X-macro list.
#pragma once

#include "infiniccl.h"

namespace infinicts::fault {

struct CclTable {
#define X(name, params, args) decltype(&::name) name = nullptr;
#include "backend/ccl_symbols.def"
#undef X
};

// The real library's calls (loaded on first use); a function it does not export answers
// INFINI_STATUS_NOT_IMPLEMENTED, as the harness's loader would.
const CclTable &TargetCcl();

// TargetCcl() with the fault of $INFINICTS_FAULT installed: what the exports call.
const CclTable &ActiveCcl();

}  // namespace infinicts::fault
