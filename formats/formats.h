// Pure string-format checkers for the `format:` field of hint files: hostname, url, email, ip,
// cidr, uuid, semver, datetime. Entry point: `check(format, value)` returns nothing when the
// value is valid and a short human reason otherwise (`label "ab-" ends with '-'`).
//
// Strictness, per format:
//   hostname  RFC 1123: dot-separated labels of 1-63 [A-Za-z0-9-], alnum at both ends,
//             at most 253 characters in total, no trailing dot
//   url       Go's url.ParseRequestURI accepts it and the scheme is non-empty; like Go, the
//             query (from the first '?') and opaque forms ("mailto:x") are not looked into
//   email     ^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$ (deliberately simple)
//   ip        Go's net.ParseIP: dotted-quad IPv4 (no leading zeros) or RFC 4291 IPv6, no zone
//   cidr      Go's net.ParseCIDR: ip "/" decimal prefix length within the family's bits
//   uuid      8-4-4-4-12 hex digits, any case
//   semver    semver 2.0.0 with an optional lowercase `v`; no leading zeros in numbers
//   datetime  RFC 3339: YYYY-MM-DDTHH:MM:SS[.frac](Z|±hh:mm), real calendar dates,
//             offsets up to 23:59; upper-case T and Z only, as Go's strict RFC 3339 parser
// Checks never throw and accept any bytes (binary, huge); reasons quote at most a short piece
// of the value. re2 is used inside this module only.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hintkit::formats {

enum class Format { kHostname, kUrl, kEmail, kIp, kCidr, kUuid, kSemver, kDatetime };

std::string_view to_string(Format f);
// Exact, case-sensitive: "URL" is not a format name.
std::optional<Format> parse(std::string_view name);
// All names in declaration order, for did-you-mean and help text.
std::span<const std::string_view> names();

// What a format accepts, in one line (the strictness table above), for help and hovers.
std::string_view syntax(Format f);

// nullopt when `value` is valid; otherwise why not (no trailing period).
std::optional<std::string> check(Format f, std::string_view value);

// A regular expression in Go's RE2 syntax, as ytt's `@ytt:regexp` takes them. Matching is
// linear in the input (no backtracking, no recursion), so hostile patterns or huge inputs
// cannot hang or overflow the stack. Construction never throws: check `ok()`.
class Regex {
 public:
  explicit Regex(std::string_view pattern);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  bool ok() const;
  // Why the pattern does not compile, worded as Go does: "missing closing ): `(a`".
  const std::string& error() const;

  // Whether the pattern matches anywhere in `text`.
  bool search(std::string_view text) const;

  // One match: offsets into the text of the whole match (group 0) and of each group;
  // a group that did not take part is nullopt.
  struct Match {
    std::vector<std::optional<std::pair<size_t, size_t>>> groups;
  };
  // The matches Go's ReplaceAllString replaces, left to right: non-overlapping, advancing at
  // least one character after an empty match, and skipping an empty match right after
  // another match.
  std::vector<Match> replace_matches(std::string_view text) const;
  // The same matches handed to `each` one at a time, until it returns false (a caller bounding
  // its work need not hold millions of matches at once).
  void for_each_replace_match(std::string_view text,
                              const std::function<bool(const Match&)>& each) const;

  // The group number of `(?P<name>...)`, nullopt when the pattern has no such group.
  std::optional<size_t> group_named(std::string_view name) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hintkit::formats
