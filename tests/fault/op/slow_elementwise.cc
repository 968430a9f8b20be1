// The fault `slow_elementwise`: Add, Sub and Mul do their whole work kRepeats times over
// (the target computes the same output again and again), so they stay correct but take
// several times longer, by real work as a slow kernel would. An in-place call (the output
// is an input) runs once: repeating it would change the result, not only the time.
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

constexpr int kRepeats = 10;

template <class Descriptor>
using BinaryCall = infiniStatus_t (*)(Descriptor, void *, size_t, void *, const void *, const void *, void *);

template <class Descriptor>
infiniStatus_t Repeated(BinaryCall<Descriptor> call, Descriptor desc, void *workspace, size_t workspace_size,
                        void *c, const void *a, const void *b, void *stream) {
  const int repeats = (c == a || c == b) ? 1 : kRepeats;
  infiniStatus_t status = INFINI_STATUS_SUCCESS;
  for (int i = 0; i < repeats && status == INFINI_STATUS_SUCCESS; ++i)
    status = call(desc, workspace, workspace_size, c, a, b, stream);
  return status;
}

infiniStatus_t SlowAdd(infiniopAddDescriptor_t desc, void *workspace, size_t workspace_size, void *c, const void *a,
                       const void *b, void *stream) {
  return Repeated(TargetOp().infiniopAdd, desc, workspace, workspace_size, c, a, b, stream);
}

infiniStatus_t SlowSub(infiniopSubDescriptor_t desc, void *workspace, size_t workspace_size, void *c, const void *a,
                       const void *b, void *stream) {
  return Repeated(TargetOp().infiniopSub, desc, workspace, workspace_size, c, a, b, stream);
}

infiniStatus_t SlowMul(infiniopMulDescriptor_t desc, void *workspace, size_t workspace_size, void *c, const void *a,
                       const void *b, void *stream) {
  return Repeated(TargetOp().infiniopMul, desc, workspace, workspace_size, c, a, b, stream);
}

}  // namespace

void InstallSlowElementwise(OpTable &calls) {
  calls.infiniopAdd = &SlowAdd;
  calls.infiniopSub = &SlowSub;
  calls.infiniopMul = &SlowMul;
}
INFINICTS_FAULT(OpTable, "slow_elementwise",
                "Add, Sub and Mul compute their output 10 times over",
                InstallSlowElementwise);

}  // namespace infinicts::fault
