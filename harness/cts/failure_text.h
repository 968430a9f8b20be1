// The message of a failed case in infinicts' words (docs/usage.md "Statuses"): its first line
// names the clause and says what was expected and what came back. GoogleTest's assertion texts
// ("Value of: …", "Expected equality of these values: …") put neither there.
#pragma once

#include <string>
#include <vector>

namespace infinicts::cts {

// GoogleTest's text of one failed assertion, rewritten so that its first line reads
// "<the assertion's own message>: expected <what>, got <what came back>". A text in none of
// GoogleTest's shapes comes back as it was; its trace lines stay below.
std::string PlainFailure(const std::string &gtest_text);

// Whether the first line already names a clause ("RT-MEM-16", "OP-DESC-9", "CCL-AR-1").
bool NamesClause(const std::string &first_line);

// `text` with "<clauses>: " in front of its first line, unless that line names a clause.
std::string WithClause(const std::string &text, const std::vector<std::string> &clauses);

}  // namespace infinicts::cts
