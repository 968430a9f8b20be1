// The driver of the faults that compute an operator's result on the host: the real
// operator still runs (it checks the arguments and answers the status, and reads its
// inputs before they may be overwritten in place), then its outputs are overwritten with
// the fault's values.
#pragma once

#include <functional>
#include <vector>

#include "infinicore.h"

namespace infinicts::fault {

struct ElementWrite {
  void *base;
  infiniDtype_t dtype;
  ptrdiff_t offset;  // in elements from base
  double value;
};

// Waits for the stream's earlier work, computes the writes from the inputs as they are
// then, runs `real` and, when it answers SUCCESS, waits for it and stores the writes.
// A stream the runtime refuses leaves the call to `real` alone.
infiniStatus_t ComputeOnHostInstead(void *stream, const std::function<std::vector<ElementWrite>()> &compute,
                                    const std::function<infiniStatus_t()> &real);

}  // namespace infinicts::fault
