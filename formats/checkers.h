// Internals of the formats module: one checker per format (each in its own .cpp), the IP address
// grammar that `ip`, `cidr` and bracketed URL hosts share, and the helpers that quote user input
// into reasons. Start at `check()` in formats.cpp, which dispatches to the functions below.
// Nothing here is part of the public API; include formats/formats.h instead.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace hintkit::formats::detail {

// nullopt when the value is valid; otherwise a short lower-case reason without a trailing period.
using Reason = std::optional<std::string>;

Reason check_hostname(std::string_view value);
Reason check_url(std::string_view value);
Reason check_email(std::string_view value);
Reason check_ip(std::string_view value);
Reason check_cidr(std::string_view value);
Reason check_uuid(std::string_view value);
Reason check_semver(std::string_view value);
Reason check_datetime(std::string_view value);

// ---- IP addresses (Go's netip.ParseAddr grammar) ----------------------------------------

enum class IpFamily { kV4, kV6 };

struct IpParse {
  std::optional<std::string> error;  // why the text is not an address; other fields unset then
  IpFamily family = IpFamily::kV4;   // kV6 includes IPv4-mapped forms such as ::ffff:1.2.3.4
  std::string_view zone;             // text after '%' in an IPv6 address; empty when none
};

// Parses an address the way Go's netip.ParseAddr does: a dotted quad with no leading zeros, or
// an RFC 4291 IPv6 text form with an optional non-empty "%zone". The kind is decided by the
// first '.', ':' or '%' in the text, as Go does. `zone` points into `text`.
IpParse parse_ip(std::string_view text);

// ---- Quoting input into reasons ---------------------------------------------------------

// Longest piece of user input echoed in a reason; values can be megabytes of anything.
inline constexpr size_t kMaxQuoted = 40;

// `"text"`, with '"', '\\', control and non-ASCII bytes escaped as \" \\ \xNN; input longer
// than kMaxQuoted is cut and ends in "..." inside the quotes.
std::string quote(std::string_view text);
// `'c'`, escaped like quote().
std::string quote_char(char c);

// ---- Small byte classes (ASCII only, locale-free) ---------------------------------------

constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
// Value of a hex digit, or -1.
constexpr int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace hintkit::formats::detail
