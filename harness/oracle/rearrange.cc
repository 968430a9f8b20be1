#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

// Rearrange moves every element of src to the same index of dst: dst's values, read in
// row-major order, equal src's whatever either layout is.
HostTensor Rearrange(const HostTensor &src) { return F64Tensor(src.shape(), src.ToDoubles()); }

}  // namespace infinicts::oracle
