// Plain-scalar resolution as go-yaml v2 (ytt's fork, v0.48.0) does it, plus the number
// spellings its emitter and Go's encoding/json use.
#include <cmath>
#include <cstdlib>
#include <limits>

#include "gocompat/gocompat.h"
#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool matches_yaml_float(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t start = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == start) return false;
  } else {
    size_t start = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == start) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && is_digit(s[i])) ++i;
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t start = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == start) return false;
  }
  return i == s.size();
}

// Decimal text already validated; false when it overflows to infinity (Go's ErrRange).
bool parse_finite_double(const std::string& s, double& out) {
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || std::isinf(d)) return false;
  out = d;
  return true;
}

// Go's ParseFloat for text starting with '.': `.digits[e[+-]digits]`, underscores allowed
// only between digits.
bool parse_dot_float(std::string_view s, double& out) {
  std::string plain;
  plain.reserve(s.size());
  char prev = '.';  // what came before: digit, '_' or other
  bool saw_digit = false;
  size_t i = 1;
  plain.push_back('.');
  auto digits = [&](bool& any) {
    while (i < s.size() && (is_digit(s[i]) || s[i] == '_')) {
      if (s[i] == '_') {
        if (!is_digit(prev)) return false;
        prev = '_';
      } else {
        plain.push_back(s[i]);
        prev = s[i];
        any = true;
      }
      ++i;
    }
    return prev != '_';
  };
  if (!digits(saw_digit) || !saw_digit) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    plain.push_back('e');
    prev = 'e';
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) plain.push_back(s[i++]);
    bool exp_digit = false;
    if (!digits(exp_digit) || !exp_digit) return false;
  }
  if (i != s.size()) return false;
  return parse_finite_double(plain, out);
}

int days_in_month(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))) return 29;
  return kDays[month - 1];
}

// Reads 1 or 2 digits (Go's getnum with fixed=false).
bool read_num12(std::string_view s, size_t& i, int& out) {
  if (i >= s.size() || !is_digit(s[i])) return false;
  out = s[i++] - '0';
  if (i < s.size() && is_digit(s[i])) out = out * 10 + (s[i++] - '0');
  return true;
}

void scalar(Node& n, Kind kind, std::string_view text) {
  n.kind = kind;
  n.text = text;
}

}  // namespace

namespace internal {

bool is_timestamp(std::string_view s) {
  // go-yaml tries four layouts with Go's time.Parse (Go 1.19, which ytt v0.48.0 is built with):
  // "2006-1-2T15:4:5.999999999Z07:00", the same with 't', "2006-1-2 15:4:5.999999999" and
  // "2006-1-2". They share the date; what follows it picks the layout.
  // go-yaml's quick check: exactly four digits, then '-'.
  size_t i = 0;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i != 4 || i == s.size() || s[i] != '-') return false;
  const int year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  i = 5;
  int month, day;
  if (!read_num12(s, i, month) || month < 1 || month > 12) return false;
  if (i >= s.size() || s[i] != '-') return false;
  ++i;
  if (!read_num12(s, i, day)) return false;
  // time.Parse checks the day against the month once the whole text is read; every layout
  // fails on the same bad day, so checking it here decides the same.
  if (day < 1 || day > days_in_month(year, month)) return false;
  if (i == s.size()) return true;  // "2006-1-2"
  const char sep = s[i];
  if (sep == ' ') {
    // A space in a layout matches any run of spaces.
    while (i < s.size() && s[i] == ' ') ++i;
  } else if (sep == 'T' || sep == 't') {
    ++i;
  } else {
    return false;
  }
  int hour, minute, second;
  if (!read_num12(s, i, hour) || hour > 23) return false;
  if (i >= s.size() || s[i] != ':') return false;
  ++i;
  if (!read_num12(s, i, minute) || minute > 59) return false;
  if (i >= s.size() || s[i] != ':') return false;
  ++i;
  if (!read_num12(s, i, second) || second > 59) return false;
  // ".999999999": optional; '.' or ',' and at most nine digits (more are text left over).
  if (i + 1 < s.size() && (s[i] == '.' || s[i] == ',') && is_digit(s[i + 1])) {
    ++i;
    for (int n = 0; n < 9 && i < s.size() && is_digit(s[i]); ++n) ++i;
  }
  if (sep == ' ') return i == s.size();
  // "Z07:00": 'Z', or a sign and hh ':' mm. Go 1.19 reads hh and mm with its atoi (an
  // optional sign, then digits, possibly none) and checks no range.
  if (i < s.size() && s[i] == 'Z') return i + 1 == s.size();
  if (s.size() - i != 6 || (s[i] != '+' && s[i] != '-') || s[i + 3] != ':') return false;
  auto go_atoi_ok = [](std::string_view t) {
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) t.remove_prefix(1);
    for (char c : t) {
      if (!is_digit(c)) return false;
    }
    return true;
  };
  return go_atoi_ok(s.substr(i + 1, 2)) && go_atoi_ok(s.substr(i + 4, 2));
}

