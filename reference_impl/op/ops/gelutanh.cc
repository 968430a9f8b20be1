// GeluTanh, the tanh approximation: y = x/2 · (1 + tanh(sqrt(2/pi) · (x + 0.044715 x^3))); 0 at -Inf.
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct GeluTanhFn {
  template <class C>
  C operator()(C x) const {
    if (x == -HUGE_VAL) return C(0);
    // In double: the cube of a large F32 input overflows float while tanh has long saturated.
    const double wide = static_cast<double>(x);
    const double inner = 0.79788456080286535588 * (wide + 0.044715 * wide * wide * wide);
    return static_cast<C>(0.5 * wide * (1.0 + std::tanh(inner)));
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(GeluTanh, infinicts::ref::op::GeluTanhFn)
