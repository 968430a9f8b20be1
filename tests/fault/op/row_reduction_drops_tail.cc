// The fault `row_reduction_drops_tail`: rows longer than one block of 1024 whose length is
// not a whole number of 32-lane warps lose their last n mod 32 elements from the row's
// reductions, as a multi-block kernel with warp-wide strides and no tail loop does (its
// single-block path, for rows up to 1024, handles the tail). Every element is still written,
// from the short statistics:
//   Softmax, LogSoftmax  max and Σ e^(x − max) along the axis;
//   CausalSoftmax        the same over the kept columns (the row length is `total`);
//   RMSNorm              Σ x² (still divided by d);
//   LayerNorm            Σ x and Σ (x − mean)² (still divided by d);
//   RandomSample         the argmax and the sampling see the first logits only.
// Computed on the host in F64 and stored in the output's dtype; rows of 1024 or fewer, or of
// a multiple of 32, go to the target untouched.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/host_rms_norm.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

constexpr size_t kBlock = 1024, kWarp = 32;

// How many leading elements of a row of `length` the faulty reduction covers.
size_t Covered(size_t length) { return length > kBlock ? length - length % kWarp : length; }

bool DropsTail(size_t length) { return Covered(length) < length; }

// ---- Softmax, LogSoftmax, CausalSoftmax ------------------------------------------------

struct AxisRecord {
  TensorLayout y, x;
  size_t axis;
  bool causal = false;
};

DescriptorRecords<AxisRecord> softmax_records, log_softmax_records, causal_softmax_records;

enum class Output { kSoftmax, kLogSoftmax };

std::vector<ElementWrite> ShortSoftmax(const AxisRecord &record, void *y, const void *x, Output output) {
  const std::vector<ptrdiff_t> y_lines = LineStarts(record.y, record.axis);
  const std::vector<ptrdiff_t> x_lines = LineStarts(record.x, record.axis);
  const size_t length = record.x.shape[record.axis];
  const size_t ndim = record.x.shape.size();
  const size_t seq = record.causal ? record.x.shape[ndim - 2] : 1;
  const ptrdiff_t y_step = record.y.strides[record.axis], x_step = record.x.strides[record.axis];
  std::vector<ElementWrite> writes;
  writes.reserve(y_lines.size() * length);
  std::vector<double> row(length);
  for (size_t line = 0; line < x_lines.size(); ++line) {
    // A causal row i keeps the columns j <= total - seq + i (its lines run i fastest).
    const size_t kept = record.causal ? length - seq + line % seq + 1 : length;
    const size_t reduced = std::min(kept, Covered(length));
    for (size_t j = 0; j < kept; ++j) {
      row[j] = LoadElement(record.x.dtype, x, x_lines[line] + static_cast<ptrdiff_t>(j) * x_step);
    }
    const double max = *std::max_element(row.begin(), row.begin() + static_cast<ptrdiff_t>(reduced));
    double sum = 0.0;
    for (size_t j = 0; j < reduced; ++j) sum += std::exp(row[j] - max);
    for (size_t j = 0; j < length; ++j) {
      double value = 0.0;
      if (j < kept) value = output == Output::kSoftmax ? std::exp(row[j] - max) / sum : row[j] - max - std::log(sum);
      writes.push_back({y, record.y.dtype, y_lines[line] + static_cast<ptrdiff_t>(j) * y_step, value});
    }
  }
  return writes;
}

std::optional<AxisRecord> RecordIfFloat(infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc, int axis,
                                        bool causal) {
  const auto y = LayoutOf(y_desc), x = LayoutOf(x_desc);
  if (!y || !x || !IsFloatDtype(x->dtype) || x->shape.empty()) return std::nullopt;
  const int ndim = static_cast<int>(x->shape.size());
  const size_t positive_axis = static_cast<size_t>(axis < 0 ? axis + ndim : axis);
  if (!DropsTail(x->shape[positive_axis])) return std::nullopt;
  return AxisRecord{*y, *x, positive_axis, causal};
}

