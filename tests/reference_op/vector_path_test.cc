// The vector kernels (core/simd.h) against the portable loops: each operator runs on
// contiguous tensors (the vector path, on a CPU with AVX2/FMA/F16C) and on a strided
// layout of the same values (always the portable path). Both must agree to a few F32 ulps
// or one F16 ulp, Inf for Inf and NaN for NaN. Lengths around the 8-lane width and the
// 1024-element block test the tails; the values include NaN, +-Inf, +-0 and the edges of
// exp's range. ctest also runs the whole binary with INFINICTS_REF_SIMD=0.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <tuple>

#include "op_test_support.h"

namespace infiniop_test {
namespace {

const size_t kLengths[] = {1, 7, 8, 9, 31, 1023, 1024, 1025, 2600};

std::vector<double> Values(size_t n, unsigned seed) {
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {std::nan(""), inf, -inf, 0.0, -0.0, 88.7, -87.5, 100, -104, 11, -11, 1e-3, -1e-3};
  std::vector<double> values(n);
  for (size_t i = 0; i < n; ++i) {
    const unsigned h = static_cast<unsigned>((i + seed * 7919u) * 2654435761u) >> 16;
    values[i] = i < std::size(specials) && seed == 1 ? specials[i] : (h / 65536.0) * 12.0 - 6.0;
  }
  return values;
}

void ExpectAgree(const std::vector<double> &got, const std::vector<double> &want, infiniDtype_t dtype,
                 const std::string &what) {
  const bool half = dtype == INFINI_DTYPE_F16;
  const double rtol = half ? std::ldexp(1.0, -10) : std::ldexp(1.0, -21);  // one F16 ulp; 8 F32 ulps
  const double atol = half ? std::ldexp(1.0, -24) : 1e-37;
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i << ": " << got[i];
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << what << " at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], atol + rtol * std::fabs(want[i])) << what << " at " << i;
    }
  }
}

// Layout of n elements: contiguous, or every second element of a larger storage.
std::vector<ptrdiff_t> Layout(bool strided) { return strided ? std::vector<ptrdiff_t>{2} : std::vector<ptrdiff_t>{}; }

using UnaryCall = std::function<infiniStatus_t(infiniopHandle_t, infiniopTensorDescriptor_t,
                                               infiniopTensorDescriptor_t, void *, const void *, infinirtStream_t)>;

template <class Create, class Run, class Destroy>
UnaryCall Unary(Create create, Run run, Destroy destroy) {
  return [=](infiniopHandle_t handle, infiniopTensorDescriptor_t y, infiniopTensorDescriptor_t x, void *yd,
             const void *xd, infinirtStream_t stream) {
    infiniopReluDescriptor_t desc = nullptr;
    infiniStatus_t status = create(handle, &desc, y, x);
    if (status != INFINI_STATUS_SUCCESS) return status;
    status = run(desc, nullptr, 0, yd, xd, stream);
    destroy(desc);
    return status;
  };
}

class VectorPathTest : public OpTest {
 protected:
  std::vector<double> RunUnary(const UnaryCall &call, size_t n, infiniDtype_t dtype, bool strided) {
    Tensor x({n}, dtype, Layout(strided)), y({n}, dtype);
    x.Upload(Values(n, 1));
    EXPECT_OK(call(handle_, y.desc(), x.desc(), y.data(), x.data(), stream_));
    Sync();
    return y.Download();
  }

  std::vector<double> RunSwiGLU(size_t n, infiniDtype_t dtype, bool strided) {
    Tensor a({n}, dtype, Layout(strided)), b({n}, dtype, Layout(strided)), c({n}, dtype);
    a.Upload(Values(n, 2));
    b.Upload(Values(n, 1));
    infiniopSwiGLUDescriptor_t desc = nullptr;
    EXPECT_OK(infiniopCreateSwiGLUDescriptor(handle_, &desc, c.desc(), a.desc(), b.desc()));
    EXPECT_OK(infiniopSwiGLU(desc, nullptr, 0, c.data(), a.data(), b.data(), stream_));
    Sync();
    EXPECT_OK(infiniopDestroySwiGLUDescriptor(desc));
    return c.Download();
  }

