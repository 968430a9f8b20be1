// Zeros: y = 0 for every element; x gives only the shape and is not read.
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct ZerosFn {
  template <class C>
  C operator()(C x) const {
    (void)x;
    return C(0);
  }
  static constexpr bool kIntegers = true;
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(Zeros, infinicts::ref::op::ZerosFn)
