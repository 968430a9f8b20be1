// The shell every HTML page infinicts writes shares: escaping, one stylesheet, no
// network (no external scripts, fonts or images), so a page opens from a CI artifact.
#pragma once

#include <string>

namespace infinicts::render {

std::string HtmlEscape(const std::string &text);
// A complete document: <!doctype html>, the title, the shared stylesheet, `body`.
std::string HtmlPage(const std::string &title, const std::string &body);

}  // namespace infinicts::render
