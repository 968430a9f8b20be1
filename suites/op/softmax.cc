// Softmax along one axis (spec section OP-SOFTMAX): y = e^(x - m) / Σ e^(x - m), m the
// maximum along the axis. Rows sit at ±750 (common/axis_ops.h): beyond ±745 e^x overflows
// or underflows even in double, so a softmax without max subtraction returns Inf or NaN
// whatever precision it computes in. Shapes, axes and layouts are shared with LogSoftmax.
#include "common/axis_ops.h"
#include "common/op_cases.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SoftmaxTraits {
  static constexpr const char *kSubject = "softmax";
  static constexpr double kRowMagnitude = 750.0;
  static constexpr double kFlopsPerElement = perf_flops::kSoftmax;
  static std::vector<std::string> Names() { return {"y", "x"}; }
  static OpCalls Calls(int axis) {
    OpCalls calls;
    calls.create = [axis](infiniopHandle_t handle, OpDescriptor *desc, const TensorDescriptors &t) {
      return cts::op().infiniopCreateSoftmaxDescriptor(handle, desc, t[0], t[1], axis);
    };
    calls.workspace_size = [](OpDescriptor desc, size_t *size) {
      return cts::op().infiniopGetSoftmaxWorkspaceSize(desc, size);
    };
    calls.compute = [](OpDescriptor desc, void *workspace, size_t size, const std::vector<void *> &d, void *stream) {
      return cts::op().infiniopSoftmax(desc, workspace, size, d[0], d[1], stream);
    };
    calls.destroy = [](OpDescriptor desc) { return cts::op().infiniopDestroySoftmaxDescriptor(desc); };
    return calls;
  }
  static HostTensor Oracle(const HostTensor &x, int axis) { return oracle::Softmax(x, axis); }
  static OpClauses Clauses() { return {{"OP-SOFTMAX-3"}, {"OP-SOFTMAX-2"}, {"OP-SOFTMAX-2"}, {}, {"OP-SOFTMAX-1"}}; }
};

using SoftmaxOp = AxisOp<SoftmaxTraits>;
INFINICTS_OP_CASES(SoftmaxOp);
INFINICTS_OP_WORKSPACE_CASES(SoftmaxOp);

}  // namespace
}  // namespace infinicts::op_cases
