// The comparison laid out as a document (sections of paragraphs, bullet lists and tables)
// that the Markdown and HTML writers render the same way, so the two never disagree.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "regression/comparison.h"

namespace infinicts::regression {

// How a cell reads: plain, a number (right-aligned), or marked better / worse.
enum class CellStyle { kText, kNumber, kBetter, kWorse };

struct Cell {
  std::string text;
  CellStyle style = CellStyle::kText;
};

struct Table {
  std::vector<std::string> headers;
  std::vector<std::vector<Cell>> rows;
  size_t rows_left_out = 0;  // rows beyond the document's limit
};

struct Block {
  enum class Kind { kParagraph, kBullets, kTable } kind = Kind::kParagraph;
  std::vector<std::string> lines;  // the paragraph's text (one entry) or the bullets
  Table table;
};

struct Section {
  std::string title;
  std::vector<Block> blocks;
};

struct Document {
  std::string title;
  std::string verdict;  // one line: regression or not, and why
  bool regression = false;
  std::vector<Section> sections;
};

struct DocumentOptions {
  size_t max_rows = 30;          // per table: a CI job summary has a size limit, a page can hold more
  bool every_perf_case = false;  // add a table of every perf case timed in both
};
Document BuildDocument(const Comparison &comparison, const DocumentOptions &options);

}  // namespace infinicts::regression
