#include "render/html_page.h"

namespace infinicts::render {
namespace {

const char *const kStyle = R"css(
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1200px; color: #1d2430; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #d8dde6; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #d8dde6; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f2f4f8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.pass { background: #dff3e4; } .fail, .crash, .timeout { background: #f9d9d9; }
.unsupported { background: #ece6f7; } .skip { background: #f1f1f1; } .xfail { background: #fbefd5; }
.better { color: #17723a; } .worse { color: #b3261e; font-weight: 600; }
pre { white-space: pre-wrap; margin: 0; font-size: 12px; }
svg text { font: 11px system-ui, sans-serif; fill: #1d2430; }
svg text.axis-title { font-size: 12px; font-weight: 600; }
figure.chart { margin: 18px 0; padding: 8px; border: 1px solid #d8dde6; border-radius: 4px; overflow-x: auto; }
figure.chart figcaption { font-weight: 600; margin-bottom: 6px; }
p.note { color: #5b6472; font-style: italic; }
code { font-size: 12px; word-break: break-all; }
table.header th { width: 160px; }
figure.chart svg { max-width: 100%; height: auto; }
svg text.roof-label { font-size: 10.5px; font-weight: 600; }
svg text.no-case { fill: #9aa3ae; }
svg a rect:hover { stroke: #1d2430; stroke-width: 2; }
nav#toc { border: 1px solid #d8dde6; border-radius: 4px; padding: 6px 12px; margin: 12px 0; columns: 2; }
nav#toc ul { margin: 2px 0; padding-left: 18px; }
td a, th a { color: inherit; }
.case-scroll, .scroll { max-height: 75vh; overflow: auto; border: 1px solid #d8dde6; }
.scroll { max-height: 50vh; }
.case-scroll table, .scroll table { margin: 0; }
thead th { position: sticky; top: 0; }
form.case-filter { margin: 8px 0; display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; }
form.case-filter select { max-width: 260px; }
td.noisy { background: #fde2b3; font-weight: 600; } span.noisy { background: #fde2b3; font-weight: 600; padding: 0 3px; }
)css";

}  // namespace

std::string HtmlEscape(const std::string &text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&#39;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string HtmlPage(const std::string &title, const std::string &body) {
  return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + HtmlEscape(title) +
         "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n" + body + "\n</body>\n</html>\n";
}

}  // namespace infinicts::render
