// Cheap passes over the raw text that run before the reader: binary detection, a
// nesting-depth estimate that refuses hostile input before it is read, and the comment scan
// that finds `#@` annotations.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "yaml/internal.h"

namespace hintkit::yaml::internal {

NotText find_not_text(std::string_view s) {
  const auto* u = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size();
  size_t i = 0;
  size_t line_break = n;  // the first NEL, LS or PS
  uint32_t line_break_cp = 0;
  static constexpr char kHex[] = "0123456789ABCDEF";
  auto control = [&](size_t at, uint32_t cp) {
    NotText r{ErrorKind::kControlCharacter, at, "", ""};
    if (cp == 0) {
      r.message = "binary data: NUL byte";
      return r;
    }
    r.message = "control character U+";
    for (int shift = cp > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4)
      r.message += kHex[(cp >> shift) & 0xF];
    r.message += " is not allowed in YAML";
    return r;
  };
  while (i < n) {
    // Eight printable ASCII bytes at a time: none with the top bit set, none below 0x20 (line
    // ends and tabs leave this loop for a byte), none 0x7F.
    while (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, u + i, 8);
      constexpr uint64_t kLow = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
      uint64_t below_space = (w - kLow * 0x20) & ~w;
      uint64_t del = w ^ (kLow * 0x7F);
      uint64_t is_del = (del - kLow) & ~del;
      if (((w | below_space | is_del) & kHigh) != 0) break;
      i += 8;
    }
    if (i >= n) break;
    unsigned char c = u[i];
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) return control(i, c);
      ++i;
      continue;
    }
    // go-yaml's reader: the leading byte gives the length, then the trailing bytes, then
    // overlong forms, then the range.
    size_t len;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      len = 0;
      cp = 0;
    }
    std::string go_yaml;
    if (len == 0) {
      go_yaml = "invalid leading UTF-8 octet";
    } else if (i + len > n) {
      go_yaml = "incomplete UTF-8 octet sequence";
    } else {
      for (size_t k = 1; k < len && go_yaml.empty(); ++k) {
        if ((u[i + k] & 0xC0) != 0x80) {
          go_yaml = "invalid trailing UTF-8 octet";
        } else {
          cp = (cp << 6) | (u[i + k] & 0x3F);
        }
      }
      if (go_yaml.empty() &&
          ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))) {
        go_yaml = "invalid length of a UTF-8 sequence";
      }
      if (go_yaml.empty() && ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)) {
        go_yaml = "invalid Unicode character";
      }
    }
    if (!go_yaml.empty()) {
      NotText r{ErrorKind::kInvalidUtf8, i, "not UTF-8 text: invalid byte 0x", std::move(go_yaml)};
      r.message += static_cast<char>(std::tolower(kHex[c >> 4]));
      r.message += static_cast<char>(std::tolower(kHex[c & 0xF]));
      return r;
    }
    if ((cp >= 0x80 && cp <= 0x9F && cp != 0x85) || cp == 0xFFFE || cp == 0xFFFF) {
      return control(i, cp);
    }
    if ((cp == 0x85 || cp == 0x2028 || cp == 0x2029) && line_break == n) {
      line_break = i;
      line_break_cp = cp;
    }
    i += len;
  }
  if (line_break < n) {
    // Not go-yaml's error (it reads on): ours, after any of the reader's.
    NotText r{ErrorKind::kUnsupportedLineBreak, line_break, "line break U+", ""};
    for (int shift = 12; shift >= 0; shift -= 4) r.message += kHex[(line_break_cp >> shift) & 0xF];
    r.message += line_break_cp == '\r'
                     ? " (a CR without LF) is not supported: go-yaml ends a line there"
                     : " (NEL, LS, PS) is not supported: go-yaml ends a line there";
    return r;
  }
  return {};
}

diag::Position position_at(const std::vector<size_t>& line_starts, size_t offset) {
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  size_t line = static_cast<size_t>(it - line_starts.begin());  // 1-based
  if (line == 0) return {1, static_cast<int>(offset) + 1};
  return {static_cast<int>(line), static_cast<int>(offset - line_starts[line - 1]) + 1};
}

