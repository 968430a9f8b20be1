// What RandomSample's and RandomSampleBatch's suite files share: the sampling parameters,
// their sets, the oracle's draws with them, the largest index a result dtype holds, and
// RandomSampleBatch's calls.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/operator_calls.h"
#include "common/problem_grammar.h"
#include "oracle/oracles.h"
#include "tensor/host_tensor.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {

// The oracle's threshold must lie this far (a fraction of the distribution) from the chosen
// index's boundaries: a backend computing the cumulative sums in F32 lands within ~1e-6.
inline constexpr double kMinSamplingMargin = 1e-3;

struct Sampling {
  float random_val, topp;
  int topk;
  float temperature;
};

// A row in a problem line: random_val/topp/topk/temperature, e.g. "0.5/0.9/50/1".
template <>
struct FieldCodec<Sampling> {
  static std::string Text(const Sampling &s) {
    return ShortestText(s.random_val) + "/" + ShortestText(s.topp) + "/" + std::to_string(s.topk) + "/" +
           ShortestText(s.temperature);
  }
  static bool Parse(const std::string &text, Sampling *s) {
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
      const size_t end = text.find('/', start);
      parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    if (parts.size() != 4) return false;
    Sampling parsed{};
    if (!FieldCodec<float>::Parse(parts[0], &parsed.random_val) || !FieldCodec<float>::Parse(parts[1], &parsed.topp) ||
        !FieldCodec<int>::Parse(parts[2], &parsed.topk) || !FieldCodec<float>::Parse(parts[3], &parsed.temperature))
      return false;
    *s = parsed;
    return true;
  }
  static nlohmann::json Json(const Sampling &s) {
    return {{"random_val", s.random_val}, {"topp", s.topp}, {"topk", s.topk}, {"temperature", s.temperature}};
  }
};

// Real draws: random_val, topp, topk and temperature all matter (topk 1000000 is past n).
inline constexpr Sampling kSamplingDraws[] = {{0.3f, 0.9f, 50, 1.0f},
                                              {0.75f, 0.5f, 20, 0.7f},
                                              {0.5f, 1.0f, 1000000, 1.5f},
                                              {0.9f, 0.95f, 5, 1.0f},
                                              {0.1f, 0.2f, 10, 2.0f}};
// Each of the four arguments that select plain argmax (OP-RANDOMSAMPLE-3).
inline constexpr Sampling kArgmaxTriggers[] = {
    {0.0f, 0.9f, 50, 1.0f}, {0.5f, 0.9f, 1, 1.0f}, {0.5f, 0.9f, 50, 0.0f}, {0.5f, 0.0f, 50, 1.0f}};

// The rows' parameters as the oracle takes them, and the indices the oracle draws with them
// from the rows of `probs`.
inline std::vector<oracle::SamplingParameters> OracleRows(const std::vector<Sampling> &rows) {
  std::vector<oracle::SamplingParameters> parameters;
  for (const Sampling &s : rows) parameters.push_back({s.random_val, s.topp, s.topk, s.temperature});
  return parameters;
}
inline std::vector<int64_t> OracleIndices(const HostTensor &probs, const std::vector<Sampling> &rows) {
  std::vector<int64_t> indices;
  for (const oracle::RandomSampleResult &r : oracle::RandomSampleBatch(probs, OracleRows(rows))) {
    indices.push_back(r.index);
  }
  return indices;
}

inline double IntegerMax(infiniDtype_t dtype) {
  const int bits = 8 * static_cast<int>(DtypeSize(dtype)) - (IsSignedInt(dtype) ? 1 : 0);
  return std::ldexp(1.0, bits) - 1.0;
}

// RandomSampleBatch's calls, their four host arrays holding `rows`' parameters (row i's in
// entry i). Each compute sets them first, in place; with `arrays_rewritten` every entry
// becomes an argmax trigger as soon as the backend returns (OP-RANDOMSAMPLEBATCH-5).
inline OpCalls RandomSampleBatchCalls(const std::vector<Sampling> &rows, bool arrays_rewritten = false) {
  struct Arrays {
    std::vector<float> random_val, topp, temperature;
    std::vector<int> topk;
    explicit Arrays(size_t n) : random_val(n), topp(n), temperature(n), topk(n) {}
  };
  auto arrays = std::make_shared<Arrays>(rows.size());
  const auto scalars = std::make_tuple(arrays->random_val.data(), arrays->topp.data(), arrays->topk.data(),
                                       arrays->temperature.data(), static_cast<int>(rows.size()));
  OpCalls calls = OperatorCalls<api::RandomSampleBatch>(std::tuple<>(), scalars);
  calls.compute = [arrays, rows, arrays_rewritten, compute = calls.compute](
                      OpDescriptor desc, void *workspace, size_t workspace_size, const std::vector<void *> &data,
                      void *stream) {
    for (size_t i = 0; i < rows.size(); ++i) {
      arrays->random_val[i] = rows[i].random_val, arrays->topp[i] = rows[i].topp;
      arrays->topk[i] = rows[i].topk, arrays->temperature[i] = rows[i].temperature;
    }
    const infiniStatus_t status = compute(desc, workspace, workspace_size, data, stream);
    if (arrays_rewritten) {
      // Each array gets the value of its own argmax trigger, so that a backend reading any
      // one of them late samples argmax.
      std::fill(arrays->random_val.begin(), arrays->random_val.end(), kArgmaxTriggers[0].random_val);
      std::fill(arrays->topk.begin(), arrays->topk.end(), kArgmaxTriggers[1].topk);
      std::fill(arrays->temperature.begin(), arrays->temperature.end(), kArgmaxTriggers[2].temperature);
      std::fill(arrays->topp.begin(), arrays->topp.end(), kArgmaxTriggers[3].topp);
    }
    return status;
  };
  return calls;
}

}  // namespace infinicts::op_cases
