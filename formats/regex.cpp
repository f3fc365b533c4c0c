// formats::Regex: RE2 behind hintkit's own type, so re2 stays inside this module.
#include <re2/re2.h>

#include <optional>
#include <string>
#include <vector>

#include "formats/formats.h"

namespace hintkit::formats {

namespace {

// Go's regexp/syntax wording for RE2's error codes (ytt prints Go's).
std::string_view go_error_code(RE2::ErrorCode code) {
  switch (code) {
    case RE2::ErrorBadEscape:
      return "invalid escape sequence";
    case RE2::ErrorBadCharClass:
      return "invalid character class";
    case RE2::ErrorBadCharRange:
      return "invalid character class range";
    case RE2::ErrorMissingBracket:
      return "missing closing ]";
    case RE2::ErrorMissingParen:
      return "missing closing )";
    case RE2::ErrorUnexpectedParen:
      return "unexpected )";
    case RE2::ErrorTrailingBackslash:
      return "trailing backslash at end of expression";
    case RE2::ErrorRepeatArgument:
      return "missing argument to repetition operator";
    case RE2::ErrorRepeatSize:
      return "invalid repeat count";
    case RE2::ErrorRepeatOp:
      return "invalid nested repetition operator";
    case RE2::ErrorBadPerlOp:
      return "invalid or unsupported Perl syntax";
    case RE2::ErrorBadUTF8:
      return "invalid UTF-8";
    case RE2::ErrorBadNamedCapture:
      return "invalid named capture";
    default:
      return "";
  }
}

// Go's regexp/syntax has no `\C` (RE2's any-byte escape): the escape a Go pattern rejects,
// found by walking escapes as the parser does (`\\` is one escape, `\Q...\E` is literal).
bool has_any_byte_escape(std::string_view pattern) {
  for (size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] != '\\') continue;
    if (pattern[i + 1] == 'C') return true;
    if (pattern[i + 1] == 'Q') {
      size_t e = pattern.find("\\E", i + 2);
      if (e == std::string_view::npos) return false;
      i = e;
    }
    ++i;
  }
  return false;
}

// Length of the valid UTF-8 sequence at `at` as Go's utf8.DecodeRune reads it (no overlong
// forms, surrogates or code points past U+10FFFF), or 0.
size_t valid_rune_len(std::string_view t, size_t at) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(t[at + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  size_t n = (c >= 0xC2 && c <= 0xDF)   ? 2
             : (c >= 0xE0 && c <= 0xEF) ? 3
             : (c >= 0xF0 && c <= 0xF4) ? 4
                                        : 0;
  if (n == 0 || at + n > t.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(k) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(1) < 0xA0) return 0;  // overlong
  if (c == 0xED && b(1) > 0x9F) return 0;  // surrogate
  if (c == 0xF0 && b(1) < 0x90) return 0;  // overlong
  if (c == 0xF4 && b(1) > 0x8F) return 0;  // past U+10FFFF
  return n;
}

// Go's regexp reads each byte of invalid UTF-8 as U+FFFD (so `.` matches it); RE2 matches no
// rune there. The text with each such byte written as U+FFFD, and for each offset of it the
// offset in the original text (nullopt when the text is valid UTF-8).
struct Sanitized {
  std::string text;
  std::vector<size_t> original;  // size text.size() + 1
};
std::optional<Sanitized> sanitize(std::string_view t) {
  size_t i = 0;
  while (i < t.size()) {
    size_t n = valid_rune_len(t, i);
    if (n == 0) break;
    i += n;
  }
  if (i == t.size()) return std::nullopt;
  Sanitized s;
  s.text.reserve(t.size() + 16);
  s.original.reserve(t.size() + 17);
  for (i = 0; i < t.size();) {
    size_t n = valid_rune_len(t, i);
    if (n == 0) {
      s.text += "\xEF\xBF\xBD";
      for (int k = 0; k < 3; ++k) s.original.push_back(i + (k > 0 ? 1 : 0));
      ++i;
    } else {
      s.text.append(t.substr(i, n));
      for (size_t k = 0; k < n; ++k) s.original.push_back(i + k);
      i += n;
    }
  }
  s.original.push_back(t.size());
  return s;
}

}  // namespace

