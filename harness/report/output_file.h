// Where a command's output goes (docs/usage.md "Outputs"): whatever is at the path is never
// destroyed. A regular file, or no file, is replaced atomically (or appended to); standard
// output ("-", /dev/stdout), a character device or a FIFO is written in place; a symlink is
// followed, never replaced.
#pragma once

#include <string>
#include <vector>

namespace infinicts::report {

enum class WriteMode {
  kReplace,  // the file holds `text` alone afterwards
  kAppend,   // `text` is added at the end (a CI job summary holding earlier steps' parts)
};

// How an output path is written.
enum class OutputKind {
  kFile,     // a regular file or none (after symlinks): replaced atomically, may have a journal
  kInPlace,  // standard output, a device, a FIFO or a socket: written as it is, once
};
OutputKind KindOfOutput(const std::string &path);

// `path` with its symlinks followed to the name that is not one (which may not exist yet);
// `path` itself when a link cannot be read.
std::string FinalPathOf(const std::string &path);

bool WriteOutput(const std::string &path, const std::string &text, WriteMode mode, bool durable, std::string *error);

// The first of `inputs` that writing `output` would overwrite: the same file once symlinks
// are followed, or another name (a hard link) of it. "" when none.
std::string InputOverwrittenBy(const std::string &output, const std::vector<std::string> &inputs);

// Whether `path` names the file in the environment variable GITHUB_STEP_SUMMARY, the job
// summary that every step of a GitHub Actions job appends to.
bool IsJobSummary(const std::string &path);

}  // namespace infinicts::report