  std::vector<double> RunAdd(size_t n, infiniDtype_t dtype, bool strided) {
    Tensor a({n}, dtype, Layout(strided)), b({n}, dtype, Layout(strided)), c({n}, dtype);
    a.Upload(Values(n, 1));
    b.Upload(Values(n, 3));
    infiniopAddDescriptor_t desc = nullptr;
    EXPECT_OK(infiniopCreateAddDescriptor(handle_, &desc, c.desc(), a.desc(), b.desc()));
    EXPECT_OK(infiniopAdd(desc, nullptr, 0, c.data(), a.data(), b.data(), stream_));
    Sync();
    EXPECT_OK(infiniopDestroyAddDescriptor(desc));
    return c.Download();
  }

  // Softmax-family rows of length n: rows x n row-major, or column-major (rows along a
  // stride of `rows`, the portable path). causal: (2, rows, n).
  std::vector<double> RunSoftmax(const std::string &kind, size_t rows, size_t n, infiniDtype_t dtype,
                                 bool strided) {
    const bool causal = kind == "causal";
    const std::vector<size_t> shape = causal ? std::vector<size_t>{2, rows, n} : std::vector<size_t>{rows, n};
    std::vector<ptrdiff_t> strides;
    if (strided) {
      strides = causal ? std::vector<ptrdiff_t>{static_cast<ptrdiff_t>(rows * n), 1, static_cast<ptrdiff_t>(rows)}
                       : std::vector<ptrdiff_t>{1, static_cast<ptrdiff_t>(rows)};
    }
    Tensor x(shape, dtype, strides), y(shape, dtype);
    x.Upload(Values(x.numel(), kind == "nan" ? 1 : 4));
    infiniopSoftmaxDescriptor_t desc = nullptr;
    if (causal) {
      EXPECT_OK(infiniopCreateCausalSoftmaxDescriptor(handle_, &desc, y.desc(), x.desc()));
      EXPECT_OK(infiniopCausalSoftmax(desc, nullptr, 0, y.data(), x.data(), stream_));
      Sync();
      EXPECT_OK(infiniopDestroyCausalSoftmaxDescriptor(desc));
    } else if (kind == "log") {
      EXPECT_OK(infiniopCreateLogSoftmaxDescriptor(handle_, &desc, y.desc(), x.desc(), -1));
      EXPECT_OK(infiniopLogSoftmax(desc, nullptr, 0, y.data(), x.data(), stream_));
      Sync();
      EXPECT_OK(infiniopDestroyLogSoftmaxDescriptor(desc));
    } else {
      EXPECT_OK(infiniopCreateSoftmaxDescriptor(handle_, &desc, y.desc(), x.desc(), -1));
      EXPECT_OK(infiniopSoftmax(desc, nullptr, 0, y.data(), x.data(), stream_));
      Sync();
      EXPECT_OK(infiniopDestroySoftmaxDescriptor(desc));
    }
    return y.Download();
  }

  // The contiguous (vector) path of a softmax with y = x: the same values, computed in place.
  std::vector<double> RunSoftmaxInPlace(const std::string &kind, size_t rows, size_t n, infiniDtype_t dtype) {
    const bool causal = kind == "causal";
    Tensor x(causal ? std::vector<size_t>{2, rows, n} : std::vector<size_t>{rows, n}, dtype);
    x.Upload(Values(x.numel(), 4));
    infiniopSoftmaxDescriptor_t desc = nullptr;
    if (causal) {
      EXPECT_OK(infiniopCreateCausalSoftmaxDescriptor(handle_, &desc, x.desc(), x.desc()));
      EXPECT_OK(infiniopCausalSoftmax(desc, nullptr, 0, x.data(), x.data(), stream_));
      Sync();
      EXPECT_OK(infiniopDestroyCausalSoftmaxDescriptor(desc));
    } else if (kind == "log") {
      EXPECT_OK(infiniopCreateLogSoftmaxDescriptor(handle_, &desc, x.desc(), x.desc(), -1));
      EXPECT_OK(infiniopLogSoftmax(desc, nullptr, 0, x.data(), x.data(), stream_));
      Sync();
      EXPECT_OK(infiniopDestroyLogSoftmaxDescriptor(desc));
    } else {
      EXPECT_OK(infiniopCreateSoftmaxDescriptor(handle_, &desc, x.desc(), x.desc(), -1));
      EXPECT_OK(infiniopSoftmax(desc, nullptr, 0, x.data(), x.data(), stream_));
      Sync();
      EXPECT_OK(infiniopDestroySoftmaxDescriptor(desc));
    }
    return x.Download();
  }

