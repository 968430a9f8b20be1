// The elementwise operators' functors for the CUDA kernels (elementwise.cu), each
// repeating the CPU functor of ops/<name>.cc, NaN handling included, in the compute type
// of core/dtype.h (float for F16/BF16/F32, double for F64). Host and device functions, so
// that the CPU tests check them against the definitions (elementwise_ops_test.cc).
#ifndef INFINICTS_REF_OP_CUDA_ELEMENTWISE_OPS_H
#define INFINICTS_REF_OP_CUDA_ELEMENTWISE_OPS_H

#include <math.h>  // the float and double overloads in the global namespace, as CUDA has them

#include <type_traits>

#include "core/host_device.h"

namespace infinicts::ref::op::cuda {

// exp in the compute type's full precision (never the fast __expf).
INFINICTS_HOST_DEVICE inline float ComputeExp(float x) { return expf(x); }
INFINICTS_HOST_DEVICE inline double ComputeExp(double x) { return exp(x); }

// I32 and I64 wrap around in two's complement, as on the CPU (never a signed overflow).
template <class C>
INFINICTS_HOST_DEVICE C WrapAround(C a, C b, char op) {
  using U = std::make_unsigned_t<C>;
  const U x = static_cast<U>(a), y = static_cast<U>(b);
  return static_cast<C>(op == '+' ? static_cast<U>(x + y) : op == '-' ? static_cast<U>(x - y) : static_cast<U>(x * y));
}

// kIntegers: the operator also takes I32 and I64 (elementwise.cu dispatches them).
struct AddOp {
  static constexpr bool kIntegers = true;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) return WrapAround(a, b, '+');
    else return a + b;
  }
};
struct SubOp {
  static constexpr bool kIntegers = true;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) return WrapAround(a, b, '-');
    else return a - b;
  }
};
struct MulOp {
  static constexpr bool kIntegers = true;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) return WrapAround(a, b, '*');
    else return a * b;
  }
};
// Ones and Zeros: x gives only the shape (the kernels still load it; its value is unused).
struct OnesOp {
  static constexpr bool kIntegers = true;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C) const { return C(1); }
};
struct ZerosOp {
  static constexpr bool kIntegers = true;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C) const { return C(0); }
};
// c = a * silu(b): a is the up projection, b the gate.
struct SwiGLUOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C a, C b) const { return a * (b / (C(1) + ComputeExp(-b))); }
};
// NaN stays NaN.
struct ReluOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return x > C(0) || isnan(x) ? x : C(0); }
};
struct SiluOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return x / (C(1) + ComputeExp(-x)); }
};
struct SigmoidOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return C(1) / (C(1) + ComputeExp(-x)); }
};
// The erf form as x / 2 * erfc(-x / sqrt(2)), in double as on the host: x / sqrt(2)
// rounded to float would cost up to 20 ulps in the tail.
struct GeluOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    const double wide = static_cast<double>(x);
    return static_cast<C>(0.5 * wide * erfc(wide * -0.70710678118654752440));
  }
};
// The activations of the operator-coverage work, each as its CPU functor in ops/<name>.cc.
struct ErfOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return erf(x); }
};
struct FloorOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return floor(x); }
};
struct TanhOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return tanh(x); }
};
struct SinhOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return sinh(x); }
};
struct Log1pOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return log1p(x); }
};
struct ReciprocalOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return C(1) / x; }
};
// NaN stays NaN.
struct Relu6Op {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    if (isnan(x)) return x;
    return x < C(0) ? C(0) : (x > C(6) ? C(6) : x);
  }
};
// NaN stays NaN.
struct HardSwishOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
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
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    if (isinf(x) && x < C(0)) return C(0);
    const double wide = static_cast<double>(x);
    const double inner = 0.79788456080286535588 * (wide + 0.044715 * wide * wide * wide);
    return static_cast<C>(0.5 * wide * (1.0 + tanh(inner)));
  }
};
struct QuickGeluOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    const C scaled = C(1.702) * x;
    if (isinf(scaled) && scaled < C(0)) return C(0);
    return x / (C(1) + ComputeExp(-scaled));
  }
};
// In double, as on the CPU.
struct SeluOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    constexpr double kAlpha = 1.6732632423543772848170429916717;
    constexpr double kScale = 1.0507009873554804934193349852946;
    if (x > C(0)) return static_cast<C>(kScale * static_cast<double>(x));
    return static_cast<C>(kScale * kAlpha * expm1(static_cast<double>(x)));
  }
};
// +-Inf gives +-1 (x / (1 + |x|) would be NaN).
struct SoftsignOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    const C magnitude = fabs(x);
    if (isinf(magnitude)) return copysign(C(1), x);
    return x / (C(1) + magnitude);
  }
};
// The two attributes' operators. HardTanh: min(max(x, min_val), max_val), NaN stays NaN.
struct HardTanhOp {
  float min_val = -1.0f, max_val = 1.0f;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    if (isnan(x)) return x;
    const C low = static_cast<C>(min_val), high = static_cast<C>(max_val);
    return x < low ? low : (x > high ? high : x);
  }
};
// Softplus: x where beta·x > threshold, else ln(1 + e^(beta·x)) / beta, as max(bx, 0) +
// ln(1 + e^-|bx|) so that it never overflows.
struct SoftplusOp {
  float beta = 1.0f, threshold = 20.0f;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    const C b = static_cast<C>(beta);
    const C bx = b * x;
    if (bx > static_cast<C>(threshold)) return x;
    if (isnan(bx)) return bx;
    const C positive = bx > C(0) ? bx : C(0);
    return (positive + log1p(ComputeExp(-fabs(bx)))) / b;
  }
};
// min(x, high) then max(., low): low wins where the bounds cross; a NaN x stays NaN, a
// NaN bound leaves x as it is.
struct ClipOp {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x, C low, C high) const {
    const C capped = x > high ? high : x;
    return capped < low ? low : capped;
  }
};

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_ELEMENTWISE_OPS_H
