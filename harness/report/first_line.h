// The first line of a message: what one-line listings (terminal, Markdown, JUnit
// attributes, comparison tables) show of a case's message.
#pragma once

#include <string>

namespace infinicts::report {

inline std::string FirstLine(const std::string &text) { return text.substr(0, text.find('\n')); }

}  // namespace infinicts::report
