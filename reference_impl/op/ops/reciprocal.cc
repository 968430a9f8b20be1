// Reciprocal: y = 1 / x (±0 gives ±Inf, ±Inf gives ±0).
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct ReciprocalFn {
  template <class C>
  C operator()(C x) const {
    return C(1) / x;
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(Reciprocal, infinicts::ref::op::ReciprocalFn)
