/* infinicts: the types of the operators' create-time attributes that are not plain numbers.
 * ABI-compatible with InfiniCore's declarations of the same names. */
#ifndef INFINICTS_INFINIOP_OPERATOR_ATTRIBUTES_H
#define INFINICTS_INFINIOP_OPERATOR_ATTRIBUTES_H

/* MRoPE's create call takes a bool. */
#ifndef __cplusplus
#include <stdbool.h>
#endif

/* RoPE's pairing of the head dim: GPT_J pairs (2i, 2i+1), GPT_NEOX pairs (i, i + dhead/2). */
typedef enum {
    INFINIOP_ROPE_ALGO_GPT_J = 0,
    INFINIOP_ROPE_ALGO_GPT_NEOX = 1,
    INFINIOP_ROPE_ALGO_COUNT = 2,
} infiniopRoPEAlgo_t;

#endif /* INFINICTS_INFINIOP_OPERATOR_ATTRIBUTES_H */
