// Short, readable numbers for tables, tick labels and Markdown: a few significant
// digits, never exponent noise for values people read every day.
#pragma once

#include <string>

namespace infinicts::render {

// `significant` digits; plain decimals between 1e-3 and 1e6, else d.dde±x.
std::string FormatNumber(double value, int significant = 3);
// 1k, 10k, 1M, 1G, 0.01 — for log-axis ticks.
std::string FormatCompact(double value);
// 512 B, 4 KiB, 1.5 MiB, 2 GiB.
std::string FormatBytes(double bytes);
// 1.2 s, 12.3 ms, 235 µs, 80 ns — from milliseconds, the unit chosen by magnitude.
std::string FormatMilliseconds(double ms);

}  // namespace infinicts::render
