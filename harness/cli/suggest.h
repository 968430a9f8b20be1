// "Did you mean": the known word nearest a mistyped one (a subcommand, a flag), so that a typo
// gets an answer that fixes it rather than "A subcommand is required".
#pragma once

#include <string>
#include <vector>

namespace infinicts::cli {

// The candidate with the fewest single-letter edits (insert, delete, replace, swap of two
// neighbours) from `word`, when that is close enough to be a typo of it; "" otherwise.
std::string NearestWord(const std::string &word, const std::vector<std::string> &candidates);

}  // namespace infinicts::cli
