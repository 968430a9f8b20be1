// Faults of MRoPE, each a slip in which position row a rotary frequency takes, computed on the
// host after the real call (op/host_compute.h):
// - mrope_h_w_rows_swapped: the h section takes its positions from row w and the w section from
//   row h (a t/h/w mix-up);
// - mrope_ignores_interleaved: the contiguous sections t, h, w are used whatever `interleaved`
//   says.
// Everything else is as OP-MROPE-5 says, in double.
#include <cstdint>
#include <cstring>
#include <vector>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

enum class MRopeSlip { kHwRowsSwapped, kIgnoresInterleaved };

struct MRopeRecord {
  TensorLayout q_out, k_out, q, k, cos, sin, positions;
  size_t head_size = 0, rotary_dim = 0, section_t = 0, section_h = 0, section_w = 0;
  bool interleaved = false;
};
DescriptorRecords<MRopeRecord> mrope_records;
MRopeSlip active_slip = MRopeSlip::kHwRowsSwapped;

infiniStatus_t CreateMRopeRecorded(infiniopHandle_t handle, infiniopMRoPEDescriptor_t *desc_ptr,
                                   infiniopTensorDescriptor_t q_out, infiniopTensorDescriptor_t k_out,
                                   infiniopTensorDescriptor_t q, infiniopTensorDescriptor_t k,
                                   infiniopTensorDescriptor_t cos, infiniopTensorDescriptor_t sin,
                                   infiniopTensorDescriptor_t positions, int head_size, int rotary_dim, int section_t,
                                   int section_h, int section_w, bool interleaved) {
  const infiniStatus_t status = TargetOp().infiniopCreateMRoPEDescriptor(
      handle, desc_ptr, q_out, k_out, q, k, cos, sin, positions, head_size, rotary_dim, section_t, section_h,
      section_w, interleaved);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto qo = LayoutOf(q_out), ko = LayoutOf(k_out), ql = LayoutOf(q), kl = LayoutOf(k), c = LayoutOf(cos),
             s = LayoutOf(sin), p = LayoutOf(positions);
  if (qo && ko && ql && kl && c && s && p && IsFloatDtype(ql->dtype) && ql->shape.size() == 2 &&
      kl->shape.size() == 2 && c->shape.size() == 2 && (p->shape.size() == 1 || p->shape.size() == 2) &&
      (p->dtype == INFINI_DTYPE_I32 || p->dtype == INFINI_DTYPE_I64) && head_size > 0) {
    mrope_records.Put(*desc_ptr, {*qo, *ko, *ql, *kl, *c, *s, *p, static_cast<size_t>(head_size),
                                  static_cast<size_t>(rotary_dim), static_cast<size_t>(section_t),
                                  static_cast<size_t>(section_h), static_cast<size_t>(section_w), interleaved});
  } else {
    mrope_records.Erase(*desc_ptr);
  }
  return status;
}

int64_t PositionAt(const TensorLayout &layout, const void *base, size_t row, size_t token) {
  const bool per_axis = layout.shape.size() == 2;
  const ptrdiff_t offset = (per_axis ? static_cast<ptrdiff_t>(row) * layout.strides[0] : 0) +
                           static_cast<ptrdiff_t>(token) * layout.strides[per_axis ? 1 : 0];
  if (layout.dtype == INFINI_DTYPE_I32) {
    int32_t value;
    std::memcpy(&value, static_cast<const int32_t *>(base) + offset, sizeof value);
    return value;
  }
  int64_t value;
  std::memcpy(&value, static_cast<const int64_t *>(base) + offset, sizeof value);
  return value;
}

// The position row (0 t, 1 h, 2 w) frequency i takes under the active slip.
size_t SlippedAxis(const MRopeRecord &r, size_t i) {
  size_t axis;
  if (r.interleaved && active_slip != MRopeSlip::kIgnoresInterleaved) {
    axis = (i % 3 == 1 && i < 3 * r.section_h) ? 1 : (i % 3 == 2 && i < 3 * r.section_w) ? 2 : 0;
  } else {
    axis = i < r.section_t ? 0 : i < r.section_t + r.section_h ? 1 : 2;
  }
  if (active_slip == MRopeSlip::kHwRowsSwapped && axis != 0) axis = 3 - axis;
  return axis;
}

