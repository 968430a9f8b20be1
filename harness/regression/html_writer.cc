#include "regression/html_writer.h"

#include <sstream>

#include "regression/document.h"
#include "render/html_page.h"

namespace infinicts::regression {
namespace {

constexpr size_t kHtmlRowsPerTable = 1000;

using render::HtmlEscape;

const char *ClassOf(CellStyle style) {
  switch (style) {
    case CellStyle::kText: return "";
    case CellStyle::kNumber: return " class=\"num\"";
    case CellStyle::kBetter: return " class=\"better\"";
    case CellStyle::kWorse: return " class=\"worse\"";
  }
  return "";
}

void WriteTable(const Table &table, std::ostringstream &out) {
  out << "<table>\n<thead><tr>";
  for (const std::string &header : table.headers) out << "<th>" << HtmlEscape(header) << "</th>";
  out << "</tr></thead>\n<tbody>\n";
  for (const std::vector<Cell> &row : table.rows) {
    out << "<tr>";
    for (const Cell &cell : row) out << "<td" << ClassOf(cell.style) << ">" << HtmlEscape(cell.text) << "</td>";
    out << "</tr>\n";
  }
  out << "</tbody>\n</table>\n";
  if (table.rows_left_out > 0) out << "<p>… and " << table.rows_left_out << " more rows.</p>\n";
}

}  // namespace

std::string ComparisonHtml(const Comparison &comparison) {
  DocumentOptions options;
  options.max_rows = kHtmlRowsPerTable;
  options.every_perf_case = true;
  const Document document = BuildDocument(comparison, options);
  std::ostringstream body;
  body << "<h1>" << HtmlEscape(document.title) << "</h1>\n";
  body << "<p class=\"" << (document.regression ? "worse" : "better") << "\">" << HtmlEscape(document.verdict)
       << "</p>\n";
  for (const Section &section : document.sections) {
    body << "<h2>" << HtmlEscape(section.title) << "</h2>\n";
    for (const Block &block : section.blocks) {
      switch (block.kind) {
        case Block::Kind::kParagraph: body << "<p>" << HtmlEscape(block.lines.front()) << "</p>\n"; break;
        case Block::Kind::kBullets:
          body << "<ul>\n";
          for (const std::string &line : block.lines) body << "<li>" << HtmlEscape(line) << "</li>\n";
          body << "</ul>\n";
          break;
        case Block::Kind::kTable: WriteTable(block.table, body); break;
      }
    }
  }
  return render::HtmlPage(document.title, body.str());
}

}  // namespace infinicts::regression
