// The files a command writes besides its report (--html, --md, --md-append, --junit, --out),
// checked together before anything is written: none may be one of the command's inputs, and
// no two may name the same file (docs/usage.md "Outputs").
#pragma once

#include <string>
#include <vector>

#include "report/output_file.h"

namespace infinicts::cli {

struct NamedOutput {
  std::string flag;  // "--md", as the user typed it, for messages
  std::string path;  // empty: not asked for
  report::WriteMode mode = report::WriteMode::kReplace;
};

// An output named by --md: appended to when it is the CI job summary (GITHUB_STEP_SUMMARY),
// which every step of a job adds its part to; replaced otherwise.
NamedOutput MarkdownOutput(const std::string &path);

// "" when the outputs may be written; otherwise the one-line reason they may not.
std::string RefusedOutputs(const std::vector<NamedOutput> &outputs, const std::vector<std::string> &inputs);

bool WriteNamedOutput(const NamedOutput &output, const std::string &text, std::string *error);

// Where a command's report goes without --out: reports/out/<prefix><device>-<yyyymmdd-hhmmss>.json.
std::string DefaultReportPath(const std::string &prefix, const std::string &device);

// A new, empty directory $TMPDIR/infinicts-<purpose>-XXXXXX (/tmp without TMPDIR) for a
// command's intermediate files; "" with *error set where none can be made.
std::string MakeWorkingDirectory(const std::string &purpose, std::string *error);

}  // namespace infinicts::cli
