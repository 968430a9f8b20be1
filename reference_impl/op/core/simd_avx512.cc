// The AVX-512 bodies of core/simd_avx512.h. CMake compiles this file alone with the
// AVX-512 F/BW/VL/DQ flags; like simd_avx2.cc it includes no header with inline functions
// of its own, so no AVX-512 copy of shared code can reach a CPU without AVX-512.
// The F32-grade arithmetic follows simd_avx2.cc (exp by range reduction and a polynomial,
// sums widened to F64 in the same order), 16 lanes wide, with fits of its own where
// AVX-512's permutes, reduce and scalef make a cheaper form exact enough (Gelu, exp);
// F16-grade kernels (results rounded to F16 next) are this file's own. Partial vectors use
// masked loads and stores.
#include "core/simd_avx512.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__AVX512DQ__) && \
    defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>

namespace infinicts::ref::op::simd::avx512 {
namespace {

constexpr size_t kLanes = 16;

inline __mmask16 FirstLanes(size_t count) {
  return count >= kLanes ? __mmask16(0xffff) : static_cast<__mmask16>((1u << count) - 1u);
}

// exp(x): x = n ln2 + r, |r| <= ln2 / 2, exp(r) by a degree-6 fit (mpmath.chebyfit,
// relative error 2.8e-9: as good as simd_avx2.cc's Taylor series to r^7 at one step
// fewer), then scalef multiplies by 2^n with one rounding (also into the subnormal range). The clamp
// to [-104, 89] makes exp(-104) round to 0 and exp(89) overflow to Inf; max_ps and
// min_ps answer their second operand for a NaN, which keeps it NaN.
inline __m512 Exp16(__m512 x) {
  const __m512 clamped = _mm512_min_ps(_mm512_set1_ps(89.0f), _mm512_max_ps(_mm512_set1_ps(-104.0f), x));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(clamped, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), clamped);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.3941108434e-03f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3751263982e-03f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1666352897e-02f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666415515e-01f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000000471e-01f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0000000377e+00f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, n);
}

// 2^y for results that are rounded to F16 next: y = floor(y) + f with f from one reduce,
// 2^f by a degree-4 fit on [0, 1) (mpmath.chebyfit, relative error below 4e-6: 0.008 of an
// F16 ulp), and scalef, which multiplies by 2^floor(y) itself. No clamp: reduce answers 0
// for +-Inf and scalef saturates to Inf or 0, so exp(+-Inf) and out-of-range inputs come out
// right, and a NaN stays NaN. Seven operations against Exp16's twelve.
inline __m512 Exp2ForHalf(__m512 y) {
  const __m512 f = _mm512_reduce_ps(y, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  __m512 p = _mm512_set1_ps(1.3670309453e-02f);
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(5.1744997764e-02f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.4160435727e-01f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.9297292217e-01f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.0000034929e+00f));
  return _mm512_scalef_ps(p, y);
}

constexpr float kLog2E = 1.44269504088896341f;

// exp(x) = 2^(x log2 e) for F16 results: the product's rounding costs |x| 2^-24 relative,
// below 2e-6 wherever the result is a normal F16.
inline __m512 Exp16ForHalf(__m512 x) { return Exp2ForHalf(_mm512_mul_ps(x, _mm512_set1_ps(kLog2E))); }

template <bool ForHalf>
inline __m512 ExpFor(__m512 x) {
  if constexpr (ForHalf) return Exp16ForHalf(x);
  return Exp16(x);
}

inline __m512 Negate(__m512 x) { return _mm512_sub_ps(_mm512_setzero_ps(), x); }

// 1 / (1 + exp(-x)) and x / (1 + exp(-x)). ForHalf: F16-grade exp and a 14-bit reciprocal
// (relative error 2^-14, 0.06 of an F16 ulp) instead of a division, whose rate bounds
// these kernels.
template <bool ForHalf>
inline __m512 Sigmoid16(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.0f);
  if constexpr (ForHalf) {
    return _mm512_rcp14_ps(_mm512_add_ps(one, Exp2ForHalf(_mm512_mul_ps(x, _mm512_set1_ps(-kLog2E)))));
  }
  return _mm512_div_ps(one, _mm512_add_ps(one, Exp16(Negate(x))));
}

template <bool ForHalf>
inline __m512 Silu16(__m512 x) {
  if constexpr (ForHalf) return _mm512_mul_ps(x, Sigmoid16<true>(x));
  return _mm512_div_ps(x, _mm512_add_ps(_mm512_set1_ps(1.0f), Exp16(Negate(x))));
}

// Gelu's vector forms hold where |x| <= 5.65; the other lanes (and NaNs) take the scalar
// formula (MapGelu).
constexpr float kGeluVectorLimit = 5.65f;

inline float GeluScalar(float x) {
  const double wide = x;
  return static_cast<float>(0.5 * wide * std::erfc(wide * -0.70710678118654752440));
}

inline __mmask16 OutsideGeluVector(__m512 x) {
  return _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(kGeluVectorLimit), _CMP_NLE_UQ);
}

