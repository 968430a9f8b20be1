// Selu: y = scale · x for x > 0, scale · alpha · (e^x - 1) otherwise (expm1: no cancellation near 0).
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct SeluFn {
  template <class C>
  C operator()(C x) const {
    constexpr double kAlpha = 1.6732632423543772848170429916717;
    constexpr double kScale = 1.0507009873554804934193349852946;
    if (x > C(0)) return static_cast<C>(kScale * static_cast<double>(x));
    return static_cast<C>(kScale * kAlpha * std::expm1(static_cast<double>(x)));
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(Selu, infinicts::ref::op::SeluFn)
