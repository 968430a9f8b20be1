// `infinicts run` under mpirun (docs/usage.md, "Collectives across processes"): one runner per
// MPI rank, each running every collective case's part of its rank in its own suite process,
// and the runners talking over MPI:
//   - rank 0's suite process shares the communicator's unique id: its runner sends it to
//     every other runner, which hands it to its own suite process (cts/rank_spread.h);
//   - a part that ends badly (crash, timeout, fail, …) tells the other runners, which stop
//     their part of that case if it is still running (it may wait for ever on the lost rank)
//     and go on with the next case, as every runner does: all resume at the same place;
//   - every runner sends each part to rank 0, whose runner makes the case's one verdict
//     (runner/rank_verdict.h) and writes the one report.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "report/case_result.h"

namespace infinicts::runner {

// Where the ranks run: the report's run.ranks.
struct RankLayout {
  int ranks = 1;
  int nodes = 1;
  int ranks_per_node = 1;  // the most ranks on one node
  int local_rank = 0;      // this rank's place among the ranks of its node
};

class RankLink {
 public:
  using Deliver = std::function<void(report::CaseResult)>;
  virtual ~RankLink() = default;

  virtual int rank() const = 0;
  virtual const RankLayout &layout() const = 0;

  // Every rank runs the same cases in the same order; rank 0's `deliver` gets each case's
  // verdict once every rank's part of it is in.
  virtual void BeginCases(const std::vector<std::string> &ids, Deliver deliver) = 0;
  // Rank 0's suite process shared `hex` (its `serial`-th share in case `index`).
  virtual void Share(size_t index, int serial, const std::string &hex) = 0;
  // This rank's suite process waits for rank 0's `serial`-th share in case `index`.
  virtual void ExpectShare(size_t index, int serial) = 0;
  // What the waiting suite process is to get, once it arrived.
  virtual std::optional<std::string> TakeShare() = 0;
  // Why this rank's part of case `index` should stop now (a peer's part ended badly).
  virtual std::optional<std::string> StopFor(size_t index) = 0;
  // This rank's part of case `index` ended.
  virtual void PartEnded(size_t index, report::CaseResult part) = 0;
  // Moves messages; called every few tens of milliseconds while a suite process runs.
  virtual void Pump() = 0;
  // Rank 0: a line naming a runner on this node whose process is gone (killed, not its
  // backend), else nullopt. mpirun ends the job soon after; rank 0 writes its report first.
  // Other ranks answer nullopt: rank 0 alone ends the job.
  virtual std::optional<std::string> LostPeer() = 0;
  // After the last case: waits until every part reached rank 0. Rank 0 waits at most
  // `patience_s`; the ranks whose parts are still missing then count as lost, their parts
  // `crash`, and it delivers every verdict left. Answers one line per lost rank.
  virtual std::vector<std::string> FinishCases(double patience_s) = 0;
  // Every rank answers rank 0's code.
  virtual int AgreeExitCode(int code) = 0;
  // Ends every rank's process with `code` (rank 0, once its report is written, when a rank is lost).
  [[noreturn]] virtual void AbortAll(int code) = 0;
};

// How many ranks the launcher (OpenMPI's mpirun, or a PMI one: MPICH's, srun --mpi=pmi2)
// says this process's job has; nullopt when none started it.
std::optional<int> LaunchedRanks();

// Joins the MPI job: nullptr when this process was not started by mpirun with more than one
// rank, or (with *error) when it was but this build has no MPI or MPI cannot start.
std::unique_ptr<RankLink> JoinMpiJob(std::string *error);

}  // namespace infinicts::runner