size_t offset_at(const std::vector<size_t>& line_starts, size_t size, diag::Position at) {
  if (at.line < 1 || line_starts.empty()) return 0;
  size_t line = std::min(static_cast<size_t>(at.line), line_starts.size());
  return std::min(size, line_starts[line - 1] + static_cast<size_t>(std::max(0, at.column - 1)));
}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// One pass over the text. Tracks just enough YAML lexing (quotes, block scalars, flow
// brackets, indentation levels) to tell comments from text and to estimate nesting depth.
class Scanner {
 public:
  Scanner(std::string_view s, bool want_comments, int depth_limit)
      : s_(s), want_comments_(want_comments), limit_(depth_limit) {}

  ScanResult run() {
    size_t b = 0;
    result_.line_starts.push_back(0);
    int line = 1;
    while (b <= s_.size()) {
      size_t nl = s_.find('\n', b);
      size_t e = nl == std::string_view::npos ? s_.size() : nl;
      size_t content_end = (e > b && s_[e - 1] == '\r') ? e - 1 : e;
      scan_line(line, b, content_end);
      if (result_.depth_exceeded) break;
      if (nl == std::string_view::npos) break;
      b = nl + 1;
      ++line;
      result_.line_starts.push_back(b);
    }
    return std::move(result_);
  }

 private:
  enum class Quote { kNone, kSingle, kDouble };
  struct Level {
    int indent;
    bool seq;
  };

  void note_depth(size_t offset) {
    int d = static_cast<int>(levels_.size()) + flow_;
    if (d > result_.max_depth) result_.max_depth = d;
    if (limit_ > 0 && d > limit_ && !result_.depth_exceeded) {
      result_.depth_exceeded = true;
      result_.depth_offset = offset;
    }
  }

  bool dash_at(size_t i, size_t e) const {
    return s_[i] == '-' && (i + 1 >= e || is_blank(s_[i + 1]));
  }

