// Reading and writing single elements of operator data on the host, for the faults that
// compute on the host. The CPU reference's device memory is host memory, so a fault can
// use the data pointers directly once the stream's work is done (a fault backend made for
// the CPU reference). Float dtypes only (F16, BF16, F32, F64), as the faults need.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "infinicore.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {

// IEEE binary16 and bfloat16 from and to float, rounding to nearest even.
uint16_t FloatToHalfBits(float value);
float HalfBitsToFloat(uint16_t bits);
uint16_t FloatToBf16Bits(float value);
float Bf16BitsToFloat(uint16_t bits);

// `value` rounded to the nearest F16 (what an F16 register holds).
float RoundToHalf(float value);

bool IsFloatDtype(infiniDtype_t dtype);

double LoadElement(infiniDtype_t dtype, const void *base, ptrdiff_t offset);
void StoreElement(infiniDtype_t dtype, void *base, ptrdiff_t offset, double value);

// For every index of the dims other than `axis`, in row-major order, the offset of the
// element with index 0 along `axis`: the start of each line the axis runs along.
std::vector<ptrdiff_t> LineStarts(const TensorLayout &layout, size_t axis);

}  // namespace infinicts::fault
