#include "starlark/runes.h"

#include <cstddef>

#include "gocompat/gocompat.h"

namespace hintkit::starlark {

void append_utf8(std::string& out, uint32_t cp) { gocompat::append_rune(out, cp); }

// Decodes one UTF-8 code point at s[i]; invalid bytes decode as U+FFFD of length 1.
uint32_t decode_utf8(std::string_view s, size_t i, size_t* len) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) {
    *len = 1;
    return 0xFFFD;
  }
  uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) {
      *len = 1;
      return 0xFFFD;
    }
    cp = (cp << 6) | (d & 0x3F);
  }
  *len = n;
  return cp;
}

std::string encode_utf8(uint32_t cp) {
  std::string s;
  append_utf8(s, cp);
  return s;
}

}  // namespace hintkit::starlark
