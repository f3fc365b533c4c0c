// unicode/utf8 decoding and the unicode package's classes and case mappings (gocompat.h).
#include <locale.h>
#include <wctype.h>

#include <algorithm>
#include <cstddef>

#include "gocompat/gocompat.h"

namespace hintkit::gocompat {

namespace {

// glibc has C.UTF-8 built in (no locale files needed); fall back to ASCII rules without it.
locale_t utf8_locale() {
  static locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
  return loc;
}

bool ascii(uint32_t r) { return r < 0x80; }

}  // namespace

Rune decode_rune(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) return {b0, 1};
  size_t width = b0 >= 0xF0 && b0 <= 0xF4 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 && b0 < 0xE0 ? 2 : 0;
  if (width == 0 || i + width > s.size()) return {kRuneError, 1};
  uint32_t cp = b0 & (width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07);
  for (size_t k = 1; k < width; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return {kRuneError, 1};
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid too.
  if ((width == 3 && cp < 0x800) || (width == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF)) {
    return {kRuneError, 1};
  }
  return {cp, width};
}

bool valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const Rune r = decode_rune(s, i);
    if (r.cp == kRuneError && r.width == 1) return false;
    i += r.width;
  }
  return true;
}

Rune decode_last_rune(std::string_view s) {
  const auto end = static_cast<ptrdiff_t>(s.size());
  auto byte = [&](ptrdiff_t k) { return static_cast<unsigned char>(s[static_cast<size_t>(k)]); };
  if (byte(end - 1) < 0x80) return {byte(end - 1), 1};
  // Back to the nearest byte that can start a sequence, at most 4 bytes before the end.
  const ptrdiff_t lim = std::max<ptrdiff_t>(end - 4, 0);
  ptrdiff_t start = end - 1;
  for (--start; start >= lim; --start) {
    if ((byte(start) & 0xC0) != 0x80) break;
  }
  if (start < 0) start = 0;
  Rune r = decode_rune(s, static_cast<size_t>(start));
  if (start + static_cast<ptrdiff_t>(r.width) != end) return {kRuneError, 1};
  return r;
}

uint32_t to_upper(uint32_t r) {
  if (ascii(r)) return r >= 'a' && r <= 'z' ? r - 32 : r;
  locale_t loc = utf8_locale();
  return loc ? static_cast<uint32_t>(towupper_l(static_cast<wint_t>(r), loc)) : r;
}

uint32_t to_lower(uint32_t r) {
  if (ascii(r)) return r >= 'A' && r <= 'Z' ? r + 32 : r;
  locale_t loc = utf8_locale();
  return loc ? static_cast<uint32_t>(towlower_l(static_cast<wint_t>(r), loc)) : r;
}

uint32_t to_title(uint32_t r) {
  // The four digraph triples (Ǆ ǅ ǆ, Ǉ ǈ ǉ, Ǌ ǋ ǌ, Ǳ ǲ ǳ) title-case to their middle form.
  if (r >= 0x1C4 && r <= 0x1CC) return 0x1C5 + (r - 0x1C4) / 3 * 3;
  if (r >= 0x1F1 && r <= 0x1F3) return 0x1F2;
  return to_upper(r);
}

bool is_title(uint32_t r) {
  return r == 0x1C5 || r == 0x1C8 || r == 0x1CB || r == 0x1F2 || (r >= 0x1F88 && r <= 0x1F8F) ||
         (r >= 0x1F98 && r <= 0x1F9F) || (r >= 0x1FA8 && r <= 0x1FAF) || r == 0x1FBC ||
         r == 0x1FCC || r == 0x1FFC;
}

bool is_upper(uint32_t r) {
  if (ascii(r)) return r >= 'A' && r <= 'Z';
  locale_t loc = utf8_locale();
  return loc && !is_title(r) && iswupper_l(static_cast<wint_t>(r), loc);
}

bool is_lower(uint32_t r) {
  if (ascii(r)) return r >= 'a' && r <= 'z';
  locale_t loc = utf8_locale();
  return loc && !is_title(r) && iswlower_l(static_cast<wint_t>(r), loc);
}

namespace {

struct RuneRange {
  uint32_t lo, hi, stride;
};

#include "gocompat/unicode_tables.inc"

// Go's unicode.Is: r falls in one of the ranges, on its stride.
template <size_t N>
bool in_table(const RuneRange (&table)[N], uint32_t r) {
  const RuneRange* end = table + N;
  const RuneRange* it =
      std::lower_bound(table, end, r, [](const RuneRange& g, uint32_t x) { return g.hi < x; });
  return it != end && r >= it->lo && (r - it->lo) % it->stride == 0;
}

}  // namespace

// Go's unicode.IsLetter and IsDigit, from the Unicode version ytt's Go has (the C library
// counts marks, letter numbers and some symbols as alphabetic, and is a newer Unicode).
bool is_letter(uint32_t r) {
  if (ascii(r)) return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z');
  return in_table(kLetterRanges, r);
}

bool is_digit(uint32_t r) {
  if (ascii(r)) return r >= '0' && r <= '9';
  return in_table(kDigitRanges, r);
}

bool is_print(uint32_t r) {
  if (r < 0x80) return r >= 0x20 && r < 0x7f;
  return in_table(kPrintRanges, r);
}

bool is_space(uint32_t r) {
  switch (r) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return r >= 0x2000 && r <= 0x200A;
  }
}

bool is_cased(uint32_t r) {
  // İ and ı map to I/i but are not in their fold orbit, so Go does not count them as cased.
  if (r == 0x130 || r == 0x131) return false;
  if (r == 0xDF) return true;  // ß folds with ẞ (U+1E9E) though neither maps to the other
  return to_upper(r) != r || to_lower(r) != r || is_title(r);
}

}  // namespace hintkit::gocompat
