// Softsign: y = x / (1 + |x|), written as copysign(|x| / (1 + |x|)) so that it holds for large |x|.
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct SoftsignFn {
  template <class C>
  C operator()(C x) const {
    const C magnitude = std::fabs(x);
    if (std::isinf(magnitude)) return std::copysign(C(1), x);
    return x / (C(1) + magnitude);
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(Softsign, infinicts::ref::op::SoftsignFn)
