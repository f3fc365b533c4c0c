// semver: Semantic Versioning 2.0.0 (https://semver.org), optionally prefixed by a lower-case
// 'v' as Go modules and git tags write it:
//   ["v"] major "." minor "." patch ["-" pre-release] ["+" build]
// major, minor and patch are digits without leading zeros; pre-release and build are non-empty
// '.'-separated identifiers of [0-9A-Za-z-]; numeric pre-release identifiers have no leading
// zeros, build identifiers may ("+001" is fine). Numbers have no size limit, as in the spec.
#include <cstddef>
#include <string>

#include "formats/checkers.h"

namespace hintkit::formats::detail {
namespace {

bool is_identifier_char(char c) { return is_alnum(c) || c == '-'; }

bool all_digits(std::string_view s) {
  for (char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}

// major, minor or patch.
Reason check_number(std::string_view part, std::string_view name) {
  if (part.empty()) return std::string(name) + " version is empty";
  if (!all_digits(part)) return std::string(name) + " version " + quote(part) + " is not a number";
  if (part.size() > 1 && part[0] == '0') {
    return std::string(name) + " version " + quote(part) + " has a leading zero";
  }
  return std::nullopt;
}

// Dot-separated identifiers after '-' (`pre_release`) or '+'.
Reason check_identifiers(std::string_view text, bool pre_release) {
  const std::string what = pre_release ? "pre-release" : "build metadata";
  const char mark = pre_release ? '-' : '+';
  if (text.empty()) return what + " after " + quote_char(mark) + " is empty";
  size_t start = 0;
  while (true) {
    const size_t dot = text.find('.', start);
    const std::string_view id =
        text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (id.empty()) return "empty " + what + " identifier in " + quote(text);
    for (char c : id) {
      if (!is_identifier_char(c)) {
        return "invalid character " + quote_char(c) + " in " + what + " " + quote(text);
      }
    }
    if (pre_release && id.size() > 1 && id[0] == '0' && all_digits(id)) {
      return "numeric pre-release identifier " + quote(id) + " has a leading zero";
    }
    if (dot == std::string_view::npos) return std::nullopt;
    start = dot + 1;
  }
}

}  // namespace

Reason check_semver(std::string_view value) {
  if (value.empty()) return "version is empty";
  std::string_view rest = value;
  if (rest[0] == 'V') return "prefix must be a lower-case 'v'";
  if (rest[0] == 'v') {
    rest.remove_prefix(1);
    if (rest.empty()) return "nothing after 'v'";
  }

  std::string_view build;
  bool has_build = false;
  if (const size_t plus = rest.find('+'); plus != std::string_view::npos) {
    build = rest.substr(plus + 1);
    rest = rest.substr(0, plus);
    has_build = true;
  }
  std::string_view pre;
  bool has_pre = false;
  if (const size_t dash = rest.find('-'); dash != std::string_view::npos) {
    pre = rest.substr(dash + 1);
    rest = rest.substr(0, dash);
    has_pre = true;
  }

  // rest is now major.minor.patch
  if (rest.empty()) return "missing major.minor.patch";
  constexpr std::string_view kNames[] = {"major", "minor", "patch"};
  size_t start = 0;
  for (size_t i = 0; i < 3; ++i) {
    const size_t dot = rest.find('.', start);
    const bool last = i == 2;
    if (!last && dot == std::string_view::npos) {
      return "version core " + quote(rest) + " needs three numbers: major.minor.patch";
    }
    if (last && dot != std::string_view::npos) {
      return "version core " + quote(rest) + " has more than three numbers";
    }
    const std::string_view part = rest.substr(start, last ? std::string_view::npos : dot - start);
    if (auto reason = check_number(part, kNames[i])) return reason;
    start = dot + 1;
  }
  if (has_pre) {
    if (auto reason = check_identifiers(pre, true)) return reason;
  }
  if (has_build) {
    if (auto reason = check_identifiers(build, false)) return reason;
  }
  return std::nullopt;
}

}  // namespace hintkit::formats::detail
