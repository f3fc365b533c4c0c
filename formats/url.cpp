// url: what Go's url.ParseRequestURI accepts (Go 1.26's net/url), plus a non-empty
// scheme. ParseRequestURI is forgiving in some places and strict in others:
//   - no ASCII control bytes (< 0x20, 0x7f) anywhere
//   - scheme = letter *(letter / digit / '+' / '-' / '.') before the first ':'
//   - everything from the first '?' on is the query and is not looked at; ParseRequestURI does
//     not split off a '#fragment', so a '#' after the '?' is part of the query and a '#' in the
//     path is part of the path
//   - after "scheme:", anything not starting with '/' is opaque and not looked at
//     ("mailto:a@b", "urn:isbn:1", "localhost:8080" with scheme "localhost", "http:")
//   - "//authority" up to the next '/': "userinfo@" (split at the last '@'; RFC 3986 userinfo
//     bytes plus '@'), then host[:port] where the port is ':' and zero or more digits
//   - a bracketed host must be an IPv6 address (with an optional "%25zone"), not IPv4;
//     '[' anywhere but the start of the host is refused (Go 1.25.2 / 1.24.8 and later)
//   - http and https hosts may hold one ':' only; other schemes split the port at the last ':'
//     (Go 1.26's default; GODEBUG=urlstrictcolons=0 or a go.mod older than 1.26 restores the
//     last-':' split for http too, so "http://a:1:2/" passes there)
//   - host bytes: ASCII letters, digits and -._~!$&'()*+,;=:[]<>" raw, non-ASCII raw, and
//     percent-escapes only of non-ASCII bytes (or "%25" in a zone)
//   - every '%' in the path and userinfo must start a well-formed escape (two hex digits);
//     other path bytes, spaces included, are accepted
#include <cstddef>
#include <string>

#include "formats/checkers.h"

namespace hintkit::formats::detail {
namespace {

// The part of a URL whose escapes are being checked; it selects the rules and names the place.
enum class Part { kPath, kUserinfo, kHost, kZone };

std::string_view to_string(Part part) {
  switch (part) {
    case Part::kPath:
      return "path";
    case Part::kUserinfo:
      return "userinfo";
    case Part::kHost:
      return "host";
    case Part::kZone:
      return "IPv6 zone";
  }
  return "url";
}

bool is_control(char c) {
  const auto b = static_cast<unsigned char>(c);
  return b < 0x20 || b == 0x7f;
}

bool is_scheme_char(char c) { return is_alnum(c) || c == '+' || c == '-' || c == '.'; }

// Punctuation a host may hold without escaping: RFC 3986 unreserved and sub-delims, plus what Go
// adds for ports (':'), IPv6 brackets, and the three it could not escape-check (< > ").
constexpr std::string_view kRawHostPunctuation = "-._~!$&'()*+,;=:[]<>\"";
// Punctuation allowed in userinfo: RFC 3986 unreserved, sub-delims and ':', the '%' of escapes,
// and '@' (Go splits userinfo from the host at the last '@').
constexpr std::string_view kUserinfoPunctuation = "-._~!$&'()*+,;=:%@";

bool is_raw_host_char(unsigned char c) {
  const auto ch = static_cast<char>(c);
  return c < 0x80 && (is_alnum(ch) || kRawHostPunctuation.find(ch) != std::string_view::npos);
}

bool is_userinfo_char(char c) {
  return is_alnum(c) || kUserinfoPunctuation.find(c) != std::string_view::npos;
}

// ":" followed by zero or more digits, or nothing at all.
bool is_valid_optional_port(std::string_view port) {
  if (port.empty()) return true;
  if (port[0] != ':') return false;
  for (char c : port.substr(1)) {
    if (!is_digit(c)) return false;
  }
  return true;
}

// Checks `text` as one URL part and, if `decoded` is given, appends its unescaped bytes.
Reason unescape(std::string_view text, Part part, std::string* decoded) {
  const bool host_like = part == Part::kHost || part == Part::kZone;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c != '%') {
      // Non-ASCII bytes are let through raw; Go checks only ASCII here.
      const auto b = static_cast<unsigned char>(c);
      if (host_like && b < 0x80 && !is_raw_host_char(b)) {
        return "invalid character " + quote_char(c) + " in " + std::string(to_string(part));
      }
      if (decoded != nullptr) decoded->push_back(c);
      ++i;
      continue;
    }
    const std::string_view escape = text.substr(i, 3);
    if (escape.size() < 3 || hex_value(escape[1]) < 0 || hex_value(escape[2]) < 0) {
      return "invalid percent-escape " + quote(escape) + " in " + std::string(to_string(part));
    }
    const auto byte = static_cast<unsigned char>(hex_value(escape[1]) * 16 + hex_value(escape[2]));
    if (part == Part::kHost && byte < 0x80 && escape != "%25") {
      return "percent-escape " + quote(escape) + " in host must encode a non-ASCII byte";
    }
    if (part == Part::kZone && escape != "%25" && byte != ' ' && !is_raw_host_char(byte)) {
      return "percent-escape " + quote(escape) + " is not allowed in an IPv6 zone";
    }
    if (decoded != nullptr) decoded->push_back(static_cast<char>(byte));
    i += 3;
  }
  return std::nullopt;
}

