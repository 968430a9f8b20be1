#include "xml_check.h"

#include <cctype>
#include <vector>

namespace infinicts::render::test {
namespace {

bool NameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':' ||
         static_cast<unsigned char>(c) >= 0x80;
}

class Checker {
 public:
  explicit Checker(const std::string &text) : text_(text) {}

  std::string Run() {
    if (text_.compare(0, 5, "<?xml") == 0) {
      const size_t end = text_.find("?>");
      if (end == std::string::npos) return Fail("unterminated XML declaration");
      at_ = end + 2;
    }
    bool seen_root = false;
    std::vector<std::string> open;
    while (at_ < text_.size()) {
      if (text_[at_] != '<') {
        const size_t next = text_.find('<', at_);
        const std::string chunk = text_.substr(at_, next == std::string::npos ? std::string::npos : next - at_);
        if (open.empty() && chunk.find_first_not_of(" \t\r\n") != std::string::npos) return Fail("text outside the root");
        std::string problem = CheckText(chunk, '<');
        if (!problem.empty()) return Fail(problem);
        at_ = next == std::string::npos ? text_.size() : next;
        continue;
      }
      if (text_.compare(at_, 4, "<!--") == 0) {
        const size_t end = text_.find("-->", at_);
        if (end == std::string::npos) return Fail("unterminated comment");
        at_ = end + 3;
        continue;
      }
      if (text_.compare(at_, 2, "</") == 0) {
        at_ += 2;
        const std::string name = Name();
        SkipSpace();
        if (name.empty() || at_ >= text_.size() || text_[at_] != '>') return Fail("malformed end tag");
        if (open.empty() || open.back() != name) return Fail("end tag </" + name + "> does not match");
        open.pop_back();
        ++at_;
        continue;
      }
      ++at_;
      const std::string name = Name();
      if (name.empty()) return Fail("malformed start tag");
      if (open.empty() && seen_root) return Fail("a second root element");
      seen_root = true;
      std::vector<std::string> attributes;
      for (;;) {
        SkipSpace();
        if (at_ >= text_.size()) return Fail("unterminated tag <" + name);
        if (text_.compare(at_, 2, "/>") == 0) {
          at_ += 2;
          break;
        }
        if (text_[at_] == '>') {
          ++at_;
          open.push_back(name);
          break;
        }
        const std::string attribute = Name();
        if (attribute.empty()) return Fail("malformed attribute in <" + name);
        for (const std::string &seen : attributes) {
          if (seen == attribute) return Fail("duplicate attribute " + attribute);
        }
        attributes.push_back(attribute);
        SkipSpace();
        if (at_ >= text_.size() || text_[at_] != '=') return Fail("attribute without value: " + attribute);
        ++at_;
        SkipSpace();
        if (at_ >= text_.size() || (text_[at_] != '"' && text_[at_] != '\'')) return Fail("unquoted attribute " + attribute);
        const char quote = text_[at_++];
        const size_t end = text_.find(quote, at_);
        if (end == std::string::npos) return Fail("unterminated attribute " + attribute);
        std::string problem = CheckText(text_.substr(at_, end - at_), quote);
        if (!problem.empty()) return Fail(problem);
        at_ = end + 1;
      }
    }
    if (!open.empty()) return Fail("unclosed element <" + open.back() + ">");
    if (!seen_root) return Fail("no root element");
    return "";
  }

 private:
  std::string Fail(const std::string &why) const { return why + " (at offset " + std::to_string(at_) + ")"; }

  std::string Name() {
    const size_t start = at_;
    while (at_ < text_.size() && NameChar(text_[at_])) ++at_;
    return text_.substr(start, at_ - start);
  }

  void SkipSpace() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }

  // Character data or an attribute value: no raw '<', only known entity references,
  // no control characters XML 1.0 forbids.
  static std::string CheckText(const std::string &chunk, char terminator) {
    for (size_t i = 0; i < chunk.size(); ++i) {
      const unsigned char c = chunk[i];
      if (c == '<' && terminator != '<') return "raw '<' in an attribute value";
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return "control character " + std::to_string(c);
      if (c != '&') continue;
      const size_t end = chunk.find(';', i);
      if (end == std::string::npos) return "unterminated entity";
      const std::string entity = chunk.substr(i + 1, end - i - 1);
      const bool named = entity == "amp" || entity == "lt" || entity == "gt" || entity == "quot" || entity == "apos";
      bool numeric = entity.size() > 1 && entity[0] == '#';
      for (size_t k = 1; numeric && k < entity.size(); ++k) {
        numeric = std::isxdigit(static_cast<unsigned char>(entity[k])) || (k == 1 && entity[k] == 'x');
      }
      if (!named && !numeric) return "unknown entity &" + entity + ";";
      i = end;
    }
    return "";
  }

  const std::string &text_;
  size_t at_ = 0;
};

}  // namespace

std::string XmlProblem(const std::string &text) { return Checker(text).Run(); }

}  // namespace infinicts::render::test
