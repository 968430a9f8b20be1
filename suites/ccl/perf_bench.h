// The whole of a collective perf case, nccl-tests style: open a group over the first n
// devices, fill every rank's buffers with exact data, time the collective issued for
// every rank from one thread (inside a group) with timing::MeasureAcross over the
// ranks' streams, check each rank's result in windows (start, middle, end, and every
// rank's block for AllGather), and record time, algbw and busbw.
#pragma once

#include "perf_params.h"

namespace infinicts::ccl_cases {

void RunCollectivePerf(const CollectivePerfParam &param);

}  // namespace infinicts::ccl_cases