// Phi(-|x|), the normal distribution's tail, on 32 pieces for F32 results: k = round(|x| c)
// with c = kTailScaleF32 (31.4 / 5.65 rounded to F32: k <= 31 up to the vector limit 5.65)
// and v = |x| c - k in [-1/2, 1/2] (k = 0: [0, 1/2]); kNormalTailPiecesF32[d][k] is the
// coefficient of v^(6-d) (mpmath.chebyfit of Phi(-(k + v) / c) / Phi(-k / c) with c the F32
// value itself, so that c's own rounding costs nothing; times Phi(-k / c); relative error
// below 1.6e-8).
constexpr float kTailScaleF32 = 5.557522297e+00f;
constexpr float kNormalTailPiecesF32[7][32] = {
    {1.265384943e-08f, 4.878243608e-08f, 8.689400857e-08f, 1.066333311e-07f, 1.052385699e-07f, 8.525209240e-08f,
     5.328360994e-08f, 1.773775399e-08f, -1.363744507e-08f, -3.558947067e-08f, -4.613860257e-08f, -4.628449671e-08f,
     -3.898313713e-08f, -2.788410930e-08f, -1.626045919e-08f, -6.376121200e-09f, 6.756926302e-10f, 4.783115808e-09f,
     6.456512943e-09f, 6.461919615e-09f, 5.546830371e-09f, 4.290221460e-09f, 3.059965508e-09f, 2.038730717e-09f,
     1.279079185e-09f, 7.597506848e-10f, 4.288876189e-10f, 2.307524636e-10f, 1.185831716e-10f, 5.830637124e-11f,
     2.746770364e-11f, 1.241170179e-11f},
    {-1.889926822e-06f, -1.728995954e-06f, -1.314554360e-06f, -7.239161600e-07f, -7.823594446e-08f, 5.009132705e-07f,
     9.203344009e-07f, 1.133097279e-06f, 1.141827742e-06f, 9.888071675e-07f, 7.381129452e-07f, 4.564026474e-07f,
     1.978689486e-07f, -3.708743205e-09f, -1.357432004e-07f, -2.024450255e-07f, -2.180743857e-07f, -2.003573611e-07f,
     -1.656367031e-07f, -1.262651106e-07f, -8.995177572e-08f, -6.038280462e-08f, -3.840351021e-08f, -2.323031409e-08f,
     -1.340278263e-08f, -7.391380442e-09f, -3.902813829e-09f, -1.975770119e-09f, -9.600142779e-10f, -4.481218535e-10f,
     -2.011049562e-10f, -8.682380073e-11f},
    {2.959418647e-09f, -9.155253507e-06f, -1.687159756e-05f, -2.202338948e-05f, -2.402475225e-05f, -2.291160469e-05f,
     -1.926826794e-05f, -1.403443551e-05f, -8.258692016e-06f, -2.870296189e-06f, 1.476634074e-06f, 4.463224066e-06f,
     6.078235056e-06f, 6.532301704e-06f, 6.150899952e-06f, 5.277591967e-06f, 4.206457734e-06f, 3.148845692e-06f,
     2.229182179e-06f, 1.499439359e-06f, 9.614913873e-07f, 5.892020000e-07f, 3.457025234e-07f, 1.944918167e-07f,
     1.050446786e-07f, 5.451795350e-08f, 2.721100843e-08f, 1.307014299e-08f, 6.044962316e-09f, 2.693370301e-09f,
     1.156566872e-09f, 4.788253241e-10f},
    {3.873598409e-04f, 3.687994952e-04f, 3.160509692e-04f, 2.372710524e-04f, 1.440930853e-04f, 4.925088973e-05f,
     -3.580999291e-05f, -1.027698373e-04f, -1.473686732e-04f, -1.693686702e-04f, -1.717351325e-04f, -1.593834508e-04f,
     -1.378681381e-04f, -1.123105645e-04f, -8.672432468e-05f, -6.375683761e-05f, -4.476350100e-05f, -3.008316160e-05f,
     -1.938552573e-05f, -1.199424151e-05f, -7.133060295e-06f, -4.080986848e-06f, -2.247770570e-06f, -1.192602756e-06f,
     -6.098395707e-07f, -3.006753898e-07f, -1.429891231e-07f, -6.560998099e-08f, -2.905493333e-08f, -1.242108248e-08f,
     -5.127229138e-09f, -2.043964456e-09f},
    {4.312588484e-11f, 1.143420138e-03f, 2.178432245e-03f, 3.013577444e-03f, 3.587624243e-03f, 3.876516494e-03f,
     3.893017640e-03f, 3.679895338e-03f, 3.298895327e-03f, 2.818389396e-03f, 2.302381257e-03f, 1.802716762e-03f,
     1.355228245e-03f, 9.795119840e-04f, 6.813471701e-04f, 4.565039244e-04f, 2.947982429e-04f, 1.835880028e-04f,
     1.103054994e-04f, 6.396558289e-05f, 3.581209050e-05f, 1.936264600e-05f, 1.011236277e-05f, 5.102478251e-06f,
     2.487864656e-06f, 1.172347917e-06f, 5.339857540e-07f, 2.351249515e-07f, 1.000945508e-07f, 4.120089658e-08f,
     1.639928850e-08f, 6.312470252e-09f},
    {-7.178419790e-02f, -7.063147246e-02f, -6.728317616e-02f, -6.205167728e-02f, -5.540377821e-02f, -4.789211924e-02f,
     -4.007998447e-02f, -3.247355613e-02f, -2.547246487e-02f, -1.934420607e-02f, -1.422229440e-02f, -1.012341952e-02f,
     -6.976275476e-03f, -4.654347707e-03f, -3.006303647e-03f, -1.879947318e-03f, -1.138144308e-03f, -6.670951742e-04f,
     -3.785446246e-04f, -2.079625742e-04f, -1.106094167e-04f, -5.695578427e-05f, -2.839372603e-05f, -1.370394969e-05f,
     -6.403360328e-06f, -2.896736180e-06f, -1.268670274e-06f, -5.379320279e-07f, -2.208232814e-07f, -8.776091336e-08f,
     -3.376729165e-08f, -1.257853732e-08f},
    {5.000000000e-01f, 4.286012884e-01f, 3.594712040e-01f, 2.946644142e-01f, 2.358409453e-01f, 1.841448855e-01f,
     1.401562056e-01f, 1.039151311e-01f, 7.500581384e-02f, 5.267774283e-02f, 3.598063910e-02f, 2.389115911e-02f,
     1.541594668e-02f, 9.663269332e-03f, 5.882624796e-03f, 3.476943839e-03f, 1.994813099e-03f, 1.110693046e-03f,
     6.000562019e-04f, 3.145015977e-04f, 1.598899418e-04f, 7.883653629e-05f, 3.769540809e-05f, 1.747653523e-05f,
     7.855685833e-06f, 3.423218592e-06f, 1.446006740e-06f, 5.920490893e-07f, 2.349449998e-07f, 9.035822389e-08f,
     3.367722709e-08f, 1.216321375e-08f},
};

