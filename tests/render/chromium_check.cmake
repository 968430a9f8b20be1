# render.chromium: renders the fixture's HTML report in headless Chromium and checks
# that the page's script saw every chart drawn (non-zero box, marks counted), that the
# expected charts are there, that the table of contents and the matrix cells link to
# ids the page has, that the case filter in the URL fragment (#status=fail, a matrix
# cell's own filter) leaves only the matching case rows shown, that a reader's clicks on
# legends, the filter form and a matrix cell do what they say (page_driver.html), and that a
# screenshot is a real picture.
# Inputs: -DCLI=infinicts -DFIXTURE=report.json [-DBENCHMARK=gb.json] -DWORK=dir -DCHARTS=id,id,…
#         [-DLEGEND_CHARTS=N: at least N charts with legends that toggle series; default 1]
cmake_minimum_required(VERSION 3.16)

find_program(CHROMIUM NAMES chromium chromium-browser PATHS /usr/bin NO_CACHE)
if(NOT CHROMIUM)
  message(FATAL_ERROR "chromium not found at /usr/bin/chromium or on PATH: install chromium (ci/setup.sh does)")
endif()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(html ${WORK}/report.html)
set(benchmark_option)
if(BENCHMARK)
  set(benchmark_option --benchmark ${BENCHMARK})
endif()
execute_process(COMMAND ${CLI} report ${FIXTURE} --html ${html} ${benchmark_option}
                RESULT_VARIABLE rendered ERROR_VARIABLE render_error)
if(NOT rendered EQUAL 0)
  message(FATAL_ERROR "infinicts report failed (${rendered}): ${render_error}")
endif()

# A private profile per run: parallel runs must not share Chromium's profile lock.
set(flags --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
          --user-data-dir=${WORK}/profile --virtual-time-budget=10000)
# The DOM after the page's script ran on `url`, into `out`.
function(dump_dom url out)
  execute_process(COMMAND ${CHROMIUM} ${flags} --dump-dom ${url}
                  OUTPUT_VARIABLE dom ERROR_VARIABLE chromium_log RESULT_VARIABLE dumped TIMEOUT 120)
  if(NOT dumped EQUAL 0)
    message(FATAL_ERROR "chromium --dump-dom ${url} failed (${dumped}): ${chromium_log}")
  endif()
  set(${out} "${dom}" PARENT_SCOPE)
endfunction()

