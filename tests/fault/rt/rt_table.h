// One pointer per InfiniRT function, generated from the loader's X-macro list.
#pragma once

#include "infinirt.h"

namespace infinicts::fault {

struct RtTable {
#define X(name, params, args) decltype(&::name) name = nullptr;
#include "backend/rt_symbols.def"
#undef X
};

// The real backend's calls (loaded on first use); a function it does not export
// answers INFINI_STATUS_NOT_IMPLEMENTED, as the harness's loader would.
const RtTable &TargetRt();

// TargetRt() with the fault of $INFINICTS_FAULT installed: what the exports call.
const RtTable &ActiveRt();

}  // namespace infinicts::fault
