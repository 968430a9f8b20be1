// The work a perf case's call does, from which its rates are computed: gflops = flops /
// time, gbytes_per_s = bytes / time. Every formula lives here and in docs/spec/op.md
// ("Performance"); the operator files only pick one.
//
// Bytes are the traffic of an ideal kernel: every element of every tensor it must touch
// read once (inputs) or written once (outputs). Caches may make a real kernel move fewer
// (a broadcast weight) or more (a reread row): the figure is a rate against this count.
//
// Flops count additions, multiplications, comparisons and divisions as 1 each, and a
// transcendental function (exp, erf, sqrt) as 1 too, so an elementwise figure is "elements
// × the operator's operation count", comparable across backends rather than a hardware
// FLOP count.
#pragma once

#include <cstddef>
#include <vector>

#include "common/flop_counts.h"
#include "common/op_case.h"

namespace infinicts::op_cases {

struct PerfCost {
  double flops = 0;
  double bytes = 0;
};


// Every present tensor's elements once (an InOut tensor counts once: beta = 0 never reads it).
double TensorBytes(const std::vector<TensorSpec> &specs);

// flops_per_element × elements; TensorBytes.
PerfCost PerElementCost(double flops_per_element, size_t elements, const std::vector<TensorSpec> &specs);

// Embedding gathers `tokens` rows: the indices, `tokens` rows of the table read and of the
// output written (the rest of the vocabulary table is never touched); no flops.
PerfCost EmbeddingCost(size_t tokens, size_t dim, infiniDtype_t dtype, infiniDtype_t index_dtype);

// RoPE: kRope per element of y; bytes of y, x and pos_ids, and of the sin and cos rows of
// `positions` distinct positions (the rest of the tables is never touched).
PerfCost RopeCost(size_t elements, size_t positions, size_t half_dim, const std::vector<TensorSpec> &specs);

// KVCaching and PagedCaching write `entries` elements (k's and v's together) into their
// caches: the entries read, as many cache elements written (the rest of the caches is never
// touched), and `indices` lengths or slots read; no flops.
PerfCost CacheWriteCost(std::string_view subject, size_t entries, infiniDtype_t dtype, size_t indices, infiniDtype_t index_dtype);

// MRoPE: kMRope per rotated element (`rotated`, of q_out and k_out together); bytes of every
// tensor but the tables, and of `table_elements` elements of cos and of sin (those the
// positions reach).
PerfCost MRopeCost(size_t rotated, size_t table_elements, const std::vector<TensorSpec> &specs);

}  // namespace infinicts::op_cases
