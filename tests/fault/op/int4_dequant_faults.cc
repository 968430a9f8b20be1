// Faults of the int4 dequantisers (spec section OP-INT4), each a classic slip of W4A16 weight
// unpacking, computed on the host after the real call (op/host_compute.h):
// - awq_reads_nibbles_in_sequence: DequantizeAWQ takes value j of a word from nibble j, as
//   GPTQ packs, instead of AWQ's interleaved nibble (0, 4, 1, 5, 2, 6, 3, 7)[j];
// - gptq_drops_zero_plus_one: DequantizeGPTQ subtracts the stored zero point z, not z + 1;
// - gptq_groups_by_row_index: DequantizeGPTQ ignores g_idx and groups the rows in order,
//   ⌊k/⌈K/G⌉⌋ (right only for checkpoints without act-order);
// - int4_dequant_truncates: both round the product toward zero instead of to nearest.
#include <cmath>
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

enum class Slip { kSequentialAwq, kZeroWithoutOne, kGroupsByRow, kTruncates };

int Nibble(const void *words, ptrdiff_t at, int i) {
  const uint32_t word = static_cast<const uint32_t *>(words)[at];
  return static_cast<int>((word >> (4 * i)) & 0xFu);
}

// v rounded toward zero in `dtype` (F16 or BF16; the results here are normal numbers).
double Truncated(infiniDtype_t dtype, double v) {
  if (v == 0.0) return v;
  const int mantissa_bits = dtype == INFINI_DTYPE_F16 ? 10 : 7;
  const double spacing = std::ldexp(1.0, std::ilogb(v) - mantissa_bits);
  return std::copysign(std::floor(std::fabs(v) / spacing) * spacing, v);
}

struct Int4Layouts {
  TensorLayout out, qweight, scales, zeros;
};
DescriptorRecords<Int4Layouts> awq_records, gptq_records;

std::optional<Int4Layouts> Layouts(infiniopTensorDescriptor_t out, infiniopTensorDescriptor_t qweight,
                                   infiniopTensorDescriptor_t scales, infiniopTensorDescriptor_t zeros) {
  const auto o = LayoutOf(out), q = LayoutOf(qweight), s = LayoutOf(scales), z = LayoutOf(zeros);
  if (!o || !q || !s || !z || o->shape.size() != 2 || s->shape.size() != 2 || z->shape.size() != 2) return std::nullopt;
  return Int4Layouts{*o, *q, *s, *z};
}

ElementWrite Write(const Int4Layouts &l, void *out, size_t k, size_t n, double value, Slip slip) {
  const double stored = slip == Slip::kTruncates ? Truncated(l.out.dtype, value) : value;
  return {out, l.out.dtype,
          static_cast<ptrdiff_t>(k) * l.out.strides[0] + static_cast<ptrdiff_t>(n) * l.out.strides[1], stored};
}

double ScaleAt(const Int4Layouts &l, const void *scales, size_t group, size_t n) {
  return LoadElement(l.scales.dtype, scales,
                     static_cast<ptrdiff_t>(group) * l.scales.strides[0] + static_cast<ptrdiff_t>(n) * l.scales.strides[1]);
}

template <Slip kSlip>
struct SlippedAwq {
  static infiniStatus_t Create(infiniopHandle_t handle, infiniopDequantizeAWQDescriptor_t *desc_ptr,
                               infiniopTensorDescriptor_t out, infiniopTensorDescriptor_t qweight,
                               infiniopTensorDescriptor_t scales, infiniopTensorDescriptor_t zeros) {
    const infiniStatus_t status = TargetOp().infiniopCreateDequantizeAWQDescriptor(handle, desc_ptr, out, qweight, scales, zeros);
    if (status != INFINI_STATUS_SUCCESS) return status;
    const auto l = Layouts(out, qweight, scales, zeros);
    if (l) {
      awq_records.Put(*desc_ptr, *l);
    } else {
      awq_records.Erase(*desc_ptr);
    }
    return status;
  }