// "[" IPv6 "]" [":" port]; `host` starts with '['.
Reason check_ip_literal(std::string_view host) {
  const size_t close = host.rfind(']');
  if (close == std::string_view::npos) return "missing ']' in host";
  const std::string_view port = host.substr(close + 1);
  if (!is_valid_optional_port(port)) return "invalid port " + quote(port) + " after host";

  const std::string_view inside = host.substr(1, close - 1);
  std::string address;
  if (const size_t zone = inside.find("%25"); zone != std::string_view::npos) {
    if (auto reason = unescape(inside.substr(0, zone), Part::kHost, &address)) return reason;
    if (auto reason = unescape(inside.substr(zone), Part::kZone, &address)) return reason;
  } else if (auto reason = unescape(inside, Part::kHost, &address)) {
    return reason;
  }
  const IpParse ip = parse_ip(address);
  if (!ip.error && ip.family == IpFamily::kV6) return std::nullopt;
  const std::string literal = "host " + quote(host.substr(0, close + 1));
  if (ip.error) return literal + " is not an IPv6 address: " + *ip.error;
  return literal + " is IPv4; brackets are only for IPv6 addresses";
}

// host[:port]; `one_colon` is true for http and https, whose hosts may hold a single ':'.
Reason check_host(std::string_view host, bool one_colon) {
  const size_t open = host.rfind('[');
  if (open == 0) return check_ip_literal(host);
  if (open != std::string_view::npos) return "'[' is only allowed at the start of the host";

  if (size_t colon = host.find(':'); colon != std::string_view::npos) {
    const size_t last = host.rfind(':');
    if (last != colon) {
      if (one_colon) return "host has more than one ':' (IPv6 addresses need brackets)";
      colon = last;
    }
    const std::string_view port = host.substr(colon);
    if (!is_valid_optional_port(port)) return "invalid port " + quote(port) + " after host";
  }
  return unescape(host, Part::kHost, nullptr);
}

// [userinfo "@"] host[:port]
Reason check_authority(std::string_view authority, bool one_colon) {
  const size_t at = authority.rfind('@');
  const std::string_view host = at == std::string_view::npos ? authority : authority.substr(at + 1);
  if (auto reason = check_host(host, one_colon)) return reason;
  if (at == std::string_view::npos) return std::nullopt;

  const std::string_view userinfo = authority.substr(0, at);
  for (char c : userinfo) {
    if (!is_userinfo_char(c)) return "invalid character " + quote_char(c) + " in userinfo";
  }
  return unescape(userinfo, Part::kUserinfo, nullptr);
}

bool equals_ignoring_case(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const char c = (a[i] >= 'A' && a[i] <= 'Z') ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (c != lower[i]) return false;
  }
  return true;
}

// Why `value` has no scheme Go would recognise.
std::string explain_missing_scheme(std::string_view value) {
  const size_t colon = value.find(':');
  if (colon == std::string_view::npos || colon == 0) return "missing scheme";
  const std::string_view candidate = value.substr(0, colon);
  if (candidate.find_first_of("/?#") != std::string_view::npos) return "missing scheme";
  if (!is_alpha(candidate[0])) return "scheme " + quote(candidate) + " must start with a letter";
  for (char c : candidate) {
    if (!is_scheme_char(c)) {
      return "invalid character " + quote_char(c) + " in scheme " + quote(candidate);
    }
  }
  return "missing scheme";
}

}  // namespace

Reason check_url(std::string_view value) {
  if (value.empty()) return "url is empty";
  for (char c : value) {
    if (is_control(c)) return "control character " + quote_char(c) + " in url";
  }

  // Scheme: letters first, then letters, digits, '+', '-', '.', up to the first ':'.
  size_t colon = 0;
  while (colon < value.size() &&
         (is_alpha(value[colon]) || (colon > 0 && is_scheme_char(value[colon])))) {
    ++colon;
  }
  if (colon == value.size() || value[colon] != ':') return explain_missing_scheme(value);
  if (colon == 0) return "missing scheme before ':'";
  const std::string_view scheme = value.substr(0, colon);

  std::string_view rest = value.substr(colon + 1);
  rest = rest.substr(0, rest.find('?'));            // the query is not checked
  if (!rest.starts_with('/')) return std::nullopt;  // opaque, e.g. "mailto:a@b.c"

  std::string_view path = rest;
  if (rest.starts_with("//")) {
    std::string_view authority = rest.substr(2);
    const size_t slash = authority.find('/');
    path = slash == std::string_view::npos ? std::string_view() : authority.substr(slash);
    authority = authority.substr(0, slash);
    const bool one_colon =
        equals_ignoring_case(scheme, "http") || equals_ignoring_case(scheme, "https");
    if (auto reason = check_authority(authority, one_colon)) return reason;
  }
  return unescape(path, Part::kPath, nullptr);
}

}  // namespace hintkit::formats::detail
