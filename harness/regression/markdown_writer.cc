#include "regression/markdown_writer.h"

#include <sstream>

#include "regression/document.h"

namespace infinicts::regression {
namespace {

constexpr size_t kMarkdownRowsPerTable = 30;

// Cell and paragraph text: no line breaks, no table-breaking pipes, no raw HTML.
std::string MarkdownText(const std::string &text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
      case '|': escaped += "\\|"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '\n': case '\r': escaped += ' '; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string MarkdownCell(const Cell &cell) {
  const std::string text = MarkdownText(cell.text);
  if (cell.style == CellStyle::kWorse && !text.empty()) return "**" + text + "**";
  return text;
}

void WriteTable(const Table &table, std::ostringstream &out) {
  out << "|";
  for (const std::string &header : table.headers) out << " " << MarkdownText(header) << " |";
  out << "\n|";
  for (size_t column = 0; column < table.headers.size(); ++column) {
    const bool numeric = !table.rows.empty() && column < table.rows[0].size() &&
                         table.rows[0][column].style == CellStyle::kNumber;
    out << (numeric ? "---:|" : "---|");
  }
  out << "\n";
  for (const std::vector<Cell> &row : table.rows) {
    out << "|";
    for (const Cell &cell : row) out << " " << MarkdownCell(cell) << " |";
    out << "\n";
  }
  if (table.rows_left_out > 0)
    out << "\n_… and " << table.rows_left_out << " more (the --html page lists more)._\n";
  out << "\n";
}

}  // namespace

std::string ComparisonMarkdown(const Comparison &comparison) {
  DocumentOptions options;
  options.max_rows = kMarkdownRowsPerTable;
  const Document document = BuildDocument(comparison, options);
  std::ostringstream out;
  out << "# " << MarkdownText(document.title) << "\n\n";
  out << (document.regression ? "❌ **" : "✅ **") << MarkdownText(document.verdict) << "**\n\n";
  for (const Section &section : document.sections) {
    out << "## " << MarkdownText(section.title) << "\n\n";
    for (const Block &block : section.blocks) {
      switch (block.kind) {
        case Block::Kind::kParagraph: out << MarkdownText(block.lines.front()) << "\n\n"; break;
        case Block::Kind::kBullets:
          for (const std::string &line : block.lines) out << "- " << MarkdownText(line) << "\n";
          out << "\n";
          break;
        case Block::Kind::kTable: WriteTable(block.table, out); break;
      }
    }
  }
  return out.str();
}

}  // namespace infinicts::regression