infiniStatus_t CreateSoftmaxRecorded(infiniopHandle_t handle, infiniopSoftmaxDescriptor_t *desc_ptr,
                                     infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc, int axis) {
  const infiniStatus_t status = TargetOp().infiniopCreateSoftmaxDescriptor(handle, desc_ptr, y_desc, x_desc, axis);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (auto record = RecordIfFloat(y_desc, x_desc, axis, false)) softmax_records.Put(*desc_ptr, *record);
  return status;
}

infiniStatus_t CreateLogSoftmaxRecorded(infiniopHandle_t handle, infiniopLogSoftmaxDescriptor_t *desc_ptr,
                                        infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc,
                                        int dim) {
  const infiniStatus_t status = TargetOp().infiniopCreateLogSoftmaxDescriptor(handle, desc_ptr, y_desc, x_desc, dim);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (auto record = RecordIfFloat(y_desc, x_desc, dim, false)) log_softmax_records.Put(*desc_ptr, *record);
  return status;
}

infiniStatus_t CreateCausalSoftmaxRecorded(infiniopHandle_t handle, infiniopCausalSoftmaxDescriptor_t *desc_ptr,
                                           infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreateCausalSoftmaxDescriptor(handle, desc_ptr, y_desc, x_desc);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (auto record = RecordIfFloat(y_desc, x_desc, -1, true)) causal_softmax_records.Put(*desc_ptr, *record);
  return status;
}

infiniStatus_t ShortSoftmaxCall(const DescriptorRecords<AxisRecord> &records, const InfiniopDescriptor *desc, void *y,
                                const void *x, void *stream, Output output,
                                const std::function<infiniStatus_t()> &real) {
  const auto record = desc != nullptr ? records.Find(desc) : std::nullopt;
  if (!record || y == nullptr || x == nullptr) return real();
  return ComputeOnHostInstead(stream, [&] { return ShortSoftmax(*record, y, x, output); }, real);
}

infiniStatus_t SoftmaxDroppingTail(infiniopSoftmaxDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                   const void *x, void *stream) {
  return ShortSoftmaxCall(softmax_records, desc, y, x, stream, Output::kSoftmax,
                          [&] { return TargetOp().infiniopSoftmax(desc, workspace, workspace_size, y, x, stream); });
}

infiniStatus_t LogSoftmaxDroppingTail(infiniopLogSoftmaxDescriptor_t desc, void *workspace, size_t workspace_size,
                                      void *y, const void *x, void *stream) {
  return ShortSoftmaxCall(log_softmax_records, desc, y, x, stream, Output::kLogSoftmax, [&] {
    return TargetOp().infiniopLogSoftmax(desc, workspace, workspace_size, y, x, stream);
  });
}

infiniStatus_t CausalSoftmaxDroppingTail(infiniopCausalSoftmaxDescriptor_t desc, void *workspace,
                                         size_t workspace_size, void *y, const void *x, void *stream) {
  return ShortSoftmaxCall(causal_softmax_records, desc, y, x, stream, Output::kSoftmax, [&] {
    return TargetOp().infiniopCausalSoftmax(desc, workspace, workspace_size, y, x, stream);
  });
}

infiniStatus_t DestroySoftmaxForgetting(infiniopSoftmaxDescriptor_t desc) {
  softmax_records.Erase(desc);
  return TargetOp().infiniopDestroySoftmaxDescriptor(desc);
}

infiniStatus_t DestroyLogSoftmaxForgetting(infiniopLogSoftmaxDescriptor_t desc) {
  log_softmax_records.Erase(desc);
  return TargetOp().infiniopDestroyLogSoftmaxDescriptor(desc);
}

infiniStatus_t DestroyCausalSoftmaxForgetting(infiniopCausalSoftmaxDescriptor_t desc) {
  causal_softmax_records.Erase(desc);
  return TargetOp().infiniopDestroyCausalSoftmaxDescriptor(desc);
}

// ---- RMSNorm ---------------------------------------------------------------------------

