// The two formats defined by a regular expression: email and uuid. RE2 decides validity; when it
// says no, a small hand-written diagnosis names the first thing that is wrong. The diagnosis
// never decides validity, so if it finds nothing it falls back to a generic reason.
#include <re2/re2.h>

#include <cstddef>
#include <string>

#include "formats/checkers.h"

namespace hintkit::formats::detail {
namespace {

// Byte-oriented matching: the patterns are ASCII-only, and Latin-1 mode makes every byte of a
// binary or invalid-UTF-8 value a single character that simply fails to match.
RE2::Options byte_options() {
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingLatin1);
  options.set_log_errors(false);
  return options;
}

bool is_email_local_char(char c) {
  return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}

bool is_email_domain_char(char c) { return is_alnum(c) || c == '.' || c == '-'; }

// Why `value` fails the email pattern (it is known to fail).
std::string diagnose_email(std::string_view value) {
  if (value.empty()) return "email is empty";
  const size_t at = value.find('@');
  if (at == std::string_view::npos) return "missing '@'";
  if (value.find('@', at + 1) != std::string_view::npos) return "more than one '@'";
  const std::string_view local = value.substr(0, at);
  const std::string_view domain = value.substr(at + 1);
  if (local.empty()) return "nothing before '@'";
  for (char c : local) {
    if (!is_email_local_char(c)) return "invalid character " + quote_char(c) + " before '@'";
  }
  if (domain.empty()) return "nothing after '@'";
  for (char c : domain) {
    if (!is_email_domain_char(c)) {
      return "invalid character " + quote_char(c) + " in domain " + quote(domain);
    }
  }
  const size_t dot = domain.rfind('.');
  if (dot == std::string_view::npos) return "domain " + quote(domain) + " has no '.'";
  const std::string_view tld = domain.substr(dot + 1);
  if (tld.empty()) return "domain " + quote(domain) + " ends with '.'";
  for (char c : tld) {
    if (!is_alpha(c)) return "top-level domain " + quote(tld) + " must be letters only";
  }
  if (tld.size() < 2) return "top-level domain " + quote(tld) + " is shorter than two letters";
  if (dot == 0) return "nothing between '@' and the top-level domain";
  return "does not match the email pattern";
}

// 8-4-4-4-12: the number of hex digits in each '-'-separated group.
constexpr size_t kUuidGroups[] = {8, 4, 4, 4, 12};

// Why `value` fails the uuid pattern (it is known to fail).
std::string diagnose_uuid(std::string_view value) {
  if (value.empty()) return "uuid is empty";
  size_t group = 0;  // 0-based index of the group being read
  for (char c : value) {
    if (c == '-') {
      ++group;
    } else if (hex_value(c) < 0) {
      return "invalid character " + quote_char(c) + " in group " + std::to_string(group + 1);
    }
  }
  if (group == 0) return "missing '-' between groups (want 8-4-4-4-12 hex digits)";
  if (group != 4) {
    return "has " + std::to_string(group + 1) + " groups separated by '-', want 5 (8-4-4-4-12)";
  }
  size_t start = 0;
  for (size_t g = 0; g < 5; ++g) {
    const size_t end = g < 4 ? value.find('-', start) : value.size();
    const size_t len = end - start;
    if (len != kUuidGroups[g]) {
      return "group " + std::to_string(g + 1) + " has " + std::to_string(len) +
             " hex digits, want " + std::to_string(kUuidGroups[g]);
    }
    start = end + 1;
  }
  return "does not match the uuid pattern";
}

}  // namespace

Reason check_email(std::string_view value) {
  static const RE2 kEmail(R"re([a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,})re", byte_options());
  if (!kEmail.ok()) return "internal error: the email pattern does not compile";
  if (RE2::FullMatch(value, kEmail)) return std::nullopt;
  return diagnose_email(value);
}

Reason check_uuid(std::string_view value) {
  static const RE2 kUuid(
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
      byte_options());
  if (!kUuid.ok()) return "internal error: the uuid pattern does not compile";
  if (RE2::FullMatch(value, kUuid)) return std::nullopt;
  return diagnose_uuid(value);
}

}  // namespace hintkit::formats::detail
