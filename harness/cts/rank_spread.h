// One rank of each collective case per suite process: what a suite process knows when
// `infinicts run` was started by mpirun (docs/usage.md, "Collectives across processes").
// Every MPI rank's runner starts its own suite process with --cts-spread RANK/RANKS; a case
// then drives only that rank of its group (ranks at or above the group's size stay out),
// and rank 0's process shares what the others need (the communicator's unique id) through
// the runners: it writes {"event":"share","data":HEX} on the results pipe, every other
// process writes {"event":"need_share"}, and each reads the shared bytes back as one line
// of hex on its input pipe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace infinicts::cts {

struct RankSpread {
  int rank = 0;
  int ranks = 1;
  int input_fd = -1;    // where the runner writes what rank 0 shared
  int results_fd = -1;  // where the share requests go
};

// Set once by the suite's main; nullopt when this process drives every rank itself.
std::optional<RankSpread> &Spread();

// Rank 0 passes the bytes to share and gets them back; every other rank passes nothing
// and gets rank 0's. Answers nullopt, with *error, when the runner gave nothing back.
std::optional<std::string> ShareFromRankZero(const std::string &bytes, std::string *error);

// Lists a fixture's cases as able to run one rank per process (CTS_ACROSS_PROCESSES).
bool MarkAcrossProcesses(const char *fixture);
bool RunsAcrossProcesses(const std::string &fixture);

// The skip message of a rank that has no part in a case's group: the runner of rank 0
// leaves such ranks out of the case's verdict.
inline constexpr const char *kOutsideGroupPrefix = "outside the group: ";

// Bits every rank of a case must receive alike, where no process sees another rank's bytes:
// each rank's part records a digest of what it received (kBitsDigestMetric) and whether the
// case requires agreement here (kBitsMustAgreeMetric, 1 or 0); the runner of rank 0 compares
// the digests (runner/rank_verdict.h). The digest is FNV-1a cut to 52 bits, so a double
// holds it exactly.
inline constexpr const char *kBitsDigestMetric = "bits_digest";
inline constexpr const char *kBitsMustAgreeMetric = "bits_must_agree";
double BitsDigest(const void *bytes, size_t size);

// "0x1f…" <-> bytes, as the share protocol carries them.
std::string HexOf(const std::string &bytes);
std::optional<std::string> BytesOfHex(const std::string &hex);

}  // namespace infinicts::cts

#define CTS_ACROSS_PROCESSES(Fixture) \
  static const bool cts_across_##Fixture [[maybe_unused]] = ::infinicts::cts::MarkAcrossProcesses(#Fixture)
