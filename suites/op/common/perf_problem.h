// The problems the perf cases time: one layer part (Gemm's QKV projection, the FFN's
// SwiGLU, ...) of a Llama-2 model at a number of tokens (batch·seq), in one dtype. The
// quick profile (the default) takes Llama-2-7B at 1 and 16 tokens (512 too for the cheap
// operators) in F32; cts::FullProfile() adds Llama-2-70B, 512 and 4096 tokens, F16 and BF16.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/op_case.h"

namespace infinicts::op_cases {

struct LlmModel {
  const char *name;  // as case ids write it: "llama2_7b"
  size_t hidden, intermediate, heads, kv_heads, head_dim, vocab;
};
inline constexpr LlmModel kLlama2_7B{"llama2_7b", 4096, 11008, 32, 32, 128, 32000};
inline constexpr LlmModel kLlama2_70B{"llama2_70b", 8192, 28672, 64, 8, 128, 32000};
inline constexpr LlmModel kLlama3_8B{"llama3_8b", 4096, 14336, 32, 8, 128, 128256};    // GQA: 4 heads per kv head
inline constexpr LlmModel kQwen2_7B{"qwen2_7b", 3584, 18944, 28, 4, 128, 152064};     // GQA: 7 heads per kv head

struct PerfProblem : Param<PerfProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  std::string model;  // "llama2_7b"; another workload's name where no LLM applies (conv)
  std::string part;   // the layer part: "qkv_proj", "ffn_swiglu", ...
  size_t tokens = 0;  // batch·seq; 0 where the workload has no tokens
  std::vector<std::pair<std::string, size_t>> dims;  // the sizes the tensors derive from, in order

  size_t Dim(const std::string &name) const;  // throws std::logic_error when absent
  // "llama2_7b__qkv_proj__tokens_16__f32" (the id reads model/part/tokens_16/f32).
  std::string Name() const;
  // {"dtype", "model", "part", "tokens", "shape": {dim: size, ...}}
  std::string Json() const;
};

// How much an operator costs the CPU reference per element: the cheap ones also run at 512
// tokens in the quick profile.
enum class PerfWeight { kCheap, kHeavy };

std::vector<LlmModel> PerfModels();
// The serving operators' models (attention, caches, fused norms, routing): Llama-2-7B,
// Llama-3-8B and Qwen2-7B, whose head counts and widths differ (GQA), in every profile;
// the full profile adds Llama-2-70B.
std::vector<LlmModel> ServingModels();
std::vector<size_t> PerfTokens(PerfWeight weight);
// The profile's dtypes among those the operator admits.
std::vector<infiniDtype_t> PerfDtypes(const std::vector<infiniDtype_t> &admitted);

// One problem per model × tokens × dtype × part: `parts(model, tokens)` gives each part's
// name and dims for that model and token count.
using PartDims = std::vector<std::pair<std::string, std::vector<std::pair<std::string, size_t>>>>;
// `models` defaults to PerfModels().
std::vector<PerfProblem> LlmProblems(PerfWeight weight, const std::vector<infiniDtype_t> &admitted,
                                     const std::function<PartDims(const LlmModel &, size_t tokens)> &parts,
                                     const std::vector<LlmModel> &models = PerfModels());

// One model's sizes for a workload that is not an LlmModel's (a MoE router, a combine): its
// name in case ids and its dims after "tokens".
struct NamedModelDims {
  std::string model;
  std::vector<std::pair<std::string, size_t>> dims;
};
// One problem per model × tokens × dtype of the profile, of one part: dims {"tokens", then the
// model's own}.
std::vector<PerfProblem> NamedModelProblems(const std::string &part, PerfWeight weight,
                                            const std::vector<infiniDtype_t> &admitted,
                                            const std::vector<NamedModelDims> &models);
// The same for an operator of I32 indices alone (MoeAlign, PrepareMoeInput): I32 in every
// profile.
std::vector<PerfProblem> IndexModelProblems(const std::string &part, PerfWeight weight,
                                            const std::vector<NamedModelDims> &models);

// Problems over [tokens, width] rows, width the model's hidden size, FFN width or vocabulary:
// dims {"tokens", "width"}.
enum class RowWidth { kHidden, kIntermediate, kVocab };
std::vector<PerfProblem> TokenRowProblems(const std::string &part, RowWidth width, PerfWeight weight,
                                          const std::vector<infiniDtype_t> &admitted,
                                          const std::vector<LlmModel> &models = PerfModels());
Shape TokenRowShape(const PerfProblem &problem);  // {tokens, width}

// Contiguous specs of one shape and dtype: the first named tensor the output, the rest inputs.
std::vector<TensorSpec> SameShapeSpecs(const PerfProblem &problem, const std::vector<std::string> &names,
                                       const Shape &shape);

inline std::vector<infiniDtype_t> HalfAndSingleDtypes() {
  return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32};
}

}  // namespace infinicts::op_cases
