#include "common/problem_fuzzing.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "tensor/layout.h"

namespace infinicts::op_cases {
namespace {

using Fields = std::vector<FieldText>;
using Engine = std::mt19937_64;  // drawn with % only: the same draws on every standard library

// Extents that catch what fixed shapes miss: empty, single, odd, around powers of two.
constexpr size_t kExtents[] = {0, 1, 2, 3, 5, 7, 8, 13, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257};
// Rows longer than a vector loop's block or a thread block's share.
constexpr size_t kLongRows[] = {511, 1000, 1023, 1024, 1025, 2047, 2048, 4097};
constexpr size_t kLeadingExtents[] = {1, 2, 3, 5};
constexpr size_t kMaxDims = 5;
constexpr size_t kDrawAttemptsPerLine = 50;

template <class T, size_t N>
T Pick(const T (&values)[N], Engine &rng) {
  return values[rng() % N];
}

template <class T>
T Pick(const std::vector<T> &values, Engine &rng) {
  return values[rng() % values.size()];
}

Shape ParseShape(const std::string &text) {
  Shape shape;
  FieldCodec<Shape>::Parse(text, &shape);
  return shape;
}

std::string VariedShape(const std::string &text, Engine &rng) {
  Shape shape = ParseShape(text);
  switch (rng() % 6) {
    case 0:
    case 1:  // one extent
      if (shape.empty()) shape.push_back(0);
      shape[rng() % shape.size()] = Pick(kExtents, rng);
      break;
    case 2:  // a long row
      if (shape.empty()) shape.push_back(1);
      shape.back() = Pick(kLongRows, rng);
      break;
    case 3:  // one dimension more, in front
      if (shape.size() < kMaxDims) shape.insert(shape.begin(), Pick(kLeadingExtents, rng));
      break;
    case 4:  // one dimension fewer
      if (shape.size() > 1) shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(rng() % shape.size()));
      break;
    default:  // every extent odd
      for (size_t &extent : shape) extent |= 1;
      break;
  }
  return FieldCodec<Shape>::Text(shape);
}

// Neighbours of a number, and the values the compiled-in problems give the field.
// Within the field's bounds (FieldBounds), and not below 0 for an unsigned field.
std::string VariedNumber(const FieldText &field, const std::vector<std::string> &seen, Engine &rng) {
  double value = 0;
  if (!ParseNumber(field.text, &value) || rng() % 3 == 0) return Pick(seen, rng);
  std::vector<double> near = field.kind == FieldKind::kReal
                                 ? std::vector<double>{value * 2, value / 2, value * 10, value / 10, 0, 1}
                                 : std::vector<double>{value + 1, value - 1, value * 2, std::floor(value / 2), 0, 1};
  const double low = field.kind == FieldKind::kUnsigned ? std::max(0.0, field.low) : field.low;
  near.erase(std::remove_if(near.begin(), near.end(), [&](double v) { return v < low || v > field.high; }), near.end());
  return near.empty() ? field.text : ShortestText(Pick(near, rng));
}

std::string Varied(const FieldText &field, const std::vector<std::string> &seen, Engine &rng) {
  switch (field.kind) {
    case FieldKind::kShape: return VariedShape(field.text, rng);
    case FieldKind::kEnum: return Pick(field.choices, rng);
    case FieldKind::kBool: return field.text == "true" ? "false" : "true";
    case FieldKind::kInteger:
    case FieldKind::kUnsigned:
    case FieldKind::kReal: return VariedNumber(field, seen, rng);
    default: return Pick(seen, rng);
  }
}

// Every field written as key=value: a line the parser reads whatever the defaults.
std::string FullLine(const Fields &fields) {
  std::string line;
  for (const FieldText &field : fields) {
    std::string text = field.text;
    if (text == "scalar") text = "none";
    line += (line.empty() ? "" : " ") + field.key + "=" + text;
  }
  return line;
}

const FieldText *FindField(const Fields &fields, const std::string &key) {
  for (const FieldText &field : fields) {
    if (field.key == key) return &field;
  }
  return nullptr;
}

// Smaller first: fewer bytes, fewer fields away from the plain problem, smaller extents.
std::tuple<size_t, size_t, size_t> Size(const CheckedProblem &problem, const Fields &plain) {
  size_t unplain = 0, extents = 0;
  for (const FieldText &field : problem.fields) {
    const FieldText *plain_field = FindField(plain, field.key);
    if (!plain_field || plain_field->text != field.text) ++unplain;
    if (field.kind == FieldKind::kShape) {
      for (const size_t extent : ParseShape(field.text)) extents += extent;
    }
  }
  return {problem.bytes, unplain, extents};
}

}  // namespace

