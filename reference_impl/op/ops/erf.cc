// Erf: y = erf(x).
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct ErfFn {
  template <class C>
  C operator()(C x) const {
    return std::erf(x);
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(Erf, infinicts::ref::op::ErfFn)
