// Internal: starlark's UTF-8 helpers. Go's unicode classes and case mappings (upper/lower/
// title, the is* predicates) and utf8.DecodeRune are gocompat's (gocompat/gocompat.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hintkit::starlark {

// UTF-8 as starlark-go's string builtins read and write it (append_utf8 is in starlark.h):
// one code point at s[i] and its length (invalid bytes decode as U+FFFD of length 1), and a
// code point's encoding.
uint32_t decode_utf8(std::string_view s, size_t i, size_t* len);
std::string encode_utf8(uint32_t cp);

}  // namespace hintkit::starlark
