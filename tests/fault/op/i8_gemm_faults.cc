// Faults of I8Gemm (spec section OP-I8GEMM), each a classic slip of int8 GEMM kernels,
// computed on the host after the real call (op/host_compute.h):
// - i8_gemm_saturates_pair_sums: x86 without VNNI: x shifted to u8 by +128, products summed two
//   at a time into int16 with saturation (vpmaddubsw), the shift's 128·Σ weights taken off
//   at the end;
// - i8_gemm_adds_bias_before_scaling: the bias joins the integer sum, and so gets scaled too.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

enum class GemmSlip { kSaturatedPairs, kBiasBeforeScaling };

struct GemmLayouts {
  TensorLayout out, x, x_scale, weights, weights_scale;
  std::optional<TensorLayout> bias;
};
DescriptorRecords<GemmLayouts> gemm_records;

// Where element i of a scale or bias of shape [count], [count, 1] or [1, count] lies.
ptrdiff_t VectorOffset(const TensorLayout &t, size_t i) {
  const bool wide = t.shape.size() == 2 && t.shape[0] == 1;
  return static_cast<ptrdiff_t>(i) * (wide ? t.strides[1] : t.strides[0]);
}

int32_t SaturatedToInt16(int32_t v) { return std::min<int32_t>(32767, std::max<int32_t>(-32768, v)); }

template <GemmSlip kSlip>
struct SlippedGemm {
  static infiniStatus_t Create(infiniopHandle_t handle, infiniopI8GemmDescriptor_t *desc_ptr,
                               infiniopTensorDescriptor_t out, infiniopTensorDescriptor_t bias,
                               infiniopTensorDescriptor_t x, infiniopTensorDescriptor_t x_scale,
                               infiniopTensorDescriptor_t weights, infiniopTensorDescriptor_t weights_scale) {
    const infiniStatus_t status =
        TargetOp().infiniopCreateI8GemmDescriptor(handle, desc_ptr, out, bias, x, x_scale, weights, weights_scale);
    if (status != INFINI_STATUS_SUCCESS) return status;
    const auto o = LayoutOf(out), in = LayoutOf(x), xs = LayoutOf(x_scale), w = LayoutOf(weights),
               ws = LayoutOf(weights_scale);
    const std::optional<TensorLayout> b = bias != nullptr ? LayoutOf(bias) : std::nullopt;
    const bool two_d = o && in && w && o->shape.size() == 2 && in->shape.size() == 2 && w->shape.size() == 2;
    if (two_d && xs && ws && (bias == nullptr || b)) {
      gemm_records.Put(*desc_ptr, {*o, *in, *xs, *w, *ws, b});
    } else {
      gemm_records.Erase(*desc_ptr);
    }
    return status;
  }

