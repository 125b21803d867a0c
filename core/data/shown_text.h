#pragma once
// Text from a file, fit to quote in a message: every reader's errors go through here, so a
// binary file opened as CSV, or a cell of 10,000 characters, cannot flood a terminal or put
// control characters into a run's FAILED reason.
//
//   throw std::runtime_error(path + ":7: column " + tw::data::quoted(name) + ": " +
//                            tw::data::quoted(value) + " is not a number");
//   // data.csv:7: column 'price': 'abc\x01\x02de...' is not a number
//
// Printable ASCII stays as it is; a well-formed UTF-8 sequence of a printable character stays too
// (names in other scripts must read as they are). Everything else is escaped: \n \r \t, and
// \xHH for other control bytes, DEL and bytes that are not valid UTF-8. Longer text is cut after
// `maxChars` characters and ends in "...".

#include <cstddef>
#include <string>
#include <string_view>

namespace tw::data {

inline constexpr size_t kShownChars = 40;

// The escaped, shortened text, without quotes.
std::string shownText(std::string_view text, size_t maxChars = kShownChars);
// The same in single quotes: 'text'.
std::string quoted(std::string_view text, size_t maxChars = kShownChars);

}  // namespace tw::data