// gelu(x) = x Phi(x) where |x| <= 5.65 from a table of 32 tail pieces (kNormalTailPiecesF32
// or the F16 one): Q = Phi(-|x|) from its piece's polynomial (one two-table permute per
// coefficient), x Q for x < 0 (no cancellation where the result is small), x - x Q
// otherwise. v comes from one FMA of |x| itself (exact but for one rounding), so no hi/lo
// split of x / sqrt(2) is needed, and the piece index from the bits of |x| c + 1.5 * 2^23
// (the addition rounds to the nearest integer; permutes read the low 5 bits).
template <size_t Coefficients>
inline __m512 GeluFromTailPieces(__m512 x, const float (&pieces)[Coefficients][32], float scale) {
  const __m512 magnitude = _mm512_abs_ps(x);
  const __m512 c = _mm512_set1_ps(scale), round_to_integer = _mm512_set1_ps(12582912.0f);
  const __m512 rounded = _mm512_fmadd_ps(magnitude, c, round_to_integer);
  const __m512 v = _mm512_fmsub_ps(magnitude, c, _mm512_sub_ps(rounded, round_to_integer));
  const __m512i piece = _mm512_castps_si512(rounded);
  auto coefficient = [&](size_t d) {
    return _mm512_permutex2var_ps(_mm512_loadu_ps(pieces[d]), piece, _mm512_loadu_ps(pieces[d] + 16));
  };
  __m512 tail = coefficient(0);
  for (size_t d = 1; d < Coefficients; ++d) tail = _mm512_fmadd_ps(tail, v, coefficient(d));
  // max(x, 0) - |x| Q: x Q for x < 0, x - x Q otherwise, rounded once (no mask operations).
  return _mm512_fnmadd_ps(magnitude, tail, _mm512_max_ps(x, _mm512_setzero_ps()));
}

// At most 2.6 ulps from the double formula (every 5th float of [1e-30, 5.7] and its
// negation checked).
inline __m512 Gelu16(__m512 x) { return GeluFromTailPieces(x, kNormalTailPiecesF32, kTailScaleF32); }

// Phi(-|x|), the normal distribution's tail, on the 32 pieces k of |x| in [0, 5.66], for
// results rounded to F16: k = round(|x| c), c = 7.75 / sqrt(2) rounded to F32, v = |x| c - k
// in [-1/2, 1/2] (k = 0: [0, 1/2]); kNormalTailPiecesF16[d][k] is the coefficient of
// v^(3-d) (mpmath.chebyfit of Phi(-(k + v) / c) / Phi(-k / c), times Phi(-k / c)). Relative
// error below 1.1e-4 (0.1 of an F16 ulp) up to |x| = 4.2, where gelu(-|x|) = -|x| Q leaves
// F16's normal range; past that it grows to 3.3e-4 of results below 2^-14, a small part of
// their ulp (2^-24). 45 of the 63488 finite F16 inputs round to the neighbour of the
// correctly rounded result (Silu and Sigmoid F16: about 900); degree 4 rounded all correctly
// but ran slower (bench/README.md, "Kernel choices").
constexpr float kTailScaleF16 = 5.4800775542f;
constexpr float kNormalTailPiecesF16[4][32] = {
    {4.026305011e-04f, 3.836512052e-04f, 3.272915978e-04f, 2.433775692e-04f, 1.446093065e-04f, 4.478510304e-05f,
     -4.384221908e-05f, -1.125582676e-04f, -1.571451462e-04f, -1.777511115e-04f, -1.779103375e-04f,
     -1.631197641e-04f, -1.393979200e-04f, -1.121469488e-04f, -8.547568853e-05f, -6.198332719e-05f,
     -4.289437653e-05f, -2.839164222e-05f, -1.800466131e-05f, -1.095370762e-05f, -6.399992671e-06f,
     -3.594293739e-06f, -1.941651185e-06f, -1.009506963e-06f, -5.054110864e-07f, -2.437600187e-07f,
     -1.132978153e-07f, -5.076447376e-08f, -2.193299764e-08f, -9.139905661e-09f, -3.674384809e-09f, -1.782817671e-09f},
    {5.667095366e-07f, 1.189585191e-03f, 2.263411425e-03f, 3.124290151e-03f, 3.708047845e-03f, 3.990884950e-03f,
     3.988622631e-03f, 3.748874123e-03f, 3.338739568e-03f, 2.831283893e-03f, 2.293759428e-03f, 1.779533252e-03f,
     1.324398906e-03f, 9.468117623e-04f, 6.508630577e-04f, 4.305788544e-04f, 2.743088505e-04f, 1.683781335e-04f,
     9.962876039e-05f, 5.684598287e-05f, 3.128733859e-05f, 1.661532508e-05f, 8.515724599e-06f, 4.213030290e-06f,
     2.012353286e-06f, 9.281488611e-07f, 4.134223959e-07f, 1.778630769e-07f, 7.391622751e-08f, 2.967548345e-08f,
     1.151058502e-08f, 4.114801768e-09f},
    {-7.279871540e-02f, -7.159662483e-02f, -6.810836286e-02f, -6.266815743e-02f, -5.577402684e-02f,
     -4.801264867e-02f, -3.997770996e-02f, -3.219724709e-02f, -2.508176776e-02f, -1.889888195e-02f,
     -1.377376418e-02f, -9.709742822e-03f, -6.620661063e-03f, -4.366500538e-03f, -2.785506685e-03f,
     -1.718752746e-03f, -1.025796247e-03f, -5.921712168e-04f, -3.306526110e-04f, -1.785809291e-04f,
     -9.329033300e-05f, -4.713859520e-05f, -2.303854449e-05f, -1.089110217e-05f, -4.979973126e-06f,
     -2.202523338e-06f, -9.422201128e-07f, -3.898724369e-07f, -1.560382182e-07f, -6.040566876e-08f,
     -2.261844015e-08f, -8.202188101e-09f},
    {5.000000010e-01f, 4.276034292e-01f, 3.575713981e-01f, 2.920392858e-01f, 2.327207649e-01f, 1.807803835e-01f,
     1.367858621e-01f, 1.007387349e-01f, 7.216800947e-02f, 5.026265101e-02f, 3.401622339e-02f, 2.236037905e-02f,
     1.427113655e-02f, 8.840507544e-03f, 5.313791642e-03f, 3.098306875e-03f, 1.751997431e-03f, 9.605925564e-04f,
     5.105743158e-04f, 2.630379912e-04f, 1.313260865e-04f, 6.353255886e-05f, 2.977831558e-05f, 1.352113301e-05f,
     5.946898170e-06f, 2.533329584e-06f, 1.045152269e-06f, 4.175612846e-07f, 1.615409487e-07f, 6.051155362e-08f,
     2.194628773e-08f, 7.708614499e-09f},
};

