// One rank of a communicator under mpirun, one rank per process: rank 0 makes the id and
// MPI broadcasts it; each rank runs process_rank_checks.h on the CPU device rank % device
// count. Exit 0 on every rank when every rank's checks held.
#include <mpi.h>

#include <cstdio>

#include "process_rank_checks.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  infinicclUniqueId_t id{};
  int made = INFINI_STATUS_SUCCESS;
  if (rank == 0) made = infinicclGetUniqueId(&id);
  MPI_Bcast(&made, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(id.internal, sizeof id.internal, MPI_BYTE, 0, MPI_COMM_WORLD);
  int passed = made == INFINI_STATUS_SUCCESS && ccl_test::RunProcessRank(size, rank, id) ? 1 : 0;
  int every_rank_passed = 0;
  MPI_Allreduce(&passed, &every_rank_passed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("%d ranks under mpirun: %s\n", size, every_rank_passed ? "every check held" : "a check failed");
  }
  MPI_Finalize();
  return every_rank_passed ? 0 : 1;
}
