#include "common/perf_problem.h"

#include <algorithm>
#include <stdexcept>

#include "tensor/dtype.h"

namespace infinicts::op_cases {

size_t PerfProblem::Dim(const std::string &name) const {
  for (const auto &[dim, size] : dims) {
    if (dim == name) return size;
  }
  throw std::logic_error("perf problem " + Name() + " has no dim " + name);
}

std::string PerfProblem::Name() const {
  std::string name = model + "__" + part;
  if (tokens > 0) name += "__tokens_" + std::to_string(tokens);
  return name + "__" + DtypeName(dtype);
}

std::string PerfProblem::Json() const {
  nlohmann::json shape = nlohmann::json::object();
  for (const auto &[dim, size] : dims) shape[dim] = size;
  nlohmann::json json = {{"dtype", DtypeName(dtype)}, {"model", model}, {"part", part}, {"shape", shape}};
  if (tokens > 0) json["tokens"] = tokens;
  return json.dump();
}

std::vector<LlmModel> PerfModels() {
  if (cts::FullProfile()) return {kLlama2_7B, kLlama2_70B};
  return {kLlama2_7B};
}

std::vector<LlmModel> ServingModels() {
  if (cts::FullProfile()) return {kLlama2_7B, kLlama3_8B, kQwen2_7B, kLlama2_70B};
  return {kLlama2_7B, kLlama3_8B, kQwen2_7B};
}

std::vector<size_t> PerfTokens(PerfWeight weight) {
  if (cts::FullProfile()) return {1, 16, 512, 4096};
  if (weight == PerfWeight::kCheap) return {1, 16, 512};
  return {1, 16};
}

std::vector<infiniDtype_t> PerfDtypes(const std::vector<infiniDtype_t> &admitted) {
  const std::vector<infiniDtype_t> wanted =
      cts::FullProfile() ? HalfAndSingleDtypes() : std::vector<infiniDtype_t>{INFINI_DTYPE_F32};
  std::vector<infiniDtype_t> dtypes;
  for (infiniDtype_t dtype : wanted) {
    if (std::find(admitted.begin(), admitted.end(), dtype) != admitted.end()) dtypes.push_back(dtype);
  }
  return dtypes;
}

namespace {

// One problem per perf dtype of `admitted`, for a model's part at a token count.
void AppendDtypeProblems(const std::string &model, const std::string &part, size_t tokens,
                         const std::vector<std::pair<std::string, size_t>> &dims,
                         const std::vector<infiniDtype_t> &admitted, std::vector<PerfProblem> *problems) {
  for (infiniDtype_t dtype : PerfDtypes(admitted)) {
    PerfProblem problem;
    problem.dtype = dtype;
    problem.model = model;
    problem.part = part;
    problem.tokens = tokens;
    problem.dims = dims;
    problems->push_back(problem);
  }
}

}  // namespace

std::vector<PerfProblem> LlmProblems(PerfWeight weight, const std::vector<infiniDtype_t> &admitted,
                                     const std::function<PartDims(const LlmModel &, size_t tokens)> &parts,
                                     const std::vector<LlmModel> &models) {
  std::vector<PerfProblem> problems;
  for (const LlmModel &model : models) {
    for (size_t tokens : PerfTokens(weight)) {
      for (const auto &[part, dims] : parts(model, tokens)) {
        AppendDtypeProblems(model.name, part, tokens, dims, admitted, &problems);
      }
    }
  }
  return problems;
}

std::vector<PerfProblem> NamedModelProblems(const std::string &part, PerfWeight weight,
                                            const std::vector<infiniDtype_t> &admitted,
                                            const std::vector<NamedModelDims> &models) {
  std::vector<PerfProblem> problems;
  for (const NamedModelDims &model : models) {
    for (size_t tokens : PerfTokens(weight)) {
      std::vector<std::pair<std::string, size_t>> dims = {{"tokens", tokens}};
      dims.insert(dims.end(), model.dims.begin(), model.dims.end());
      AppendDtypeProblems(model.model, part, tokens, dims, admitted, &problems);
    }
  }
  return problems;
}

std::vector<PerfProblem> IndexModelProblems(const std::string &part, PerfWeight weight,
                                            const std::vector<NamedModelDims> &models) {
  std::vector<PerfProblem> problems = NamedModelProblems(part, weight, {INFINI_DTYPE_F32}, models);
  for (PerfProblem &problem : problems) problem.dtype = INFINI_DTYPE_I32;
  return problems;
}

std::vector<PerfProblem> TokenRowProblems(const std::string &part, RowWidth width, PerfWeight weight,
                                          const std::vector<infiniDtype_t> &admitted,
                                          const std::vector<LlmModel> &models) {
  return LlmProblems(weight, admitted, [&](const LlmModel &model, size_t tokens) {
    const size_t size = width == RowWidth::kHidden         ? model.hidden
                        : width == RowWidth::kIntermediate ? model.intermediate
                                                           : model.vocab;
    return PartDims{{part, {{"tokens", tokens}, {"width", size}}}};
  }, models);
}

Shape TokenRowShape(const PerfProblem &problem) { return {problem.Dim("tokens"), problem.Dim("width")}; }

std::vector<TensorSpec> SameShapeSpecs(const PerfProblem &problem, const std::vector<std::string> &names,
                                       const Shape &shape) {
  std::vector<TensorSpec> specs;
  for (size_t i = 0; i < names.size(); ++i) {
    specs.push_back({names[i], i == 0 ? Role::kOutput : Role::kInput, problem.dtype, ContiguousLayout(shape)});
  }
  return specs;
}

}  // namespace infinicts::op_cases
