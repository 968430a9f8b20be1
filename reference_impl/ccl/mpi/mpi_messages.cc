#include "ccl/mpi/mpi_messages.h"

#include <algorithm>
#include <utility>

namespace infinicts::ref::ccl {
namespace {

constexpr size_t kPieceBytes = size_t{1} << 30;

}  // namespace

void MpiExchange::Send(const void *data, size_t bytes, int to) {
  const char *at = static_cast<const char *>(data);
  for (size_t done = 0; done < bytes; done += kPieceBytes) {
    const int piece = static_cast<int>(std::min(kPieceBytes, bytes - done));
    requests_.emplace_back();
    MPI_Isend(at + done, piece, MPI_BYTE, to, tag_, comm_, &requests_.back());
  }
}

void MpiExchange::Recv(void *data, size_t bytes, int from) {
  char *at = static_cast<char *>(data);
  for (size_t done = 0; done < bytes; done += kPieceBytes) {
    const int piece = static_cast<int>(std::min(kPieceBytes, bytes - done));
    requests_.emplace_back();
    MPI_Irecv(at + done, piece, MPI_BYTE, from, tag_, comm_, &requests_.back());
  }
}

void MpiExchange::Wait() {
  if (requests_.empty()) return;
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
}

std::vector<MPI_Request> MpiExchange::Release() { return std::exchange(requests_, {}); }

}  // namespace infinicts::ref::ccl
