// ip and cidr, as Go's net.ParseIP and net.ParseCIDR accept them. Since Go 1.17 they refuse
// leading zeros in IPv4 octets, and current Go builds both on netip.ParseAddr, then refuses
// zones. So:
//   IPv4  exactly four '.'-separated decimal octets 0-255; "0" alone is fine, "01" is not
//   IPv6  up to eight ':'-separated groups of 1-4 hex digits (any case), at most one "::"
//         standing for one or more zero groups, optionally ending in an embedded dotted quad
//         in place of the last two groups; "%zone" is parsed (URLs use it) but ip/cidr refuse it
//   CIDR  address "/" prefix, where the prefix is ASCII digits only (leading zeros allowed, as
//         Go reads it with a plain digit loop) and at most 32 or 128
// The parser below follows that grammar step for step; its reasons are its own.
#include <cstddef>
#include <string>
#include <utility>

#include "formats/checkers.h"

namespace hintkit::formats::detail {
namespace {

constexpr size_t kIpv4Octets = 4;
constexpr int kMaxOctet = 255;
constexpr size_t kIpv6Bytes = 16;      // 8 groups of 2 bytes
constexpr size_t kMaxHexPerGroup = 4;  // a group is 16 bits
constexpr int kIpv4Bits = 32;
constexpr int kIpv6Bits = 128;
// Go stops reading a prefix length at this value (its dtoi "big"); anything near it is far past
// 128 anyway, and the cap keeps the accumulator from overflowing on a long run of digits.
constexpr int kPrefixReadCap = 0xFFFFFF;
// Numbers echoed in reasons are cut to this many digits.
constexpr size_t kMaxEchoedDigits = 12;

std::string echo_number(std::string_view digits) {
  if (digits.size() <= kMaxEchoedDigits) return std::string(digits);
  return std::string(digits.substr(0, kMaxEchoedDigits)) + "...";
}

IpParse fail(std::string reason) {
  IpParse result;
  result.error = std::move(reason);
  return result;
}

// A dotted quad: the whole address, or the tail of an IPv6 address.
Reason parse_v4(std::string_view text) {
  size_t start = 0;
  for (size_t count = 1;; ++count) {
    const size_t dot = text.find('.', start);
    const std::string_view octet =
        text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (octet.empty()) {
      if (start == 0) return "address starts with '.'";
      if (dot == std::string_view::npos) return "address ends with '.'";
      return "empty octet between two dots";
    }
    if (count > kIpv4Octets) return "address has more than 4 octets";
    int value = 0;
    for (char c : octet) {
      if (!is_digit(c)) return "unexpected character " + quote_char(c) + " in IPv4 address";
      if (value <= kMaxOctet) value = value * 10 + (c - '0');
    }
    if (octet.size() > 1 && octet[0] == '0') {
      return "octet " + quote(octet) + " has a leading zero";
    }
    if (value > kMaxOctet) return "octet " + echo_number(octet) + " is out of range";
    if (dot == std::string_view::npos) {
      if (count < kIpv4Octets) {
        return "address has " + std::to_string(count) + " octets, want 4";
      }
      return std::nullopt;
    }
    start = dot + 1;
  }
}

IpParse parse_v6(std::string_view text) {
  IpParse result;
  result.family = IpFamily::kV6;
  std::string_view rest = text;
  if (const size_t percent = rest.find('%'); percent != std::string_view::npos) {
    result.zone = rest.substr(percent + 1);
    rest = rest.substr(0, percent);
    if (result.zone.empty()) return fail("zone after '%' is empty");
  }

  size_t filled = 0;  // bytes of the 16 written so far
  bool has_ellipsis = false;
  if (rest.starts_with("::")) {
    has_ellipsis = true;
    rest.remove_prefix(2);
    if (rest.empty()) return result;  // "::" alone
  }
  const bool starts_with_group = !has_ellipsis;

  while (filled < kIpv6Bytes) {
    size_t run = 0;
    while (run < rest.size() && hex_value(rest[run]) >= 0) ++run;
    if (run == 0) {
      if (rest.empty()) return fail("address ends early");  // unreachable; kept as a guard
      if (rest[0] == ':') {
        return fail(filled == 0 && starts_with_group ? "address starts with a single ':'"
                                                     : "too many ':' in a row");
      }
      return fail("unexpected character " + quote_char(rest[0]) + " in IPv6 address");
    }
    if (run > kMaxHexPerGroup) {
      return fail("group " + quote(rest.substr(0, run)) + " has more than four hex digits");
    }
    if (run < rest.size() && rest[run] == '.') {
      // The digits just read start an embedded dotted quad, which takes the last 4 bytes.
      if (!has_ellipsis && filled != kIpv6Bytes - 4) {
        return fail("embedded IPv4 address must follow exactly six groups");
      }
      if (filled + 4 > kIpv6Bytes) return fail("too many groups before the embedded IPv4 address");
      if (auto reason = parse_v4(rest)) return fail(std::move(*reason));
      filled += 4;
      rest = {};
      break;
    }
    filled += 2;
    rest.remove_prefix(run);
    if (rest.empty()) break;
    if (rest[0] != ':') {
      return fail("unexpected character " + quote_char(rest[0]) + " in IPv6 address");
    }
    if (rest.size() == 1) return fail("address ends with a single ':'");
    rest.remove_prefix(1);
    if (rest[0] == ':') {
      if (has_ellipsis) return fail("more than one '::'");
      has_ellipsis = true;
      rest.remove_prefix(1);
      if (rest.empty()) break;
    }
  }

  if (!rest.empty()) return fail("address has more than 8 groups");
  if (filled < kIpv6Bytes && !has_ellipsis) {
    return fail("address has " + std::to_string(filled / 2) + " groups, want 8 or a '::'");
  }
  if (filled == kIpv6Bytes && has_ellipsis) {
    return fail("'::' must stand for at least one group of zeros");
  }
  return result;
}

// net.ParseIP and net.ParseCIDR parse zones but then refuse them.
std::string zone_not_allowed(std::string_view zone) {
  std::string with_percent(1, '%');
  with_percent += zone;
  return "zone " + quote(with_percent) + " is not allowed";
}

}  // namespace

IpParse parse_ip(std::string_view text) {
  for (char c : text) {
    if (c == '.') {
      IpParse result;
      result.error = parse_v4(text);
      return result;
    }
    if (c == ':') return parse_v6(text);
    if (c == '%') return fail("missing IPv6 address before '%'");
  }
  if (text.empty()) return fail("address is empty");
  return fail("not an IP address: no '.' or ':'");
}

Reason check_ip(std::string_view value) {
  IpParse ip = parse_ip(value);
  if (ip.error) return std::move(ip.error);
  if (!ip.zone.empty()) return zone_not_allowed(ip.zone);
  return std::nullopt;
}

Reason check_cidr(std::string_view value) {
  if (value.empty()) return "cidr is empty";
  const size_t slash = value.find('/');
  if (slash == std::string_view::npos) return "missing '/' and prefix length";
  IpParse ip = parse_ip(value.substr(0, slash));
  if (ip.error) return std::move(ip.error);
  if (!ip.zone.empty()) return zone_not_allowed(ip.zone);

  const std::string_view prefix = value.substr(slash + 1);
  if (prefix.empty()) return "prefix length after '/' is empty";
  int bits = 0;
  for (char c : prefix) {
    if (!is_digit(c)) {
      return "prefix length " + quote(prefix) + " is not a decimal number";
    }
    bits = bits * 10 + (c - '0');
    if (bits >= kPrefixReadCap) break;
  }
  const int max_bits = ip.family == IpFamily::kV4 ? kIpv4Bits : kIpv6Bits;
  if (bits > max_bits) {
    return "prefix length " + echo_number(prefix) + " is more than " + std::to_string(max_bits) +
           (ip.family == IpFamily::kV4 ? " for IPv4" : " for IPv6");
  }
  return std::nullopt;
}

}  // namespace hintkit::formats::detail
