// A small XML well-formedness check for the JUnit output, so the test needs no XML
// library: one root element, matched tags, quoted attributes, known entities only.
#pragma once

#include <string>

namespace infinicts::render::test {

// Empty when `text` is well-formed XML; else the first problem and its offset.
std::string XmlProblem(const std::string &text);

}  // namespace infinicts::render::test
