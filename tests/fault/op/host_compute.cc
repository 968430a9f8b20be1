#include "op/host_compute.h"

#include "op/element_values.h"
#include "op/target_runtime.h"

namespace infinicts::fault {

infiniStatus_t ComputeOnHostInstead(void *stream, const std::function<std::vector<ElementWrite>()> &compute,
                                    const std::function<infiniStatus_t()> &real) {
  if (!WaitForStream(stream)) return real();
  const std::vector<ElementWrite> writes = compute();
  const infiniStatus_t status = real();
  if (status != INFINI_STATUS_SUCCESS || !WaitForStream(stream)) return status;
  for (const ElementWrite &write : writes) StoreElement(write.dtype, write.base, write.offset, write.value);
  return status;
}

}  // namespace infinicts::fault
