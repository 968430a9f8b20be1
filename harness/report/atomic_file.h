// Replaces a file in one step: readers see the old text or the new, never half.
#pragma once

#include <string>

namespace infinicts::report {

// Writes text to PATH.tmp and rename()s it over PATH; creates missing parent
// directories. With durable, the data reaches the disk before the rename (fsync),
// which survives a power cut; without it, a killed process still leaves a whole file.
bool WriteFileAtomically(const std::string &path, const std::string &text, bool durable, std::string *error);

}  // namespace infinicts::report
