// hostname: RFC 1123 host names. Dot-separated labels of 1-63 letters, digits and '-', each
// starting and ending with a letter or digit (RFC 1123 allows a leading digit, unlike RFC 952);
// at most 253 characters in all; no trailing dot, so a fully qualified "example.com." is out.
#include <cstddef>
#include <string>

#include "formats/checkers.h"

namespace hintkit::formats::detail {
namespace {

// DNS limits (RFC 1035 2.3.4): a label's length must fit the 63 its length octet allows, and a
// name is 255 octets on the wire, which is 253 characters of dotted text.
constexpr size_t kMaxLabelLength = 63;
constexpr size_t kMaxHostnameLength = 253;

bool is_label_char(char c) { return is_alnum(c) || c == '-'; }

Reason check_label(std::string_view label, size_t index) {
  if (label.size() > kMaxLabelLength) {
    return "label " + std::to_string(index) + " has " + std::to_string(label.size()) +
           " characters, more than " + std::to_string(kMaxLabelLength);
  }
  for (char c : label) {
    if (!is_label_char(c)) {
      return "invalid character " + quote_char(c) + " in label " + quote(label);
    }
  }
  if (label.front() == '-') return "label " + quote(label) + " starts with '-'";
  if (label.back() == '-') return "label " + quote(label) + " ends with '-'";
  return std::nullopt;
}

}  // namespace

Reason check_hostname(std::string_view value) {
  if (value.empty()) return "hostname is empty";
  if (value.size() > kMaxHostnameLength) {
    return "hostname has " + std::to_string(value.size()) + " characters, more than " +
           std::to_string(kMaxHostnameLength);
  }
  size_t start = 0;
  for (size_t index = 1;; ++index) {
    const size_t dot = value.find('.', start);
    const std::string_view label =
        value.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty()) {
      if (start == 0) return "hostname starts with '.'";
      if (dot == std::string_view::npos) return "hostname ends with '.'";
      return "empty label between two dots";
    }
    if (auto reason = check_label(label, index)) return reason;
    if (dot == std::string_view::npos) return std::nullopt;
    start = dot + 1;
  }
}

}  // namespace hintkit::formats::detail