// Gelu16 for results that are rounded to F16 next: degree-3 pieces; every F16 input is
// within an ulp of the exact result (tests/reference_op's exhaustive F16 check).
inline __m512 Gelu16ForHalf(__m512 x) { return GeluFromTailPieces(x, kNormalTailPiecesF16, kTailScaleF16); }

// Loads and stores of 16 lanes of F32 or of F16 (converted, rounding to nearest even).
struct F32Lanes {
  using Bits = float;
  static constexpr bool kForHalf = false;  // results stay F32: F32-grade kernels
  static __m512 Load(const float *p) { return _mm512_loadu_ps(p); }
  static __m512 LoadPart(const float *p, __mmask16 m) { return _mm512_maskz_loadu_ps(m, p); }
  static void Store(float *p, __m512 v, bool streaming) {
    if (streaming) {
      _mm512_stream_ps(p, v);
    } else {
      _mm512_storeu_ps(p, v);
    }
  }
  static void StorePart(float *p, __m512 v, __mmask16 m) { _mm512_mask_storeu_ps(p, m, v); }
  static void StorePair(float *p, __m512 a, __m512 b, bool streaming) {
    Store(p, a, streaming);
    Store(p + kLanes, b, streaming);
  }
};

struct F16Lanes {
  using Bits = uint16_t;
  static constexpr bool kForHalf = true;  // results are rounded to F16: F16-grade kernels
  static __m512 Load(const uint16_t *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
  }
  static __m512 LoadPart(const uint16_t *p, __mmask16 m) { return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p)); }
  static __m256i Round(__m512 v) { return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  static void Store(uint16_t *p, __m512 v, bool streaming) {
    if (streaming) {
      _mm256_stream_si256(reinterpret_cast<__m256i *>(p), Round(v));
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), Round(v));
    }
  }
  static void StorePart(uint16_t *p, __m512 v, __mmask16 m) { _mm256_mask_storeu_epi16(p, m, Round(v)); }
  // Two vectors as one 64-byte line: half-line streaming stores cost an F16 activation
  // about a third of its rate (bench/README.md, "Kernel choices").
  static void StorePair(uint16_t *p, __m512 a, __m512 b, bool streaming) {
    const __m512i line = _mm512_inserti64x4(_mm512_castsi256_si512(Round(a)), Round(b), 1);
    if (streaming) {
      _mm512_stream_si512(reinterpret_cast<__m512i *>(p), line);
    } else {
      _mm512_storeu_si512(p, line);
    }
  }
};

// 16 lanes from x + i, or for a partial block the lanes of m (the others 0).
template <class In>
inline __m512 LoadLanes(const typename In::Bits *x, size_t i, __mmask16 m) {
  return m == 0xffff ? In::Load(x + i) : In::LoadPart(x + i, m);
}

inline __m512 LoadF32(const float *x, size_t i, __mmask16 m) { return LoadLanes<F32Lanes>(x, i, m); }

// y[i] = block(i, mask) for 16 lanes at a time; mask selects the lanes of a partial
// block (loads under it are padded with zeros). Streaming stores need the output aligned
// to 64 bytes (whole lines): partial head blocks reach it first.
template <class Out, class Block>
void StoreBlocks(typename Out::Bits *y, size_t n, bool streaming, Block block) {
  using Bits = typename Out::Bits;
  const uintptr_t address = reinterpret_cast<uintptr_t>(y);
  if (address % sizeof(Bits) != 0) streaming = false;  // cannot be aligned: plain stores
  size_t i = 0;
  if (streaming) {
    constexpr size_t kLineBytes = 64;
    const size_t misaligned = (address % kLineBytes) / sizeof(Bits);
    const size_t head = misaligned == 0 ? 0 : std::min(n, kLineBytes / sizeof(Bits) - misaligned);
    for (; i < head; i += kLanes) {  // F16 heads reach 31 elements: two partial blocks
      const __mmask16 m = FirstLanes(head - i);
      Out::StorePart(y + i, block(i, m), m);
    }
    i = head;
  }
  // Four vectors a step: their independent chains interleave in the schedulers, which the
  // long exp and erf dependency chains need to keep the FMA pipes busy. (Eight ran faster
  // in cache but slower on outputs beyond it: bench/README.md, "Kernel choices".)
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    const __m512 a = block(i, __mmask16(0xffff)), b = block(i + kLanes, __mmask16(0xffff));
    const __m512 c = block(i + 2 * kLanes, __mmask16(0xffff)), d = block(i + 3 * kLanes, __mmask16(0xffff));
    Out::StorePair(y + i, a, b, streaming);
    Out::StorePair(y + i + 2 * kLanes, c, d, streaming);
  }
  for (; i + kLanes <= n; i += kLanes) Out::Store(y + i, block(i, __mmask16(0xffff)), streaming);
  if (i < n) Out::StorePart(y + i, block(i, FirstLanes(n - i)), FirstLanes(n - i));
  if (streaming) _mm_sfence();
}

template <class Lanes, size_t NumIn, class Kernel>
void MapTyped(const void *const *in, void *out, size_t n, bool streaming, Kernel kernel) {
  using Bits = typename Lanes::Bits;
  const Bits *x[NumIn];
  for (size_t k = 0; k < NumIn; ++k) x[k] = static_cast<const Bits *>(in[k]);
  StoreBlocks<Lanes>(static_cast<Bits *>(out), n, streaming, [&](size_t i, __mmask16 m) {
    __m512 v[NumIn];
    for (size_t k = 0; k < NumIn; ++k) v[k] = LoadLanes<Lanes>(x[k], i, m);
    return kernel(v);
  });
}

