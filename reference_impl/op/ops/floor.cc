// Floor: y = the greatest integer <= x (every float beyond 2^mantissa already is one).
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct FloorFn {
  template <class C>
  C operator()(C x) const {
    return std::floor(x);
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(Floor, infinicts::ref::op::FloorFn)
