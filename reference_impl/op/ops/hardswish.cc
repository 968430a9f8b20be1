// HardSwish: y = x · min(max(x + 3, 0), 6) / 6; 0 for every x <= -3 (-Inf included).
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct HardSwishFn {
  template <class C>
  C operator()(C x) const {
    if (std::isnan(x)) return x;
    if (x <= C(-3)) return C(0);
    if (x >= C(3)) return x;
    return x * (x + C(3)) / C(6);
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(HardSwish, infinicts::ref::op::HardSwishFn)