  std::vector<double> RunRMSNorm(size_t rows, size_t n, infiniDtype_t dtype, infiniDtype_t weight_dtype,
                                 bool strided) {
    std::vector<ptrdiff_t> strides;
    if (strided) strides = {1, static_cast<ptrdiff_t>(rows)};
    Tensor x({rows, n}, dtype, strides), y({rows, n}, dtype), w({n}, weight_dtype);
    x.Upload(Values(rows * n, 4));
    w.Upload(Values(n, 5));
    infiniopRMSNormDescriptor_t desc = nullptr;
    EXPECT_OK(infiniopCreateRMSNormDescriptor(handle_, &desc, y.desc(), x.desc(), w.desc(), 1e-5f));
    EXPECT_OK(infiniopRMSNorm(desc, nullptr, 0, y.data(), x.data(), w.data(), stream_));
    Sync();
    EXPECT_OK(infiniopDestroyRMSNormDescriptor(desc));
    return y.Download();
  }
};

const infiniDtype_t kDtypes[] = {INFINI_DTYPE_F32, INFINI_DTYPE_F16};

std::string Name(const char *op, infiniDtype_t dtype, size_t n) {
  return std::string(op) + (dtype == INFINI_DTYPE_F16 ? " f16 n=" : " f32 n=") + std::to_string(n);
}

TEST_F(VectorPathTest, ActivationsAgreeWithThePortableLoop) {
  const std::pair<const char *, UnaryCall> ops[] = {
      {"relu", Unary(infiniopCreateReluDescriptor, infiniopRelu, infiniopDestroyReluDescriptor)},
      {"silu", Unary(infiniopCreateSiluDescriptor, infiniopSilu, infiniopDestroySiluDescriptor)},
      {"sigmoid", Unary(infiniopCreateSigmoidDescriptor, infiniopSigmoid, infiniopDestroySigmoidDescriptor)},
      {"gelu", Unary(infiniopCreateGeluDescriptor, infiniopGelu, infiniopDestroyGeluDescriptor)},
  };
  for (const auto &[name, call] : ops) {
    for (const infiniDtype_t dtype : kDtypes) {
      for (const size_t n : kLengths) {
        ExpectAgree(RunUnary(call, n, dtype, false), RunUnary(call, n, dtype, true), dtype, Name(name, dtype, n));
      }
    }
  }
}

