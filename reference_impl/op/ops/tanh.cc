// Tanh: y = tanh(x), ±1 in the limits (std::tanh saturates; no e^2x that overflows).
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct TanhFn {
  template <class C>
  C operator()(C x) const {
    return std::tanh(x);
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(Tanh, infinicts::ref::op::TanhFn)
