// What the int4 dequantisers' suite files share (spec section OP-INT4): the data of a packed
// weight (every nibble value in every position, scales of full mantissas whose exponents
// differ by group and column) and the perf shapes of a W4A16 layer.
#pragma once

#include <vector>

#include "common/op_case.h"
#include "common/perf_problem.h"
#include "tensor/host_tensor.h"
#include "tensor/int4_packing.h"

namespace infinicts::op_cases {

// Uniform values 0 … 15 (a U8 tensor): over a few hundred words every value meets every
// nibble, so a wrong packing order, a nibble read as signed or a missing mask shows.
HostTensor RandomNibbles(const Shape &shape, Rng &rng);

// Packs `values` along `axis` into `words` (the spec's host tensor of I32 words), then gives
// the nibbles past the values' end (a short last word) random values: nothing may read them.
void StorePacked(const HostTensor &values, size_t axis, NibbleOrder order, HostTensor &words, Rng &rng);

// Scales [G, N] in their dtype: mantissas drawn over all their bits (a product of one with a
// 4-bit integer needs rounding), exponents from 2^-6 down by group and by column, so that a
// scale taken from the wrong group or column is a different power of two.
void FillGroupScales(HostTensor &scales, Rng &rng);

// Llama-3-8B's W4A16 projections in groups of 128 (dims k, n and groups), F16 (the
// dequantisers admit no F32) and, in the full profile, BF16.
std::vector<PerfProblem> W4A16LayerProblems();

}  // namespace infinicts::op_cases
