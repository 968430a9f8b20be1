// The messages of one step of a collective, posted together and waited for together.
// A message of any size travels as pieces of at most 1 GiB (MPI counts are ints); both
// sides cut the same byte count into the same pieces, and MPI keeps the order of messages
// between two ranks with one tag, so the pieces pair up.
#ifndef INFINICTS_REF_CCL_MPI_MPI_MESSAGES_H
#define INFINICTS_REF_CCL_MPI_MPI_MESSAGES_H

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace infinicts::ref::ccl {

class MpiExchange {
 public:
  MpiExchange(MPI_Comm comm, int tag) : comm_(comm), tag_(tag) {}
  MpiExchange(const MpiExchange &) = delete;
  MpiExchange &operator=(const MpiExchange &) = delete;
  ~MpiExchange() { Wait(); }

  void Send(const void *data, size_t bytes, int to);
  void Recv(void *data, size_t bytes, int from);
  // Returns when every message posted since the last Wait has gone or arrived.
  void Wait();
  // Hands the posted sends' requests over (for a Send that must not wait).
  std::vector<MPI_Request> Release();

 private:
  MPI_Comm comm_;
  int tag_;
  std::vector<MPI_Request> requests_;
};

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_MPI_MPI_MESSAGES_H
