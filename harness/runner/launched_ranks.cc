#include <cstdlib>
#include <optional>
#include <string>

#include "runner/rank_link.h"

namespace infinicts::runner {

std::optional<int> LaunchedRanks() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const char *value = std::getenv(name);
    if (value == nullptr || *value == '\0') continue;
    const int ranks = std::atoi(value);
    if (ranks > 0) return ranks;
  }
  return std::nullopt;
}

}  // namespace infinicts::runner