bool needs_quotes_to_stay_string(std::string_view text) {
  if (resolve_plain_scalar(text).kind != Kind::kString) return true;
  if (is_timestamp(text)) return true;
  // Base-60 numbers: ^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$
  if (text.empty() || text.find(':') == std::string_view::npos) return false;
  size_t i = 0;
  if (text[i] == '+' || text[i] == '-') ++i;
  if (i >= text.size() || !is_digit(text[i])) return false;
  ++i;
  while (i < text.size() && (is_digit(text[i]) || text[i] == '_')) ++i;
  int groups = 0;
  while (i < text.size() && text[i] == ':') {
    ++i;
    size_t start = i;
    while (i < text.size() && is_digit(text[i]) && i - start < 2) ++i;
    size_t n = i - start;
    if (n == 0) return false;
    if (n == 2 && text[start] > '5') return false;
    ++groups;
  }
  if (groups == 0) return false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && (is_digit(text[i]) || text[i] == '_')) ++i;
  }
  return i == text.size();
}

std::string format_float_yaml(double d) {
  if (std::isnan(d)) return ".nan";
  if (std::isinf(d)) return d > 0 ? ".inf" : "-.inf";
  return gocompat::format_float(d, 'g');
}

}  // namespace internal

namespace internal {

void resolve_plain_scalar_into(std::string_view in, Node& n) {
  char hint = 'N';
  if (!in.empty()) {
    char c = in[0];
    if (c == '+' || c == '-') {
      hint = 'S';
    } else if (is_digit(c)) {
      hint = 'D';
    } else if (c == 'y' || c == 'Y' || c == 'n' || c == 'N' || c == 't' || c == 'T' || c == 'f' ||
               c == 'F' || c == 'o' || c == 'O' || c == '~') {
      hint = 'M';
    } else if (c == '.') {
      hint = '.';
    } else {
      hint = 0;
    }
  }
  if (hint == 0) return scalar(n, Kind::kString, in);
  if (hint == 'N') return scalar(n, Kind::kNull, in);  // empty

  // The fixed words; they all start with a letter or '~' (hint 'M') and are short.
  static constexpr size_t kLongestWord = 5;
  if (hint == 'M') {
    if (in.size() <= kLongestWord) {
      static constexpr std::string_view kTrue[] = {"y",    "Y",    "yes", "Yes", "YES", "true",
                                                   "True", "TRUE", "on",  "On",  "ON"};
      static constexpr std::string_view kFalse[] = {"n",     "N",     "no",  "No",  "NO", "false",
                                                    "False", "FALSE", "off", "Off", "OFF"};
      static constexpr std::string_view kNull[] = {"~", "null", "Null", "NULL"};
      for (auto w : kTrue) {
        if (in == w) {
          scalar(n, Kind::kBool, in);
          n.bool_value = true;
          return;
        }
      }
      for (auto w : kFalse) {
        if (in == w) return scalar(n, Kind::kBool, in);
      }
      for (auto w : kNull) {
        if (in == w) return scalar(n, Kind::kNull, in);
      }
    }
    return scalar(n, Kind::kString, in);
  }
  auto make_f = [&](double d) {
    scalar(n, Kind::kFloat, in);
    n.float_value = d;
  };
  if (in == ".nan" || in == ".NaN" || in == ".NAN") {
    return make_f(std::numeric_limits<double>::quiet_NaN());
  }
  if (in == ".inf" || in == ".Inf" || in == ".INF" || in == "+.inf" || in == "+.Inf" ||
      in == "+.INF") {
    return make_f(std::numeric_limits<double>::infinity());
  }
  if (in == "-.inf" || in == "-.Inf" || in == "-.INF") {
    return make_f(-std::numeric_limits<double>::infinity());
  }

  if (hint == '.') {
    double d;
    if (parse_dot_float(in, d)) return make_f(d);
  } else if (hint == 'D' || hint == 'S') {
    // Timestamps stay strings: ytt keeps their source text.
    if (internal::is_timestamp(in)) return scalar(n, Kind::kString, in);
    // Underscores are dropped; most numbers have none, and then no copy is needed.
    std::string stripped;
    std::string_view plain = in;
    if (in.find('_') != std::string_view::npos) {
      stripped.reserve(in.size());
      for (char c : in) {
        if (c != '_') stripped.push_back(c);
      }
      plain = stripped;
    }
    int64_t i;
    if (gocompat::parse_int(plain, i) == gocompat::ParseStatus::kOk) {
      scalar(n, Kind::kInt, in);
      n.int_value = i;
      return;
    }
    uint64_t u;
    if (gocompat::parse_uint(plain, u) == gocompat::ParseStatus::kOk) {
      scalar(n, Kind::kInt, in);
      n.int_value = static_cast<int64_t>(u);
      n.is_unsigned = true;
      return;
    }
    double d;
    if (matches_yaml_float(plain) && parse_finite_double(std::string(plain), d)) return make_f(d);
  }
  return scalar(n, Kind::kString, in);
}

}  // namespace internal

Node resolve_plain_scalar(std::string_view in) {
  Node n;
  internal::resolve_plain_scalar_into(in, n);
  return n;
}

}  // namespace hintkit::yaml