  static infiniStatus_t Compute(infiniopI8GemmDescriptor_t desc, void *workspace, size_t workspace_size, void *out,
                                const void *bias, const void *x, const void *x_scale, const void *weights,
                                const void *weights_scale, void *stream) {
    const auto real = [&] {
      return TargetOp().infiniopI8Gemm(desc, workspace, workspace_size, out, bias, x, x_scale, weights,
                                       weights_scale, stream);
    };
    const auto l = gemm_records.Find(desc);
    if (!l || out == nullptr || x == nullptr || x_scale == nullptr || weights == nullptr ||
        weights_scale == nullptr || (l->bias && bias == nullptr)) {
      return real();
    }
    return ComputeOnHostInstead(
        stream,
        [&] {
          const size_t m_size = l->out.shape[0], n_size = l->out.shape[1], k_size = l->x.shape[1];
          const auto *xs = static_cast<const int8_t *>(x);
          const auto *ws = static_cast<const int8_t *>(weights);
          auto x_at = [&](size_t m, size_t k) {
            return static_cast<int32_t>(xs[static_cast<ptrdiff_t>(m) * l->x.strides[0] +
                                           static_cast<ptrdiff_t>(k) * l->x.strides[1]]);
          };
          auto w_at = [&](size_t k, size_t n) {
            return static_cast<int32_t>(ws[static_cast<ptrdiff_t>(k) * l->weights.strides[0] +
                                           static_cast<ptrdiff_t>(n) * l->weights.strides[1]]);
          };
          std::vector<ElementWrite> writes;
          for (size_t m = 0; m < m_size; ++m) {
            const float row_scale = static_cast<float>(LoadElement(INFINI_DTYPE_F32, x_scale, VectorOffset(l->x_scale, m)));
            for (size_t n = 0; n < n_size; ++n) {
              int32_t sum = 0;
              if (kSlip == GemmSlip::kSaturatedPairs) {
                int32_t weights_sum = 0;
                for (size_t k = 0; k < k_size; k += 2) {
                  int32_t pair = (x_at(m, k) + 128) * w_at(k, n);
                  weights_sum += w_at(k, n);
                  if (k + 1 < k_size) {
                    pair += (x_at(m, k + 1) + 128) * w_at(k + 1, n);
                    weights_sum += w_at(k + 1, n);
                  }
                  sum += SaturatedToInt16(pair);
                }
                sum -= 128 * weights_sum;
              } else {
                for (size_t k = 0; k < k_size; ++k) sum += x_at(m, k) * w_at(k, n);
              }
              const float column_scale =
                  static_cast<float>(LoadElement(INFINI_DTYPE_F32, weights_scale, VectorOffset(l->weights_scale, n)));
              const float shift =
                  l->bias ? static_cast<float>(LoadElement(l->bias->dtype, bias, VectorOffset(*l->bias, n))) : 0.0f;
              const float value = kSlip == GemmSlip::kBiasBeforeScaling
                                      ? row_scale * column_scale * (static_cast<float>(sum) + shift)
                                      : row_scale * column_scale * static_cast<float>(sum) + shift;
              writes.push_back({out, l->out.dtype,
                                static_cast<ptrdiff_t>(m) * l->out.strides[0] + static_cast<ptrdiff_t>(n) * l->out.strides[1],
                                static_cast<double>(value)});
            }
          }
          return writes;
        },
        real);
  }

  static infiniStatus_t Destroy(infiniopI8GemmDescriptor_t desc) {
    gemm_records.Erase(desc);
    return TargetOp().infiniopDestroyI8GemmDescriptor(desc);
  }
};

template <GemmSlip kSlip>
void InstallGemmSlip(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateI8GemmDescriptor = &SlippedGemm<kSlip>::Create;
  calls.infiniopI8Gemm = &SlippedGemm<kSlip>::Compute;
  calls.infiniopDestroyI8GemmDescriptor = &SlippedGemm<kSlip>::Destroy;
}

void InstallSaturatedPairs(OpTable &calls) { InstallGemmSlip<GemmSlip::kSaturatedPairs>(calls); }
void InstallBiasBeforeScaling(OpTable &calls) { InstallGemmSlip<GemmSlip::kBiasBeforeScaling>(calls); }

}  // namespace

INFINICTS_FAULT(OpTable, "i8_gemm_saturates_pair_sums",
                "I8Gemm sums u8-shifted x times weights two products at a time into saturating int16 (vpmaddubsw)",
                InstallSaturatedPairs);
INFINICTS_FAULT(OpTable, "i8_gemm_adds_bias_before_scaling",
                "I8Gemm adds the bias to the integer sum, so the scales multiply it too",
                InstallBiasBeforeScaling);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Rows and columns of all 127 meet in every problem of five rows and columns or more: their
// pairs of products overflow int16 (OP-I8GEMM-4).
// The W8A8 step's long rows (K = 4096) hold such pairs too.
// fault-detection: i8_gemm_saturates_pair_sums SUITE op TIMEOUT 60 FILTER op.i8_gemm.* op.w8a8_linear.* EXPECT
// fault-detection:   op.i8_gemm.accuracy/matches_oracle/*/m11_n13_k33/*
// fault-detection:   op.i8_gemm.accuracy/matches_oracle/*/m5_n5_k14336/*
// fault-detection:   op.w8a8_linear.accuracy/matches_oracle/*/m16_n512_k4096
// Every problem with a bias (OP-I8GEMM-4, and the W8A8 step's, OP-I8GEMM-7); none without one
// (OP-I8GEMM-5).
// fault-detection: i8_gemm_adds_bias_before_scaling SUITE op TIMEOUT 60 FILTER op.i8_gemm.* op.w8a8_linear.* EXPECT
// fault-detection:   op.i8_gemm.accuracy/matches_oracle/*/m50_n70_k300/*
// fault-detection:   op.w8a8_linear.accuracy/matches_oracle/*/m13_n37_k300
