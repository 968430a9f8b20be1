// `infinicts report --junit`: JUnit XML for CI test tabs. One <testsuite> per suite and
// mode, one <testcase classname="<suite>.<subject>.<mode>" name="<rest of id>"> per case:
// fail, crash, timeout → <failure>; skip, unsupported → <skipped>; xfail passes with a
// <system-out> note.
#pragma once

#include <string>

#include "render/report_data.h"

namespace infinicts::render {

std::string RenderJunitReport(const Json &report);

// Text for XML content and attribute values: markup characters as entities, line
// breaks in attributes kept as character references, characters XML 1.0 forbids dropped.
std::string XmlEscape(const std::string &text);

}  // namespace infinicts::render
