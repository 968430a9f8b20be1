#include "common/against.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "common/op_case.h"
#include "common/worst_comparison.h"
#include "cts/against_outputs.h"
#include "report/fnv1a.h"
#include "tolerance/output_check.h"

namespace infinicts::op_cases {
namespace {

constexpr const char *kMagic = "infinicts-outputs 1";

// One file per case, named by a digest of its full GoogleTest name: both backends' runs of
// the case (the same binary, the same name, so the same seed and data) meet at it.
std::string OutputsPath() {
  const testing::TestInfo *info = testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
  report::Fnv1a hash;
  hash.Add(name.data(), name.size());
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(hash.value()));
  return cts::AgainstRunOfProcess().dir + "/" + digest + ".outputs";
}

// Each written tensor: "<spec> <ndim> <extents...>", a newline, then its values as doubles in
// row-major order of its host shape.
void Save(const PreparedCall &call, const std::vector<HostTensor> &got) {
  const std::string path = OutputsPath(), part = path + ".part";
  {
    std::ofstream out(part, std::ios::binary | std::ios::trunc);
    out << kMagic << "\n";
    for (size_t i = 0; i < call.specs.size(); ++i) {
      if (!call.specs[i].present || !IsWritten(call.specs[i])) continue;
      const std::vector<double> values = got.at(i).ToDoubles();
      out << i << " " << got[i].shape().size();
      for (size_t extent : got[i].shape()) out << " " << extent;
      out << "\n";
      out.write(reinterpret_cast<const char *>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(double)));
    }
    out << "end\n";
    if (!out) throw std::runtime_error("cannot write " + part + " (the side-by-side outputs)");
  }
  if (std::rename(part.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename " + part + " to " + path);
  cts::NoteHowItRan("outputs kept for the side-by-side comparison with " + cts::AgainstRunOfProcess().under_test);
}

// The other backend's outputs, one per spec (F64, empty where nothing was written); false when
// it left none (it refused, failed or crashed before they were saved).
bool Load(const PreparedCall &call, std::vector<HostTensor> *theirs) {
  const std::string path = OutputsPath();
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string line;
  if (!std::getline(in, line) || line != kMagic) throw std::runtime_error(path + " is not a side-by-side outputs file");
  theirs->assign(call.specs.size(), HostTensor());
  while (std::getline(in, line) && line != "end") {
    std::istringstream fields(line);
    size_t spec = 0, rank = 0;
    fields >> spec >> rank;
    Shape shape(rank);
    for (size_t &extent : shape) fields >> extent;
    if (!fields || spec >= call.specs.size()) throw std::runtime_error(path + ": a malformed tensor line: " + line);
    std::vector<double> values(NumElements(shape));
    in.read(reinterpret_cast<char *>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(double)));
    if (!in) throw std::runtime_error(path + " ends inside a tensor");
    (*theirs)[spec] = HostTensor::FromValues(INFINI_DTYPE_F64, shape, values);
  }
  if (line != "end") throw std::runtime_error(path + " ends before its end line");
  return true;
}

void Compare(const PreparedCall &call, const std::vector<HostTensor> &got) {
  const cts::AgainstRun &run = cts::AgainstRunOfProcess();
  std::vector<HostTensor> theirs;
  if (!Load(call, &theirs)) {
    GTEST_SKIP() << run.other << " left no outputs for this problem: it refused, failed or crashed on it (its "
                 << "side report says which)";
  }
  // Ties either backend may order its own way are settled as this one did, where valid.
  if (call.settle_ties) theirs = call.settle_ties(call.tensors, theirs, got);
  WorstComparison worst;
  for (size_t i = 0; i < call.specs.size(); ++i) {
    if (!call.specs[i].present || !IsWritten(call.specs[i])) continue;
    if (theirs[i].shape() != got[i].shape()) {
      throw std::runtime_error("the outputs saved for " + call.specs[i].name + " have another shape: the two runs "
                               "prepared different problems");
    }
    const Tolerance tolerance = SideBySideTolerance(call.tolerances[i]);
    const CompareResult result = infinicts::Compare(theirs[i], got[i], tolerance);
    if (!result.pass) {
      OP_ADD_FAILURE("OP-ACC-2: output " + DescribeTensor(call.specs[i]) + " of " + run.under_test +
                     " differs from " + run.other + "'s, taken as expected: " + result.message +
                     "\n  tolerance: " + tolerance.reason + "\n  problem: " + call.subject + " " + call.problem_json);
    }
    worst.Add(result);
  }
  worst.Record("against_");
}

}  // namespace

Tolerance SideBySideTolerance(const Tolerance &tolerance) {
  Tolerance doubled = tolerance;
  doubled.atol *= 2;
  doubled.rtol *= 2;
  doubled.reason = "twice the oracle's (" + tolerance.reason + "): each backend may be that far from the exact value";
  return doubled;
}

void CheckAgainst(const PreparedCall &call, const std::vector<HostTensor> &got) {
  switch (cts::AgainstRunOfProcess().role) {
    case cts::AgainstRole::kSave: Save(call, got); break;
    case cts::AgainstRole::kCompare: Compare(call, got); break;
    case cts::AgainstRole::kNone: throw std::logic_error("a side-by-side case ran outside a side-by-side run");
  }
}

}  // namespace infinicts::op_cases
