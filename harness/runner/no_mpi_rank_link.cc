// The build without MPI: a run that mpirun started with several ranks cannot be one.
#include "runner/rank_link.h"

namespace infinicts::runner {

std::unique_ptr<RankLink> JoinMpiJob(std::string *error) {
  const std::optional<int> ranks = LaunchedRanks();
  if (ranks && *ranks > 1) {
    *error = "mpirun started " + std::to_string(*ranks) +
             " ranks, but this infinicts was built without MPI (install openmpi-bin and libopenmpi-dev, and build "
             "again)";
  }
  return nullptr;
}

}  // namespace infinicts::runner