// Gelu in chunks: the vector form for every lane, the inputs of the lanes outside its range
// noted on the way, then the scalar formula for those. The scalar path (a call to erfc)
// stays out of the vector loop: a call there clobbers every vector register, which put
// the coefficient tables on the stack, reloaded per block (in cache, per core: F32 0.31
// ns per element that way against 0.17 out of the loop, F16 0.25 against 0.16 before its
// degree-3 pieces).
template <class Lanes, class Vector>
void MapGelu(const void *in, void *out, size_t n, bool streaming, Vector vector) {
  using Bits = typename Lanes::Bits;
  const Bits *x = static_cast<const Bits *>(in);
  Bits *y = static_cast<Bits *>(out);
  constexpr size_t kChunk = 1024;
  float outside_inputs[kChunk];
  uint32_t outside_at[kChunk];
  for (size_t start = 0; start < n; start += kChunk) {
    const size_t length = std::min(kChunk, n - start);
    size_t outside = 0;
    StoreBlocks<Lanes>(y + start, length, streaming, [&](size_t i, __mmask16 m) {
      const __m512 v = LoadLanes<Lanes>(x + start, i, m);
      const __mmask16 far = OutsideGeluVector(v) & m;
      if (far != 0) {  // rare: noted before the store (y may be x)
        alignas(64) float lanes[kLanes];
        _mm512_store_ps(lanes, v);
        for (uint32_t k = 0; k < kLanes; ++k) {
          if ((far >> k) & 1u) {
            outside_inputs[outside] = lanes[k];
            outside_at[outside++] = static_cast<uint32_t>(i) + k;
          }
        }
      }
      return vector(v);
    });
    for (size_t k = 0; k < outside; ++k) {
      Lanes::StorePart(y + start + outside_at[k], _mm512_set1_ps(GeluScalar(outside_inputs[k])), __mmask16(1));
    }
  }
}

template <class Lanes>
void MapAny(MapOp op, const void *const *in, void *out, size_t n, bool streaming) {
  constexpr bool kForHalf = Lanes::kForHalf;
  switch (op) {
    case MapOp::kAdd:
      return MapTyped<Lanes, 2>(in, out, n, streaming, [](const __m512 *v) { return _mm512_add_ps(v[0], v[1]); });
    case MapOp::kSub:
      return MapTyped<Lanes, 2>(in, out, n, streaming, [](const __m512 *v) { return _mm512_sub_ps(v[0], v[1]); });
    case MapOp::kMul:
      return MapTyped<Lanes, 2>(in, out, n, streaming, [](const __m512 *v) { return _mm512_mul_ps(v[0], v[1]); });
    case MapOp::kSwiGLU:
      return MapTyped<Lanes, 2>(in, out, n, streaming,
                                [](const __m512 *v) { return _mm512_mul_ps(v[0], Silu16<kForHalf>(v[1])); });
    case MapOp::kRelu:  // x where x > 0 or NaN, else +0 (so -0 gives +0)
      return MapTyped<Lanes, 1>(in, out, n, streaming, [](const __m512 *v) {
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v[0], _mm512_setzero_ps(), _CMP_NLE_UQ), v[0]);
      });
    case MapOp::kSilu:
      return MapTyped<Lanes, 1>(in, out, n, streaming, [](const __m512 *v) { return Silu16<kForHalf>(v[0]); });
    case MapOp::kGelu:
      if constexpr (kForHalf) return MapGelu<Lanes>(in[0], out, n, streaming, [](__m512 v) { return Gelu16ForHalf(v); });
      return MapGelu<Lanes>(in[0], out, n, streaming, [](__m512 v) { return Gelu16(v); });
    case MapOp::kSigmoid:
      return MapTyped<Lanes, 1>(in, out, n, streaming, [](const __m512 *v) { return Sigmoid16<kForHalf>(v[0]); });
  }
}

// Adds v's lanes, widened to F64, to the sums of its low and high halves.
inline void AddWidened(__m512 v, __m512d *low, __m512d *high) {
  *low = _mm512_add_pd(*low, _mm512_cvtps_pd(_mm512_castps512_ps256(v)));
  *high = _mm512_add_pd(*high, _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1)));
}

// Sum of the 16 lanes' squares, widened to F64 before squaring.
inline void AddSquares(__m512 v, __m512d *low, __m512d *high) {
  const __m512d a = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
  const __m512d b = _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1));
  *low = _mm512_fmadd_pd(a, a, *low);
  *high = _mm512_fmadd_pd(b, b, *high);
}

template <class Out>
void ScaleIntoAny(const float *x, float factor, typename Out::Bits *y, size_t n, bool streaming) {
  const __m512 f = _mm512_set1_ps(factor);
  StoreBlocks<Out>(y, n, streaming, [&](size_t i, __mmask16 m) { return _mm512_mul_ps(LoadF32(x, i, m), f); });
}

template <class Out>
void SubtractTwiceIntoAny(const float *x, float first, float second, typename Out::Bits *y, size_t n,
                          bool streaming) {
  const __m512 a = _mm512_set1_ps(first), b = _mm512_set1_ps(second);
  StoreBlocks<Out>(y, n, streaming,
                   [&](size_t i, __mmask16 m) { return _mm512_sub_ps(_mm512_sub_ps(LoadF32(x, i, m), a), b); });
}

template <class In, class Out>
void ScaleTimesIntoAny(const typename In::Bits *x, float factor, const float *w, typename Out::Bits *y, size_t n,
                       bool streaming, const void *prefetch, size_t prefetch_bytes) {
  const __m512 f = _mm512_set1_ps(factor);
  const char *ahead = static_cast<const char *>(prefetch);
  size_t fetched = prefetch == nullptr ? prefetch_bytes : 0;
  StoreBlocks<Out>(y, n, streaming, [&](size_t i, __mmask16 m) {
    if (fetched < prefetch_bytes) {  // a line per 16 elements
      _mm_prefetch(ahead + fetched, _MM_HINT_T0);
      fetched += 64;
    }
    return _mm512_mul_ps(_mm512_mul_ps(LoadLanes<In>(x, i, m), f), LoadF32(w, i, m));
  });
}

