// formats::Regex: RE2 behind hintkit's own type, so re2 stays inside this module.
#include <re2/re2.h>

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

}  // namespace

struct Regex::Impl {
  explicit Impl(std::string_view pattern)
      : re(re2::StringPiece(pattern.data(), pattern.size()), options()) {
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
};

Regex::Regex(std::string_view pattern) : impl_(std::make_unique<Impl>(pattern)) {}
Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

bool Regex::ok() const { return impl_->re.ok(); }
const std::string& Regex::error() const { return impl_->error; }

bool Regex::search(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), impl_->re);
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
          m.groups.emplace_back(std::make_pair(b, b + g.size()));
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
