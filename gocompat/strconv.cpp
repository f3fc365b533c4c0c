// strconv's quoting and integer parsing, encoding/json's quoteChar and the Go type names,
// ported from Go 1.19's src/strconv/quote.go and atoi.go and src/encoding/json/scanner.go.
#include <array>
#include <limits>
#include <utility>

#include "gocompat/gocompat.h"

namespace hintkit::gocompat {
namespace {

constexpr char kLowerHex[] = "0123456789abcdef";

void append_hex(std::string& out, std::string_view prefix, uint32_t v, int digits) {
  out += prefix;
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += kLowerHex[(v >> shift) & 0xF];
}

// appendEscapedRune with quote '"', ASCIIonly and graphicOnly false. `r` is a valid code point
// (appendQuotedWith has already written the bytes of invalid UTF-8 as \x).
void append_escaped_rune(std::string& out, uint32_t r) {
  if (r == '"' || r == '\\') {
    out += '\\';
    out += static_cast<char>(r);
    return;
  }
  if (is_print(r)) {
    append_rune(out, r);
    return;
  }
  switch (r) {
    case '\a':
      out += "\\a";
      return;
    case '\b':
      out += "\\b";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\v':
      out += "\\v";
      return;
    default:
      if (r < ' ' || r == 0x7F) {
        append_hex(out, "\\x", r, 2);
      } else if (r < 0x10000) {
        append_hex(out, "\\u", r, 4);
      } else {
        append_hex(out, "\\U", r, 8);
      }
  }
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  const char lower = static_cast<char>(c | 0x20);
  if (lower >= 'a' && lower <= 'z') return lower - 'a' + 10;
  return std::numeric_limits<int>::max();  // never a digit in any base
}

}  // namespace

void append_rune(std::string& out, uint32_t r) {
  if (r < 0x80) {
    out += static_cast<char>(r);
  } else if (r < 0x800) {
    out += static_cast<char>(0xC0 | (r >> 6));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else if (r < 0x10000) {
    out += static_cast<char>(0xE0 | (r >> 12));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (r >> 18));
    out += static_cast<char>(0x80 | ((r >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  }
}

void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    const Rune r = decode_rune(s, i);
    if (r.width == 1 && r.cp == kRuneError) {
      append_hex(out, "\\x", static_cast<unsigned char>(s[i]), 2);
    } else {
      append_escaped_rune(out, r.cp);
    }
    i += r.width;
  }
  out += '"';
}

std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  append_quoted(out, s);
  return out;
}

bool underscore_ok(std::string_view s) {
  // `saw` is the last kind of character seen: '^' the start, '0' a digit or base prefix, '_' an
  // underscore, '!' anything else.
  char saw = '^';
  size_t i = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0') {
    const char b = static_cast<char>(s[1] | 0x20);
    if (b == 'b' || b == 'o' || b == 'x') {
      i = 2;
      saw = '0';  // the base prefix counts as a digit
      hex = b == 'x';
    }
  }
  for (; i < s.size(); ++i) {
    const char c = s[i];
    const char lower = static_cast<char>(c | 0x20);
    if ((c >= '0' && c <= '9') || (hex && lower >= 'a' && lower <= 'f')) {
      saw = '0';
      continue;
    }
    if (c == '_') {
      if (saw != '0') return false;
      saw = '_';
      continue;
    }
    if (saw == '_') return false;  // an underscore must be followed by a digit
    saw = '!';
  }
  return saw != '_';
}

ParseStatus parse_uint(std::string_view s0, uint64_t& out) {
  std::string_view s = s0;
  if (s.empty()) return ParseStatus::kSyntax;
  uint64_t base = 10;
  if (s[0] == '0') {
    const char b = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : '\0';
    if (b == 'b') {
      base = 2;
      s.remove_prefix(2);
    } else if (b == 'o') {
      base = 8;
      s.remove_prefix(2);
    } else if (b == 'x') {
      base = 16;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  uint64_t n = 0;
  bool underscores = false;
  for (char c : s) {
    if (c == '_') {  // base 0 allows them; underscore_ok judges where they stand
      underscores = true;
      continue;
    }
    const int d = digit_value(c);
    if (static_cast<uint64_t>(d) >= base) return ParseStatus::kSyntax;
    const uint64_t digit = static_cast<uint64_t>(d);
    if (n > (std::numeric_limits<uint64_t>::max() - digit) / base) return ParseStatus::kRange;
    n = n * base + digit;
  }
  if (underscores && !underscore_ok(s0)) return ParseStatus::kSyntax;
  out = n;
  return ParseStatus::kOk;
}

ParseStatus parse_int(std::string_view s, int64_t& out) {
  if (s.empty()) return ParseStatus::kSyntax;
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  uint64_t u = 0;
  const ParseStatus st = parse_uint(s, u);
  if (st != ParseStatus::kOk) return st;
  constexpr uint64_t kCutoff = uint64_t{1} << 63;  // |INT64_MIN|
  if (negative ? u > kCutoff : u >= kCutoff) return ParseStatus::kRange;
  out = negative ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
  return ParseStatus::kOk;
}

std::string json_quote_char(unsigned char c) {
  if (c == '\'') return R"('\'')";
  if (c == '"') return R"('"')";
  std::string quoted;
  append_escaped_rune(quoted, c);  // string(rune(c)): the byte's value as a code point
  return "'" + quoted + "'";
}

std::string_view starlark_go_type(std::string_view starlark_type) {
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {"NoneType", "starlark.NoneType"},
      {"bool", "starlark.Bool"},
      {"int", "starlark.Int"},
      {"float", "starlark.Float"},
      {"string", "starlark.String"},
      {"list", "*starlark.List"},
      {"tuple", "starlark.Tuple"},
      {"dict", "*starlark.Dict"},
      {"set", "*starlark.Set"},
      {"range", "starlark.rangeValue"},
      {"function", "*starlark.Function"},
      {"builtin_function_or_method", "*starlark.Builtin"},
      {"elems", "starlark.stringIterable"},
      {"codepoints", "starlark.stringIterable"},
      // ytt's struct.make builds its own struct type; modules are starlark-go's.
      {"struct", "*core.StarlarkStruct"},
      {"module", "*starlarkstruct.Module"},
      {"yamlfragment", "*yamltemplate.StarlarkFragment"},
      {"@ytt:assert.assertion", "*yttlibrary.Assertion"},
      {"@ytt:ip.addr", "*yttlibrary.IPAddrValue"},
      {"@ytt:ip.net", "*yttlibrary.IPNetValue"},
      {"@ytt:url.value", "*yttlibrary.URLValue"},
      {"@ytt:url.user", "*yttlibrary.URLUser"},
  };
  for (const auto& [name, go] : kTypes) {
    if (name == starlark_type) return go;
  }
  return starlark_type;
}

}  // namespace hintkit::gocompat
