// Faults of the unary activations and fills, each a wrong formula a real kernel has been
// written with (host_unary.h):
// - `tanh_through_exp`: Tanh as (e^2x − 1) / (e^2x + 1) in F32: Inf / Inf = NaN once e^2x
//   overflows (x above 44.4);
// - `gelutanh_exact_erf`: GeluTanh computes the exact (erf) Gelu instead of its tanh form;
// - `floor_truncates`: Floor rounds toward zero (wrong for negative non-integers);
// - `zeros_multiplies_input`: Zeros writes 0·x, which is NaN where x is NaN or ±Inf;
// - `relu_flushes_subnormals`: Relu reads subnormal inputs as 0 (a kernel run with the DAZ
//   bit set, or built with fast-math flags), so a positive subnormal comes out 0;
// - `erfc_one_minus_erf`: Erfc as 1 − erf(x) in the compute type (F32; F64 for F64), which
//   keeps none of erfc's tail: 0 beyond x ≈ 3.9 in F32 (5.9 in F64), and few digits before;
// - `log1p_rounds_one_plus_x`: Log1p as ln(1 + x) with 1 + x rounded first in the compute type
//   (F32; F64 for F64), which keeps few digits of a small x.
#include <cmath>
#include <limits>

#include "op/host_unary.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

double TanhThroughExp(double x, infiniDtype_t) {
  const float e = std::exp(2.0f * static_cast<float>(x));
  return static_cast<double>((e - 1.0f) / (e + 1.0f));
}

double GeluExactForm(double x, infiniDtype_t) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

double Truncated(double x, infiniDtype_t) { return std::trunc(x); }

double ZeroTimesX(double x, infiniDtype_t) { return 0.0 * x; }

double SmallestNormal(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: return std::ldexp(1.0, -14);
    case INFINI_DTYPE_BF16:
    case INFINI_DTYPE_F32: return std::ldexp(1.0, -126);
    default: return std::numeric_limits<double>::min();
  }
}

double ReluOfFlushedInput(double x, infiniDtype_t dtype) {
  const double read = std::fabs(x) < SmallestNormal(dtype) ? 0.0 : x;
  return read > 0.0 || std::isnan(read) ? read : 0.0;  // NaN stays NaN, as IEEE max keeps it
}

double OneMinusErf(double x, infiniDtype_t dtype) {
  if (dtype == INFINI_DTYPE_F64) return 1.0 - std::erf(x);
  return static_cast<double>(1.0f - std::erf(static_cast<float>(x)));
}

double LogOfRoundedOnePlusX(double x, infiniDtype_t dtype) {
  if (dtype == INFINI_DTYPE_F64) return std::log(1.0 + x);
  return static_cast<double>(std::log(1.0f + static_cast<float>(x)));
}

}  // namespace

void InstallTanhThroughExp(OpTable &calls) {
  InstallHostUnary<&OpTable::infiniopCreateTanhDescriptor, &OpTable::infiniopTanh,
                   &OpTable::infiniopDestroyTanhDescriptor>(calls, &TanhThroughExp);
}
INFINICTS_FAULT(OpTable, "tanh_through_exp",
                "Tanh computes (e^2x - 1) / (e^2x + 1) in F32: NaN wherever e^2x overflows",
                InstallTanhThroughExp);

void InstallGeluTanhExactErf(OpTable &calls) {
  InstallHostUnary<&OpTable::infiniopCreateGeluTanhDescriptor, &OpTable::infiniopGeluTanh,
                   &OpTable::infiniopDestroyGeluTanhDescriptor>(calls, &GeluExactForm);
}
INFINICTS_FAULT(OpTable, "gelutanh_exact_erf",
                "GeluTanh computes the exact (erf) Gelu instead of the tanh approximation",
                InstallGeluTanhExactErf);

void InstallFloorTruncates(OpTable &calls) {
  InstallHostUnary<&OpTable::infiniopCreateFloorDescriptor, &OpTable::infiniopFloor,
                   &OpTable::infiniopDestroyFloorDescriptor>(calls, &Truncated);
}
INFINICTS_FAULT(OpTable, "floor_truncates",
                "Floor rounds toward zero, so negative non-integers come out one too high",
                InstallFloorTruncates);

void InstallZerosMultipliesInput(OpTable &calls) {
  InstallHostUnary<&OpTable::infiniopCreateZerosDescriptor, &OpTable::infiniopZeros,
                   &OpTable::infiniopDestroyZerosDescriptor>(calls, &ZeroTimesX);
}
INFINICTS_FAULT(OpTable, "zeros_multiplies_input",
                "Zeros writes 0*x, which is NaN where x is NaN or an infinity",
                InstallZerosMultipliesInput);