DescriptorRecords<RmsNormRecord> rms_norm_records;

infiniStatus_t CreateRmsNormRecorded(infiniopHandle_t handle, infiniopRMSNormDescriptor_t *desc_ptr,
                                     infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc,
                                     infiniopTensorDescriptor_t w_desc, float epsilon) {
  const infiniStatus_t status =
      TargetOp().infiniopCreateRMSNormDescriptor(handle, desc_ptr, y_desc, x_desc, w_desc, epsilon);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (auto record = RmsNormRecordOf(y_desc, x_desc, w_desc, epsilon); record && DropsTail(record->x.shape.back())) {
    rms_norm_records.Put(*desc_ptr, *record);
  }
  return status;
}

infiniStatus_t RmsNormDroppingTail(infiniopRMSNormDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                   const void *x, const void *w, void *stream) {
  auto real = [&] { return TargetOp().infiniopRMSNorm(desc, workspace, workspace_size, y, x, w, stream); };
  const auto record = desc != nullptr ? rms_norm_records.Find(desc) : std::nullopt;
  if (!record || y == nullptr || x == nullptr || w == nullptr) return real();
  const size_t d = record->x.shape.back();
  const RmsDivisor rms = [](double sum_of_squares, size_t n, float epsilon) {
    return std::sqrt(sum_of_squares / static_cast<double>(n) + epsilon);
  };
  return ComputeOnHostInstead(stream, [&] { return HostRmsNorm(*record, y, x, w, Covered(d), rms); }, real);
}

infiniStatus_t DestroyRmsNormForgetting(infiniopRMSNormDescriptor_t desc) {
  rms_norm_records.Erase(desc);
  return TargetOp().infiniopDestroyRMSNormDescriptor(desc);
}

// ---- LayerNorm -------------------------------------------------------------------------

struct LayerNormRecord {
  TensorLayout output, standardization, std_deviation, input, weight;
  std::optional<TensorLayout> bias;
  float eps;
};

DescriptorRecords<LayerNormRecord> layer_norm_records;

// The offset of every row's single element of a tensor of the rows' shape (0-D: one row).
std::vector<ptrdiff_t> RowOffsets(TensorLayout rows) {
  rows.shape.push_back(1);
  rows.strides.push_back(1);
  return LineStarts(rows, rows.shape.size() - 1);
}

struct LayerNormData {
  void *output, *standardization, *std_deviation;
  const void *input, *weight, *bias;
};

std::vector<ElementWrite> ShortLayerNorm(const LayerNormRecord &r, const LayerNormData &data) {
  const size_t axis = r.input.shape.size() - 1;
  const std::vector<ptrdiff_t> in_rows = LineStarts(r.input, axis), out_rows = LineStarts(r.output, axis),
                               std_rows = LineStarts(r.standardization, axis), dev_at = RowOffsets(r.std_deviation);
  const size_t d = r.input.shape[axis];
  const ptrdiff_t in_step = r.input.strides[axis], out_step = r.output.strides[axis],
                  std_step = r.standardization.strides[axis], w_step = r.weight.strides[0];
  std::vector<ElementWrite> writes;
  writes.reserve(in_rows.size() * (2 * d + 1));
  for (size_t row = 0; row < in_rows.size(); ++row) {
    auto x_at = [&](size_t j) {
      return LoadElement(r.input.dtype, data.input, in_rows[row] + static_cast<ptrdiff_t>(j) * in_step);
    };
    double sum = 0.0;
    for (size_t j = 0; j < Covered(d); ++j) sum += x_at(j);
    const double mean = sum / static_cast<double>(d);
    double squares = 0.0;
    for (size_t j = 0; j < Covered(d); ++j) squares += (x_at(j) - mean) * (x_at(j) - mean);
    const double std_deviation = std::sqrt(squares / static_cast<double>(d) + r.eps);
    writes.push_back({data.std_deviation, r.std_deviation.dtype, dev_at[row], std_deviation});
    for (size_t j = 0; j < d; ++j) {
      const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
      const double standardized = (x_at(j) - mean) / std_deviation;
      const double bias = r.bias ? LoadElement(r.bias->dtype, data.bias, jj * r.bias->strides[0]) : 0.0;
      writes.push_back({data.standardization, r.standardization.dtype, std_rows[row] + jj * std_step, standardized});
      writes.push_back({data.output, r.output.dtype, out_rows[row] + jj * out_step,
                        standardized * LoadElement(r.weight.dtype, data.weight, jj * w_step) + bias});
    }
  }
  return writes;
}