// The value of F16 bits, decoded here so the check depends on no conversion under test.
double HalfValue(unsigned bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const double magnitude = exponent == 0    ? std::ldexp(bits & 0x3ff, -24)
                           : exponent == 31 ? ((bits & 0x3ff) ? std::nan("") : std::numeric_limits<double>::infinity())
                                            : std::ldexp((bits & 0x3ff) | 0x400, exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

// One F16 ulp at |value|: 2^-24 below the normal range, 2^(e - 10) in [2^e, 2^(e+1)).
double HalfUlp(double value) {
  const double magnitude = std::fabs(value);
  if (magnitude < std::ldexp(1.0, -14)) return std::ldexp(1.0, -24);
  return std::ldexp(1.0, std::ilogb(magnitude) - 10);
}

// The F16 activations have kernels of their own (F16-grade exp, a 14-bit reciprocal, Gelu's
// 32-piece tail fit): every one of the 65536 F16 inputs, contiguous (the vector path), must
// come out within one F16 ulp of the exact formula, Inf for Inf and NaN for NaN.
TEST_F(VectorPathTest, EveryF16InputOfTheActivationsWithinAnUlp) {
  const std::function<double(double)> sigmoid = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  const std::tuple<const char *, UnaryCall, std::function<double(double)>> ops[] = {
      {"sigmoid", Unary(infiniopCreateSigmoidDescriptor, infiniopSigmoid, infiniopDestroySigmoidDescriptor), sigmoid},
      {"silu", Unary(infiniopCreateSiluDescriptor, infiniopSilu, infiniopDestroySiluDescriptor),
       [&](double x) { return x * sigmoid(x); }},
      {"gelu", Unary(infiniopCreateGeluDescriptor, infiniopGelu, infiniopDestroyGeluDescriptor),
       [](double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }},
  };
  const size_t n = 65536;
  std::vector<double> inputs(n);
  for (size_t i = 0; i < n; ++i) inputs[i] = HalfValue(static_cast<unsigned>(i));
  for (const auto &[name, call, formula] : ops) {
    Tensor x({n}, INFINI_DTYPE_F16), y({n}, INFINI_DTYPE_F16);
    x.Upload(inputs);
    ASSERT_OK(call(handle_, y.desc(), x.desc(), y.data(), x.data(), stream_));
    Sync();
    const std::vector<double> got = y.Download();
    size_t wrong = 0;
    for (size_t i = 0; i < n && wrong < 10; ++i) {
      const double want = formula(inputs[i]);
      const bool ok = std::isnan(want)   ? std::isnan(got[i])
                      : std::isinf(want) ? got[i] == want
                                         : std::fabs(got[i] - want) <= HalfUlp(want);
      if (!ok) {
        ++wrong;
        ADD_FAILURE() << name << "(" << inputs[i] << ") = " << got[i] << ", want " << want;
      }
    }
  }
}

// Gelu F32's vector kernels (AVX-512: a 32-piece fit of the normal tail) against the
// double formula: every 2003rd float of [1e-30, 6] and its negation, the vector limit
// 5.65 and its neighbours, within 5 F32 ulps (AVX2's form measured 4.6 at worst, AVX-512's 2.6).
TEST_F(VectorPathTest, GeluF32WithinFiveUlpsOfTheFormula) {
  std::vector<double> inputs;
  uint32_t first = 0, last = 0;
  const float low = 1e-30f, high = 6.0f;
  std::memcpy(&first, &low, sizeof first);
  std::memcpy(&last, &high, sizeof last);
  for (uint32_t bits = first; bits <= last; bits += 2003) {
    float value = 0;
    std::memcpy(&value, &bits, sizeof value);
    inputs.push_back(value);
    inputs.push_back(-value);
  }
  for (const float edge : {5.65f, std::nextafter(5.65f, 0.0f), std::nextafter(5.65f, 6.0f)}) {
    inputs.push_back(edge);
    inputs.push_back(-edge);
  }
  const size_t n = inputs.size();
  Tensor x({n}, INFINI_DTYPE_F32), y({n}, INFINI_DTYPE_F32);
  x.Upload(inputs);
  ASSERT_OK(Unary(infiniopCreateGeluDescriptor, infiniopGelu, infiniopDestroyGeluDescriptor)(
      handle_, y.desc(), x.desc(), y.data(), x.data(), stream_));
  Sync();
  const std::vector<double> got = y.Download();
  size_t wrong = 0;
  for (size_t i = 0; i < n && wrong < 10; ++i) {
    const double want = 0.5 * inputs[i] * std::erfc(-inputs[i] / std::sqrt(2.0));
    const double ulp = std::ldexp(1.0, std::max(std::ilogb(want) - 23, -149));
    if (std::fabs(got[i] - want) > 5 * ulp) {
      ++wrong;
      ADD_FAILURE() << "gelu(" << inputs[i] << ") = " << got[i] << ", want " << want;
    }
  }
}

TEST_F(VectorPathTest, BinaryOperatorsAgreeWithThePortableLoop) {
  for (const infiniDtype_t dtype : kDtypes) {
    for (const size_t n : kLengths) {
      ExpectAgree(RunSwiGLU(n, dtype, false), RunSwiGLU(n, dtype, true), dtype, Name("swiglu", dtype, n));
      ExpectAgree(RunAdd(n, dtype, false), RunAdd(n, dtype, true), dtype, Name("add", dtype, n));
    }
  }
}

// Outputs of 8 MiB and more are written with streaming stores; this one also starts one
// element past an aligned address, so the aligned head and the tail are both taken.
TEST_F(VectorPathTest, LargeMisalignedOutputsStream) {
  for (const infiniDtype_t dtype : kDtypes) {
    const size_t n = (dtype == INFINI_DTYPE_F16 ? (size_t{4} << 20) : (size_t{2} << 20)) + 5;
    Tensor a({n}, dtype), b({n}, dtype, Layout(true)), whole({n + 1}, dtype), portable({n}, dtype);
    a.Upload(Values(n, 1));
    infiniopMulDescriptor_t fast = nullptr, slow = nullptr;
    ASSERT_OK(infiniopCreateMulDescriptor(handle_, &fast, portable.desc(), a.desc(), a.desc()));
    ASSERT_OK(infiniopCreateMulDescriptor(handle_, &slow, portable.desc(), a.desc(), b.desc()));
    // fast: a * a, contiguous, into whole[1..n]; slow: a * (a through a strided copy).
    b.Upload(Values(n, 1));
    char *shifted = static_cast<char *>(whole.data()) + (dtype == INFINI_DTYPE_F16 ? 2 : 4);
    ASSERT_OK(infiniopMul(fast, nullptr, 0, shifted, a.data(), a.data(), stream_));
    ASSERT_OK(infiniopMul(slow, nullptr, 0, portable.data(), a.data(), b.data(), stream_));
    Sync();
    std::vector<double> got = whole.Download();
    got.erase(got.begin());
    ExpectAgree(got, portable.Download(), dtype, Name("streamed mul", dtype, n));
    EXPECT_OK(infiniopDestroyMulDescriptor(fast));
    EXPECT_OK(infiniopDestroyMulDescriptor(slow));
  }
}

// In place (y = x): Gelu's lanes outside its vector range (here |x| > 5.65, Inf, NaN,
// about one in sixteen) take the scalar formula after their chunk is written, from inputs
// noted before the write.
TEST_F(VectorPathTest, InPlaceActivationsMatchOutOfPlace) {
  const std::pair<const char *, UnaryCall> ops[] = {
      {"silu", Unary(infiniopCreateSiluDescriptor, infiniopSilu, infiniopDestroySiluDescriptor)},
      {"gelu", Unary(infiniopCreateGeluDescriptor, infiniopGelu, infiniopDestroyGeluDescriptor)},
  };
  for (const auto &[name, call] : ops) {
    for (const infiniDtype_t dtype : kDtypes) {
      const size_t n = 2600;
      Tensor x({n}, dtype), y({n}, dtype);
      x.Upload(Values(n, 1));
      ASSERT_OK(call(handle_, y.desc(), x.desc(), y.data(), x.data(), stream_));
      ASSERT_OK(call(handle_, x.desc(), x.desc(), x.data(), x.data(), stream_));
      Sync();
      ExpectAgree(x.Download(), y.Download(), dtype, Name((std::string("in-place ") + name).c_str(), dtype, n));
    }
  }
}

TEST_F(VectorPathTest, SoftmaxesAgreeWithThePortableLoop) {
  for (const char *kind : {"softmax", "log", "causal", "nan"}) {
    for (const infiniDtype_t dtype : kDtypes) {
      for (const size_t n : {size_t{3}, size_t{9}, size_t{100}, size_t{1025}}) {
        const std::vector<double> fast = RunSoftmax(kind, 3, n, dtype, false);
        const std::vector<double> portable = RunSoftmax(kind, 3, n, dtype, true);
        // The vector form computes in F32 (F64 sums): log-softmax near 0 keeps an
        // absolute error of a few F32 ulps of its inputs' magnitude.
        if (std::string(kind) == "log" && dtype == INFINI_DTYPE_F32) {
          for (size_t i = 0; i < fast.size(); ++i) EXPECT_NEAR(fast[i], portable[i], 4e-6) << n << " at " << i;
        } else {
          ExpectAgree(fast, portable, dtype, Name(kind, dtype, n));
        }
      }
    }
  }
}

TEST_F(VectorPathTest, RMSNormAgreesWithThePortableLoop) {
  for (const infiniDtype_t dtype : kDtypes) {
    for (const infiniDtype_t weight : {dtype, INFINI_DTYPE_F32}) {
      for (const size_t n : {size_t{1}, size_t{9}, size_t{1025}}) {
        ExpectAgree(RunRMSNorm(3, n, dtype, weight, false), RunRMSNorm(3, n, dtype, weight, true), dtype,
                    Name("rms_norm", dtype, n));
      }
    }
  }
}

// Outputs of 8 MiB and more, with rows of odd length (partial blocks at both ends). Rows
// are independent and every size runs the same F32 arithmetic, so the first rows must
// equal those of a small tensor bit for bit, and so must the tensor computed in place
// (y = x; the causal form shares the softmax's row code). The small tests above compare
// the vector path with the portable loop; an 8 MiB strided portable run would take seconds.
TEST_F(VectorPathTest, LargeSoftmaxesMatchSmallAndRunInPlace) {
  for (const infiniDtype_t dtype : kDtypes) {
    const bool half = dtype == INFINI_DTYPE_F16;
    for (const std::string kind : {"softmax", "log", "causal"}) {
      const bool causal = kind == "causal";
      // rows x n, or 2 x rows x n with n >= rows for the causal form, of at least 8 MiB.
      const size_t n = causal ? (half ? 1537 : 1025) : 1025;
      const size_t rows = causal ? n : (half ? 4097 : 2049);
      const std::string what = Name(kind.c_str(), dtype, n) + " large";
      const std::vector<double> large = RunSoftmax(kind, rows, n, dtype, false);
      if (!causal) {
        EXPECT_TRUE(large == RunSoftmaxInPlace(kind, rows, n, dtype)) << what << " in place";
      }
      if (!causal) {
        const std::vector<double> small = RunSoftmax(kind, 16, n, dtype, false);
        EXPECT_TRUE(std::equal(small.begin(), small.end(), large.begin())) << what;
        continue;
      }
      // Causal: row i of each batch keeps columns j <= n - rows + i, which sum to 1.
      for (size_t r = 0; r < 2 * rows; ++r) {
        const size_t valid = n - rows + r % rows + 1;
        double sum = 0;
        for (size_t j = 0; j < n; ++j) {
          const double v = large[r * n + j];
          if (j < valid) {
            sum += v;
          } else {
            ASSERT_EQ(v, 0.0) << what << " row " << r << " column " << j;
          }
        }
        ASSERT_NEAR(sum, 1.0, half ? 2e-3 : 1e-5) << what << " row " << r;
      }
    }
  }
}

TEST_F(VectorPathTest, LargeRMSNormStreamsAndRunsInPlace) {
  for (const infiniDtype_t dtype : kDtypes) {
    const size_t rows = dtype == INFINI_DTYPE_F16 ? 4097 : 2049, n = 1025;
    const std::vector<double> small = RunRMSNorm(16, n, dtype, dtype, false);
    Tensor x({rows, n}, dtype), y({rows, n}, dtype), w({n}, dtype);
    x.Upload(Values(rows * n, 4));
    w.Upload(Values(n, 5));
    infiniopRMSNormDescriptor_t desc = nullptr;
    ASSERT_OK(infiniopCreateRMSNormDescriptor(handle_, &desc, y.desc(), x.desc(), w.desc(), 1e-5f));
    ASSERT_OK(infiniopRMSNorm(desc, nullptr, 0, y.data(), x.data(), w.data(), stream_));
    ASSERT_OK(infiniopRMSNorm(desc, nullptr, 0, x.data(), x.data(), w.data(), stream_));
    Sync();
    const std::vector<double> large = y.Download();
    EXPECT_TRUE(std::equal(small.begin(), small.end(), large.begin())) << Name("large rms_norm", dtype, n);
    EXPECT_TRUE(x.Download() == large) << Name("in-place rms_norm", dtype, n);
    EXPECT_OK(infiniopDestroyRMSNormDescriptor(desc));
  }
}

// A row-major copy with an output of 8 MiB and more streams its contiguous runs: into a
// dst one element past an aligned address (the head and the tail copied plainly), from
// rows padded apart (one run per row), and in place, where the runs coincide and must
// come out unchanged.
TEST_F(VectorPathTest, LargeContiguousCopiesStreamExactly) {
  for (const infiniDtype_t dtype : kDtypes) {
    const size_t element = dtype == INFINI_DTYPE_F16 ? 2 : 4;
    const size_t rows = 1030, columns = (size_t{8} << 20) / element / rows + 3;
    const ptrdiff_t padded = static_cast<ptrdiff_t>(columns) + 7;
    const std::vector<double> values = Values(rows * columns, 8);
    Tensor src({rows, columns}, dtype, {padded, 1}), dst({rows, columns}, dtype), whole({rows * columns + 1}, dtype);
    src.Upload(values);
    const std::vector<double> want = src.Download();  // the values as the dtype holds them
    infiniopRearrangeDescriptor_t from_padded = nullptr, contiguous = nullptr;
    ASSERT_OK(infiniopCreateRearrangeDescriptor(handle_, &from_padded, dst.desc(), src.desc()));
    ASSERT_OK(infiniopCreateRearrangeDescriptor(handle_, &contiguous, dst.desc(), dst.desc()));
    ASSERT_OK(infiniopRearrange(from_padded, dst.data(), src.data(), stream_));
    char *shifted = static_cast<char *>(whole.data()) + element;
    ASSERT_OK(infiniopRearrange(contiguous, shifted, dst.data(), stream_));
    Sync();
    EXPECT_TRUE(dst.Download() == want) << Name("padded rows to contiguous", dtype, rows * columns);
    std::vector<double> got = whole.Download();
    got.erase(got.begin());
    EXPECT_TRUE(got == want) << Name("contiguous to misaligned", dtype, rows * columns);
    ASSERT_OK(infiniopRearrange(contiguous, dst.data(), dst.data(), stream_));
    Sync();
    EXPECT_TRUE(dst.Download() == want) << Name("in place", dtype, rows * columns);
    EXPECT_OK(infiniopDestroyRearrangeDescriptor(from_padded));
    EXPECT_OK(infiniopDestroyRearrangeDescriptor(contiguous));
  }
}

// A transpose with an output of 8 MiB and more streams whole 128 x 128 tiles out a row at
// a time; these shapes leave partial tiles on both edges and rows that start off a
// 32-byte boundary (2100 x 4 and 4100 x 2 bytes apart). The copy must be exact.
TEST_F(VectorPathTest, LargeTransposeStreamsExactly) {
  for (const infiniDtype_t dtype : kDtypes) {
    const size_t rows = 1100, columns = dtype == INFINI_DTYPE_F16 ? 4100 : 2100;
    Tensor src({rows, columns}, dtype, {1, static_cast<ptrdiff_t>(rows)}), dst({rows, columns}, dtype);
    const std::vector<double> values = Values(rows * columns, 6);
    src.Upload(values);
    infiniopRearrangeDescriptor_t desc = nullptr;
    ASSERT_OK(infiniopCreateRearrangeDescriptor(handle_, &desc, dst.desc(), src.desc()));
    ASSERT_OK(infiniopRearrange(desc, dst.data(), src.data(), stream_));
    Sync();
    const std::vector<double> got = dst.Download();
    std::vector<double> want = src.Download();  // the values as the dtype holds them
    EXPECT_TRUE(got == want) << Name("large transpose", dtype, rows * columns);
    EXPECT_OK(infiniopDestroyRearrangeDescriptor(desc));
  }
}

// A large transpose whose dst rows start on 64-byte lines (padded row strides) takes the
// AVX-512 line transposes straight from src; ragged rows and columns (not multiples of
// the 16 x 16 or 16 x 32 blocks, nor of the tiles) and an outer dim test the edges; the
// last F16 tile's 100 columns fill one of its two skewed stripes and part of the other.
TEST_F(VectorPathTest, LargeLineAlignedTransposesExactly) {
  for (const infiniDtype_t dtype : kDtypes) {
    const bool half = dtype == INFINI_DTYPE_F16;
    const size_t columns = half ? 4196 : 2100;
    const ptrdiff_t padded = half ? 4224 : 2112;  // x 2 or x 4 bytes: a multiple of 64
    for (const size_t outer : {size_t{1}, size_t{3}}) {
      const size_t rows = outer == 1 ? 1100 : 700;
      const ptrdiff_t r = static_cast<ptrdiff_t>(rows), c = static_cast<ptrdiff_t>(columns);
      Tensor src({outer, rows, columns}, dtype, {r * c, 1, r}),
          dst({outer, rows, columns}, dtype, {r * padded, padded, 1});
      ASSERT_EQ(reinterpret_cast<uintptr_t>(dst.data()) % 64, 0u);
      src.Upload(Values(outer * rows * columns, 7));
      infiniopRearrangeDescriptor_t desc = nullptr;
      ASSERT_OK(infiniopCreateRearrangeDescriptor(handle_, &desc, dst.desc(), src.desc()));
      ASSERT_OK(infiniopRearrange(desc, dst.data(), src.data(), stream_));
      Sync();
      EXPECT_TRUE(dst.Download() == src.Download()) << Name("line-aligned transpose", dtype, outer * rows * columns);
      EXPECT_OK(infiniopDestroyRearrangeDescriptor(desc));
    }
  }
}

}  // namespace
}  // namespace infiniop_test
