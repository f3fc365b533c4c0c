// Internal: Unicode code points for the string methods, with Go's semantics where starlark-go
// relies on Go's `unicode` package (upper/lower/title, the is* predicates). Case mappings are
// the simple one-to-one ones (as Go's unicode.ToUpper: "ß".upper() stays "ß"), taken from the C
// library's C.UTF-8 tables; letter classes come from the same tables. Digits are ASCII only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hintkit::starlark::runes {

// The code point at `s[i]` and its length in bytes; invalid UTF-8 reads as U+FFFD, one byte
// long (as Go's range over a string).
struct Rune {
  uint32_t cp;
  size_t width;
};
Rune decode(std::string_view s, size_t i);
// The code point that ends `s` (not empty) and its length, as Go's DecodeLastRuneInString: what
// is not a whole valid sequence ending there reads as U+FFFD, one byte long.
Rune decode_last(std::string_view s);

uint32_t to_upper(uint32_t r);
uint32_t to_lower(uint32_t r);
uint32_t to_title(uint32_t r);  // to_upper, except for the digraphs' title forms (ǅ, ǈ, ǋ, ǲ)

bool is_upper(uint32_t r);  // Lu
bool is_lower(uint32_t r);  // Ll
bool is_title(uint32_t r);  // Lt: ǅ ǈ ǋ ǲ and the Greek letters with prosgegrammeni
bool is_letter(uint32_t r);
bool is_digit(uint32_t r);
bool is_space(uint32_t r);  // Go's unicode.IsSpace
// Go's strconv.IsPrint (letters, marks, numbers, punctuation, symbols and ' '): what a string's
// repr shows as it is; other code points are escaped.
bool is_print(uint32_t r);
// Has another case (starlark-go's isCasedRune: unicode.SimpleFold(r) != r).
bool is_cased(uint32_t r);

}  // namespace hintkit::starlark::runes

namespace hintkit::starlark {

// UTF-8 as starlark-go's string builtins read and write it (append_utf8 is in starlark.h):
// one code point at s[i] and its length (invalid bytes decode as U+FFFD of length 1), and a
// code point's encoding.
uint32_t decode_utf8(std::string_view s, size_t i, size_t* len);
std::string encode_utf8(uint32_t cp);

}  // namespace hintkit::starlark
