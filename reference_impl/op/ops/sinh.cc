// Sinh: y = (e^x - e^-x) / 2; std::sinh stays finite where e^x alone would overflow.
#include <cmath>

#include "infiniop.h"
#include "ops/elementwise.h"

namespace infinicts::ref::op {
namespace {

struct SinhFn {
  template <class C>
  C operator()(C x) const {
    return std::sinh(x);
  }
};

}  // namespace
}  // namespace infinicts::ref::op

INFINIOP_DEFINE_UNARY_ELEMENTWISE(Sinh, infinicts::ref::op::SinhFn)
