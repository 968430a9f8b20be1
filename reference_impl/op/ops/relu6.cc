// Relu6: y = min(max(x, 0), 6); NaN stays NaN.
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct Relu6Fn {
  template <class C>
  C operator()(C x) const {
    if (std::isnan(x)) return x;
    return x < C(0) ? C(0) : (x > C(6) ? C(6) : x);
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(Relu6, infinicts::ref::op::Relu6Fn)