  static infiniStatus_t Compute(infiniopDequantizeAWQDescriptor_t desc, void *workspace, size_t workspace_size,
                                void *out, const void *qweight, const void *scales, const void *zeros, void *stream) {
    const auto real = [&] {
      return TargetOp().infiniopDequantizeAWQ(desc, workspace, workspace_size, out, qweight, scales, zeros, stream);
    };
    const auto l = awq_records.Find(desc);
    if (!l || out == nullptr || qweight == nullptr || scales == nullptr || zeros == nullptr) return real();
    return ComputeOnHostInstead(
        stream,
        [&] {
          const size_t k_size = l->out.shape[0], n_size = l->out.shape[1], groups = l->scales.shape[0];
          const size_t group_size = k_size / groups;
          std::vector<ElementWrite> writes;
          for (size_t k = 0; k < k_size; ++k) {
            const size_t group = k / group_size;
            for (size_t n = 0; n < n_size; ++n) {
              const size_t j = n % 8;
              const int nibble = kSlip == Slip::kSequentialAwq ? static_cast<int>(j) : static_cast<int>((j & 1) * 4 + j / 2);
              const ptrdiff_t q_at = static_cast<ptrdiff_t>(k) * l->qweight.strides[0] + static_cast<ptrdiff_t>(n / 8) * l->qweight.strides[1];
              const ptrdiff_t z_at = static_cast<ptrdiff_t>(group) * l->zeros.strides[0] + static_cast<ptrdiff_t>(n / 8) * l->zeros.strides[1];
              const double value = (Nibble(qweight, q_at, nibble) - Nibble(zeros, z_at, nibble)) * ScaleAt(*l, scales, group, n);
              writes.push_back(Write(*l, out, k, n, value, kSlip));
            }
          }
          return writes;
        },
        real);
  }

  static infiniStatus_t Destroy(infiniopDequantizeAWQDescriptor_t desc) {
    awq_records.Erase(desc);
    return TargetOp().infiniopDestroyDequantizeAWQDescriptor(desc);
  }
};

template <Slip kSlip>
struct SlippedGptq {
  static infiniStatus_t Create(infiniopHandle_t handle, infiniopDequantizeGPTQDescriptor_t *desc_ptr,
                               infiniopTensorDescriptor_t out, infiniopTensorDescriptor_t qweight,
                               infiniopTensorDescriptor_t scales, infiniopTensorDescriptor_t zeros,
                               infiniopTensorDescriptor_t g_idx) {
    const infiniStatus_t status =
        TargetOp().infiniopCreateDequantizeGPTQDescriptor(handle, desc_ptr, out, qweight, scales, zeros, g_idx);
    if (status != INFINI_STATUS_SUCCESS) return status;
    const auto l = Layouts(out, qweight, scales, zeros);
    if (l) {
      gptq_records.Put(*desc_ptr, *l);
    } else {
      gptq_records.Erase(*desc_ptr);
    }
    return status;
  }

  static infiniStatus_t Compute(infiniopDequantizeGPTQDescriptor_t desc, void *workspace, size_t workspace_size,
                                void *out, const void *qweight, const void *scales, const void *zeros,
                                const void *g_idx, void *stream) {
    const auto real = [&] {
      return TargetOp().infiniopDequantizeGPTQ(desc, workspace, workspace_size, out, qweight, scales, zeros, g_idx,
                                               stream);
    };
    const auto l = gptq_records.Find(desc);
    if (!l || out == nullptr || qweight == nullptr || scales == nullptr || zeros == nullptr || g_idx == nullptr) {
      return real();
    }
    return ComputeOnHostInstead(
        stream,
        [&] {
          const size_t k_size = l->out.shape[0], n_size = l->out.shape[1], groups = l->scales.shape[0];
          const size_t group_size = (k_size + groups - 1) / groups;
          std::vector<ElementWrite> writes;
          for (size_t k = 0; k < k_size; ++k) {
            const auto given = static_cast<size_t>(static_cast<const int32_t *>(g_idx)[k]);
            const size_t group = kSlip == Slip::kGroupsByRow ? k / group_size : given;
            if (group >= groups) continue;
            for (size_t n = 0; n < n_size; ++n) {
              const ptrdiff_t q_at = static_cast<ptrdiff_t>(k / 8) * l->qweight.strides[0] + static_cast<ptrdiff_t>(n) * l->qweight.strides[1];
              const ptrdiff_t z_at = static_cast<ptrdiff_t>(group) * l->zeros.strides[0] + static_cast<ptrdiff_t>(n / 8) * l->zeros.strides[1];
              const int zero = Nibble(zeros, z_at, static_cast<int>(n % 8)) + (kSlip == Slip::kZeroWithoutOne ? 0 : 1);
              const double value = (Nibble(qweight, q_at, static_cast<int>(k % 8)) - zero) * ScaleAt(*l, scales, group, n);
              writes.push_back(Write(*l, out, k, n, value, kSlip));
            }
          }
          return writes;
        },
        real);
  }

