// YAML scalars -> Go strings, as sigs.k8s.io/yaml converts them into string fields.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "yaml/yaml.h"

namespace hintkit::yaml {

namespace {

// strconv.FormatFloat(f, 'g', -1, bits) from the shortest digits that read back as `T`.
template <typename T>
std::string format_g_shortest(T f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  const std::string sign = std::signbit(f) ? "-" : "";
  if (f == 0) return sign + "0";
  // Shortest round-trip digits in scientific form: "d.ddde+XX".
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(f), std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(res.ptr - buf));
  const size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e)) {
    if (c != '.') digits += c;
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exp = std::atoi(std::string(sci.substr(e + 1)).c_str());
  std::string out = sign;
  // Go's %g with the shortest precision: exponent form below 1e-4 and from 1e+06 up.
  if (exp < -4 || exp >= 6) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += exp < 0 ? "e-" : "e+";
    const int a = std::abs(exp);
    if (a < 10) out += '0';
    out += std::to_string(a);
    return out;
  }
  const int point = exp + 1;  // digits before the decimal point
  if (point <= 0) {
    out += "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  } else if (static_cast<size_t>(point) >= digits.size()) {
    out += digits + std::string(static_cast<size_t>(point) - digits.size(), '0');
  } else {
    out += digits.substr(0, static_cast<size_t>(point)) + "." +
           digits.substr(static_cast<size_t>(point));
  }
  return out;
}

}  // namespace

std::string go_format_float32(double value) { return format_g_shortest(static_cast<float>(value)); }

std::string go_format_float64(double value) { return format_g_shortest(value); }

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
      return go_format_float32(n.float_value);
    default:
      return n.text;
  }
}

std::string go_key_string(const Node& n) {
  if (n.kind == Kind::kNull) return "null";
  if (n.kind == Kind::kFloat) {
    const std::string s = go_format_float32(n.float_value);
    if (s == "+Inf") return ".inf";
    if (s == "-Inf") return "-.inf";
    if (s == "NaN") return ".nan";
    return s;
  }
  return go_string(n);
}

}  // namespace hintkit::yaml