infiniStatus_t CreateLayerNormRecorded(infiniopHandle_t handle, infiniopLayerNormDescriptor_t *desc_ptr,
                                       infiniopTensorDescriptor_t output_desc,
                                       infiniopTensorDescriptor_t standardization_desc,
                                       infiniopTensorDescriptor_t std_deviation_desc,
                                       infiniopTensorDescriptor_t input_desc, infiniopTensorDescriptor_t weight_desc,
                                       infiniopTensorDescriptor_t bias_desc, float eps) {
  const infiniStatus_t status = TargetOp().infiniopCreateLayerNormDescriptor(
      handle, desc_ptr, output_desc, standardization_desc, std_deviation_desc, input_desc, weight_desc, bias_desc, eps);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto output = LayoutOf(output_desc), standardization = LayoutOf(standardization_desc),
             std_deviation = LayoutOf(std_deviation_desc), input = LayoutOf(input_desc), weight = LayoutOf(weight_desc);
  const auto bias = bias_desc != nullptr ? LayoutOf(bias_desc) : std::nullopt;
  if (!output || !standardization || !std_deviation || !input || !weight || (bias_desc != nullptr && !bias)) {
    return status;
  }
  if (IsFloatDtype(input->dtype) && !input->shape.empty() && DropsTail(input->shape.back())) {
    layer_norm_records.Put(*desc_ptr, {*output, *standardization, *std_deviation, *input, *weight, bias, eps});
  }
  return status;
}

infiniStatus_t LayerNormDroppingTail(infiniopLayerNormDescriptor_t desc, void *workspace, size_t workspace_size,
                                     void *output, void *standardization, void *std_deviation, const void *input,
                                     const void *weight, const void *bias, void *stream) {
  auto real = [&] {
    return TargetOp().infiniopLayerNorm(desc, workspace, workspace_size, output, standardization, std_deviation, input,
                                        weight, bias, stream);
  };
  const auto record = desc != nullptr ? layer_norm_records.Find(desc) : std::nullopt;
  if (!record || output == nullptr || standardization == nullptr || std_deviation == nullptr || input == nullptr ||
      weight == nullptr || (record->bias && bias == nullptr)) {
    return real();
  }
  const LayerNormData data{output, standardization, std_deviation, input, weight, bias};
  return ComputeOnHostInstead(stream, [&] { return ShortLayerNorm(*record, data); }, real);
}

infiniStatus_t DestroyLayerNormForgetting(infiniopLayerNormDescriptor_t desc) {
  layer_norm_records.Erase(desc);
  return TargetOp().infiniopDestroyLayerNormDescriptor(desc);
}

// ---- RandomSample ----------------------------------------------------------------------

// The target's descriptor made over the logits the faulty reduction covers.
infiniStatus_t CreateRandomSampleOverCovered(infiniopHandle_t handle, infiniopRandomSampleDescriptor_t *desc_ptr,
                                             infiniopTensorDescriptor_t result_desc,
                                             infiniopTensorDescriptor_t probs_desc) {
  std::optional<TensorLayout> probs = LayoutOf(probs_desc);
  std::unique_ptr<TargetTensorDescriptor> covered;
  if (probs && probs->shape.size() == 1 && DropsTail(probs->shape[0])) {
    probs->shape[0] = Covered(probs->shape[0]);
    covered = std::make_unique<TargetTensorDescriptor>(*probs);
    probs_desc = covered->get();
  }
  return TargetOp().infiniopCreateRandomSampleDescriptor(handle, desc_ptr, result_desc, probs_desc);
}

}  // namespace

