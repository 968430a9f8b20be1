// Facts about infiniDtype_t values: element size, name, and what kind of number each holds.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "infinicore.h"

namespace infinicts {

size_t DtypeSize(infiniDtype_t dtype);          // bytes per element; 0 for INVALID
const char *DtypeName(infiniDtype_t dtype);     // "f16", "bf16", "i32", ...; "invalid" otherwise
std::optional<infiniDtype_t> ParseDtype(const std::string &name);  // inverse of DtypeName

bool IsFloat(infiniDtype_t dtype);         // F8, F16, BF16, F32, F64
bool IsSignedInt(infiniDtype_t dtype);     // I8, I16, I32, I64
bool IsUnsignedInt(infiniDtype_t dtype);   // U8, U16, U32, U64, BYTE
bool IsInteger(infiniDtype_t dtype);       // signed or unsigned (BOOL excluded)
bool IsComplex(infiniDtype_t dtype);       // C16, C32, C64, C128

// Whether HostTensor can read and write elements of this dtype as numbers
// (every real dtype except F8, whose encoding the interface does not fix).
bool IsHostReadable(infiniDtype_t dtype);

// For the float dtypes HostTensor reads: explicit mantissa bits and the exponent of
// the smallest normal number (F16: 10 and -14; BF16: 7 and -126; F32: 23 and -126).
int MantissaBits(infiniDtype_t dtype);
int MinNormalExponent(infiniDtype_t dtype);
double MaxFinite(infiniDtype_t dtype);

}  // namespace infinicts
