// strconv.ParseFloat(s, 64), ported from Go 1.19's src/strconv/atof.go: special() for the
// words, readFloat's syntax (decimal, or hexadecimal with its 'p' exponent; underscores as
// underscoreOK allows them). The value itself comes from strtod, which rounds correctly as Go
// does.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "gocompat/gocompat.h"

namespace hintkit::gocompat {
namespace {

bool equal_fold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if ((a[i] | 0x20) != b[i]) return false;
  }
  return true;
}

// special(): "inf" and "infinity" with an optional sign, "nan" without, in any case.
bool special(std::string_view s, double& out) {
  if (equal_fold(s, "nan")) {
    out = std::nan("");
    return true;
  }
  double sign = 1;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  if (equal_fold(s, "inf") || equal_fold(s, "infinity")) {
    out = sign * HUGE_VAL;
    return true;
  }
  return false;
}

bool is_digit(char c, bool hex) {
  const char lower = static_cast<char>(c | 0x20);
  return (c >= '0' && c <= '9') || (hex && lower >= 'a' && lower <= 'f');
}

// readFloat's syntax over all of `s`.
bool well_formed(std::string_view s, bool& underscores) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  const bool hex = i + 2 < s.size() && s[i] == '0' && (s[i + 1] | 0x20) == 'x';
  if (hex) i += 2;
  bool dot = false, digits = false;
  for (; i < s.size(); ++i) {
    if (s[i] == '_') {
      underscores = true;
    } else if (s[i] == '.' && !dot) {
      dot = true;
    } else if (is_digit(s[i], hex)) {
      digits = true;
    } else {
      break;
    }
  }
  if (!digits) return false;
  if (i < s.size() && (s[i] | 0x20) == (hex ? 'p' : 'e')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (i >= s.size() || !is_digit(s[i], false)) return false;
    for (; i < s.size() && (is_digit(s[i], false) || s[i] == '_'); ++i) {
      if (s[i] == '_') underscores = true;
    }
  } else if (hex) {
    return false;  // a hexadecimal mantissa needs its exponent
  }
  return i == s.size();
}

}  // namespace

ParseStatus parse_float(std::string_view s, double& out) {
  if (special(s, out)) return ParseStatus::kOk;
  bool underscores = false;
  if (!well_formed(s, underscores) || (underscores && !underscore_ok(s))) {
    return ParseStatus::kSyntax;
  }
  std::string text;
  text.reserve(s.size());
  for (char c : s) {
    if (c != '_') text += c;
  }
  errno = 0;
  out = std::strtod(text.c_str(), nullptr);
  // Past the largest float64: ±Inf and ErrRange, as Go. Underflow to zero is no error.
  if (errno == ERANGE && std::isinf(out)) return ParseStatus::kRange;
  return ParseStatus::kOk;
}

}  // namespace hintkit::gocompat
