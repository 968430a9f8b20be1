// Replaces a file in one step: readers see the old text or the new, never half.
#pragma once

#include <string>

namespace infinicts::report {

// Writes text to an unnamed file beside PATH (or PATH.<pid>.tmp where the file system has
// no O_TMPFILE), names it PATH.<pid>.tmp and rename()s it over PATH; creates missing parent
// directories and removes the temporaries of writers that were killed. With durable, the data reaches the disk before the rename (fsync),
// which survives a power cut; without it, a killed process still leaves a whole file.
// Writes all of text to fd, retrying short writes and EINTR; false (errno set) on an error.
bool WriteAllToDescriptor(int fd, const std::string &text);

bool WriteFileAtomically(const std::string &path, const std::string &text, bool durable, std::string *error);

}  // namespace infinicts::report
