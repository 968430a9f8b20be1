// QuickGelu: y = x · sigmoid(1.702 x) = x / (1 + e^(-1.702 x)); 0 at -Inf.
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct QuickGeluFn {
  template <class C>
  C operator()(C x) const {
    const C scaled = C(1.702) * x;
    if (scaled == -HUGE_VAL) return C(0);
    return x / (C(1) + std::exp(-scaled));
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(QuickGelu, infinicts::ref::op::QuickGeluFn)
