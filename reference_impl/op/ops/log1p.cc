// Log1p: y = ln(1 + x), without rounding 1 + x first.
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct Log1pFn {
  template <class C>
  C operator()(C x) const {
    return std::log1p(x);
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(Log1p, infinicts::ref::op::Log1pFn)
