// RMSNorm on the host, for the faults that change how it computes (rms_norm_epsilon_outside_sqrt,
// row_reduction_drops_tail): what a descriptor's tensors were, and the walk over its rows.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "infiniop.h"
#include "op/host_compute.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {

struct RmsNormRecord {
  TensorLayout y, x, w;
  float epsilon;
};

// The record of an RMSNorm made from these tensor descriptors; none unless all three are
// tracked (op/layout_tracking.h), x has a dim and x and w are float.
std::optional<RmsNormRecord> RmsNormRecordOf(infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc,
                                             infiniopTensorDescriptor_t w_desc, float epsilon);

// What a row's x_j·w_j is divided by, from Σ x² over the row's first `reduced` elements.
using RmsDivisor = std::function<double(double sum_of_squares, size_t d, float epsilon)>;

// Every row: y_j = x_j·w_j / divisor(Σ_{j < reduced} x_j², d, epsilon), in F64.
std::vector<ElementWrite> HostRmsNorm(const RmsNormRecord &record, void *y, const void *x, const void *w,
                                      size_t reduced, const RmsDivisor &divisor);

}  // namespace infinicts::fault
