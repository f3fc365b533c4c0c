// The hints ytt appends to common Starlark mistakes (true/null/&&/missing colon).
#include "starlark/starlark.h"

namespace hintkit::starlark {

std::string with_ytt_hint(std::string_view message, std::string_view source_line) {
  std::string m(message);
  auto starts = [&](std::string_view p) { return message.substr(0, p.size()) == p; };
  if (starts("undefined: ")) {
    std::string_view name = message.substr(11);
    if (name == "true") return m + " (hint: use 'True' instead of 'true' for boolean assignment)";
    if (name == "false")
      return m + " (hint: use 'False' instead of 'false' for boolean assignment)";
    if (name == "null" || name == "none" || name == "nil")
      return m + " (hint: use 'None' instead of '" + std::string(name) + "' to indicate no value)";
    return m;
  }
  if (starts("got newline, want ':'"))
    return m + " (hint: missing colon at the end of 'if/for/def' statement?)";
  if (starts("unknown binary op: ")) {
    if (message.find(" & ") != std::string_view::npos)
      return m + " (hint: use 'and' instead of '&' for logical-and)";
    if (message.find(" | ") != std::string_view::npos)
      return m + " (hint: use 'or' instead of '|' for logical-or)";
    return m;
  }
  if (starts("got '&', want primary expression") &&
      source_line.find("&&") != std::string_view::npos)
    return m + " (hint: use 'and' instead of '&&' for logical-and)";
  if (starts("got '|', want primary expression") &&
      source_line.find("||") != std::string_view::npos)
    return m + " (hint: use 'or' instead of '||' for logical-or)";
  return m;
}

}  // namespace hintkit::starlark
