// Plain fp64 oracles, one per InfiniOP operator. Each reads HostTensors of any dtype and
// layout (values as stored, so input rounding is part of the input) and returns a new
// contiguous F64 HostTensor shaped like the operator's output. They are written for
// clarity, compute in double throughout, and share no code with reference_impl/.
// A malformed call (shapes that do not fit together) throws std::invalid_argument.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/host_tensor.h"

namespace infinicts::oracle {

// C = alpha·A·B + beta·C. c holds the output tensor's contents before the call; with beta = 0
// they are not read at all (a NaN there must not reach the result). Matrices are 2-D
// [rows, cols] or 3-D [batch, rows, cols]; the batch is c's, and an A or B with batch 1
// (or 2-D) is used for every batch.
HostTensor Gemm(const HostTensor &c, const HostTensor &a, const HostTensor &b, double alpha, double beta);

// Elementwise over equal shapes; an input broadcasts through stride-0 dimensions.
HostTensor Add(const HostTensor &a, const HostTensor &b);
HostTensor Sub(const HostTensor &a, const HostTensor &b);
HostTensor Mul(const HostTensor &a, const HostTensor &b);
HostTensor SwiGLU(const HostTensor &a, const HostTensor &b);  // a · silu(b) = a · b / (1 + e^-b)
HostTensor Relu(const HostTensor &x);                         // max(x, 0); NaN stays NaN
HostTensor Silu(const HostTensor &x);                         // x / (1 + e^-x)
HostTensor Gelu(const HostTensor &x);                         // x · Φ(x) = x/2 · (1 + erf(x/√2))
HostTensor Sigmoid(const HostTensor &x);                      // 1 / (1 + e^-x)
// min(max(x, min_val), max_val) elementwise (torch.clamp: max_val wins when min_val > max_val;
// NaN in x stays NaN).
HostTensor Clip(const HostTensor &x, const HostTensor &min_val, const HostTensor &max_val);

// The unary activations and functions, elementwise (docs/spec/op.md OP-EW and each one's clause).
HostTensor Tanh(const HostTensor &x);             // tanh(x)
HostTensor Erf(const HostTensor &x);              // erf(x) = 2/√π ∫₀ˣ e^(−t²) dt
HostTensor Erfc(const HostTensor &x);             // erfc(x) = 1 − erf(x) = 2/√π ∫ₓ^∞ e^(−t²) dt
HostTensor Softsign(const HostTensor &x);         // x / (1 + |x|); ±1 at ±Inf
HostTensor HardSwish(const HostTensor &x);        // x · min(max(x + 3, 0), 6) / 6; 0 at −Inf
HostTensor QuickGelu(const HostTensor &x);        // x · σ(1.702·x) = x / (1 + e^(−1.702·x)); 0 at −Inf
HostTensor GeluTanh(const HostTensor &x);         // x/2 · (1 + tanh(√(2/π)·(x + 0.044715·x³))); 0 at −Inf
HostTensor Relu6(const HostTensor &x);            // min(max(x, 0), 6); NaN stays NaN
HostTensor Selu(const HostTensor &x);             // scale·x for x > 0, scale·alpha·(e^x − 1) otherwise
HostTensor Reciprocal(const HostTensor &x);       // 1 / x
HostTensor Log1p(const HostTensor &x);            // ln(1 + x)
HostTensor Sinh(const HostTensor &x);             // (e^x − e^−x) / 2
HostTensor Floor(const HostTensor &x);            // the greatest integer ≤ x
// x where beta·x > threshold, else ln(1 + e^(beta·x)) / beta (create-time beta and threshold).
HostTensor Softplus(const HostTensor &x, double beta, double threshold);
// min(max(x, min_val), max_val) with create-time bounds; NaN stays NaN.
HostTensor HardTanh(const HostTensor &x, double min_val, double max_val);

// The fills: a tensor of x's shape holding 0 (or 1) everywhere; x's values play no part.
HostTensor Zeros(const HostTensor &x);
HostTensor Ones(const HostTensor &x);

// y = x · w / sqrt(mean(x²) + epsilon) over the last dimension; w has the last dimension's length.
HostTensor RMSNorm(const HostTensor &x, const HostTensor &w, double epsilon);

// The residual add fused with RMSNorm: residual_out = a + b, and y = RMSNorm(residual_out,
// weight, epsilon) over the last dimension, from the exact sum.
struct AddRMSNormResult {
  HostTensor y, residual_out;
};
AddRMSNormResult AddRMSNorm(const HostTensor &a, const HostTensor &b, const HostTensor &weight, double epsilon);

// The gated FFN activation on a [..., 2d] input: output[..., j] = silu(input[..., j]) ·
// input[..., d + j] (the gate is the first half, the up projection the second).
HostTensor SiluAndMul(const HostTensor &input);

// Per request r of a packed batch, the hidden state of its last token: output[0, r, :] =
// hidden_states[t, :] with t = input_offsets[r + 1] − 1, hidden_states [batch, tokens, hidden]
// read as batch·tokens consecutive tokens; output [1, requests, hidden].
HostTensor SelectLastTokenHidden(const HostTensor &hidden_states, const HostTensor &input_offsets);

// LayerNorm over the last dimension as InfiniCore defines its three outputs:
//   std_deviation   = sqrt(var + eps), var the biased (population) variance; shape x[:-1]
//   standardization = (x - mean) / std_deviation;                             shape x
//   output          = standardization · weight + bias (bias optional: nullptr)
struct LayerNormResult {
  HostTensor output;
  HostTensor standardization;
  HostTensor std_deviation;
};
LayerNormResult LayerNorm(const HostTensor &x, const HostTensor &weight, const HostTensor *bias, double epsilon);

// x is [seq, total] or [batch, seq, total] with total >= seq. Row i keeps columns
// j <= total - seq + i, softmaxed over those; masked columns are 0.
HostTensor CausalSoftmax(const HostTensor &x);

// Softmax / log-softmax along `axis` (negative counts from the end).
HostTensor Softmax(const HostTensor &x, int axis);
HostTensor LogSoftmax(const HostTensor &x, int axis);  // x - max - log Σ exp(x - max)

// Rotary position embedding. x is [seq, heads, dim] or [batch, seq, heads, dim] with dim even;
// pos_ids is [seq] (shared by every batch) or [batch, seq], integers; sin_table and cos_table
// are [table_len, dim/2], indexed [pos][i]. Each pair (p, q) rotates by the angle of
// frequency i: y_p = x_p·cos - x_q·sin, y_q = x_p·sin + x_q·cos, with the pairs
//   GPT_J    (i = 0 .. dim/2-1): (2i, 2i+1)       — interleaved
//   GPT_NEOX (i = 0 .. dim/2-1): (i, i + dim/2)   — halves
// The values match infiniopRoPEAlgo_t.
enum class RopePairing { kGptJ = 0, kGptNeox = 1 };
HostTensor RoPE(const HostTensor &x, const HostTensor &pos_ids, const HostTensor &sin_table,
                const HostTensor &cos_table, RopePairing pairing);

// N-D convolution (cross-correlation, as in every framework) without groups, NC[D]HW:
// x [N, C_in, s_1..s_n], w [C_out, C_in, k_1..k_n], optional bias [C_out], y [N, C_out, o_1..o_n]
// with o_i = (s_i + 2·pad_i - dilation_i·(k_i - 1) - 1) / stride_i + 1. Pads are symmetric
// zeros. Empty pads/strides/dilations mean 0/1/1.
HostTensor Conv(const HostTensor &x, const HostTensor &w, const HostTensor *bias, const std::vector<size_t> &pads,
                const std::vector<ptrdiff_t> &strides, const std::vector<size_t> &dilations);

// RandomSample over a 1-D score vector; see random_sample.cc for the rule.
struct RandomSampleResult {
  int64_t index = 0;
  // How far the sampling threshold lies from the nearest boundary of the chosen index's
  // interval of the cumulative distribution, as a fraction of the whole distribution's sum.
  // A backend computing in F32 can land on a neighbour only when this is tiny; a case should
  // pick random_val so that it is comfortably large (> 1e-4, say). Infinity for argmax.
  double margin = 0.0;
  bool argmax = false;  // the arguments selected plain argmax
};
RandomSampleResult RandomSample(const HostTensor &scores, float random_val, float topp, int topk, float temperature);

// RandomSampleBatch: RandomSample's rule on each row of [batch, n] scores, row i under
// rows[i]'s parameters (random_sample_batch.cc).
struct SamplingParameters {
  float random_val, topp;
  int topk;
  float temperature;
};
std::vector<RandomSampleResult> RandomSampleBatch(const HostTensor &scores, const std::vector<SamplingParameters> &rows);

// The MoE routers' outputs: F64 [tokens, topk] each, row r's selected experts in rank order.
struct TopkRoutingResult {
  HostTensor values;
  HostTensor indices;
};

// Topksoftmax over x [tokens, experts]: per row, the topk experts of largest logit, largest
// first (ties: lower index first), each with its softmax probability over the whole row,
// p_i = e^(x_i - max) / Σ_j e^(x_j - max); with norm != 0, those probabilities divided by
// their own sum. 1 <= topk <= experts.
TopkRoutingResult Topksoftmax(const HostTensor &x, size_t topk, int norm);

// Topkrouter (DeepSeek-V3's group-limited routing) over x [tokens, 256] and correction_bias
// [256]; see topkrouter.cc for the rule. row_margins[r] is the smallest gap, in row r,
// between two quantities whose order decided the result (the 4th and 5th group scores, and
// neighbouring selection scores down to rank topk), ties that any arithmetic reproduces
// aside (equal inputs, masked experts); infinity when nothing was decided. A backend
// computing in F32 makes the same choices where it is comfortably large (1e-4, say).
struct TopkrouterResult {
  HostTensor values;
  HostTensor indices;
  std::vector<double> row_margins;
};
TopkrouterResult Topkrouter(const HostTensor &x, const HostTensor &correction_bias, float routed_scaling_factor,
                            size_t topk);

// The routers of OP-MOETOPK over gating_output [tokens, experts] and an optional
// correction_bias [experts] (nullptr: none); see moe_topk.cc for the rule. row_margins as
// Topkrouter's: the smallest gap between neighbouring biased scores down to rank topk, exact
// ties (equal logits and biases) aside.
TopkrouterResult MoeTopkSoftmax(const HostTensor &gating_output, const HostTensor *correction_bias, size_t topk,
                                bool renormalize, float moe_softcapping);
TopkrouterResult MoeTopkSigmoid(const HostTensor &gating_output, const HostTensor *correction_bias, size_t topk,
                                bool renormalize);

// Identity on values: a contiguous F64 copy of src (the oracle for any dst layout).
HostTensor Rearrange(const HostTensor &src);

// output[..., :] = weight[indices[...], :]; indices integral in [0, vocab).
HostTensor Embedding(const HostTensor &indices, const HostTensor &weight);

// Take: output[i…] = input's element number indices[i…] in row-major order (its logical
// order, whatever its strides); indices integral in [0, numel(input)); F64 of indices' shape.
HostTensor Take(const HostTensor &input, const HostTensor &indices);

// BroadcastTo: x broadcast to y_shape by numpy's rules (x's dims aligned to y's last ones,
// each y's or 1); F64 of y_shape.
HostTensor BroadcastTo(const HostTensor &x, const Shape &y_shape);

// MulScalar: output = alpha · input; F64 of input's shape.
HostTensor MulScalar(const HostTensor &input, double alpha);

// MoeSum: input [tokens, k, hidden] summed over k into [tokens, hidden], F64.
HostTensor MoeSum(const HostTensor &input);

// Sum: input summed over `dims` (distinct, each < ndim), kept as dims of 1 when keepdim; F64.
HostTensor Sum(const HostTensor &input, const std::vector<size_t> &dims, bool keepdim);

// Pad (torch.nn.functional.pad): `pads` holds (before, after) pairs from the last dim backwards,
// each >= 0; outside x, mode "constant" gives `value`, "replicate" the nearest edge element,
// "reflect" the mirror image without repeating the edge, "circular" the wrapped-around element.
// F64 of x's shape grown by the pads.
HostTensor Pad(const HostTensor &x, const std::vector<int> &pads, const std::string &mode, double value);

// TopK along `dim`: the k largest (or smallest) elements of every line, in descending (or
// ascending) order, and their positions along dim; ties ranked by lower position first. F64
// values and I64 indices of input's shape with dim's extent k.
struct TopKResult {
  HostTensor values, indices;
};
TopKResult TopK(const HostTensor &input, size_t k, size_t dim, bool largest);

// One cache of KVCaching (k_cache with k, or v_cache with v): cache [batch, kv_heads,
// max_seq_len, head_dim] as it was before the call, entries [batch, kv_heads, new_len,
// head_dim]; returns the cache with cache[b, h, past_kv_lengths[b] + s, :] = entries[b, h, s, :]
// and every other element unchanged. Lengths integral, each with past + new_len <= max_seq_len.
HostTensor KVCaching(const HostTensor &cache, const HostTensor &entries, const HostTensor &past_kv_lengths);

// One pool of PagedCaching (k_cache with k, or v_cache with v): cache_pool [num_blocks,
// kv_heads, block_size, head_dim] as it was before the call, entries [num_tokens, kv_heads,
// head_dim]; returns the pool with pool[slot / block_size, h, slot % block_size, :] =
// entries[t, h, :] for slot = slot_mapping[t] >= 0 (a negative slot, padding, writes nothing)
// and every other element unchanged. Slots inside the pool, none given to two tokens.
HostTensor PagedCaching(const HostTensor &cache_pool, const HostTensor &entries, const HostTensor &slot_mapping);

// Causal attention over paged KV pools (OP-PAGEDATTENTIONPREFILL-3): q [total_q, heads,
// head_size], k_cache [num_blocks, kv_heads, block_size, head_size], v_cache [num_blocks,
// kv_heads, block_size, value_size], block_tables [num_seqs, max_blocks], seq_lens [num_seqs],
// cum_seq_lens_q [num_seqs + 1] (0, ..., total_q), alibi_slopes [heads] or NULL. Sequence s's
// key j is row (block_tables[s, j / block_size], kv, j % block_size) of the pools; its n queries
// are its last n positions, query i at P = seq_lens[s] - n + i attending keys 0..P with
// score scale·q·k + slope_h·(j - P), kv head h / (heads / kv_heads). Returns F64 [total_q,
// heads, value_size]. Reads no pool row other than the sequences' live ones.
HostTensor PagedAttentionPrefill(const HostTensor &q, const HostTensor &k_cache, const HostTensor &v_cache,
                                 const HostTensor &block_tables, const HostTensor &seq_lens,
                                 const HostTensor &cum_seq_lens_q, const HostTensor *alibi_slopes, double scale);

// Decode attention (OP-PAGEDATTENTION-3): one query per sequence, q [num_seqs, heads,
// head_size], attending every key of its sequence (the prefill above with one query each,
// at position seq_lens[s] - 1). Returns F64 [num_seqs, heads, value_size].
HostTensor PagedAttention(const HostTensor &q, const HostTensor &k_cache, const HostTensor &v_cache,
                          const HostTensor &block_tables, const HostTensor &seq_lens, const HostTensor *alibi_slopes,
                          double scale);

// Attention of one sequence over its KV cache: q [n_q_heads, seq_len, head_dim], k and v
// [n_kv_heads, seq_len, head_dim], k_cache and v_cache [n_kv_heads, capacity, head_dim] as they
// were before the call (capacity >= pos + seq_len). The caches come back with rows pos + s set to
// token s's k and v (every other row unchanged); out [seq_len, n_q_heads, head_dim] holds, for q
// head h (kv head g = h / (n_q_heads / n_kv_heads)) and token i, Σ_j p_j · v_cache[g, j, :] over
// j = 0 .. pos + i, p the softmax of q[h, i, :] · k_cache[g, j, :] / sqrt(head_dim). Cache rows at
// pos + seq_len and beyond are never read.
struct AttentionResult {
  HostTensor out, k_cache, v_cache;
};
AttentionResult Attention(const HostTensor &q, const HostTensor &k, const HostTensor &v, const HostTensor &k_cache,
                          const HostTensor &v_cache, size_t pos);

// Multimodal RoPE (Qwen2-VL) of q or k: x [num_tokens, heads · head_size], cos and sin
// [table_len, rotary_dim / 2], positions [3, num_tokens] (rows t, h, w) or [num_tokens] (one
// position for all three). For each head and i < half = rotary_dim / 2, with p the position of
// the row frequency i takes (contiguous sections t, h, w; interleaved: i mod 3 = 1 → h while
// i < 3·section_h, i mod 3 = 2 → w while i < 3·section_w, else t), c = cos[p, i], s = sin[p, i]:
// y_i = x_i·c − x_{i+half}·s, y_{i+half} = x_{i+half}·c + x_i·s; y_j = x_j for j >= rotary_dim.
// Positions must lie in [0, table_len).
HostTensor MRoPE(const HostTensor &x, const HostTensor &cos, const HostTensor &sin, const HostTensor &positions,
                 size_t head_size, size_t rotary_dim, size_t section_t, size_t section_h, size_t section_w,
                 bool interleaved);

// The int8 quantisers (docs/spec/op.md, OP-INT8), their F32 steps done exactly: each step
// in double, then rounded to F32 (exact for one add, multiply or divide of F32 values).
// `also_accepted` holds, for each quantised element, the other integer the spec accepts where
// the exact value lies near a half without being one (see "Near a half"), and the expected
// value itself elsewhere.
struct Int8QuantResult {
  HostTensor packed;         // x's shape: the int8 values
  HostTensor scale;          // [M, 1] per row, or scale_shape for the per-tensor form
  HostTensor zero;           // [M, 1] (asymmetric per row only; else empty)
  HostTensor also_accepted;  // x's shape
};
// x [M, K]; asymmetric: with the zero point (x_zero given).
Int8QuantResult PerChannelQuantI8(const HostTensor &x, bool asymmetric);
// static_scale: the given scale (is_static); NULL: the dynamic form, max|x| / 127.
Int8QuantResult PerTensorQuantI8(const HostTensor &x, const Shape &scale_shape, const HostTensor *static_scale);
// x = x_packed · x_scale[0], the product rounded to F32.
HostTensor PerTensorDequantI8(const HostTensor &x_packed, const HostTensor &x_scale);

// DequantizeAWQ (OP-DEQUANTIZEAWQ-4): out [K, N] = (q − z)·scales, q from qweight [K, N/8] and z
// from zeros [G, N/8] (I32 words in AWQ packing), scales [G, N], row k in group ⌊k/(K/G)⌋.
HostTensor DequantizeAWQ(const HostTensor &qweight, const HostTensor &scales, const HostTensor &zeros);
// DequantizeGPTQ (OP-DEQUANTIZEGPTQ-4): out [K, N] = (q − (z + 1))·scales, q from qweight [⌈K/8⌉, N]
// (eight rows to a word) and z from zeros [G, ⌈N/8⌉] (eight columns), sequential packing,
// scales [G, N], row k in group g_idx[k] (K = g_idx's length).
HostTensor DequantizeGPTQ(const HostTensor &qweight, const HostTensor &scales, const HostTensor &zeros,
                          const HostTensor &g_idx);

// I8Gemm (OP-I8GEMM): out[m, n] = x_scale[m]·weights_scale[n]·Σ_k x[m, k]·weights[k, n] + bias[n],
// the sum exact in integers; x [M, K] and weights [K, N] hold int8 values, x_scale M elements,
// weights_scale N, bias (NULL: none) N.
HostTensor I8Gemm(const HostTensor &x, const HostTensor &x_scale, const HostTensor &weights,
                  const HostTensor &weights_scale, const HostTensor *bias);

// MoeAlign (OP-MOEALIGN): the flat positions i of topk_ids [tokens, topk] (row-major) grouped by
// expert, each expert's group padded to a multiple of block_size. expert_map (empty: none) maps
// each id to a local expert, −1 for none (the slot is left out); without one every id is its
// expert. Each group holds its positions in increasing order, then `numel` (tokens·topk) in
// its padding; past the total, sorted_token_ids holds numel too (up to sorted_length).
// expert_ids [expert_blocks] names each block's expert up to total / block_size, −1 past it.
struct MoeAlignResult {
  HostTensor sorted_token_ids;        // I64 [sorted_length]
  HostTensor expert_ids;              // I64 [expert_blocks]
  HostTensor num_tokens_post_padded;  // I64 [1]: the total
  std::vector<size_t> group_starts;   // num_experts + 1: where each expert's group starts, then the total
  std::vector<size_t> group_counts;   // num_experts: the positions each group holds (before its padding)
};
MoeAlignResult MoeAlign(const HostTensor &topk_ids, const std::vector<int64_t> &expert_map, size_t num_experts,
                        size_t block_size, size_t sorted_length, size_t expert_blocks);

// PrepareMoeInput (OP-PREPAREMOEINPUT): from topk_ids [tokens, topk], the grouped GEMMs' plan of
// CUTLASS's MoE: per expert e < num_experts, count_e = the slots routed to e (ids outside
// [0, num_experts) routed nowhere); problem_sizes1 [E, 3] = (count_e, 2n, k), problem_sizes2
// [E, 3] = (count_e, k, n); expert_offsets [E + 1] their exclusive prefix sums;
// blockscale_offsets [E + 1] those of count_e rounded up to 128; input_permutation (length
// tokens·topk) expert by expert the token i / topk of each slot i routed there, in increasing
// slot order, −1 past the total; output_permutation[i] the position of slot i there (−1 for a
// slot routed nowhere). All I64.
struct PrepareMoeInputResult {
  HostTensor expert_offsets, blockscale_offsets, problem_sizes1, problem_sizes2, input_permutation,
      output_permutation;
};
PrepareMoeInputResult PrepareMoeInput(const HostTensor &topk_ids, size_t num_experts, size_t n, size_t k);

// MoeFusedGate (OP-MOEFUSEDGATE): SGLang's grouped sigmoid router over input [tokens, experts]
// and bias [experts]: s = sigmoid(input), c = s + bias; the experts in num_expert_group groups
// of consecutive experts, each group scored by the sum of its two largest c; the topk_group
// best groups kept (ties: the lower group); then topk − num_fused_shared_experts experts by c
// among them (ties: the lower index), weighted s / Σ s over those chosen, and after them the
// shared experts (indices experts, experts + 1, …) weighted 1 / routed_scaling_factor; every
// weight times routed_scaling_factor when apply_routed_scaling_factor_on_output. values F64
// [tokens, topk], indices I64; row_margins as Topkrouter's (the smallest gap that decided a
// group or an expert, exact ties aside).
TopkrouterResult MoeFusedGate(const HostTensor &input, const HostTensor &bias, size_t num_expert_group,
                              size_t topk_group, size_t topk, size_t num_fused_shared_experts,
                              double routed_scaling_factor, bool apply_routed_scaling_factor_on_output);

}  // namespace infinicts::oracle
