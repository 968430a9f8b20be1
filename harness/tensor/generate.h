// Seeded data generators. Each fills every element of a tensor (any layout, any dtype it
// can hold) from the caller's std::mt19937_64, so a case's inputs follow from its seed.
// Values are rounded to the tensor's dtype as they are stored; oracles read the stored
// values back, so rounding never shows up as an error. The distributions are chosen to
// expose the faults listed beside each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>

#include "tensor/host_tensor.h"

namespace infinicts {

using Rng = std::mt19937_64;

// Uniform in [low, high).
void FillUniform(HostTensor &tensor, Rng &rng, double low, double high);

// Magnitude uniform in [min_magnitude, max_magnitude], random sign: no element is near
// zero, so an all-zero (or untouched zero-initialised) output cannot pass.
void FillAwayFromZero(HostTensor &tensor, Rng &rng, double min_magnitude = 0.25, double max_magnitude = 2.0);

// Rows along `axis` whose values sit at a large common level (random sign per row, |level|
// = magnitude) plus a spread in [-spread, spread]. With the defaults every value lies beyond
// ±112, where F32's exp() overflows (past e^88.7) or underflows to zero (below e^-103.9),
// so a softmax without max subtraction returns Inf or NaN on every row, in F16, BF16 or F32
// arithmetic. The spread keeps the normalised result far from one-hot.
void FillLargeMagnitudeRows(HostTensor &tensor, Rng &rng, size_t axis, double magnitude = 120.0,
                            double spread = 4.0);

// Multiplies each row along the last dimension by its own factor, log-uniform in [low,
// high]. Long rows of one distribution have nearly equal statistics; scaled apart, a
// per-row result (a norm's standard deviation) differs from row to row, so one row's value
// written for every row, or rows mixed in a reduction, shows.
void ScaleRows(HostTensor &tensor, Rng &rng, double low, double high);

// Rows along the last dimension whose mean square is close to `epsilon` (a random factor
// in [0.25, 4] of it). For such rows x / sqrt(mean(x²) + eps) and x / (sqrt(mean(x²)) + eps)
// differ by tens of percent, so epsilon outside the square root is caught.
void FillSmallRmsRows(HostTensor &tensor, Rng &rng, double epsilon);

// Rows along the last dimension with a common offset (uniform in [-max_mean, max_mean])
// and a variance close to `variance`: LayerNorm's epsilon placement and a variance
// computed by cancellation both show.
void FillSmallVarianceRows(HostTensor &tensor, Rng &rng, double variance, double max_mean = 1.0);

// Dyadic values k / 2^fraction_bits with the integer k uniform in [low, high], 0 excluded.
// Products and sums of a long dot product of such values are exact in fp64 and, while
// max|k|² · K < 2^24 (fraction_bits 0), in an F32 accumulator. With low >= 1 the partial
// sums grow with K: K = 4096 products of values in [1, 4] reach about 25,000, where F16's
// spacing is 16 and BF16's 128, so an accumulator in the half type drifts far from the
// exact answer while a correct one rounds once. Mixed signs (low < 0) keep sums near
// sqrt(K)·|k|², which suits layout and beta checks rather than accumulation.
void FillDyadic(HostTensor &tensor, Rng &rng, int low = 1, int high = 4, int fraction_bits = 0);

// Integers uniform in [low, high_exclusive) (an index or position tensor, any integer dtype).
void FillIntegers(HostTensor &tensor, Rng &rng, int64_t low, int64_t high_exclusive);

// 0, 1, 2, ... in row-major order (positions of a prompt).
void FillArange(HostTensor &tensor, int64_t start = 0);

// Scores (logits) for RandomSample over a 1-D tensor of length n: `distinct_top` values
// (clamped to n) level, level - gap, level - 2·gap, ... at random indices, every other element
// strictly below them (uniform in [level - distinct_top·gap - tail_spread, level -
// distinct_top·gap]); level is a random multiple of gap in [-64·gap, 64·gap]. The sorted order
// that decides a sample is then unambiguous for every topk <= distinct_top. The generator
// checks that the top values stay distinct and above the tail once rounded to the dtype, and
// throws std::invalid_argument when the dtype is too coarse for the gap (BF16 with many values).
void FillSamplingScores(HostTensor &tensor, Rng &rng, size_t distinct_top = 64, double gap = 0.125,
                        double tail_spread = 8.0);

}  // namespace infinicts
