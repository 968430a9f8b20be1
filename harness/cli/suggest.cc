#include "cli/suggest.h"

#include <algorithm>

namespace infinicts::cli {
namespace {

// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one span).
size_t EditDistance(const std::string &a, const std::string &b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::string NearestWord(const std::string &word, const std::vector<std::string> &candidates) {
  std::string nearest;
  size_t best = SIZE_MAX;
  for (const std::string &candidate : candidates) {
    const size_t distance = EditDistance(word, candidate);
    if (distance < best) {
      best = distance;
      nearest = candidate;
    }
  }
  // A third of the word's letters, at least 1 and at most 3, may be wrong: further is no typo.
  const size_t allowed = std::clamp<size_t>(word.size() / 3, 1, 3);
  return best <= allowed ? nearest : "";
}

}  // namespace infinicts::cli