std::vector<std::string> DrawProblemLines(const FuzzedOperator &op, uint64_t seed, size_t count) {
  std::vector<std::string> lines;
  if (op.corpus.empty()) return lines;
  std::map<std::string, std::vector<std::string>> seen;  // each field's values in the corpus
  for (const Fields &fields : op.corpus) {
    for (const FieldText &field : fields) {
      std::vector<std::string> &values = seen[field.key];
      if (std::find(values.begin(), values.end(), field.text) == values.end()) values.push_back(field.text);
    }
  }
  Engine rng(seed);
  std::set<std::string> drawn;
  for (size_t attempt = 0; attempt < count * kDrawAttemptsPerLine && lines.size() < count; ++attempt) {
    Fields fields = Pick(op.corpus, rng);
    std::vector<size_t> variable;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].kind != FieldKind::kDtype) variable.push_back(i);
    }
    if (variable.empty()) break;
    const size_t changes = 1 + rng() % 3;
    for (size_t change = 0; change < changes; ++change) {
      FieldText &field = fields[Pick(variable, rng)];
      field.text = Varied(field, seen[field.key], rng);
    }
    const std::optional<CheckedProblem> checked = op.check(FullLine(fields));
    if (!checked || checked->bytes > kMaxFuzzedBytes || !drawn.insert(checked->line).second) continue;
    lines.push_back(checked->line);
  }
  return lines;
}

std::vector<std::string> SimplerProblemLines(const FuzzedOperator &op, const std::string &line) {
  const std::optional<CheckedProblem> start = op.check(line);
  if (!start) return {};
  std::vector<Fields> steps;
  const Fields &fields = start->fields;
  for (size_t i = 0; i < fields.size(); ++i) {
    auto step = [&](const std::string &text) {
      if (text == fields[i].text) return;
      Fields changed = fields;
      changed[i].text = text;
      steps.push_back(std::move(changed));
    };
    const FieldText &field = fields[i];
    if (field.kind == FieldKind::kDtype) continue;  // a failure is kept in its dtype
    if (field.kind == FieldKind::kShape) {
      const Shape shape = ParseShape(field.text);
      for (size_t d = 0; d < shape.size(); ++d) {
        Shape fewer = shape, one = shape, half = shape, less = shape;
        fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(d));
        one[d] = 1;
        half[d] = (shape[d] + 1) / 2;
        less[d] = shape[d] > 0 ? shape[d] - 1 : 0;
        if (!fewer.empty()) step(FieldCodec<Shape>::Text(fewer));
        for (const Shape &smaller : {one, half, less}) step(FieldCodec<Shape>::Text(smaller));
      }
    }
    if (const FieldText *plain = FindField(op.plain, field.key)) step(plain->text);
  }
  const auto start_size = Size(*start, op.plain);
  std::vector<std::pair<std::tuple<size_t, size_t, size_t>, std::string>> simpler;
  std::set<std::string> taken = {start->line};
  for (const Fields &candidate : steps) {
    const std::optional<CheckedProblem> checked = op.check(FullLine(candidate));
    if (!checked || !taken.insert(checked->line).second) continue;
    const auto size = Size(*checked, op.plain);
    if (size < start_size) simpler.emplace_back(size, checked->line);
  }
  std::stable_sort(simpler.begin(), simpler.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<std::string> lines;
  for (const auto &[size, simpler_line] : simpler) lines.push_back(simpler_line);
  return lines;
}

}  // namespace infinicts::op_cases
