// The problems the KV-cache writers' perf cases time (KVCaching, PagedCaching): for each
// serving model and half or single dtype, decode steps of 1, 16 and 64 sequences writing one
// token each, and prefill chunks of 16 and 512 tokens (4096 too under --profile full) of one
// sequence. Each operator builds its own problem from the model, dtype, part and count.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "common/perf_problem.h"

namespace infinicts::op_cases {

// `count`: the sequences of a "decode" step, the tokens of a "prefill_chunk".
using CacheWriteProblem =
    std::function<PerfProblem(const LlmModel &model, infiniDtype_t dtype, const char *part, size_t count)>;

std::vector<PerfProblem> CacheWriteProblems(const CacheWriteProblem &make);

}  // namespace infinicts::op_cases
