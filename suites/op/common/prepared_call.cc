#include "common/prepared_call.h"

#include <algorithm>

#include <cstring>
#include <sstream>
#include <stdexcept>

#include "tensor/dtype.h"

namespace infinicts::op_cases {

infiniDtype_t HostDtypeFor(infiniDtype_t dtype) {
  if (IsHostReadable(dtype)) return dtype;
  switch (DtypeSize(dtype)) {
    case 1: return INFINI_DTYPE_U8;
    case 2: return INFINI_DTYPE_U16;
    case 4: return INFINI_DTYPE_U32;
    default: return INFINI_DTYPE_U64;  // C64 (8 bytes) and C128 (two of them)
  }
}

Layout HostLayoutFor(const TensorSpec &spec) {
  if (DtypeSize(spec.dtype) <= 8) return spec.layout;
  // Each element is `words` U64s, laid out along a new last dimension of unit stride.
  const ptrdiff_t words = static_cast<ptrdiff_t>(DtypeSize(spec.dtype) / 8);
  Layout host = spec.layout;
  for (ptrdiff_t &stride : host.strides) stride *= words;
  host.offset *= words;
  host.shape.push_back(static_cast<size_t>(words));
  host.strides.push_back(1);
  return host;
}

std::vector<HostTensor> AllocateHostTensors(const std::vector<TensorSpec> &specs) {
  std::vector<HostTensor> tensors;
  tensors.reserve(specs.size());
  for (const TensorSpec &spec : specs) {
    if (!spec.present && !spec.junk_pointer) {
      tensors.emplace_back();
      continue;
    }
    HostTensor tensor(HostDtypeFor(spec.dtype), HostLayoutFor(spec));
    // An empty tensor (k = 0) has no storage: memset must not see its NULL.
    if (tensor.storage_bytes() > 0) std::memset(tensor.storage(), kUnwrittenByte, tensor.storage_bytes());
    if (IsWritten(spec)) {
      const size_t size = tensor.element_size();
      for (size_t position : tensor.UncoveredStorageElements()) {
        std::memset(tensor.storage() + position * size, kOutputGapByte, size);
      }
    }
    tensors.push_back(std::move(tensor));
  }
  return tensors;
}

std::string DescribeTensor(const TensorSpec &spec) {
  std::ostringstream text;
  text << spec.name << ": ";
  if (!spec.present) {
    text << "absent";
    return text.str();
  }
  text << DtypeName(spec.dtype) << " " << ShapeText(spec.layout.shape) << " strides "
       << StridesText(spec.layout.strides) << " offset " << spec.layout.offset;
  return text.str();
}

bool SetExpectations(PreparedCall &call, std::vector<HostTensor> outputs, Oracle oracle) {
  call.expected.assign(call.specs.size(), HostTensor());
  call.tolerances.assign(call.specs.size(), Tolerance());
  call.bytes = 0.0;
  size_t next_output = 0;
  bool weak = false;
  for (size_t i = 0; i < call.specs.size(); ++i) {
    const TensorSpec &spec = call.specs[i];
    if (spec.present) call.bytes += static_cast<double>(NumElements(spec.layout.shape) * DtypeSize(spec.dtype));
    if (!spec.present || !IsWritten(spec)) continue;
    call.tolerances[i] = ToleranceFor(call.subject, spec.dtype);
    if (oracle == Oracle::kNotComputed) continue;
    if (next_output >= outputs.size()) throw std::logic_error(call.subject + ": the oracle gave too few outputs");
    call.expected[i] = std::move(outputs[next_output++]);
    weak = weak || !WeakDataReason(call.expected[i], call.tolerances[i]).empty();
  }
  if (next_output != outputs.size()) throw std::logic_error(call.subject + ": the oracle gave too many outputs");
  return weak;
}

void NoteOptionalDtypes(const std::vector<TensorSpec> &specs, const std::vector<infiniDtype_t> &optional) {
  for (const TensorSpec &spec : specs) {
    if (spec.present && std::find(optional.begin(), optional.end(), spec.dtype) != optional.end()) {
      cts::NoteOptionalCapability(DtypeName(spec.dtype));
      return;
    }
  }
}

}  // namespace infinicts::op_cases
