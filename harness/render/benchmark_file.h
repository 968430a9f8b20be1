// Google Benchmark results (the JSON of --benchmark_out / --benchmark_format=json),
// read for showing next to a report.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace infinicts::render {

struct BenchmarkRow {
  std::string name;
  double real_time = 0;
  double cpu_time = 0;
  std::string time_unit;  // ns, us, ms, s
  double iterations = 0;
  std::map<std::string, double> counters;  // the user counters: every other numeric key
  std::string error;                       // error_message of a benchmark that reported an error
};

struct BenchmarkFile {
  std::string path;
  std::map<std::string, std::string> context;  // the scalar entries of "context"
  std::vector<BenchmarkRow> rows;
};

// False with *error = "<path>: <why>" when the file is unreadable or not Google
// Benchmark JSON (an object with "benchmarks": [{name, real_time, cpu_time, time_unit}]).
bool LoadBenchmarkFile(const std::string &path, BenchmarkFile *file, std::string *error);

}  // namespace infinicts::render
