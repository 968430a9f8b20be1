// Faults of the int8 quantisers (spec section OP-INT8), each a classic slip, computed on the
// host after the real call (op/host_compute.h):
// - int8_quant_rounds_half_to_even: PerChannelQuantI8 and PerTensorQuantI8 round x·(1/s) (+ z)
//   to the nearest even integer on a half (rint's default mode) instead of away from zero;
// - int8_quant_clamps_at_minus_128: the symmetric forms saturate at −128 instead of −127;
// - int8_dequant_reads_unsigned: PerTensorDequantI8 reads x_packed's bytes as unsigned
//   (−1 becomes 255).
#include <algorithm>
#include <cmath>
#include <optional>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

enum class QuantSlip { kHalfToEven, kClampAtMinus128 };

// The fault's own rounding of v to int8 within [lo, hi].
double Rounded(QuantSlip slip, double v, double lo, double hi) {
  const double rounded = slip == QuantSlip::kHalfToEven ? std::nearbyint(v) : std::round(v);
  return std::min(hi, std::max(lo, rounded));
}

struct QuantLayouts {
  TensorLayout packed, scale, x;
  bool asymmetric = false;
};
DescriptorRecords<QuantLayouts> per_channel_records, per_tensor_records;

std::optional<QuantLayouts> Layouts(infiniopTensorDescriptor_t packed, infiniopTensorDescriptor_t scale,
                                    infiniopTensorDescriptor_t zero, infiniopTensorDescriptor_t x) {
  const auto p = LayoutOf(packed), s = LayoutOf(scale), in = LayoutOf(x);
  if (!p || !s || !in || !IsFloatDtype(in->dtype) || p->dtype != INFINI_DTYPE_I8 || p->shape != in->shape) {
    return std::nullopt;
  }
  return QuantLayouts{*p, *s, *in, zero != nullptr};
}

template <QuantSlip kSlip>
struct PerChannel {
  static infiniStatus_t Create(infiniopHandle_t handle, infiniopPerChannelQuantI8Descriptor_t *desc_ptr,
                               infiniopTensorDescriptor_t packed, infiniopTensorDescriptor_t scale,
                               infiniopTensorDescriptor_t zero, infiniopTensorDescriptor_t x) {
    const infiniStatus_t status =
        TargetOp().infiniopCreatePerChannelQuantI8Descriptor(handle, desc_ptr, packed, scale, zero, x);
    if (status != INFINI_STATUS_SUCCESS) return status;
    const auto layouts = Layouts(packed, scale, zero, x);
    if (layouts && layouts->x.shape.size() == 2) {
      per_channel_records.Put(*desc_ptr, *layouts);
    } else {
      per_channel_records.Erase(*desc_ptr);
    }
    return status;
  }

  static infiniStatus_t Compute(infiniopPerChannelQuantI8Descriptor_t desc, void *workspace, size_t workspace_size,
                                void *packed, void *scale, void *zero, const void *x, void *stream) {
    const auto real = [&] {
      return TargetOp().infiniopPerChannelQuantI8(desc, workspace, workspace_size, packed, scale, zero, x, stream);
    };
    const auto layouts = per_channel_records.Find(desc);
    if (!layouts || packed == nullptr || x == nullptr) return real();
    // The clamp slip is of the symmetric form only.
    if (kSlip == QuantSlip::kClampAtMinus128 && layouts->asymmetric) return real();
    return ComputeOnHostInstead(
        stream,
        [&] {
          std::vector<ElementWrite> writes;
          const size_t rows = layouts->x.shape[0], cols = layouts->x.shape[1];
          for (size_t m = 0; m < rows; ++m) {
            const ptrdiff_t x_row = static_cast<ptrdiff_t>(m) * layouts->x.strides[0];
            const ptrdiff_t packed_row = static_cast<ptrdiff_t>(m) * layouts->packed.strides[0];
            auto at = [&](size_t k) {
              return static_cast<float>(LoadElement(layouts->x.dtype, x, x_row + static_cast<ptrdiff_t>(k) * layouts->x.strides[1]));
            };
            float hi = at(0), lo = at(0), max_abs = 0.0f;
            for (size_t k = 0; k < cols; ++k) {
              hi = std::max(hi, at(k));
              lo = std::min(lo, at(k));
              max_abs = std::max(max_abs, std::fabs(at(k)));
            }
            float s = layouts->asymmetric ? (hi - lo) / 255.0f : max_abs / 127.0f;
            s = std::max(s, 1e-8f);
            const float inv = 1.0f / s;
            const float z = layouts->asymmetric ? -lo * inv - 128.0f : 0.0f;
            const double bottom = layouts->asymmetric ? -128.0 : (kSlip == QuantSlip::kClampAtMinus128 ? -128.0 : -127.0);
            for (size_t k = 0; k < cols; ++k) {
              const float v = at(k) * inv + z;
              writes.push_back({packed, INFINI_DTYPE_I8, packed_row + static_cast<ptrdiff_t>(k) * layouts->packed.strides[1],
                                Rounded(kSlip, v, bottom, 127.0)});
            }
          }
          return writes;
        },
        real);
  }

