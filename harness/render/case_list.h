// The HTML page's list of every case, failures first, and the filters that pick rows of it:
// a matrix cell or a table count links to the first case it counts (an anchor that works
// without script) and carries its filter (which the page's script applies).
#pragma once

#include <string>
#include <vector>

#include "render/report_data.h"

namespace infinicts::render {

// What a link into the case list selects; empty fields match anything. status "failing"
// matches fail, blocked, crash and timeout; mode may list several, comma-separated.
struct CaseFilter {
  std::string status, subject, mode, dtype, clause;  // subject as "<suite>.<subject>"
  bool Matches(const Json &result) const;
  // "status=fail&subject=op.gemm": the page's URL fragment for it.
  std::string Fragment() const;
};

class CaseList {
 public:
  explicit CaseList(const Json &report);
  // The anchor (without '#') of the first case in list order that `filter` matches; empty
  // when none does.
  std::string FirstAnchor(const CaseFilter &filter) const;
  // <a href="#case-N" data-filter="…">text</a>, or the bare text when no case matches.
  std::string Link(const CaseFilter &filter, const std::string &html_text, const std::string &title = "") const;
  // The section: filter form (shown by the script), then one row per case.
  std::string Section() const;

 private:
  std::vector<const Json *> ordered_;  // failures first, worst status first, then report order
};

}  // namespace infinicts::render
