// infinicts-spec-check --spec docs/spec/rt.md (--suite build/bin/infinicts-suite-rt | --cases FILE)
// Fails (exit 1) when a case cites a clause the spec lacks, a case cites none, a MUST
// clause is checked by no case, or the spec itself is malformed; 2 on bad usage.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "spec_links.h"

namespace {

[[noreturn]] void Usage(const std::string &why) {
  std::cerr << "infinicts-spec-check: " << why
            << "\nusage: infinicts-spec-check --spec FILE.md (--suite SUITE_BINARY | --cases LIST.jsonl)\n";
  std::exit(2);
}

bool ReadFile(const std::string &path, std::string *text) {
  std::ifstream file(path);
  if (!file) return false;
  std::ostringstream content;
  content << file.rdbuf();
  *text = content.str();
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  std::string spec_path, suite, cases_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) Usage(arg + " needs a value");
    if (arg == "--spec") spec_path = argv[++i];
    else if (arg == "--suite") suite = argv[++i];
    else if (arg == "--cases") cases_path = argv[++i];
    else Usage("unknown option " + arg);
  }
  if (spec_path.empty() || suite.empty() == cases_path.empty()) Usage("give --spec and one of --suite, --cases");

  std::string markdown, listing;
  if (!ReadFile(spec_path, &markdown)) Usage("cannot read " + spec_path);
  if (!suite.empty() && !infinicts::spec::ListSuite(suite, &listing)) Usage("cannot list the cases of " + suite);
  if (!cases_path.empty() && !ReadFile(cases_path, &listing)) Usage("cannot read " + cases_path);

  const infinicts::spec::Spec spec = infinicts::spec::ParseSpec(markdown);
  std::vector<std::string> errors = spec.errors;
  const auto cases = infinicts::spec::ParseCaseList(listing, &errors);
  const auto report = infinicts::spec::CheckLinks(spec, cases);
  errors.insert(errors.end(), report.errors.begin(), report.errors.end());

  for (const std::string &warning : report.warnings) std::cout << "warning: " << warning << "\n";
  for (const std::string &error : errors) std::cout << "error: " << error << "\n";
  size_t must = 0;
  for (const auto &clause : spec.clauses) must += clause.must ? 1 : 0;
  std::cout << spec_path << ": " << spec.clauses.size() << " clauses (" << must << " MUST), " << cases.size()
            << " cases, " << errors.size() << " errors, " << report.warnings.size() << " warnings\n";
  return errors.empty() ? 0 : 1;
}
