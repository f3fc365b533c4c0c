// YAML scalars -> Go strings, as sigs.k8s.io/yaml converts them into string fields.
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "gocompat/gocompat.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {

std::string go_string(const Node& n) {
  switch (n.kind) {
    case Kind::kNull:
      return "";
    case Kind::kBool:
      return n.bool_value ? "true" : "false";
    case Kind::kInt:
      return n.is_unsigned ? std::to_string(static_cast<uint64_t>(n.int_value))
                           : std::to_string(n.int_value);
    case Kind::kFloat:
      return gocompat::format_float(n.float_value, 'g', 32);
    default:
      return n.text;
  }
}

std::string go_key_string(const Node& n) {
  if (n.kind == Kind::kNull) return "null";
  if (n.kind == Kind::kFloat) {
    const std::string s = gocompat::format_float(n.float_value, 'g', 32);
    if (s == "+Inf") return ".inf";
    if (s == "-Inf") return "-.inf";
    if (s == "NaN") return ".nan";
    return s;
  }
  return go_string(n);
}

}  // namespace hintkit::yaml
