// The HTML page's one inline script. The page reads in full without it; with it:
//  - after load, each chart's drawn box and marks (figure data-box / data-marks /
//    data-rendered, body data-charts-rendered = "<drawn>/<charts>"), for render.chromium;
//  - the case filter: a URL fragment "#status=fail&subject=op.gemm" (keys status, subject,
//    mode, dtype, clause; status "failing" = fail|blocked|crash|timeout) hides every other
//    case row, on load and on hashchange; links with data-filter set that fragment; body
//    data-case-filter and data-cases-shown say what it applied;
//  - chart legends: a click on an entry hides or shows its series.
#pragma once

namespace infinicts::render {

extern const char *const kPageScript;

}  // namespace infinicts::render
