// The elementwise operators' rules: one functor per SAME_SHAPE row of operators.def, named
// as the row (rules::Sigmoid), written once for the CPU kernels (ops/elementwise.h, through
// ops/elementwise_rows.cc) and the CUDA kernels (cuda/elementwise.cu). Each maps compute
// values of core/dtype.h (float for F16/BF16/F32, double for F64) to the output's, NaN handling
// included. Optional members: kIntegers (I32 and I64 too, wrapping in two's complement), the
// create-time attributes in the row's order, and AttributesValid() (host only), which refuses
// attributes the operator has no meaning for (BAD_PARAM at create).
#ifndef INFINICTS_REF_OP_RULES_ELEMENTWISE_H
#define INFINICTS_REF_OP_RULES_ELEMENTWISE_H

#include <math.h>  // the float and double overloads in the global namespace, as CUDA has them

#include <cstddef>
#include <type_traits>

#include "core/host_device.h"

namespace infinicts::ref::op::rules {

// How many inputs a rule takes (its operator() on compute values); 0 for none of 1 to 3.
template <class Rule>
constexpr size_t kArity = std::is_invocable_v<const Rule &, float>                 ? 1
                          : std::is_invocable_v<const Rule &, float, float>        ? 2
                          : std::is_invocable_v<const Rule &, float, float, float> ? 3
                                                                                   : 0;

// Whether a rule also takes I32 and I64 (static constexpr bool kIntegers = true); the CPU and
// CUDA paths both dispatch those dtypes by it.
template <class Rule, class = void>
struct TakesIntegers : std::false_type {};
template <class Rule>
struct TakesIntegers<Rule, std::void_t<decltype(Rule::kIntegers)>> : std::bool_constant<Rule::kIntegers> {};

// Whether Rule writes a constant that every dtype holds (Zeros, Ones): it then takes every
// integer dtype, BYTE and BOOL too, each as a word of its size (BOOL's 1 is true).
template <class Rule, class = void>
struct TakesEveryDtype : std::false_type {};
template <class Rule>
struct TakesEveryDtype<Rule, std::void_t<decltype(Rule::kEveryDtype)>> : std::bool_constant<Rule::kEveryDtype> {};

// exp in the compute type's full precision (never the fast __expf).
INFINICTS_HOST_DEVICE inline float ComputeExp(float x) { return expf(x); }
INFINICTS_HOST_DEVICE inline double ComputeExp(double x) { return exp(x); }

// I32 and I64 wrap around in two's complement (never a signed overflow).
template <class C>
INFINICTS_HOST_DEVICE C WrapAround(C a, C b, char op) {
  using U = std::make_unsigned_t<C>;
  const U x = static_cast<U>(a), y = static_cast<U>(b);
  return static_cast<C>(op == '+' ? static_cast<U>(x + y) : op == '-' ? static_cast<U>(x - y) : static_cast<U>(x * y));
}

// kIntegers: the operator also takes I32 and I64 (elementwise.cu dispatches them).
struct Add {
  static constexpr bool kIntegers = true;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) return WrapAround(a, b, '+');
    else return a + b;
  }
};
struct Sub {
  static constexpr bool kIntegers = true;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) return WrapAround(a, b, '-');
    else return a - b;
  }
};
struct Mul {
  static constexpr bool kIntegers = true;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>) return WrapAround(a, b, '*');
    else return a * b;
  }
};
// Ones and Zeros: x gives only the shape (the kernels still load it; its value is unused).
struct Ones {
  static constexpr bool kIntegers = true;
  static constexpr bool kEveryDtype = true;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C) const { return C(1); }
};
struct Zeros {
  static constexpr bool kIntegers = true;
  static constexpr bool kEveryDtype = true;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C) const { return C(0); }
};
// c = a * silu(b): a is the up projection, b the gate.
struct SwiGLU {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C a, C b) const { return a * (b / (C(1) + ComputeExp(-b))); }
};
// NaN stays NaN.
struct Relu {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return x > C(0) || isnan(x) ? x : C(0); }
};
// x · sigmoid(x).
struct Silu {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return x / (C(1) + ComputeExp(-x)); }
};
struct Sigmoid {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return C(1) / (C(1) + ComputeExp(-x)); }
};
// The erf form as x / 2 * erfc(-x / sqrt(2)), in double as on the host: x / sqrt(2)
// rounded to float would cost up to 20 ulps in the tail.
struct Gelu {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    const double wide = static_cast<double>(x);
    return static_cast<C>(0.5 * wide * erfc(wide * -0.70710678118654752440));
  }
};
// erf(x) = (2/√π)·∫₀ˣ e^(−t²) dt.
struct Erf {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return erf(x); }
};
// erfc(x) = 1 - erf(x), computed as itself: 1 - erf(x) rounds to 0 where erfc's tail is the value.
struct Erfc {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return erfc(x); }
};
// The greatest integer <= x (every float beyond 2^mantissa already is one).
struct Floor {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return floor(x); }
};
// ±1 in the limits: tanh saturates, with no e^2x that overflows.
struct Tanh {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return tanh(x); }
};
// (e^x - e^-x) / 2: sinh stays finite where e^x alone would overflow.
struct Sinh {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return sinh(x); }
};
// ln(1 + x) without rounding 1 + x first.
struct Log1p {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return log1p(x); }
};
// 1 / x: ±0 gives ±Inf, ±Inf gives ±0.
struct Reciprocal {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const { return C(1) / x; }
};
// NaN stays NaN.
struct Relu6 {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    if (isnan(x)) return x;
    return x < C(0) ? C(0) : (x > C(6) ? C(6) : x);
  }
};
// NaN stays NaN.
struct HardSwish {
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
struct GeluTanh {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    if (isinf(x) && x < C(0)) return C(0);
    const double wide = static_cast<double>(x);
    const double inner = 0.79788456080286535588 * (wide + 0.044715 * wide * wide * wide);
    return static_cast<C>(0.5 * wide * (1.0 + tanh(inner)));
  }
};
struct QuickGelu {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    const C scaled = C(1.702) * x;
    if (isinf(scaled) && scaled < C(0)) return C(0);
    return x / (C(1) + ComputeExp(-scaled));
  }
};
// In double: e^x - 1 by expm1, with no cancellation near 0.
struct Selu {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    constexpr double kAlpha = 1.6732632423543772848170429916717;
    constexpr double kScale = 1.0507009873554804934193349852946;
    if (x > C(0)) return static_cast<C>(kScale * static_cast<double>(x));
    return static_cast<C>(kScale * kAlpha * expm1(static_cast<double>(x)));
  }
};
// +-Inf gives +-1 (x / (1 + |x|) would be NaN).
struct Softsign {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    const C magnitude = fabs(x);
    if (isinf(magnitude)) return copysign(C(1), x);
    return x / (C(1) + magnitude);
  }
};
// The two attributes' operators. HardTanh: min(max(x, min_val), max_val), NaN stays NaN.
struct HardTanh {
  float min_val = -1.0f, max_val = 1.0f;
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x) const {
    if (isnan(x)) return x;
    const C low = static_cast<C>(min_val), high = static_cast<C>(max_val);
    return x < low ? low : (x > high ? high : x);
  }
  // Bounds that are NaN or in the wrong order bound nothing.
  bool AttributesValid() const { return min_val <= max_val; }
};
// Softplus: x where beta·x > threshold, else ln(1 + e^(beta·x)) / beta, as max(bx, 0) +
// ln(1 + e^-|bx|) so that it never overflows.
struct Softplus {
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
  // beta divides: 0 has no softplus; a NaN threshold compares with nothing.
  bool AttributesValid() const { return beta != 0.0f && !isnan(threshold); }
};
// min(x, high) then max(., low): low wins where the bounds cross; a NaN x stays NaN, a
// NaN bound leaves x as it is.
struct Clip {
  template <class C>
  INFINICTS_HOST_DEVICE C operator()(C x, C low, C high) const {
    const C capped = x > high ? high : x;
    return capped < low ? low : capped;
  }
};

}  // namespace infinicts::ref::op::rules

#endif  // INFINICTS_REF_OP_RULES_ELEMENTWISE_H
