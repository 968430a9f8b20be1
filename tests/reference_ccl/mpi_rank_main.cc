// One rank of a communicator under mpirun, one rank per process: rank 0 makes the id and
// MPI broadcasts it; each rank runs process_rank_checks.h on the CPU device rank % device
// count. MPI is initialized with MPI_THREAD_MULTIPLE, so the library meets over MPI first:
// on one host the ranks then share memory, unless INFINICTS_REF_CCL_TRANSPORT=mpi makes
// them exchange messages as ranks on several hosts do. `--expect messages` checks the
// latter (no peer buffer mapped). Exit 0 on every rank when every rank's checks held.
#include <mpi.h>

#include <cstdio>
#include <cstring>

#include "process_rank_checks.h"

int main(int argc, char **argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const bool messages = argc > 2 && std::strcmp(argv[1], "--expect") == 0 && std::strcmp(argv[2], "messages") == 0;
  if (provided != MPI_THREAD_MULTIPLE && rank == 0) {
    std::fprintf(stderr, "this MPI gives thread level %d, not MPI_THREAD_MULTIPLE\n", provided);
  }
  infinicclUniqueId_t id{};
  int made = INFINI_STATUS_SUCCESS;
  if (rank == 0) made = infinicclGetUniqueId(&id);
  MPI_Bcast(&made, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(id.internal, sizeof id.internal, MPI_BYTE, 0, MPI_COMM_WORLD);
  const auto expected = messages ? ccl_test::PeerBuffers::kUnmapped : ccl_test::PeerBuffers::kMapped;
  int passed = made == INFINI_STATUS_SUCCESS && ccl_test::RunProcessRank(size, rank, id, expected) ? 1 : 0;
  int every_rank_passed = 0;
  MPI_Allreduce(&passed, &every_rank_passed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("%d ranks under mpirun, %s: %s\n", size, messages ? "messages over MPI" : "shared memory",
                every_rank_passed ? "every check held" : "a check failed");
  }
  MPI_Finalize();
  return every_rank_passed ? 0 : 1;
}
