// The elementwise operators' functors for the CUDA kernels (elementwise.cu), each
// repeating the CPU functor of ops/<name>.cc, NaN handling included, in the compute type
// of core/dtype.h (float for F16/BF16/F32, double for F64). Host and device functions, so
// that the CPU tests check them against the definitions (elementwise_ops_test.cc).
#ifndef INFINICTS_REF_OP_CUDA_ELEMENTWISE_OPS_H
#define INFINICTS_REF_OP_CUDA_ELEMENTWISE_OPS_H

#include <math.h>  // the float and double overloads in the global namespace, as CUDA has them

#if defined(__CUDACC__)
#define INFINICTS_ELEMENTWISE_HOST_DEVICE __host__ __device__
#else
#define INFINICTS_ELEMENTWISE_HOST_DEVICE
#endif

namespace infinicts::ref::op::cuda {

// exp in the compute type's full precision (never the fast __expf).
INFINICTS_ELEMENTWISE_HOST_DEVICE inline float ComputeExp(float x) { return expf(x); }
INFINICTS_ELEMENTWISE_HOST_DEVICE inline double ComputeExp(double x) { return exp(x); }

struct AddOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C a, C b) const { return a + b; }
};
struct SubOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C a, C b) const { return a - b; }
};
struct MulOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C a, C b) const { return a * b; }
};
// c = a * silu(b): a is the up projection, b the gate.
struct SwiGLUOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C a, C b) const { return a * (b / (C(1) + ComputeExp(-b))); }
};
// NaN stays NaN.
struct ReluOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const { return x > C(0) || isnan(x) ? x : C(0); }
};
struct SiluOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const { return x / (C(1) + ComputeExp(-x)); }
};
struct SigmoidOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const { return C(1) / (C(1) + ComputeExp(-x)); }
};
// The erf form as x / 2 * erfc(-x / sqrt(2)), in double as on the host: x / sqrt(2)
// rounded to float would cost up to 20 ulps in the tail.
struct GeluOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const {
    const double wide = static_cast<double>(x);
    return static_cast<C>(0.5 * wide * erfc(wide * -0.70710678118654752440));
  }
};
// The activations of the operator-coverage work, each as its CPU functor in ops/<name>.cc.
struct ErfOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const { return erf(x); }
};
struct FloorOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const { return floor(x); }
};
struct TanhOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const { return tanh(x); }
};
struct SinhOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const { return sinh(x); }
};
struct Log1pOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const { return log1p(x); }
};
struct ReciprocalOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const { return C(1) / x; }
};
// NaN stays NaN.
struct Relu6Op {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const {
    if (isnan(x)) return x;
    return x < C(0) ? C(0) : (x > C(6) ? C(6) : x);
  }
};
// NaN stays NaN.
struct HardSwishOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const {
    if (isnan(x)) return x;
    if (x <= C(-3)) return C(0);
    if (x >= C(3)) return x;
    return x * (x + C(3)) / C(6);
  }
};
// The tanh form in double: the cube of a large F32 input overflows float while tanh has
// long saturated.
struct GeluTanhOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const {
    if (isinf(x) && x < C(0)) return C(0);
    const double wide = static_cast<double>(x);
    const double inner = 0.79788456080286535588 * (wide + 0.044715 * wide * wide * wide);
    return static_cast<C>(0.5 * wide * (1.0 + tanh(inner)));
  }
};
struct QuickGeluOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const {
    const C scaled = C(1.702) * x;
    if (isinf(scaled) && scaled < C(0)) return C(0);
    return x / (C(1) + ComputeExp(-scaled));
  }
};
// In double, as on the CPU.
struct SeluOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const {
    constexpr double kAlpha = 1.6732632423543772848170429916717;
    constexpr double kScale = 1.0507009873554804934193349852946;
    if (x > C(0)) return static_cast<C>(kScale * static_cast<double>(x));
    return static_cast<C>(kScale * kAlpha * expm1(static_cast<double>(x)));
  }
};
// +-Inf gives +-1 (x / (1 + |x|) would be NaN).
struct SoftsignOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x) const {
    const C magnitude = fabs(x);
    if (isinf(magnitude)) return copysign(C(1), x);
    return x / (C(1) + magnitude);
  }
};
// min(x, high) then max(., low): low wins where the bounds cross; a NaN x stays NaN, a
// NaN bound leaves x as it is.
struct ClipOp {
  template <class C>
  INFINICTS_ELEMENTWISE_HOST_DEVICE C operator()(C x, C low, C high) const {
    const C capped = x > high ? high : x;
    return capped < low ? low : capped;
  }
};

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_ELEMENTWISE_OPS_H