// Lane reductions by halving (GCC's _mm512_reduce_* helpers trip -Wmaybe-uninitialized).
inline float MaxOfLanes(__m512 v) {
  __m256 m = _mm256_max_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1));
  __m128 q = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
  q = _mm_max_ps(q, _mm_movehl_ps(q, q));
  q = _mm_max_ss(q, _mm_movehdup_ps(q));
  return _mm_cvtss_f32(q);
}

inline double SumOfLanes(__m512d v) {
  const __m256d h = _mm256_add_pd(_mm512_castpd512_pd256(v), _mm512_extractf64x4_pd(v, 1));
  const __m128d q = _mm_add_pd(_mm256_castpd256_pd128(h), _mm256_extractf128_pd(h, 1));
  return _mm_cvtsd_f64(_mm_add_sd(q, _mm_unpackhi_pd(q, q)));
}

bool ReadSupported() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
}

}  // namespace

bool Supported() {
  static const bool supported = ReadSupported();
  return supported;
}

void Map(MapOp op, bool half, const void *const *in, void *out, size_t n, bool streaming) {
  if (half) {
    MapAny<F16Lanes>(op, in, out, n, streaming);
  } else {
    MapAny<F32Lanes>(op, in, out, n, streaming);
  }
}

float RowMax(const float *x, size_t n) {
  // max_ps answers its second operand when either is NaN: a NaN x leaves the maximum.
  __m512 best = _mm512_set1_ps(-__builtin_inff()), other = best;
  size_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    best = _mm512_max_ps(_mm512_loadu_ps(x + i), best);
    other = _mm512_max_ps(_mm512_loadu_ps(x + i + kLanes), other);
  }
  if (i < n) {  // masked-off lanes load -Inf
    const __mmask16 m = FirstLanes(n - i);
    best = _mm512_max_ps(_mm512_mask_loadu_ps(_mm512_set1_ps(-__builtin_inff()), m, x + i), best);
    i += kLanes;
  }
  if (i < n) {
    const __mmask16 m = FirstLanes(n - i);
    other = _mm512_max_ps(_mm512_mask_loadu_ps(_mm512_set1_ps(-__builtin_inff()), m, x + i), other);
  }
  return MaxOfLanes(_mm512_max_ps(other, best));
}

namespace {

template <bool ForHalf>
double ExpShiftedSumTyped(const float *x, float shift, float *y, size_t n, const void *prefetch,
                          size_t prefetch_bytes) {
  const __m512 s = _mm512_set1_ps(shift);
  __m512d low = _mm512_setzero_pd(), high = _mm512_setzero_pd();
  const char *ahead = static_cast<const char *>(prefetch);
  size_t fetched = prefetch == nullptr ? prefetch_bytes : 0;
  size_t i = 0;
  // Four vectors a step, summed in F32 as (e + f) + (g + h) before the widening (two
  // roundings, at most an ulp of the group's sum), as simd_avx2.cc does. For F16 results
  // the groups of 8 steps (32 terms a lane, relative error below 2e-6) are summed in F32
  // first: the widening adds were an eighth of this loop's time (bench/README.md,
  // "Kernel choices").
  constexpr int kStepsPerWidening = 8;
  __m512 pending = _mm512_setzero_ps();
  int pending_steps = 0;
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    if (fetched < prefetch_bytes) {  // four lines per 64 elements: as fast as this row's own
      for (size_t line = 0; line < 4; ++line) _mm_prefetch(ahead + fetched + 64 * line, _MM_HINT_T0);
      fetched += 256;
    }
    const __m512 e = ExpFor<ForHalf>(_mm512_sub_ps(_mm512_loadu_ps(x + i), s));
    const __m512 f = ExpFor<ForHalf>(_mm512_sub_ps(_mm512_loadu_ps(x + i + kLanes), s));
    const __m512 g = ExpFor<ForHalf>(_mm512_sub_ps(_mm512_loadu_ps(x + i + 2 * kLanes), s));
    const __m512 h = ExpFor<ForHalf>(_mm512_sub_ps(_mm512_loadu_ps(x + i + 3 * kLanes), s));
    const __m512 group = _mm512_add_ps(_mm512_add_ps(e, f), _mm512_add_ps(g, h));
    if constexpr (ForHalf) {
      pending = _mm512_add_ps(pending, group);
      if (++pending_steps == kStepsPerWidening) {
        AddWidened(pending, &low, &high);
        pending = _mm512_setzero_ps();
        pending_steps = 0;
      }
    } else {
      AddWidened(group, &low, &high);
    }
    if (y != nullptr) {
      _mm512_storeu_ps(y + i, e);
      _mm512_storeu_ps(y + i + kLanes, f);
      _mm512_storeu_ps(y + i + 2 * kLanes, g);
      _mm512_storeu_ps(y + i + 3 * kLanes, h);
    }
  }
  if constexpr (ForHalf) AddWidened(pending, &low, &high);
  for (; i < n; i += kLanes) {
    const __mmask16 m = FirstLanes(n - i);
    const __m512 e = _mm512_maskz_mov_ps(m, ExpFor<ForHalf>(_mm512_sub_ps(LoadF32(x, i, m), s)));
    AddWidened(e, &low, &high);
    if (y != nullptr) _mm512_mask_storeu_ps(y + i, m, e);
  }
  return SumOfLanes(_mm512_add_pd(low, high));
}

}  // namespace

double ExpShiftedSum(const float *x, float shift, float *y, size_t n, const void *prefetch, size_t prefetch_bytes,
                     bool for_half) {
  if (for_half) return ExpShiftedSumTyped<true>(x, shift, y, n, prefetch, prefetch_bytes);
  return ExpShiftedSumTyped<false>(x, shift, y, n, prefetch, prefetch_bytes);
}