  static infiniStatus_t Destroy(infiniopPerChannelQuantI8Descriptor_t desc) {
    per_channel_records.Erase(desc);
    return TargetOp().infiniopDestroyPerChannelQuantI8Descriptor(desc);
  }
};

template <QuantSlip kSlip>
struct PerTensor {
  static infiniStatus_t Create(infiniopHandle_t handle, infiniopPerTensorQuantI8Descriptor_t *desc_ptr,
                               infiniopTensorDescriptor_t packed, infiniopTensorDescriptor_t scale,
                               infiniopTensorDescriptor_t zero, infiniopTensorDescriptor_t x) {
    const infiniStatus_t status =
        TargetOp().infiniopCreatePerTensorQuantI8Descriptor(handle, desc_ptr, packed, scale, zero, x);
    if (status != INFINI_STATUS_SUCCESS) return status;
    const auto layouts = Layouts(packed, scale, zero, x);
    if (layouts) {
      per_tensor_records.Put(*desc_ptr, *layouts);
    } else {
      per_tensor_records.Erase(*desc_ptr);
    }
    return status;
  }

  static infiniStatus_t Compute(infiniopPerTensorQuantI8Descriptor_t desc, void *workspace, size_t workspace_size,
                                void *packed, void *scale, void *zero, const void *x, bool is_static, void *stream) {
    const auto real = [&] {
      return TargetOp().infiniopPerTensorQuantI8(desc, workspace, workspace_size, packed, scale, zero, x, is_static,
                                                 stream);
    };
    const auto layouts = per_tensor_records.Find(desc);
    if (!layouts || packed == nullptr || x == nullptr || scale == nullptr) return real();
    return ComputeOnHostInstead(
        stream,
        [&] {
          float s = static_cast<float>(LoadElement(INFINI_DTYPE_F32, scale, 0));
          if (!is_static) {
            float max_abs = 0.0f;
            ForEachElement([&](ptrdiff_t at) {
              max_abs = std::max(max_abs, std::fabs(static_cast<float>(LoadElement(layouts->x.dtype, x, at))));
            }, layouts->x);
            s = max_abs / 127.0f;
          }
          const float inv = 1.0f / s;
          const double bottom = kSlip == QuantSlip::kClampAtMinus128 ? -128.0 : -127.0;
          std::vector<ElementWrite> writes;
          ForEachElement([&](ptrdiff_t at, ptrdiff_t out_at) {
            const float v = static_cast<float>(LoadElement(layouts->x.dtype, x, at)) * inv;
            writes.push_back({packed, INFINI_DTYPE_I8, out_at, Rounded(kSlip, v, bottom, 127.0)});
          }, layouts->x, layouts->packed);
          return writes;
        },
        real);
  }

  static infiniStatus_t Destroy(infiniopPerTensorQuantI8Descriptor_t desc) {
    per_tensor_records.Erase(desc);
    return TargetOp().infiniopDestroyPerTensorQuantI8Descriptor(desc);
  }
};

template <QuantSlip kSlip>
void InstallQuantSlip(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreatePerChannelQuantI8Descriptor = &PerChannel<kSlip>::Create;
  calls.infiniopPerChannelQuantI8 = &PerChannel<kSlip>::Compute;
  calls.infiniopDestroyPerChannelQuantI8Descriptor = &PerChannel<kSlip>::Destroy;
  calls.infiniopCreatePerTensorQuantI8Descriptor = &PerTensor<kSlip>::Create;
  calls.infiniopPerTensorQuantI8 = &PerTensor<kSlip>::Compute;
  calls.infiniopDestroyPerTensorQuantI8Descriptor = &PerTensor<kSlip>::Destroy;
}

void InstallQuantRoundsHalfToEven(OpTable &calls) { InstallQuantSlip<QuantSlip::kHalfToEven>(calls); }
void InstallQuantClampsAtMinus128(OpTable &calls) { InstallQuantSlip<QuantSlip::kClampAtMinus128>(calls); }

struct DequantLayouts {
  TensorLayout x, packed;
};
DescriptorRecords<DequantLayouts> dequant_records;

