// Faults of the MoE routers, each a plausible slip, applied on the host once the real call
// has run (it checks the arguments and answers the status) and its work is done:
// - topksoftmax_ties_to_higher_index: equal logits ranked by decreasing index, as a sort
//   whose comparator breaks ties the other way does; the indices and values are rewritten;
// - topksoftmax_softmax_over_selected: the values are the softmax over the selected experts
//   alone, whatever norm says (right only with norm != 0, or with every expert selected);
// - topkrouter_values_from_biased_scores: the values come from the biased scores
//   b = sigmoid(x) + correction_bias, the ones the selection ranks by, instead of sigmoid(x).
// values (F32) and indices (I32) are contiguous [tokens, topk] (no descriptor of theirs).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

DescriptorRecords<TensorLayout> topksoftmax_x;  // x of each Topksoftmax descriptor
struct RouterLayouts {
  TensorLayout x, bias;
};
DescriptorRecords<RouterLayouts> topkrouter_layouts;

bool IsRouterInput(const std::optional<TensorLayout> &x) {
  return x && x->shape.size() == 2 && x->shape[1] > 0 && IsFloatDtype(x->dtype);
}

// Row r of x as doubles.
std::vector<double> RowOf(const TensorLayout &x, const void *data, size_t r) {
  std::vector<double> row(x.shape[1]);
  for (size_t i = 0; i < row.size(); ++i) {
    const ptrdiff_t offset = static_cast<ptrdiff_t>(r) * x.strides[0] + static_cast<ptrdiff_t>(i) * x.strides[1];
    row[i] = LoadElement(x.dtype, data, offset);
  }
  return row;
}

infiniStatus_t CreateTopksoftmaxRecorded(infiniopHandle_t handle, infiniopTopksoftmaxDescriptor_t *desc_ptr,
                                         infiniopTensorDescriptor_t x_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreateTopksoftmaxDescriptor(handle, desc_ptr, x_desc);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto x = LayoutOf(x_desc);
  if (IsRouterInput(x)) {
    topksoftmax_x.Put(*desc_ptr, *x);
  } else {
    topksoftmax_x.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DestroyTopksoftmaxForgetting(infiniopTopksoftmaxDescriptor_t desc) {
  topksoftmax_x.Erase(desc);
  return TargetOp().infiniopDestroyTopksoftmaxDescriptor(desc);
}

infiniStatus_t TopksoftmaxTiesToHigherIndex(infiniopTopksoftmaxDescriptor_t desc, void *workspace,
                                            size_t workspace_size, void *values, void *indices, const void *x,
                                            const size_t topk, const int norm, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopTopksoftmax(desc, workspace, workspace_size, values, indices, x, topk, norm, stream);
  };
  const auto layout = desc != nullptr ? topksoftmax_x.Find(desc) : std::nullopt;
  if (!layout || values == nullptr || indices == nullptr || x == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] {
    const size_t experts = layout->shape[1];
    for (size_t r = 0; r < layout->shape[0]; ++r) {
      const std::vector<double> row = RowOf(*layout, x, r);
      const double max = *std::max_element(row.begin(), row.end());
      double sum = 0.0;
      for (double v : row) sum += std::exp(v - max);
      std::vector<size_t> ranking(experts);
      std::iota(ranking.rbegin(), ranking.rend(), size_t{0});  // from the highest index down
      std::stable_sort(ranking.begin(), ranking.end(), [&](size_t a, size_t b) { return row[a] > row[b]; });
      double selected = 0.0;
      for (size_t j = 0; j < topk; ++j) selected += std::exp(row[ranking[j]] - max) / sum;
      for (size_t j = 0; j < topk; ++j) {
        const double p = std::exp(row[ranking[j]] - max) / sum;
        static_cast<float *>(values)[r * topk + j] = static_cast<float>(norm != 0 ? p / selected : p);
        static_cast<int32_t *>(indices)[r * topk + j] = static_cast<int32_t>(ranking[j]);
      }
    }
  });
}

infiniStatus_t TopksoftmaxSoftmaxOverSelected(infiniopTopksoftmaxDescriptor_t desc, void *workspace,
                                              size_t workspace_size, void *values, void *indices, const void *x,
                                              const size_t topk, const int norm, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopTopksoftmax(desc, workspace, workspace_size, values, indices, x, topk, norm, stream);
  };
  const auto layout = desc != nullptr ? topksoftmax_x.Find(desc) : std::nullopt;
  if (!layout || values == nullptr || indices == nullptr || x == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] {
    for (size_t r = 0; r < layout->shape[0]; ++r) {
      const std::vector<double> row = RowOf(*layout, x, r);
      const int32_t *chosen = static_cast<const int32_t *>(indices) + r * topk;
      double max = -INFINITY, sum = 0.0;
      for (size_t j = 0; j < topk; ++j) max = std::max(max, row[chosen[j]]);
      for (size_t j = 0; j < topk; ++j) sum += std::exp(row[chosen[j]] - max);
      for (size_t j = 0; j < topk; ++j) {
        static_cast<float *>(values)[r * topk + j] = static_cast<float>(std::exp(row[chosen[j]] - max) / sum);
      }
    }
  });
}