double SumSquares(const float *x, size_t n) {
  __m512d sums[4] = {_mm512_setzero_pd(), _mm512_setzero_pd(), _mm512_setzero_pd(), _mm512_setzero_pd()};
  size_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    AddSquares(_mm512_loadu_ps(x + i), &sums[0], &sums[1]);
    AddSquares(_mm512_loadu_ps(x + i + kLanes), &sums[2], &sums[3]);
  }
  for (; i < n; i += kLanes) AddSquares(LoadF32(x, i, FirstLanes(n - i)), &sums[0], &sums[1]);
  return SumOfLanes(_mm512_add_pd(_mm512_add_pd(sums[0], sums[1]), _mm512_add_pd(sums[2], sums[3])));
}

float F16ToF32RowMax(const uint16_t *in, float *out, size_t n) {
  __m512 best = _mm512_set1_ps(-__builtin_inff()), other = best;
  size_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {  // value first: max_ps keeps `best` for a NaN value
    const __m512 a = F16Lanes::Load(in + i), b = F16Lanes::Load(in + i + kLanes);
    _mm512_storeu_ps(out + i, a);
    _mm512_storeu_ps(out + i + kLanes, b);
    best = _mm512_max_ps(a, best);
    other = _mm512_max_ps(b, other);
  }
  for (; i < n; i += kLanes) {
    const __mmask16 m = FirstLanes(n - i);
    const __m512 a = F16Lanes::LoadPart(in + i, m);
    _mm512_mask_storeu_ps(out + i, m, a);
    best = _mm512_max_ps(_mm512_mask_mov_ps(_mm512_set1_ps(-__builtin_inff()), m, a), best);
  }
  return MaxOfLanes(_mm512_max_ps(other, best));
}

double F16ToF32SumSquares(const uint16_t *in, float *out, size_t n) {
  // F16 rows only (their results are rounded to F16): squares summed in F32 lanes for
  // 1024 elements at a time (at most 32 terms a lane, relative error below 2e-6), each
  // block's lanes then added in F64. A quarter of the F64 work of AddSquares.
  constexpr size_t kBlock = 1024;
  __m512d low = _mm512_setzero_pd(), high = _mm512_setzero_pd();
  for (size_t begin = 0; begin < n; begin += kBlock) {
    const size_t end = std::min(n, begin + kBlock);
    __m512 a_sum = _mm512_setzero_ps(), b_sum = _mm512_setzero_ps();
    size_t i = begin;
    for (; i + 2 * kLanes <= end; i += 2 * kLanes) {
      const __m512 a = F16Lanes::Load(in + i), b = F16Lanes::Load(in + i + kLanes);
      if (out != nullptr) {
        _mm512_storeu_ps(out + i, a);
        _mm512_storeu_ps(out + i + kLanes, b);
      }
      a_sum = _mm512_fmadd_ps(a, a, a_sum);
      b_sum = _mm512_fmadd_ps(b, b, b_sum);
    }
    for (; i < end; i += kLanes) {
      const __mmask16 m = FirstLanes(end - i);
      const __m512 a = F16Lanes::LoadPart(in + i, m);
      if (out != nullptr) _mm512_mask_storeu_ps(out + i, m, a);
      a_sum = _mm512_fmadd_ps(a, a, a_sum);
    }
    const __m512 block = _mm512_add_ps(a_sum, b_sum);
    AddWidened(block, &low, &high);
  }
  return SumOfLanes(_mm512_add_pd(low, high));
}

void ScaleInto(const float *x, float factor, float *y, size_t n, bool streaming) {
  ScaleIntoAny<F32Lanes>(x, factor, y, n, streaming);
}
void ScaleInto(const float *x, float factor, uint16_t *y, size_t n, bool streaming) {
  ScaleIntoAny<F16Lanes>(x, factor, y, n, streaming);
}
void SubtractTwiceInto(const float *x, float first, float second, float *y, size_t n, bool streaming) {
  SubtractTwiceIntoAny<F32Lanes>(x, first, second, y, n, streaming);
}
void SubtractTwiceInto(const float *x, float first, float second, uint16_t *y, size_t n, bool streaming) {
  SubtractTwiceIntoAny<F16Lanes>(x, first, second, y, n, streaming);
}
void ScaleTimesInto(const float *x, float factor, const float *w, float *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes) {
  ScaleTimesIntoAny<F32Lanes, F32Lanes>(x, factor, w, y, n, streaming, prefetch, prefetch_bytes);
}
void ScaleTimesInto(const float *x, float factor, const float *w, uint16_t *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes) {
  ScaleTimesIntoAny<F32Lanes, F16Lanes>(x, factor, w, y, n, streaming, prefetch, prefetch_bytes);
}
void ScaleTimesInto(const uint16_t *x, float factor, const float *w, uint16_t *y, size_t n, bool streaming,
                    const void *prefetch, size_t prefetch_bytes) {
  ScaleTimesIntoAny<F16Lanes, F16Lanes>(x, factor, w, y, n, streaming, prefetch, prefetch_bytes);
}

