// An operator row's optional_data column (include/infiniop/operators.def) as positions: a bit
// mask over the row's data arguments, bit i for the i-th name of data_args. Both columns come
// in as the text of their parenthesised lists, so a row names its optional tensors once, by
// name, in any position; a name data_args lacks stops the compile.
#ifndef INFINIOP_OPTIONAL_DATA_HPP
#define INFINIOP_OPTIONAL_DATA_HPP

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <type_traits>

namespace infiniop_rows {

// The list's text without its parentheses and the blanks around each name.
constexpr std::string_view TrimName(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '(' || text.front() == '\n')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == ')' || text.back() == '\n')) text.remove_suffix(1);
  return text;
}

// The position of `name` among the comma-separated names of `list`, or -1.
constexpr int PositionIn(std::string_view list, std::string_view name) {
  int position = 0;
  while (true) {
    const size_t comma = list.find(',');
    if (TrimName(list.substr(0, comma)) == name) return position;
    if (comma == std::string_view::npos) return -1;
    list.remove_prefix(comma + 1);
    ++position;
  }
}

// Evaluated in a constant expression, a name data_args lacks is a compile error (a throw is
// not a constant expression).
constexpr uint64_t OptionalDataMask(std::string_view data_args, std::string_view optional) {
  uint64_t mask = 0;
  optional = TrimName(optional);
  while (!optional.empty()) {
    const size_t comma = optional.find(',');
    const int position = PositionIn(data_args, TrimName(optional.substr(0, comma)));
    if (position < 0 || position >= 64) throw std::logic_error("optional_data names no data argument");
    mask |= uint64_t{1} << position;
    if (comma == std::string_view::npos) break;
    optional.remove_prefix(comma + 1);
  }
  return mask;
}

}  // namespace infiniop_rows

// The mask of a row, from its two columns as written.
#define INFINIOP_OPTIONAL_DATA_MASK(optional_data, data_args) \
  (std::integral_constant<uint64_t, ::infiniop_rows::OptionalDataMask(#data_args, #optional_data)>::value)

#endif  // INFINIOP_OPTIONAL_DATA_HPP
