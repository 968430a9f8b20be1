// The fault `negative_output_stride_forward`: an output walked backwards along a dim (a
// negative stride) is written forwards from the lowest address its layout reaches, as by a
// backend that canonicalizes every layout to positive strides by moving the base pointer but
// reverses the index only for its inputs. Element i of that dim lands where index n − 1 − i
// belongs. Emulated by running the real call and then reversing each such output in place
// along its negative-stride dims. Covered: the elementwise operators, Softmax, LogSoftmax,
// CausalSoftmax, RMSNorm, LayerNorm (its three outputs), Rearrange and Embedding.
#include <algorithm>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"

namespace infinicts::fault {
namespace {

// Every output's layout, in argument order, of the descriptors with an output walked backwards.
DescriptorRecords<std::vector<TensorLayout>> output_layouts;

bool WalksBackwards(const TensorLayout &layout) {
  for (size_t d = 0; d < layout.shape.size(); ++d) {
    if (layout.shape[d] > 1 && layout.strides[d] < 0) return true;
  }
  return false;
}

// Swaps the elements at index i and n − 1 − i of dim `dim`, for every index of the others.
void ReverseAlong(const TensorLayout &layout, size_t dim, unsigned char *base) {
  const size_t bytes = DtypeBytes(layout.dtype);
  const size_t n = layout.shape[dim];
  const ptrdiff_t step = layout.strides[dim] * static_cast<ptrdiff_t>(bytes);
  for (ptrdiff_t start : LineStarts(layout, dim)) {
    unsigned char *line = base + start * static_cast<ptrdiff_t>(bytes);
    for (size_t i = 0; i < n / 2; ++i) {
      std::swap_ranges(line + static_cast<ptrdiff_t>(i) * step, line + static_cast<ptrdiff_t>(i) * step + bytes,
                       line + static_cast<ptrdiff_t>(n - 1 - i) * step);
    }
  }
}

// Records (or forgets: the descriptor's address may be a destroyed one's) the outputs.
void RecordOutputs(const InfiniopDescriptor *desc, const std::vector<infiniopTensorDescriptor_t> &outputs) {
  std::vector<TensorLayout> layouts;
  bool backwards = false;
  for (infiniopTensorDescriptor_t output : outputs) {
    const auto layout = output != nullptr ? LayoutOf(output) : std::nullopt;
    if (!layout || DtypeBytes(layout->dtype) == 0) return output_layouts.Erase(desc);
    backwards = backwards || WalksBackwards(*layout);
    layouts.push_back(*layout);
  }
  if (backwards) output_layouts.Put(desc, layouts);
  else output_layouts.Erase(desc);
}

void WriteForwards(const InfiniopDescriptor *desc, const std::vector<void *> &outputs, void *stream) {
  const auto layouts = output_layouts.Find(desc);
  if (!layouts || !WaitForStream(stream)) return;
  for (size_t o = 0; o < layouts->size() && o < outputs.size(); ++o) {
    if (outputs[o] == nullptr) continue;
    const TensorLayout &layout = (*layouts)[o];
    for (size_t d = 0; d < layout.shape.size(); ++d) {
      if (layout.shape[d] > 1 && layout.strides[d] < 0) {
        ReverseAlong(layout, d, static_cast<unsigned char *>(outputs[o]));
      }
    }
  }
}

template <size_t First, size_t... I, class Tuple>
std::vector<void *> Pointers(const Tuple &args, std::index_sequence<I...>) {
  return {static_cast<void *>(std::get<First + I>(args))...};
}

template <size_t First, size_t... I, class Tuple>
std::vector<infiniopTensorDescriptor_t> Descriptors(const Tuple &args, std::index_sequence<I...>) {
  return {std::get<First + I>(args)...};
}

// A create call whose `Count` output descriptors follow (handle, desc_ptr), recording them.
template <auto Member, size_t Count, class Signature>
struct RecordingCreate;
template <auto Member, size_t Count, class... Args>
struct RecordingCreate<Member, Count, infiniStatus_t (*)(Args...)> {
  static infiniStatus_t Call(Args... args) {
    const infiniStatus_t status = (TargetOp().*Member)(args...);
    const auto tuple = std::forward_as_tuple(args...);
    if (status == INFINI_STATUS_SUCCESS && std::get<1>(tuple) != nullptr) {
      RecordOutputs(*std::get<1>(tuple), Descriptors<2>(tuple, std::make_index_sequence<Count>{}));
    }
    return status;
  }
};

// A compute call whose `Count` outputs start at argument `First` (the stream last), each
// output walked backwards reversed once the real call is done.
template <auto Member, size_t First, size_t Count, class Signature>
struct ForwardWritingCompute;
template <auto Member, size_t First, size_t Count, class... Args>
struct ForwardWritingCompute<Member, First, Count, infiniStatus_t (*)(Args...)> {
  static infiniStatus_t Call(Args... args) {
    const infiniStatus_t status = (TargetOp().*Member)(args...);
    const auto tuple = std::forward_as_tuple(args...);
    if (status == INFINI_STATUS_SUCCESS && std::get<0>(tuple) != nullptr) {
      WriteForwards(std::get<0>(tuple), Pointers<First>(tuple, std::make_index_sequence<Count>{}),
                    std::get<sizeof...(Args) - 1>(tuple));
    }
    return status;
  }
};

template <auto Member>
using MemberType = std::decay_t<decltype(std::declval<OpTable>().*Member)>;

// Compute calls with a workspace take (desc, workspace, size, outputs...); without one
// (Rearrange, Embedding) (desc, outputs...).
template <auto Create, auto Compute, size_t Outputs = 1, size_t FirstOutput = 3>
void Install(OpTable &calls) {
  calls.*Create = &RecordingCreate<Create, Outputs, MemberType<Create>>::Call;
  calls.*Compute = &ForwardWritingCompute<Compute, FirstOutput, Outputs, MemberType<Compute>>::Call;
}

}  // namespace

void InstallNegativeOutputStrideForward(OpTable &calls) {
  TrackTensorLayouts(calls);
  Install<&OpTable::infiniopCreateAddDescriptor, &OpTable::infiniopAdd>(calls);
  Install<&OpTable::infiniopCreateSubDescriptor, &OpTable::infiniopSub>(calls);
  Install<&OpTable::infiniopCreateMulDescriptor, &OpTable::infiniopMul>(calls);
  Install<&OpTable::infiniopCreateSwiGLUDescriptor, &OpTable::infiniopSwiGLU>(calls);
  Install<&OpTable::infiniopCreateReluDescriptor, &OpTable::infiniopRelu>(calls);
  Install<&OpTable::infiniopCreateSiluDescriptor, &OpTable::infiniopSilu>(calls);
  Install<&OpTable::infiniopCreateGeluDescriptor, &OpTable::infiniopGelu>(calls);
  Install<&OpTable::infiniopCreateSigmoidDescriptor, &OpTable::infiniopSigmoid>(calls);
  Install<&OpTable::infiniopCreateClipDescriptor, &OpTable::infiniopClip>(calls);
  Install<&OpTable::infiniopCreateSoftmaxDescriptor, &OpTable::infiniopSoftmax>(calls);
  Install<&OpTable::infiniopCreateLogSoftmaxDescriptor, &OpTable::infiniopLogSoftmax>(calls);
  Install<&OpTable::infiniopCreateCausalSoftmaxDescriptor, &OpTable::infiniopCausalSoftmax>(calls);
  Install<&OpTable::infiniopCreateRMSNormDescriptor, &OpTable::infiniopRMSNorm>(calls);
  Install<&OpTable::infiniopCreateLayerNormDescriptor, &OpTable::infiniopLayerNorm, 3>(calls);
  Install<&OpTable::infiniopCreateRearrangeDescriptor, &OpTable::infiniopRearrange, 1, 1>(calls);
  Install<&OpTable::infiniopCreateEmbeddingDescriptor, &OpTable::infiniopEmbedding, 1, 1>(calls);
}
INFINICTS_FAULT(OpTable, "negative_output_stride_forward",
                "an output with a negative stride is written forwards from its lowest address (that dim comes out reversed)",
                InstallNegativeOutputStrideForward);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every output walked backwards (the cases whose output layout, named first, is `flip`);
// inputs walked backwards are read right.
// fault-detection: negative_output_stride_forward SUITE op TIMEOUT 30
// fault-detection:   FILTER op.add.* op.sub.* op.mul.* op.swiglu.* op.relu.* op.silu.* op.gelu.* op.sigmoid.* op.clip.* op.softmax.*
// fault-detection:   op.log_softmax.* op.causal_softmax.* op.rms_norm.* op.layer_norm.* op.rearrange.* op.embedding.*
// fault-detection:   ONLY EXPECT
// fault-detection:   op.*.accuracy/matches_oracle/*/c_flip_*
// fault-detection:   op.*.accuracy/matches_oracle/*/y_flip_*
// fault-detection:   op.*.accuracy/matches_oracle/*/out_flip_*
// fault-detection:   op.*.accuracy/matches_oracle/*/output_flip_*
// fault-detection:   op.*.accuracy/matches_oracle/*/dst_flip_*
