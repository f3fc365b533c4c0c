// Fuzzes the format checkers and the RE2-syntax regular expressions. The first line names a
// format (`hostname`, `url`, ..., or `regex`); the rest is the value to check. For `regex`
// the second line is the pattern and the rest the text searched. Never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/formats.h"

using namespace hintkit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t eol = input.find('\n');
  std::string_view name = input.substr(0, eol);
  std::string_view rest =
      eol == std::string_view::npos ? std::string_view() : input.substr(eol + 1);
  if (name == "regex") {
    size_t end = rest.find('\n');
    formats::Regex re(rest.substr(0, end));
    if (!re.ok()) {
      (void)re.error();
      return 0;
    }
    std::string_view text =
        end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    (void)re.search(text);
    for (const auto& m : re.replace_matches(text)) (void)m.groups.size();
    (void)re.group_named("x");
    return 0;
  }
  if (auto format = formats::parse(name)) {
    (void)formats::check(*format, rest);
    return 0;
  }
  // Any other first line: the whole input against every format.
  for (std::string_view n : formats::names()) (void)formats::check(*formats::parse(n), input);
  return 0;
}