infiniStatus_t CreateDequantRecorded(infiniopHandle_t handle, infiniopPerTensorDequantI8Descriptor_t *desc_ptr,
                                     infiniopTensorDescriptor_t x, infiniopTensorDescriptor_t packed,
                                     infiniopTensorDescriptor_t scale, infiniopTensorDescriptor_t zero) {
  const infiniStatus_t status =
      TargetOp().infiniopCreatePerTensorDequantI8Descriptor(handle, desc_ptr, x, packed, scale, zero);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto out = LayoutOf(x), in = LayoutOf(packed);
  if (out && in && IsFloatDtype(out->dtype) && in->dtype == INFINI_DTYPE_I8 && out->shape == in->shape) {
    dequant_records.Put(*desc_ptr, {*out, *in});
  } else {
    dequant_records.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DequantReadsUnsigned(infiniopPerTensorDequantI8Descriptor_t desc, void *workspace,
                                    size_t workspace_size, void *x, const void *packed, const void *scale,
                                    const void *zero, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopPerTensorDequantI8(desc, workspace, workspace_size, x, packed, scale, zero, stream);
  };
  const auto layouts = dequant_records.Find(desc);
  if (!layouts || x == nullptr || packed == nullptr || scale == nullptr) return real();
  return ComputeOnHostInstead(
      stream,
      [&] {
        const float s = static_cast<float>(LoadElement(INFINI_DTYPE_F32, scale, 0));
        std::vector<ElementWrite> writes;
        ForEachElement([&](ptrdiff_t out_at, ptrdiff_t in_at) {
          const uint8_t byte = static_cast<const uint8_t *>(packed)[in_at];
          writes.push_back({x, layouts->x.dtype, out_at, static_cast<double>(static_cast<float>(byte) * s)});
        }, layouts->x, layouts->packed);
        return writes;
      },
      real);
}

infiniStatus_t DestroyDequantForgetting(infiniopPerTensorDequantI8Descriptor_t desc) {
  dequant_records.Erase(desc);
  return TargetOp().infiniopDestroyPerTensorDequantI8Descriptor(desc);
}

void InstallDequantReadsUnsigned(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreatePerTensorDequantI8Descriptor = &CreateDequantRecorded;
  calls.infiniopPerTensorDequantI8 = &DequantReadsUnsigned;
  calls.infiniopDestroyPerTensorDequantI8Descriptor = &DestroyDequantForgetting;
}

}  // namespace

INFINICTS_FAULT(OpTable, "int8_quant_rounds_half_to_even",
                "PerChannelQuantI8 and PerTensorQuantI8 round a half to the even integer instead of away from zero",
                InstallQuantRoundsHalfToEven);
INFINICTS_FAULT(OpTable, "int8_quant_clamps_at_minus_128",
                "the symmetric int8 quantisers saturate at -128 instead of -127",
                InstallQuantClampsAtMinus128);
INFINICTS_FAULT(OpTable, "int8_dequant_reads_unsigned",
                "PerTensorDequantI8 reads x_packed's bytes as unsigned (-1 becomes 255)",
                InstallDequantReadsUnsigned);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Tie rows and tie elements (a power-of-two scale, values on half-integers of it) are in every
// accuracy problem with ties (OP-PERCHANNELQUANTINT8-3, -4, OP-PERTENSORQUANTINT8-3, -4).
// fault-detection: int8_quant_rounds_half_to_even SUITE op TIMEOUT 60 FILTER op.per_*_quant_int8.* EXPECT
// fault-detection:   op.per_channel_quant_int8.accuracy/matches_oracle/*/6x64/*
// fault-detection:   op.per_tensor_quant_int8.accuracy/matches_oracle/*/static/ties
// fault-detection:   op.per_tensor_quant_int8.accuracy/matches_oracle/*/dynamic/ties
// Only static problems hold values beyond −127.5 scales (OP-PERTENSORQUANTINT8-3); a per-row
// scale never lets a value reach −128.
// fault-detection: int8_quant_clamps_at_minus_128 SUITE op TIMEOUT 60 FILTER op.per_*_quant_int8.* EXPECT
// fault-detection:   op.per_tensor_quant_int8.accuracy/matches_oracle/*/static/ties
// Every int8 value, the negative ones too, is among the first 256 elements (OP-PERTENSORDEQUANTINT8-3).
// fault-detection: int8_dequant_reads_unsigned SUITE op TIMEOUT 60 FILTER op.per_tensor_dequant_int8.* EXPECT
// fault-detection:   op.per_tensor_dequant_int8.accuracy/matches_oracle/*
