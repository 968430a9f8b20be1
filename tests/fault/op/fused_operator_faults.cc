// Faults of the fused serving operators, each a plausible slip in a fused kernel, computed
// on the host after the real call (op/host_compute.h):
// - silu_and_mul_halves_swapped: SiluAndMul takes the gate from the input's second half and
//   the up projection from its first (SwiGLU's operand order carried over): output_j =
//   silu(input_{d+j}) · input_j;
// - select_last_token_first_token: SelectLastTokenHidden copies each request's first token
//   (input_offsets[r]) instead of its last.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

struct SiluAndMulLayouts {
  TensorLayout output, gate;  // gate: the input's first half, in the output's shape
  ptrdiff_t up_from;          // elements from a gate element to its up element
};
DescriptorRecords<SiluAndMulLayouts> silu_and_mul_records;

infiniStatus_t CreateSiluAndMulRecorded(infiniopHandle_t handle, infiniopSiluAndMulDescriptor_t *desc_ptr,
                                        infiniopTensorDescriptor_t output, infiniopTensorDescriptor_t input) {
  const infiniStatus_t status = TargetOp().infiniopCreateSiluAndMulDescriptor(handle, desc_ptr, output, input);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto out = LayoutOf(output), in = LayoutOf(input);
  if (out && in && IsFloatDtype(out->dtype) && !out->shape.empty() && in->shape.size() == out->shape.size()) {
    TensorLayout gate = *in;
    gate.shape = out->shape;
    const ptrdiff_t up_from = static_cast<ptrdiff_t>(out->shape.back()) * in->strides.back();
    silu_and_mul_records.Put(*desc_ptr, {*out, gate, up_from});
  } else {
    silu_and_mul_records.Erase(*desc_ptr);
  }
  return status;
}

double Silu(double g) { return g >= 0 ? g / (1.0 + std::exp(-g)) : g * std::exp(g) / (1.0 + std::exp(g)); }

infiniStatus_t SiluAndMulHalvesSwapped(infiniopSiluAndMulDescriptor_t desc, void *workspace, size_t workspace_size,
                                       void *output, const void *input, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopSiluAndMul(desc, workspace, workspace_size, output, input, stream);
  };
  const auto layouts = silu_and_mul_records.Find(desc);
  if (!layouts || output == nullptr || input == nullptr) return real();
  return ComputeOnHostInstead(
      stream,
      [&] {
        std::vector<ElementWrite> writes;
        writes.reserve(layouts->output.ElementCount());
        const infiniDtype_t dtype = layouts->gate.dtype;
        ForEachElement([&](ptrdiff_t out_at, ptrdiff_t gate_at) {
          const double first = LoadElement(dtype, input, gate_at);
          const double second = LoadElement(dtype, input, gate_at + layouts->up_from);
          writes.push_back({output, layouts->output.dtype, out_at, Silu(second) * first});
        }, layouts->output, layouts->gate);
        return writes;
      },
      real);
}

infiniStatus_t DestroySiluAndMulForgetting(infiniopSiluAndMulDescriptor_t desc) {
  silu_and_mul_records.Erase(desc);
  return TargetOp().infiniopDestroySiluAndMulDescriptor(desc);
}

struct SelectLastTokenLayouts {
  TensorLayout output, hidden, offsets;
};
DescriptorRecords<SelectLastTokenLayouts> select_records;