  void scan_line(int line, size_t b, size_t e) {
    size_t indent_end = b;
    while (indent_end < e && s_[indent_end] == ' ') ++indent_end;
    int indent = static_cast<int>(indent_end - b);
    bool blank = true;
    for (size_t k = b; k < e; ++k) {
      if (!is_blank(s_[k])) {
        blank = false;
        break;
      }
    }

    // Document markers end everything, even block scalars.
    size_t p = indent_end;
    bool doc_line = false;
    if (e - b >= 3 && (s_.substr(b, 3) == "---" || s_.substr(b, 3) == "...") &&
        (e - b == 3 || is_blank(s_[b + 3]))) {
      if (s_[b] == '-') result_.doc_start_lines.push_back(line);
      levels_.clear();
      flow_ = 0;
      quote_ = Quote::kNone;
      in_block_scalar_ = false;
      doc_line = true;
      p = b + 3;
    } else if (in_block_scalar_) {
      if (blank || indent > block_indent_) return;
      in_block_scalar_ = false;
    }

    // A directive: go-yaml's scanner reads the line whole, a comment on it included (no
    // comment token).
    if (quote_ == Quote::kNone && !doc_line && b < e && s_[b] == '%') return;

    if (quote_ != Quote::kNone) {
      p = b;  // a quoted scalar continues from the previous line
    } else if (!doc_line && flow_ == 0 && !blank && s_[p] != '#') {
      // Block context: indentation opens and closes levels.
      bool dash = dash_at(p, e);
      while (!levels_.empty() && levels_.back().indent > indent) levels_.pop_back();
      if (!levels_.empty() && levels_.back().indent == indent && levels_.back().seq && !dash) {
        levels_.pop_back();
      }
      if (levels_.empty() || levels_.back().indent < indent ||
          (levels_.back().indent == indent && !levels_.back().seq && dash)) {
        levels_.push_back({indent, dash});
        note_depth(p);
      }
    }

    bool token_start = true;
    bool first_dash_done = false;
    for (size_t i = p; i < e;) {
      char c = s_[i];
      if (quote_ == Quote::kDouble) {
        if (c == '\\') {
          i += 2;
          continue;
        }
        if (c == '"') {
          quote_ = Quote::kNone;
          token_start = false;
        }
        ++i;
        continue;
      }
      if (quote_ == Quote::kSingle) {
        if (c == '\'') {
          if (i + 1 < e && s_[i + 1] == '\'') {
            i += 2;
            continue;
          }
          quote_ = Quote::kNone;
          token_start = false;
        }
        ++i;
        continue;
      }
      if (!token_start && flow_ == 0 && c != ':' && c != '#') {
        // Inside a plain scalar in block context only ':' and '#' can change anything.
        while (i < e && s_[i] != ':' && s_[i] != '#') ++i;
        continue;
      }
      if (is_blank(c)) {
        ++i;
        continue;
      }
      if (c == '#' && (i == b || is_blank(s_[i - 1]))) {
        add_comment(line, b, i, e);
        return;
      }
      if (token_start) {
        if (c == '"') {
          quote_ = Quote::kDouble;
        } else if (c == '\'') {
          quote_ = Quote::kSingle;
        } else if ((c == '|' || c == '>') && flow_ == 0) {
          in_block_scalar_ = true;
          block_indent_ = doc_line ? -1 : indent;
          token_start = false;
        } else if (c == '-' && flow_ == 0 && dash_at(i, e)) {
          result_.block_entries.push_back(i);
          if (first_dash_done) {
            levels_.push_back({static_cast<int>(i - b), true});
            note_depth(i);
          }
          first_dash_done = true;
          ++i;
          continue;  // still at a token start
        } else if (c == '?' && (i + 1 >= e || is_blank(s_[i + 1]))) {
          ++i;
          continue;
        } else if (c == '[' || c == '{') {
          ++flow_;
          note_depth(i);
          if (result_.depth_exceeded) return;
          ++i;
          continue;
        } else if (c == ']' || c == '}') {
          if (flow_ > 0) --flow_;
          token_start = false;
        } else if (c == ',' && flow_ > 0) {
          ++i;
          continue;
        } else if (c == '!' || c == '&' || c == '*') {
          bool alias = c == '*';
          while (i < e && !is_blank(s_[i]) &&
                 !(flow_ > 0 && (s_[i] == ',' || s_[i] == ']' || s_[i] == '}'))) {
            ++i;
          }
          token_start = !alias;
          continue;
        } else {
          token_start = false;  // a plain scalar begins
        }
        ++i;
        continue;
      }
      // Inside a plain scalar, or just after a quoted one / a closing bracket.
      if (c == ':' &&
          (i + 1 >= e || is_blank(s_[i + 1]) ||
           (flow_ > 0 && std::string_view(",[]{}").find(s_[i + 1]) != std::string_view::npos))) {
        token_start = true;
      } else if (flow_ > 0 && c == ',') {
        token_start = true;
      } else if (flow_ > 0 && (c == ']' || c == '}')) {
        --flow_;
      }
      ++i;
    }
  }

  void add_comment(int line, size_t b, size_t hash, size_t e) {
    std::string_view text = s_.substr(hash + 1, e - hash - 1);
    if (!text.empty() && text[0] == '!') return;  // `#!` comments are dropped
    bool annotation = !text.empty() && text[0] == '@';
    if (!annotation && !want_comments_) return;
    ScannedComment c;
    c.kind = annotation ? CommentKind::kAnnotation : CommentKind::kPlain;
    c.line = line;
    c.column = static_cast<int>(hash - b) + 1;
    c.text = std::string(annotation ? text.substr(1) : text);
    result_.comments.push_back(std::move(c));
  }

  std::string_view s_;
  bool want_comments_;
  int limit_;
  ScanResult result_;
  std::vector<Level> levels_;
  int flow_ = 0;
  Quote quote_ = Quote::kNone;
  bool in_block_scalar_ = false;
  int block_indent_ = 0;
};

}  // namespace

ScanResult scan_source(std::string_view source, bool want_comments, int depth_limit) {
  Scanner scanner(source, want_comments, depth_limit);
  return scanner.run();
}

bool has_lone_cr(std::string_view s) {
  for (size_t i = s.find('\r'); i != std::string_view::npos; i = s.find('\r', i + 1)) {
    if (i + 1 >= s.size() || s[i + 1] != '\n') return true;
  }
  return false;
}

std::string with_lone_cr_as_lf(std::string_view s) {
  std::string out(s);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '\r' && (i + 1 >= out.size() || out[i + 1] != '\n')) out[i] = '\n';
  }
  return out;
}

}  // namespace hintkit::yaml::internal
