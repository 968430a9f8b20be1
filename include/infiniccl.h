/* infinicts: InfiniCCL, the collective communication interface.
 * ABI-compatible with InfiniCore's public infiniccl.h. */
#ifndef INFINICTS_INFINICCL_H
#define INFINICTS_INFINICCL_H

#include "infinirt.h"

typedef enum {
    INFINICCL_SUM = 0,
    INFINICCL_PROD = 1,
    INFINICCL_MAX = 2,
    INFINICCL_MIN = 3,
    INFINICCL_AVG = 4,
} infinicclReduceOp_t;

struct InfinicclComm;
typedef struct InfinicclComm *infinicclComm_t;

typedef struct {
    char internal[128];
} infinicclUniqueId_t;

/* Communicators: CommInitAll makes one communicator per device in one call, comms[i] being
 * rank i on device_ids[i]; GetUniqueId + CommInitRank make one rank at a time. */
__INFINI_C __export infiniStatus_t infinicclCommInitAll(infiniDevice_t device_type, infinicclComm_t *comms,
                                                        int ndevice, const int *device_ids);
__INFINI_C __export infiniStatus_t infinicclGetUniqueId(infinicclUniqueId_t *unique_id);
__INFINI_C __export infiniStatus_t infinicclCommInitRank(infinicclComm_t *comm, int nranks,
                                                         infinicclUniqueId_t unique_id, int rank);
__INFINI_C __export infiniStatus_t infinicclCommDestroy(infinicclComm_t comm);

__INFINI_C __export infiniStatus_t infinicclGroupStart(infinicclComm_t comm);
__INFINI_C __export infiniStatus_t infinicclGroupEnd(infinicclComm_t comm);

/* Collectives: each is enqueued on the rank's stream and completes when every rank reached it. */
__INFINI_C __export infiniStatus_t infinicclAllReduce(void *sendbuf, void *recvbuf, size_t count,
                                                      infiniDtype_t datatype, infinicclReduceOp_t op,
                                                      infinicclComm_t comm, infinirtStream_t stream);
__INFINI_C __export infiniStatus_t infinicclBroadcast(const void *sendbuf, void *recvbuf, size_t count,
                                                      infiniDtype_t datatype, int root, infinicclComm_t comm,
                                                      infinirtStream_t stream);
__INFINI_C __export infiniStatus_t infinicclSend(const void *sendbuf, size_t count, infiniDtype_t datatype,
                                                 int peer, infinicclComm_t comm, infinirtStream_t stream);
__INFINI_C __export infiniStatus_t infinicclRecv(void *recvbuf, size_t count, infiniDtype_t datatype, int peer,
                                                 infinicclComm_t comm, infinirtStream_t stream);
__INFINI_C __export infiniStatus_t infinicclAllGather(void *sendbuf, void *recvbuf, size_t send_count,
                                                      infiniDtype_t datatype, infinicclComm_t comm,
                                                      infinirtStream_t stream);
__INFINI_C __export infiniStatus_t infinicclReduceScatter(void *sendbuf, void *recvbuf, size_t recv_count,
                                                          infiniDtype_t datatype, infinicclReduceOp_t op,
                                                          infinicclComm_t comm, infinirtStream_t stream);

/* The variable-size forms: recv_counts / send_counts hold one count per rank (nranks of them,
 * the communicator's size), and rank r's block starts at the sum of the counts before r.
 * AllGatherV: rank r sends recv_counts[r] elements; every rank receives all blocks in rank order.
 * ReduceScatterV: every send buffer holds the sum of the counts; rank r receives block r, reduced. */
__INFINI_C __export infiniStatus_t infinicclAllGatherV(void *sendbuf, void *recvbuf, const size_t *recv_counts,
                                                       int nranks, infiniDtype_t datatype, infinicclComm_t comm,
                                                       infinirtStream_t stream);
__INFINI_C __export infiniStatus_t infinicclReduceScatterV(void *sendbuf, void *recvbuf, const size_t *send_counts,
                                                           int nranks, infiniDtype_t datatype,
                                                           infinicclReduceOp_t op, infinicclComm_t comm,
                                                           infinirtStream_t stream);

#endif /* INFINICTS_INFINICCL_H */
