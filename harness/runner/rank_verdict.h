// One verdict from every rank's part of a case run one rank per process (under mpirun):
//   - a rank outside the case's group (cts::kOutsideGroupPrefix) has no say;
//   - a rank stopped because a peer's part went wrong (kStoppedForPeerPrefix) has no say
//     beyond "stopped";
//   - the status is the worst of the others (crash, timeout, fail, blocked, unsupported,
//     skip, pass), and the message is the first such rank's, followed by a line naming
//     every rank that did not pass and how;
//   - a perf case's metrics and timing are the slowest rank's (largest time_ms_median),
//     the duration the longest part's;
//   - where the parts carry bit digests (cts::kBitsDigestMetric), ranks_disagreeing counts
//     the members whose digest differs from the first member's, and where agreement is
//     required a passing case fails naming those ranks.
#pragma once

#include <vector>

#include "report/case_result.h"

namespace infinicts::runner {

// The message a rank's part gets when the runner stopped it for a peer's sake.
inline constexpr const char *kStoppedForPeerPrefix = "stopped for a peer: ";

// parts[r] is rank r's part; every part has the same id. Needs at least one part.
report::CaseResult CombineRankParts(const std::vector<report::CaseResult> &parts);

// Whether a part's outcome should stop the peers still in the case (their collective
// may never end without this rank): anything but pass, xfail and standing outside the group.
bool StopsPeers(const report::CaseResult &part);

}  // namespace infinicts::runner