// One of q (into q_out) or k (into k_out), every head of every token.
void RotateAll(const MRopeRecord &r, const TensorLayout &x_layout, const void *x, const TensorLayout &y_layout,
               void *y, const void *cos, const void *sin, const void *positions, std::vector<ElementWrite> &writes) {
  const size_t tokens = x_layout.shape[0], heads = x_layout.shape[1] / r.head_size, half = r.rotary_dim / 2;
  const size_t table_len = r.cos.shape[0];
  const infiniDtype_t dtype = x_layout.dtype;
  const auto x_at = [&](size_t t, size_t e) {
    return static_cast<ptrdiff_t>(t) * x_layout.strides[0] + static_cast<ptrdiff_t>(e) * x_layout.strides[1];
  };
  const auto y_at = [&](size_t t, size_t e) {
    return static_cast<ptrdiff_t>(t) * y_layout.strides[0] + static_cast<ptrdiff_t>(e) * y_layout.strides[1];
  };
  for (size_t t = 0; t < tokens; ++t) {
    int64_t position[3];
    bool inside = true;
    for (size_t row = 0; row < 3; ++row) {
      position[row] = PositionAt(r.positions, positions, row, t);
      inside = inside && position[row] >= 0 && static_cast<uint64_t>(position[row]) < table_len;
    }
    if (!inside) continue;
    for (size_t h = 0; h < heads; ++h) {
      const size_t first = h * r.head_size;
      for (size_t i = 0; i < half; ++i) {
        const ptrdiff_t p = static_cast<ptrdiff_t>(position[SlippedAxis(r, i)]), ii = static_cast<ptrdiff_t>(i);
        const double c = LoadElement(dtype, cos, p * r.cos.strides[0] + ii * r.cos.strides[1]);
        const double s = LoadElement(dtype, sin, p * r.sin.strides[0] + ii * r.sin.strides[1]);
        const double x0 = LoadElement(dtype, x, x_at(t, first + i)), x1 = LoadElement(dtype, x, x_at(t, first + i + half));
        writes.push_back({y, y_layout.dtype, y_at(t, first + i), x0 * c - x1 * s});
        writes.push_back({y, y_layout.dtype, y_at(t, first + i + half), x1 * c + x0 * s});
      }
      for (size_t j = r.rotary_dim; j < r.head_size; ++j) {
        writes.push_back({y, y_layout.dtype, y_at(t, first + j), LoadElement(dtype, x, x_at(t, first + j))});
      }
    }
  }
}

infiniStatus_t MRopeSlipped(infiniopMRoPEDescriptor_t desc, void *workspace, size_t workspace_size, void *q_out,
                            void *k_out, const void *q, const void *k, const void *cos, const void *sin,
                            const void *positions, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopMRoPE(desc, workspace, workspace_size, q_out, k_out, q, k, cos, sin, positions, stream);
  };
  const auto record = desc != nullptr ? mrope_records.Find(desc) : std::nullopt;
  if (!record || !q_out || !k_out || !q || !k || !cos || !sin || !positions) return real();
  return ComputeOnHostInstead(
      stream,
      [&] {
        std::vector<ElementWrite> writes;
        RotateAll(*record, record->q, q, record->q_out, q_out, cos, sin, positions, writes);
        RotateAll(*record, record->k, k, record->k_out, k_out, cos, sin, positions, writes);
        return writes;
      },
      real);
}

infiniStatus_t DestroyMRopeForgetting(infiniopMRoPEDescriptor_t desc) {
  mrope_records.Erase(desc);
  return TargetOp().infiniopDestroyMRoPEDescriptor(desc);
}

void InstallMRopeSlip(OpTable &calls, MRopeSlip slip) {
  active_slip = slip;
  TrackTensorLayouts(calls);
  calls.infiniopCreateMRoPEDescriptor = &CreateMRopeRecorded;
  calls.infiniopMRoPE = &MRopeSlipped;
  calls.infiniopDestroyMRoPEDescriptor = &DestroyMRopeForgetting;
}

}  // namespace

void InstallMRopeHwRowsSwapped(OpTable &calls) { InstallMRopeSlip(calls, MRopeSlip::kHwRowsSwapped); }
INFINICTS_FAULT(OpTable, "mrope_h_w_rows_swapped",
                "MRoPE's h section takes the w row's positions and its w section the h row's",
                InstallMRopeHwRowsSwapped);

void InstallMRopeIgnoresInterleaved(OpTable &calls) { InstallMRopeSlip(calls, MRopeSlip::kIgnoresInterleaved); }
INFINICTS_FAULT(OpTable, "mrope_ignores_interleaved",
                "MRoPE uses the contiguous sections t, h, w whatever interleaved says",
                InstallMRopeIgnoresInterleaved);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every case with three position rows (each token's three positions differ); the text cases'
// one row cannot tell (OP-MROPE-6).
// fault-detection: mrope_h_w_rows_swapped SUITE op TIMEOUT 30 FILTER op.mrope.* EXPECT
// fault-detection:   op.mrope.accuracy/matches_oracle/*/thw_rows/*
// The interleaved cases whose cycle differs from the contiguous sections; sections (1, 1, 1)
// give the same rows either way (OP-MROPE-6).
// fault-detection: mrope_ignores_interleaved SUITE op TIMEOUT 30 FILTER op.mrope.* EXPECT
// fault-detection:   op.mrope.accuracy/matches_oracle/*/sections_24_20_20_interleaved/*
// fault-detection:   op.mrope.accuracy/matches_oracle/*/sections_4_6_6_interleaved/*
// fault-detection:   op.mrope.accuracy/matches_oracle/*/sections_1_2_3_interleaved/*