struct Regex::Impl {
  explicit Impl(std::string_view pattern)
      : re(re2::StringPiece(pattern.data(), pattern.size()), options()) {
    if (re.ok() && has_any_byte_escape(pattern)) {
      error = "invalid escape sequence: `\\C`";
      go_rejects = true;
    }
    if (!re.ok()) {
      std::string_view code = go_error_code(re.error_code());
      error = code.empty() ? re.error() : std::string(code) + ": `" + re.error_arg() + "`";
    }
  }
  static RE2::Options options() {
    RE2::Options o;
    o.set_log_errors(false);
    return o;
  }
  RE2 re;
  std::string error;
  bool go_rejects = false;  // RE2 compiles it, Go does not
};

Regex::Regex(std::string_view pattern) : impl_(std::make_unique<Impl>(pattern)) {}
Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

bool Regex::ok() const { return impl_->re.ok() && !impl_->go_rejects; }
const std::string& Regex::error() const { return impl_->error; }

bool Regex::search(std::string_view text) const {
  if (!ok()) return false;
  auto s = sanitize(text);
  std::string_view t = s ? std::string_view(s->text) : text;
  return RE2::PartialMatch(re2::StringPiece(t.data(), t.size()), impl_->re);
}

namespace {

// Bytes in the UTF-8 sequence starting at `c` (1 for anything malformed), as Go steps runes.
size_t rune_width(std::string_view text, size_t at) {
  if (at >= text.size()) return 1;
  const auto c = static_cast<unsigned char>(text[at]);
  const size_t want = c < 0x80           ? 1
                      : (c >> 5) == 0x6  ? 2
                      : (c >> 4) == 0xE  ? 3
                      : (c >> 3) == 0x1E ? 4
                                         : 1;
  if (at + want > text.size()) return 1;
  for (size_t k = 1; k < want; ++k) {
    if ((static_cast<unsigned char>(text[at + k]) & 0xC0) != 0x80) return 1;
  }
  return want;
}

}  // namespace

std::vector<Regex::Match> Regex::replace_matches(std::string_view text) const {
  std::vector<Match> out;
  for_each_replace_match(text, [&](const Match& m) {
    out.push_back(m);
    return true;
  });
  return out;
}

void Regex::for_each_replace_match(std::string_view text,
                                   const std::function<bool(const Match&)>& each) const {
  if (!ok()) return;
  // On invalid UTF-8, match the text as Go reads it and report offsets in the original.
  const auto sanitized = sanitize(text);
  const std::vector<size_t>* original = nullptr;
  if (sanitized) {
    text = sanitized->text;
    original = &sanitized->original;
  }
  const auto at = [&](size_t offset) { return original ? (*original)[offset] : offset; };
  const int groups = impl_->re.NumberOfCapturingGroups() + 1;
  std::vector<re2::StringPiece> found(static_cast<size_t>(groups));
  const re2::StringPiece whole(text.data(), text.size());
  size_t search = 0;
  size_t last_end = 0;
  while (search <= text.size()) {
    if (!impl_->re.Match(whole, search, text.size(), RE2::UNANCHORED, found.data(), groups)) break;
    const size_t begin = static_cast<size_t>(found[0].data() - text.data());
    const size_t end = begin + found[0].size();
    // Go replaces a match unless it is empty and right where the previous one ended.
    if (end > last_end || begin == 0) {
      Match m;
      m.groups.reserve(found.size());
      for (const re2::StringPiece& g : found) {
        if (g.data() == nullptr) {
          m.groups.emplace_back(std::nullopt);
        } else {
          const size_t b = static_cast<size_t>(g.data() - text.data());
          m.groups.emplace_back(std::make_pair(at(b), at(b + g.size())));
        }
      }
      if (!each(m)) return;
    }
    last_end = end;
    // Always advance at least one character.
    const size_t width = rune_width(text, search);
    if (search + width > end) {
      search += width;
    } else if (search + 1 > end) {
      ++search;
    } else {
      search = end;
    }
  }
}

std::optional<size_t> Regex::group_named(std::string_view name) const {
  const auto& groups = impl_->re.NamedCapturingGroups();
  auto it = groups.find(std::string(name));
  if (it == groups.end()) return std::nullopt;
  return static_cast<size_t>(it->second);
}

}  // namespace hintkit::formats