infiniStatus_t CreateSelectRecorded(infiniopHandle_t handle, infiniopSelectLastTokenHiddenDescriptor_t *desc_ptr,
                                    infiniopTensorDescriptor_t output, infiniopTensorDescriptor_t hidden,
                                    infiniopTensorDescriptor_t offsets) {
  const infiniStatus_t status =
      TargetOp().infiniopCreateSelectLastTokenHiddenDescriptor(handle, desc_ptr, output, hidden, offsets);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto out = LayoutOf(output), states = LayoutOf(hidden), starts = LayoutOf(offsets);
  if (out && states && starts && IsFloatDtype(out->dtype) && out->shape.size() == 3 && states->shape.size() == 3 &&
      starts->dtype == INFINI_DTYPE_I32 && starts->shape.size() == 1) {
    select_records.Put(*desc_ptr, {*out, *states, *starts});
  } else {
    select_records.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t SelectFirstToken(infiniopSelectLastTokenHiddenDescriptor_t desc, void *output,
                                const void *hidden_states, const void *input_offsets, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopSelectLastTokenHidden(desc, output, hidden_states, input_offsets, stream);
  };
  const auto layouts = select_records.Find(desc);
  if (!layouts || output == nullptr || hidden_states == nullptr || input_offsets == nullptr) return real();
  return ComputeOnHostInstead(
      stream,
      [&] {
        std::vector<ElementWrite> writes;
        const TensorLayout &out = layouts->output, &hidden = layouts->hidden;
        const size_t requests = out.shape[1], seq = hidden.shape[1], width = out.shape[2];
        const auto *offsets = static_cast<const int32_t *>(input_offsets);
        for (size_t r = 0; r < requests; ++r) {
          const int32_t token = offsets[static_cast<ptrdiff_t>(r) * layouts->offsets.strides[0]];
          if (token < 0 || static_cast<size_t>(token) >= hidden.shape[0] * seq) continue;
          const size_t t = static_cast<size_t>(token);
          const ptrdiff_t from = static_cast<ptrdiff_t>(t / seq) * hidden.strides[0] +
                                 static_cast<ptrdiff_t>(t % seq) * hidden.strides[1];
          for (size_t j = 0; j < width; ++j) {
            const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
            writes.push_back({output, out.dtype, static_cast<ptrdiff_t>(r) * out.strides[1] + jj * out.strides[2],
                              LoadElement(hidden.dtype, hidden_states, from + jj * hidden.strides[2])});
          }
        }
        return writes;
      },
      real);
}

infiniStatus_t DestroySelectForgetting(infiniopSelectLastTokenHiddenDescriptor_t desc) {
  select_records.Erase(desc);
  return TargetOp().infiniopDestroySelectLastTokenHiddenDescriptor(desc);
}

}  // namespace

void InstallSiluAndMulHalvesSwapped(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateSiluAndMulDescriptor = &CreateSiluAndMulRecorded;
  calls.infiniopSiluAndMul = &SiluAndMulHalvesSwapped;
  calls.infiniopDestroySiluAndMulDescriptor = &DestroySiluAndMulForgetting;
}
INFINICTS_FAULT(OpTable, "silu_and_mul_halves_swapped",
                "SiluAndMul takes the gate from the input's second half and the up projection from its first",
                InstallSiluAndMulHalvesSwapped);

void InstallSelectLastTokenFirstToken(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateSelectLastTokenHiddenDescriptor = &CreateSelectRecorded;
  calls.infiniopSelectLastTokenHidden = &SelectFirstToken;
  calls.infiniopDestroySelectLastTokenHiddenDescriptor = &DestroySelectForgetting;
}
INFINICTS_FAULT(OpTable, "select_last_token_first_token",
                "SelectLastTokenHidden copies each request's first token (input_offsets[r]) instead of its last",
                InstallSelectLastTokenFirstToken);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// The gate and up halves are drawn from different ranges (OP-SILUANDMUL-3): every result
// taking them the other way round misses, in every dtype and layout.
// fault-detection: silu_and_mul_halves_swapped SUITE op TIMEOUT 30 FILTER op.silu_and_mul.* EXPECT
// fault-detection:   op.silu_and_mul.accuracy/matches_oracle/*
// A request's first token is its last only when it has one token: the cases of one-token
// requests alone cannot tell (OP-SELECTLASTTOKENHIDDEN-3).
// fault-detection: select_last_token_first_token SUITE op TIMEOUT 30 FILTER op.select_last_token_hidden.*
// fault-detection:   EXPECT op.select_last_token_hidden.accuracy/matches_oracle/*/lengths_5_1_7_3_8
// fault-detection:   op.select_last_token_hidden.accuracy/matches_oracle/*/lengths_3_9_1_2
// fault-detection:   op.select_last_token_hidden.accuracy/matches_oracle/*/lengths_20
// fault-detection:   op.select_last_token_hidden.accuracy/matches_oracle/*/lengths_1000_1_2047_1048