void InstallReluFlushesSubnormals(OpTable &calls) {
  InstallHostUnary<&OpTable::infiniopCreateReluDescriptor, &OpTable::infiniopRelu,
                   &OpTable::infiniopDestroyReluDescriptor>(calls, &ReluOfFlushedInput);
}
INFINICTS_FAULT(OpTable, "relu_flushes_subnormals",
                "Relu reads subnormal inputs as 0 (denormals-are-zero)",
                InstallReluFlushesSubnormals);

void InstallErfcOneMinusErf(OpTable &calls) {
  InstallHostUnary<&OpTable::infiniopCreateErfcDescriptor, &OpTable::infiniopErfc,
                   &OpTable::infiniopDestroyErfcDescriptor>(calls, &OneMinusErf);
}
INFINICTS_FAULT(OpTable, "erfc_one_minus_erf",
                "Erfc computes 1 - erf(x), which keeps none of erfc's tail (0 beyond x = 3.9 in F32)",
                InstallErfcOneMinusErf);

void InstallLog1pRoundsOnePlusX(OpTable &calls) {
  InstallHostUnary<&OpTable::infiniopCreateLog1pDescriptor, &OpTable::infiniopLog1p,
                   &OpTable::infiniopDestroyLog1pDescriptor>(calls, &LogOfRoundedOnePlusX);
}
INFINICTS_FAULT(OpTable, "log1p_rounds_one_plus_x",
                "Log1p computes ln(1 + x) after rounding 1 + x, which keeps few digits of a small x",
                InstallLog1pRoundsOnePlusX);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// The subnormal cases: about a quarter of their elements are positive subnormals.
// fault-detection: relu_flushes_subnormals SUITE op TIMEOUT 30 FILTER op.relu.* ONLY EXPECT
// fault-detection:   op.relu.accuracy/matches_oracle/*/subnormal
// Inputs past 44.4 (3x4096 and larger shapes always hold some) and +Inf: Inf / Inf = NaN, in
// every dtype (a half-precision input computed through F32 overflows too).
// fault-detection: tanh_through_exp SUITE op TIMEOUT 30 FILTER op.tanh.* EXPECT
// fault-detection:   op.tanh.accuracy/matches_oracle/*/3x4096/* op.tanh.accuracy/matches_oracle/*/5x11008/*
// fault-detection:   op.tanh.accuracy/matches_oracle/*/nan_inf
// The erf form differs from the tanh form by up to 5e-4 around |x| = 2 and by percent in the
// negative tail: every dtype's cases over the [0.25, 4] magnitudes see it (OP-GELUTANH-1).
// fault-detection: gelutanh_exact_erf SUITE op TIMEOUT 30 FILTER op.gelutanh.* EXPECT
// fault-detection:   op.gelutanh.accuracy/matches_oracle/*/7x31/* op.gelutanh.accuracy/matches_oracle/*/3x4096/*
// Negative non-integers (half of the inputs) come out one too high; the result is held exact.
// fault-detection: floor_truncates SUITE op TIMEOUT 30 FILTER op.floor.* EXPECT
// fault-detection:   op.floor.accuracy/matches_oracle/*/7x31/output_contig_input_contig* op.floor.accuracy/matches_oracle/*/3x4096/*
// 0·NaN and 0·Inf are NaN: only the cases that plant them in x (OP-ZEROS-1) can tell.
// fault-detection: zeros_multiplies_input SUITE op TIMEOUT 30 FILTER op.zeros.* ONLY EXPECT
// fault-detection:   op.zeros.accuracy/matches_oracle/*/nan_inf
// 1 − erf(x) is 0 beyond x ≈ 3.9 in F32 (5.9 in F64) and loses digits well before, where the
// inputs (log-uniform magnitudes up to 12) put about one element in ten; only the erfc
// tolerance's relative error sees it (the default absolute floors hide the tail).
// fault-detection: erfc_one_minus_erf SUITE op TIMEOUT 30 FILTER op.erfc.* EXPECT
// fault-detection:   op.erfc.accuracy/matches_oracle/f32/3x4096/* op.erfc.accuracy/matches_oracle/f64/3x4096/*
// fault-detection:   op.erfc.accuracy/matches_oracle/f64/7x31/*
// ln(1 + x) after rounding 1 + x keeps few digits of the tiny third of the inputs (|x| down to
// 1e-6): only log1p's tolerance, relative down to the smallest normal number, sees it
// (OP-LOG1P-1; the default F32 floor of 1e-6 hid it). F16 and BF16 round coarser than the error.
// fault-detection: log1p_rounds_one_plus_x SUITE op TIMEOUT 30 FILTER op.log1p.* EXPECT
// fault-detection:   op.log1p.accuracy/matches_oracle/f32/7x31/* op.log1p.accuracy/matches_oracle/f64/7x31/*
// fault-detection:   op.log1p.accuracy/matches_oracle/f32/3x4096/* op.log1p.accuracy/matches_oracle/f64/3x4096/*