# Every href="#x" in `fragment` names an id the page has; at least `minimum` of them.
function(check_links what fragment dom minimum)
  string(REGEX MATCHALL "href=\"#[^\"]+\"" links "${fragment}")
  list(LENGTH links count)
  if(count LESS minimum)
    message(FATAL_ERROR "${what}: ${count} links, want at least ${minimum}")
  endif()
  foreach(link ${links})
    string(REGEX REPLACE "href=\"#([^\"]+)\"" "\\1" target "${link}")
    string(FIND "${dom}" "id=\"${target}\"" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${what}: #${target} leads nowhere")
    endif()
  endforeach()
  message(STATUS "${what}: ${count} links, each to an id the page has")
endfunction()

# With the filter `filter` in the URL fragment: body[data-case-filter] says it, and the case
# rows shown are exactly those whose opening tag, id, status and clauses cells match `keep` (a
# regex), at least one.
function(check_filter filter keep)
  dump_dom("file://${html}#${filter}" dom)
  string(REGEX MATCH "data-case-filter=\"([^\"]*)\"" applied "${dom}")
  string(REPLACE "&amp;" "&" applied_filter "${CMAKE_MATCH_1}")
  string(REPLACE "%2C" "," applied_filter "${applied_filter}")
  if(NOT applied OR NOT applied_filter STREQUAL filter)
    message(FATAL_ERROR "#${filter}: the page applied '${applied_filter}'")
  endif()
  # A row's opening tag and its first cells: id, status, clauses (no ';' in them, a list is safe).
  string(REGEX MATCHALL "<tr id=\"case-[0-9]+\"[^>]*><td><code>[^<]*</code></td><td[^>]*>[a-z]*</td><td class=\"clauses\">[^<]*</td>"
         rows "${dom}")
  list(LENGTH rows total)
  if(NOT total EQUAL row_count)
    message(FATAL_ERROR "#${filter}: ${total} case rows read, the page has ${row_count}")
  endif()
  set(shown 0)
  foreach(row ${rows})
    string(FIND "${row}" " hidden" hidden_at)
    string(REGEX MATCH "${keep}" kept "${row}")
    if(kept AND NOT hidden_at EQUAL -1)
      message(FATAL_ERROR "#${filter}: a matching row is hidden: ${row}")
    elseif(NOT kept AND hidden_at EQUAL -1)
      message(FATAL_ERROR "#${filter}: a row it does not match is shown: ${row}")
    endif()
    if(kept)
      math(EXPR shown "${shown} + 1")
    endif()
  endforeach()
  string(REGEX MATCH "data-cases-shown=\"([0-9]+)\"" counted "${dom}")
  if(shown EQUAL 0 OR NOT CMAKE_MATCH_1 EQUAL shown)
    message(FATAL_ERROR "#${filter}: ${shown} of ${total} rows shown, the page counted '${CMAKE_MATCH_1}'")
  endif()
  message(STATUS "#${filter}: ${shown} of ${total} case rows shown, every other hidden")
endfunction()

dump_dom("file://${html}" dom)

string(REGEX MATCH "data-charts-rendered=\"([0-9]+)/([0-9]+)\"" rendered_attribute "${dom}")
if(NOT rendered_attribute)
  message(FATAL_ERROR "the page's check script did not run: no data-charts-rendered on <body>")
endif()
set(drawn ${CMAKE_MATCH_1})
set(total ${CMAKE_MATCH_2})
if(NOT drawn EQUAL total OR total LESS 4)
  message(FATAL_ERROR "charts rendered ${drawn}/${total}; want k/k with k >= 4")
endif()
string(REPLACE "," ";" charts "${CHARTS}")
foreach(chart ${charts})
  string(REGEX MATCH "<figure class=\"chart\" id=\"chart-${chart}\"[^>]*data-rendered=\"yes\"" drawn_figure "${dom}")
  if(NOT drawn_figure)
    message(FATAL_ERROR "chart ${chart} missing or not drawn")
  endif()
  string(REGEX MATCH "id=\"chart-${chart}\"[^>]*data-marks=\"([0-9]+)\"" marks "${dom}")
  message(STATUS "chart ${chart}: ${CMAKE_MATCH_1} marks")
endforeach()

# Navigation: the table of contents and every matrix cell lead to ids the page has.
string(REGEX MATCH "<nav id=\"toc\">.*</nav>" toc "${dom}")
check_links("table of contents" "${toc}" "${dom}" 8)
# The matrix links and the filter, on a report that has the status matrix (the render fixture:
# a perf-only report of the CPU reference has neither failures nor that chart).
if("status-matrix" IN_LIST charts)
  string(REGEX MATCH "id=\"chart-status-matrix\".*</figure>" matrix_and_after "${dom}")
  string(FIND "${matrix_and_after}" "</figure>" matrix_end)
  string(SUBSTRING "${matrix_and_after}" 0 ${matrix_end} matrix)
  check_links("status matrix cells" "${matrix}" "${dom}" 6)
  # Without a fragment every case is shown.
  string(REGEX MATCH "data-cases-shown=\"([0-9]+)\"" all_shown "${dom}")
  set(shown_count "${CMAKE_MATCH_1}")
  string(REGEX MATCHALL "<tr id=\"case-[0-9]+\"" all_rows "${dom}")
  list(LENGTH all_rows row_count)
  if(NOT all_shown OR NOT shown_count EQUAL row_count OR row_count LESS 100)
    message(FATAL_ERROR "without a filter ${shown_count} of ${row_count} case rows are shown")
endif()

# The filter: from the address, as a reader's link or bookmark gives it, and a matrix cell's own.
check_filter("status=fail" "data-status=\"fail\"")
check_filter("status=failing&subject=rt.stream" "data-status=\"(crash|timeout|fail|blocked)\" data-subject=\"rt.stream\"")
check_filter("clause=RT-MEM-4" "<td class=\"clauses\">([^<]* )?RT-MEM-4( [^<]*)?</td>")
string(REGEX MATCH "data-filter=\"(subject=op.gemm&amp;mode=conformance,accuracy&amp;dtype=bf16)\"" cell "${matrix}")
if(NOT cell)
  message(FATAL_ERROR "no gemm bf16 cell with its filter in the status matrix")
endif()
string(REPLACE "&amp;" "&" cell_filter "${CMAKE_MATCH_1}")
check_filter("${cell_filter}" "data-subject=\"op.gemm\" data-mode=\"(conformance|accuracy)\" data-dtype=\"bf16\"")
endif()

# A reader's clicks, from outside the page: page_driver.html loads the report in a frame,
# clicks every legend entry, changes the filter form and follows a matrix cell (on a report
# with the matrix), and writes what it saw into its own <body>.
set(driver_parts legends)
if("status-matrix" IN_LIST charts)
  list(APPEND driver_parts filter matrix)
endif()
string(REPLACE ";" "," driver_parts "${driver_parts}")
if(NOT LEGEND_CHARTS)
  set(LEGEND_CHARTS 1)
endif()
set(driver_flags ${flags} --allow-file-access-from-files)
execute_process(COMMAND ${CHROMIUM} ${driver_flags} --dump-dom
                  "file://${CMAKE_CURRENT_LIST_DIR}/page_driver.html?report=file://${html}&parts=${driver_parts}&legend_charts=${LEGEND_CHARTS}"
                OUTPUT_VARIABLE driven ERROR_VARIABLE chromium_log RESULT_VARIABLE drove TIMEOUT 120)
if(NOT drove EQUAL 0)
  message(FATAL_ERROR "chromium --dump-dom of the page driver failed (${drove}): ${chromium_log}")
endif()
# A CMake list splits at ';': the checks' text may hold an escaped '&'.
string(REPLACE "&amp;" "&" driven "${driven}")
string(REPLACE ";" "," driven "${driven}")
string(REGEX MATCHALL "<li>[^<]*</li>" driver_checks "${driven}")
foreach(driver_check ${driver_checks})
  string(REGEX REPLACE "</?li>" "" driver_check "${driver_check}")
  message(STATUS "driver: ${driver_check}")
endforeach()
string(REGEX MATCH "data-driver=\"([a-z]+)\"" driver_verdict "${driven}")
if(NOT CMAKE_MATCH_1 STREQUAL "pass")
  message(FATAL_ERROR "the page driver (${driver_parts}) says '${CMAKE_MATCH_1}': see the failed checks above")
endif()

set(png ${WORK}/report.png)
execute_process(COMMAND ${CHROMIUM} ${flags} --window-size=1280,3600 --screenshot=${png} file://${html}
                OUTPUT_QUIET ERROR_VARIABLE chromium_log RESULT_VARIABLE shot TIMEOUT 120)
if(NOT shot EQUAL 0 OR NOT EXISTS ${png})
  message(FATAL_ERROR "chromium --screenshot failed (${shot}): ${chromium_log}")
endif()
# PNG signature and IHDR: width and height are bytes 16..23.
file(READ ${png} header LIMIT 24 HEX)
string(SUBSTRING "${header}" 0 16 signature)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "${png} is not a PNG (starts ${signature})")
endif()
string(SUBSTRING "${header}" 32 8 width_hex)
string(SUBSTRING "${header}" 40 8 height_hex)
math(EXPR width "0x${width_hex}")
math(EXPR height "0x${height_hex}")
# A blank page of this size compresses to well under 20 KB; charts, tables and text to
# several hundred.
file(SIZE ${png} png_bytes)
if(width LESS 1000 OR height LESS 1000 OR png_bytes LESS 60000)
  message(FATAL_ERROR "screenshot ${width}x${height}, ${png_bytes} bytes: looks blank")
endif()
message(STATUS "charts ${drawn}/${total}; screenshot ${width}x${height}, ${png_bytes} bytes: ${png}")
