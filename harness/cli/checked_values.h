// Values the user gives, parsed strictly (docs/usage.md "Commands"): a number that is not
// finite, overflows, is garbage or lies outside its range, a malformed glob, or an environment
// variable of the CPU reference that does not parse is refused with one line and exit 2,
// never turned silently into something else.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace infinicts::cli {

// For a CLI11 option: a finite number in [low, high], `unit` naming what it counts ("seconds").
CLI::Validator NumberWithin(double low, double high, const std::string &unit);

// For --filter: each glob must be one fnmatch reads as written (every '[' closed, no lone
// trailing backslash).
CLI::Validator WellFormedGlob();

// "" when the environment variables of the CPU reference (docs/usage.md "Environment of the
// CPU reference") are unset or valid; otherwise the one-line reason.
std::string BadReferenceEnvironment();

}  // namespace infinicts::cli
