#include "common/cache_write_problems.h"

#include "cts/case.h"

namespace infinicts::op_cases {

std::vector<PerfProblem> CacheWriteProblems(const CacheWriteProblem &make) {
  std::vector<size_t> chunks = {16, 512};
  if (cts::FullProfile()) chunks.push_back(4096);
  std::vector<PerfProblem> problems;
  for (const LlmModel &model : ServingModels()) {
    for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
      for (size_t batch : {1, 16, 64}) problems.push_back(make(model, dtype, "decode", batch));
      for (size_t chunk : chunks) problems.push_back(make(model, dtype, "prefill_chunk", chunk));
    }
  }
  return problems;
}

}  // namespace infinicts::op_cases
