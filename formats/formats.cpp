// Format names and the `check` entry point; the per-format checkers live in their own files.
#include "formats/formats.h"

#include <array>
#include <cstddef>

#include "formats/checkers.h"

namespace hintkit::formats {
namespace {

// Indexed by Format; keep in declaration order.
constexpr std::array<std::string_view, 8> kNames = {
    "hostname", "url", "email", "ip", "cidr", "uuid", "semver", "datetime",
};

}  // namespace

std::string_view to_string(Format f) {
  const auto i = static_cast<size_t>(f);
  return i < kNames.size() ? kNames[i] : std::string_view("unknown");
}

std::optional<Format> parse(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<Format>(i);
  }
  return std::nullopt;
}

std::span<const std::string_view> names() { return kNames; }

std::string_view syntax(Format f) {
  switch (f) {
    case Format::kHostname:
      return "RFC 1123 host name: dot-separated labels of 1-63 letters, digits and '-', "
             "alphanumeric at both ends, at most 253 characters, no trailing dot";
    case Format::kUrl:
      return "an absolute URL as Go's url.ParseRequestURI accepts it, with a scheme "
             "(https://example.com/x, mailto:ops@example.com)";
    case Format::kEmail:
      return "local@domain.tld: ^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$";
    case Format::kIp:
      return "an IPv4 dotted quad without leading zeros, or an IPv6 address (no zone)";
    case Format::kCidr:
      return "ip/prefix as Go's net.ParseCIDR accepts it (10.0.0.0/8, fd00::/8)";
    case Format::kUuid:
      return "8-4-4-4-12 hexadecimal digits, any case";
    case Format::kSemver:
      return "semver 2.0.0 with an optional 'v' (v1.2.3-rc.1+build.5); no leading zeros";
    case Format::kDatetime:
      return "RFC 3339: YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm), a real calendar date";
  }
  return "";
}

std::optional<std::string> check(Format f, std::string_view value) {
  switch (f) {
    case Format::kHostname:
      return detail::check_hostname(value);
    case Format::kUrl:
      return detail::check_url(value);
    case Format::kEmail:
      return detail::check_email(value);
    case Format::kIp:
      return detail::check_ip(value);
    case Format::kCidr:
      return detail::check_cidr(value);
    case Format::kUuid:
      return detail::check_uuid(value);
    case Format::kSemver:
      return detail::check_semver(value);
    case Format::kDatetime:
      return detail::check_datetime(value);
  }
  return "unknown format";  // a value cast from outside the enum
}

namespace detail {
namespace {

void append_escaped(std::string& out, char c, char quote_mark) {
  constexpr std::string_view kHex = "0123456789abcdef";
  const auto b = static_cast<unsigned char>(c);
  if (c == quote_mark || c == '\\') {
    out += '\\';
    out += c;
  } else if (b < 0x20 || b >= 0x7f) {
    out += "\\x";
    out += kHex[b >> 4];
    out += kHex[b & 0xf];
  } else {
    out += c;
  }
}

}  // namespace

std::string quote(std::string_view text) {
  std::string out = "\"";
  const size_t n = text.size() < kMaxQuoted ? text.size() : kMaxQuoted;
  for (size_t i = 0; i < n; ++i) append_escaped(out, text[i], '"');
  if (text.size() > kMaxQuoted) out += "...";
  out += '"';
  return out;
}

std::string quote_char(char c) {
  std::string out = "'";
  append_escaped(out, c, '\'');
  out += '\'';
  return out;
}

}  // namespace detail
}  // namespace hintkit::formats