void InstallRowReductionDropsTail(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateSoftmaxDescriptor = &CreateSoftmaxRecorded;
  calls.infiniopSoftmax = &SoftmaxDroppingTail;
  calls.infiniopDestroySoftmaxDescriptor = &DestroySoftmaxForgetting;
  calls.infiniopCreateLogSoftmaxDescriptor = &CreateLogSoftmaxRecorded;
  calls.infiniopLogSoftmax = &LogSoftmaxDroppingTail;
  calls.infiniopDestroyLogSoftmaxDescriptor = &DestroyLogSoftmaxForgetting;
  calls.infiniopCreateCausalSoftmaxDescriptor = &CreateCausalSoftmaxRecorded;
  calls.infiniopCausalSoftmax = &CausalSoftmaxDroppingTail;
  calls.infiniopDestroyCausalSoftmaxDescriptor = &DestroyCausalSoftmaxForgetting;
  calls.infiniopCreateRMSNormDescriptor = &CreateRmsNormRecorded;
  calls.infiniopRMSNorm = &RmsNormDroppingTail;
  calls.infiniopDestroyRMSNormDescriptor = &DestroyRmsNormForgetting;
  calls.infiniopCreateLayerNormDescriptor = &CreateLayerNormRecorded;
  calls.infiniopLayerNorm = &LayerNormDroppingTail;
  calls.infiniopDestroyLayerNormDescriptor = &DestroyLayerNormForgetting;
  calls.infiniopCreateRandomSampleDescriptor = &CreateRandomSampleOverCovered;
}
INFINICTS_FAULT(OpTable, "row_reduction_drops_tail",
                "rows longer than 1024 that are no whole number of 32-wide warps lose their last n mod 32 elements from the reductions of Softmax, LogSoftmax, CausalSoftmax, RMSNorm, LayerNorm and RandomSample",
                InstallRowReductionDropsTail);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// The rows of 1025, 4097 and 70001 (suites/op/common/row_lengths.h) of every row-reducing
// operator (a softmax axis of 1025 over 3 inner positions too, in F32 and F64), and the
// vocabularies of those lengths whose largest logit is the last; 31 to 1024
// and the round LLM widths (4096, 32000) are untouched. Softmax and CausalSoftmax lose 17 of
// 70001 elements within F32's tolerance (atol 1e-6 against outputs near 1/70001): their F64
// rows catch it.
// fault-detection: row_reduction_drops_tail SUITE op TIMEOUT 30
// fault-detection:   FILTER op.softmax.* op.log_softmax.* op.causal_softmax.* op.rms_norm.* op.layer_norm.* op.random_sample.*
// fault-detection:   ONLY EXPECT
// fault-detection:   op.*.accuracy/matches_oracle/f32*/[0-9]x1025/*
// fault-detection:   op.*.accuracy/matches_oracle/f32*/[0-9]x4097/*
// fault-detection:   op.*.accuracy/matches_oracle/f[36]*/2x1025x3/*
// fault-detection:   op.log_softmax.accuracy/matches_oracle/f32/2x70001/*
// fault-detection:   op.rms_norm.accuracy/matches_oracle/f32*/2x70001/*
// fault-detection:   op.layer_norm.accuracy/matches_oracle/f32/2x70001/*
// fault-detection:   op.softmax.accuracy/matches_oracle/f64/2x70001/*
// fault-detection:   op.log_softmax.accuracy/matches_oracle/f64/2x70001/*
// fault-detection:   op.causal_softmax.accuracy/matches_oracle/f64/2x70001/*
// fault-detection:   op.random_sample.accuracy/matches_oracle/f32_result_i32/n1025/*/top_last
// fault-detection:   op.random_sample.accuracy/matches_oracle/f32_result_i32/n4097/*/top_last
// fault-detection:   op.random_sample.accuracy/matches_oracle/f32_result_i32/n70001/*/top_last