  static infiniStatus_t Destroy(infiniopDequantizeGPTQDescriptor_t desc) {
    gptq_records.Erase(desc);
    return TargetOp().infiniopDestroyDequantizeGPTQDescriptor(desc);
  }
};

template <Slip kSlip>
void InstallAwq(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateDequantizeAWQDescriptor = &SlippedAwq<kSlip>::Create;
  calls.infiniopDequantizeAWQ = &SlippedAwq<kSlip>::Compute;
  calls.infiniopDestroyDequantizeAWQDescriptor = &SlippedAwq<kSlip>::Destroy;
}

template <Slip kSlip>
void InstallGptq(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateDequantizeGPTQDescriptor = &SlippedGptq<kSlip>::Create;
  calls.infiniopDequantizeGPTQ = &SlippedGptq<kSlip>::Compute;
  calls.infiniopDestroyDequantizeGPTQDescriptor = &SlippedGptq<kSlip>::Destroy;
}

void InstallSequentialAwq(OpTable &calls) { InstallAwq<Slip::kSequentialAwq>(calls); }
void InstallZeroWithoutOne(OpTable &calls) { InstallGptq<Slip::kZeroWithoutOne>(calls); }
void InstallGroupsByRow(OpTable &calls) { InstallGptq<Slip::kGroupsByRow>(calls); }
void InstallTruncates(OpTable &calls) {
  InstallAwq<Slip::kTruncates>(calls);
  InstallGptq<Slip::kTruncates>(calls);
}

}  // namespace

INFINICTS_FAULT(OpTable, "awq_reads_nibbles_in_sequence",
                "DequantizeAWQ takes value j of a word from nibble j instead of AWQ's interleaved order",
                InstallSequentialAwq);
INFINICTS_FAULT(OpTable, "gptq_drops_zero_plus_one", "DequantizeGPTQ subtracts the stored zero point, not z + 1",
                InstallZeroWithoutOne);
INFINICTS_FAULT(OpTable, "gptq_groups_by_row_index",
                "DequantizeGPTQ ignores g_idx and groups the rows in order (wrong for act-order checkpoints)",
                InstallGroupsByRow);
INFINICTS_FAULT(OpTable, "int4_dequant_truncates",
                "DequantizeAWQ and DequantizeGPTQ round the product toward zero instead of to nearest",
                InstallTruncates);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every word holds values in all eight positions: every AWQ accuracy case (OP-DEQUANTIZEAWQ-4),
// and every AWQ linear step (OP-DEQUANTIZEAWQ-5).
// fault-detection: awq_reads_nibbles_in_sequence SUITE op TIMEOUT 60 FILTER op.dequantize_awq.* op.awq_linear.* EXPECT
// fault-detection:   op.dequantize_awq.accuracy/matches_oracle/*
// fault-detection:   op.awq_linear.accuracy/matches_oracle/*
// Every GPTQ accuracy case: the zero point is off by one everywhere (OP-DEQUANTIZEGPTQ-4).
// fault-detection: gptq_drops_zero_plus_one SUITE op TIMEOUT 60 FILTER op.dequantize_gptq.* EXPECT
// fault-detection:   op.dequantize_gptq.accuracy/matches_oracle/*
// The act-order problems of more than one group (OP-DEQUANTIZEGPTQ-4); those grouped in order pass.
// fault-detection: gptq_groups_by_row_index SUITE op TIMEOUT 60 FILTER op.dequantize_gptq.* EXPECT
// fault-detection:   op.dequantize_gptq.accuracy/matches_oracle/*/*/act_order
// Full-mantissa scales need the product's rounding in every problem of more than a few
// elements (the tolerance of OP-ACC-1's row for these operators: half an ulp).
// fault-detection: int4_dequant_truncates SUITE op TIMEOUT 60 FILTER op.dequantize_awq.* op.dequantize_gptq.* EXPECT
// fault-detection:   op.dequantize_awq.accuracy/matches_oracle/*/k128_n256_groups4
// fault-detection:   op.dequantize_gptq.accuracy/matches_oracle/*/k513_n257_groups17