// 16 x 16 floats: pairs, then quads within 128-bit lanes (rows 4i..4i+3 at column 4L + m
// in lane L of quad[4i + m]), then two lane shuffles gather each column's four lanes.
void TransposeLinesOf32(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride) {
  const float *from = static_cast<const float *>(in);
  float *to = static_cast<float *>(out);
  __m512 row[16], pair[16], quad[16];
  for (int k = 0; k < 16; ++k) row[k] = _mm512_loadu_ps(from + k * in_stride);
  for (int k = 0; k < 16; k += 2) {
    pair[k] = _mm512_unpacklo_ps(row[k], row[k + 1]);
    pair[k + 1] = _mm512_unpackhi_ps(row[k], row[k + 1]);
  }
  for (int k = 0; k < 16; k += 4) {
    quad[k] = _mm512_shuffle_ps(pair[k], pair[k + 2], _MM_SHUFFLE(1, 0, 1, 0));
    quad[k + 1] = _mm512_shuffle_ps(pair[k], pair[k + 2], _MM_SHUFFLE(3, 2, 3, 2));
    quad[k + 2] = _mm512_shuffle_ps(pair[k + 1], pair[k + 3], _MM_SHUFFLE(1, 0, 1, 0));
    quad[k + 3] = _mm512_shuffle_ps(pair[k + 1], pair[k + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int m = 0; m < 4; ++m) {
    // even: lanes 0 and 2 of rows 0-7 and of rows 8-15; odd: lanes 1 and 3.
    const __m512 low_even = _mm512_shuffle_f32x4(quad[m], quad[4 + m], 0x88);
    const __m512 low_odd = _mm512_shuffle_f32x4(quad[m], quad[4 + m], 0xdd);
    const __m512 high_even = _mm512_shuffle_f32x4(quad[8 + m], quad[12 + m], 0x88);
    const __m512 high_odd = _mm512_shuffle_f32x4(quad[8 + m], quad[12 + m], 0xdd);
    _mm512_stream_ps(to + m * out_stride, _mm512_shuffle_f32x4(low_even, high_even, 0x88));
    _mm512_stream_ps(to + (4 + m) * out_stride, _mm512_shuffle_f32x4(low_odd, high_odd, 0x88));
    _mm512_stream_ps(to + (8 + m) * out_stride, _mm512_shuffle_f32x4(low_even, high_even, 0xdd));
    _mm512_stream_ps(to + (12 + m) * out_stride, _mm512_shuffle_f32x4(low_odd, high_odd, 0xdd));
  }
}

// 32 rows of 16 halves: register i holds rows i and 16 + i, so each 256-bit half goes
// through the same 16 x 16 transpose (words, dwords, qwords within 128-bit lanes); a last
// two-source qword permute joins, for each column, the four 8-row pieces in row order.
void TransposeLinesOf16(const void *in, ptrdiff_t in_stride, void *out, ptrdiff_t out_stride) {
  const uint16_t *from = static_cast<const uint16_t *>(in);
  uint16_t *to = static_cast<uint16_t *>(out);
  auto load = [&](int k) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(from + k * in_stride)); };
  __m512i row[16], words[16], dwords[16], columns[16];
  for (int k = 0; k < 16; ++k) row[k] = _mm512_inserti64x4(_mm512_castsi256_si512(load(k)), load(16 + k), 1);
  for (int k = 0; k < 16; k += 2) {
    words[k] = _mm512_unpacklo_epi16(row[k], row[k + 1]);
    words[k + 1] = _mm512_unpackhi_epi16(row[k], row[k + 1]);
  }
  for (int k = 0; k < 16; k += 4) {  // rows 4i..4i+3 at columns 2j, 2j + 1 (j = 0..3 by register)
    dwords[k] = _mm512_unpacklo_epi32(words[k], words[k + 2]);
    dwords[k + 1] = _mm512_unpackhi_epi32(words[k], words[k + 2]);
    dwords[k + 2] = _mm512_unpacklo_epi32(words[k + 1], words[k + 3]);
    dwords[k + 3] = _mm512_unpackhi_epi32(words[k + 1], words[k + 3]);
  }
  for (int g = 0; g < 2; ++g) {  // columns[8g + c]: column c (lanes 0, 2) and 8 + c (lanes 1, 3) of rows 8g..8g+7
    for (int j = 0; j < 4; ++j) {
      columns[8 * g + 2 * j] = _mm512_unpacklo_epi64(dwords[8 * g + j], dwords[8 * g + 4 + j]);
      columns[8 * g + 2 * j + 1] = _mm512_unpackhi_epi64(dwords[8 * g + j], dwords[8 * g + 4 + j]);
    }
  }
  const __m512i low_lanes = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
  const __m512i high_lanes = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
  for (int c = 0; c < 8; ++c) {
    _mm512_stream_si512(reinterpret_cast<__m512i *>(to + c * out_stride),
                        _mm512_permutex2var_epi64(columns[c], low_lanes, columns[8 + c]));
    _mm512_stream_si512(reinterpret_cast<__m512i *>(to + (8 + c) * out_stride),
                        _mm512_permutex2var_epi64(columns[c], high_lanes, columns[8 + c]));
  }
}

}  // namespace infinicts::ref::op::simd::avx512

#else  // the compiler cannot target AVX-512: Supported() is false and nothing else is called

#include <cstdlib>

namespace infinicts::ref::op::simd::avx512 {
namespace {
[[noreturn]] void Unavailable() { std::abort(); }
}  // namespace
bool Supported() { return false; }
void Map(MapOp, bool, const void *const *, void *, size_t, bool) { Unavailable(); }
void TransposeLinesOf32(const void *, ptrdiff_t, void *, ptrdiff_t) { Unavailable(); }
void TransposeLinesOf16(const void *, ptrdiff_t, void *, ptrdiff_t) { Unavailable(); }
float RowMax(const float *, size_t) { Unavailable(); }
double ExpShiftedSum(const float *, float, float *, size_t, const void *, size_t, bool) { Unavailable(); }
double SumSquares(const float *, size_t) { Unavailable(); }
float F16ToF32RowMax(const uint16_t *, float *, size_t) { Unavailable(); }
double F16ToF32SumSquares(const uint16_t *, float *, size_t) { Unavailable(); }
void ScaleInto(const float *, float, float *, size_t, bool) { Unavailable(); }
void ScaleInto(const float *, float, uint16_t *, size_t, bool) { Unavailable(); }
void SubtractTwiceInto(const float *, float, float, float *, size_t, bool) { Unavailable(); }
void SubtractTwiceInto(const float *, float, float, uint16_t *, size_t, bool) { Unavailable(); }
void ScaleTimesInto(const float *, float, const float *, float *, size_t, bool, const void *, size_t) {
  Unavailable();
}
void ScaleTimesInto(const float *, float, const float *, uint16_t *, size_t, bool, const void *, size_t) {
  Unavailable();
}
void ScaleTimesInto(const uint16_t *, float, const float *, uint16_t *, size_t, bool, const void *, size_t) {
  Unavailable();
}
}  // namespace infinicts::ref::op::simd::avx512

#endif
