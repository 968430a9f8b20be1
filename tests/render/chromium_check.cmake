# render.chromium: renders the fixture's HTML report in headless Chromium and checks
# that the page's script saw every chart drawn (non-zero box, marks counted), that the
# expected charts are there, and that a screenshot is a real picture.
# Inputs: -DCLI=infinicts -DFIXTURE=report.json [-DBENCHMARK=gb.json] -DWORK=dir -DCHARTS=id,id,…
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
execute_process(COMMAND ${CHROMIUM} ${flags} --dump-dom file://${html}
                OUTPUT_VARIABLE dom ERROR_VARIABLE chromium_log RESULT_VARIABLE dumped TIMEOUT 120)
if(NOT dumped EQUAL 0)
  message(FATAL_ERROR "chromium --dump-dom failed (${dumped}): ${chromium_log}")
endif()

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