infiniStatus_t CreateTopkrouterRecorded(infiniopHandle_t handle, infiniopTopkrouterDescriptor_t *desc_ptr,
                                        infiniopTensorDescriptor_t x_desc,
                                        infiniopTensorDescriptor_t correction_bias_desc) {
  const infiniStatus_t status =
      TargetOp().infiniopCreateTopkrouterDescriptor(handle, desc_ptr, x_desc, correction_bias_desc);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto x = LayoutOf(x_desc), bias = LayoutOf(correction_bias_desc);
  if (IsRouterInput(x) && bias && bias->shape.size() == 1 && bias->shape[0] == x->shape[1] &&
      bias->dtype == INFINI_DTYPE_F32) {
    topkrouter_layouts.Put(*desc_ptr, {*x, *bias});
  } else {
    topkrouter_layouts.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DestroyTopkrouterForgetting(infiniopTopkrouterDescriptor_t desc) {
  topkrouter_layouts.Erase(desc);
  return TargetOp().infiniopDestroyTopkrouterDescriptor(desc);
}

infiniStatus_t TopkrouterValuesFromBiasedScores(infiniopTopkrouterDescriptor_t desc, void *workspace,
                                                size_t workspace_size, void *values, void *indices, const void *x,
                                                const void *correction_bias, const float routed_scaling_factor,
                                                const size_t topk, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopTopkrouter(desc, workspace, workspace_size, values, indices, x, correction_bias,
                                         routed_scaling_factor, topk, stream);
  };
  const auto layouts = desc != nullptr ? topkrouter_layouts.Find(desc) : std::nullopt;
  if (!layouts || values == nullptr || indices == nullptr || x == nullptr || correction_bias == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] {
    for (size_t r = 0; r < layouts->x.shape[0]; ++r) {
      const std::vector<double> row = RowOf(layouts->x, x, r);
      const int32_t *chosen = static_cast<const int32_t *>(indices) + r * topk;
      std::vector<double> biased(topk);
      double sum = 1e-9;
      for (size_t j = 0; j < topk; ++j) {
        const double bias = LoadElement(INFINI_DTYPE_F32, correction_bias, chosen[j] * layouts->bias.strides[0]);
        biased[j] = 1.0 / (1.0 + std::exp(-row[chosen[j]])) + bias;
        sum += biased[j];
      }
      for (size_t j = 0; j < topk; ++j) {
        static_cast<float *>(values)[r * topk + j] =
            static_cast<float>(static_cast<double>(routed_scaling_factor) * biased[j] / sum);
      }
    }
  });
}

void InstallTopksoftmaxRecording(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateTopksoftmaxDescriptor = &CreateTopksoftmaxRecorded;
  calls.infiniopDestroyTopksoftmaxDescriptor = &DestroyTopksoftmaxForgetting;
}

}  // namespace

void InstallTopksoftmaxTiesToHigherIndex(OpTable &calls) {
  InstallTopksoftmaxRecording(calls);
  calls.infiniopTopksoftmax = &TopksoftmaxTiesToHigherIndex;
}
INFINICTS_FAULT(OpTable, "topksoftmax_ties_to_higher_index",
                "Topksoftmax ranks equal logits by decreasing expert index",
                InstallTopksoftmaxTiesToHigherIndex);

void InstallTopksoftmaxSoftmaxOverSelected(OpTable &calls) {
  InstallTopksoftmaxRecording(calls);
  calls.infiniopTopksoftmax = &TopksoftmaxSoftmaxOverSelected;
}
INFINICTS_FAULT(OpTable, "topksoftmax_softmax_over_selected",
                "Topksoftmax's values are the softmax over the selected experts alone, whatever norm says",
                InstallTopksoftmaxSoftmaxOverSelected);

void InstallTopkrouterValuesFromBiasedScores(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateTopkrouterDescriptor = &CreateTopkrouterRecorded;
  calls.infiniopTopkrouter = &TopkrouterValuesFromBiasedScores;
  calls.infiniopDestroyTopkrouterDescriptor = &DestroyTopkrouterForgetting;
}
INFINICTS_FAULT(OpTable, "topkrouter_values_from_biased_scores",
                "Topkrouter's values come from the biased scores sigmoid(x) + correction_bias instead of sigmoid(x)",
                InstallTopkrouterValuesFromBiasedScores);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Equal logits ranked by decreasing index, as an unstable sort may (InfiniCore's CPU kernel): the
// same selection (OP-TOPKSOFTMAX-3 compares ties as a set; the index order is the SHOULD
// OP-TOPKSOFTMAX-6), so every case passes.
// fault-detection: topksoftmax_ties_to_higher_index SUITE op TIMEOUT 30 FILTER op.topksoftmax.* ONLY
// Every norm = 0 case that leaves experts out (topk < n, "_all" marks topk = n): the row's
// softmax and the selected experts' differ (OP-TOPKSOFTMAX-4).
// fault-detection: topksoftmax_softmax_over_selected SUITE op TIMEOUT 30 FILTER op.topksoftmax.* ONLY EXPECT
// fault-detection:   op.topksoftmax.accuracy/matches_oracle/*/top[0-9]/norm0/*
// fault-detection:   op.topksoftmax.accuracy/matches_oracle/*/top[0-9][0-9]/norm0/*
// Every bias is nonzero, so every value from a biased score is off (OP-TOPKROUTER-4).
// fault-detection: topkrouter_values_from_biased_scores SUITE op TIMEOUT 30 FILTER op.topkrouter.* EXPECT
// fault-detection:   op.topkrouter.accuracy/*
