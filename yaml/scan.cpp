// Cheap passes over the raw text that run before the reader: binary detection and lone CRs;
// and positions from line starts.
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
    r.message += " (NEL, LS, PS) is not supported: go-yaml ends a line there";
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

diag::Position text_position(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  int line = 1;
  size_t line_start = 0;
  auto at = [&](size_t i) { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0; };
  for (size_t i = 0; i < offset; ++i) {
    size_t width = 0;  // of the line break at i
    if (text[i] == '\n' || (text[i] == '\r' && at(i + 1) != '\n')) {
      width = 1;
    } else if (at(i) == 0xC2 && at(i + 1) == 0x85) {
      width = 2;
    } else if (at(i) == 0xE2 && at(i + 1) == 0x80 && (at(i + 2) == 0xA8 || at(i + 2) == 0xA9)) {
      width = 3;
    }
    if (width > 0 && i + width <= offset) {
      ++line;
      line_start = i + width;
      i += width - 1;
    }
  }
  return {line, static_cast<int>(offset - line_start) + 1};
}

bool has_lone_cr(std::string_view s) {
  for (size_t i = s.find('\r'); i != std::string_view::npos; i = s.find('\r', i + 1)) {
    if (i + 1 >= s.size() || s[i + 1] != '\n') return true;
  }
  return false;
}

}  // namespace hintkit::yaml::internal
