// Go's standard library, where hintkit must answer byte for byte as a Go program does: UTF-8
// decoding (unicode/utf8), the Unicode classes (unicode), quoting and integer parsing
// (strconv), encoding/json's quoting of a byte and its reading of a text, the math package's
// functions, and the Go type names ytt's messages print. Every module that imitates a Go program
// (starlark/, gotmpl/, yaml/, resolver/ and the ytt half) takes these from here, so each mechanism
// is ported once, from Go's own source. This module depends on nothing else in hintkit.
//
// Where to start: `quote(s)` (strconv.Quote) and `decode_rune(s, i)`; the tables behind
// `is_letter`, `is_digit` and `is_print` are generated from Go's (scripts/gen_unicode_tables.py).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hintkit::gocompat {

// ---- unicode/utf8 --------------------------------------------------------------------------

inline constexpr uint32_t kRuneError = 0xFFFD;  // utf8.RuneError

// A code point and the bytes it took.
struct Rune {
  uint32_t cp;
  size_t width;
};
// utf8.DecodeRuneInString(s[i:]) for i < s.size(): what is not one whole valid sequence
// (a stray byte, a truncated, overlong or surrogate sequence, past U+10FFFF) reads as
// kRuneError, one byte long.
Rune decode_rune(std::string_view s, size_t i);
// utf8.DecodeLastRuneInString(s) for a non-empty s: the code point that ends it, with the same
// reading of invalid sequences.
Rune decode_last_rune(std::string_view s);
// utf8.AppendRune for a valid code point.
void append_rune(std::string& out, uint32_t r);
// utf8.ValidString: every sequence whole and valid, as decode_rune reads them (U+FFFD written
// out is valid).
bool valid_utf8(std::string_view s);

// ---- unicode -------------------------------------------------------------------------------
// Classes and simple case mappings of Go's unicode package. Letters, digits and printability
// come from the Unicode version of the Go that ytt v0.48.0 is built with (13.0.0), not the C
// library's newer one; the case mappings are the C library's one-to-one ones (C.UTF-8), as Go's
// ToUpper/ToLower are one-to-one ("ß" stays "ß").

uint32_t to_upper(uint32_t r);
uint32_t to_lower(uint32_t r);
uint32_t to_title(uint32_t r);  // to_upper, except for the digraphs' title forms (ǅ, ǈ, ǋ, ǲ)

bool is_upper(uint32_t r);   // Lu
bool is_lower(uint32_t r);   // Ll
bool is_title(uint32_t r);   // Lt: ǅ ǈ ǋ ǲ and the Greek letters with prosgegrammeni
bool is_letter(uint32_t r);  // unicode.IsLetter
bool is_digit(uint32_t r);   // unicode.IsDigit (Nd)
// unicode.IsSpace: '\t', '\n', '\v', '\f', '\r', ' ', U+0085 (NEL), U+00A0 (NBSP) and the
// Unicode space separators (U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
bool is_space(uint32_t r);
// strconv.IsPrint (= unicode.IsPrint): letters, marks, numbers, punctuation, symbols and the
// ASCII space. What strconv.Quote shows as it is; every other code point is escaped.
bool is_print(uint32_t r);
// Has another case: unicode.SimpleFold(r) != r (starlark-go's isCasedRune).
bool is_cased(uint32_t r);

// ---- strconv -------------------------------------------------------------------------------

// strconv.Quote: `s` in double quotes, as Go source would spell it. Printable code points
// (is_print) stay as they are; \a \b \f \n \r \t \v \\ \" by name; other code points below
// U+0080 and U+007F as \xNN, the rest as \uNNNN or \UNNNNNNNN; each byte of invalid UTF-8 as
// \xNN. Hex digits are lower case.
std::string quote(std::string_view s);
void append_quoted(std::string& out, std::string_view s);

// The outcome of a strconv number parse: nil, ErrSyntax or ErrRange.
enum class ParseStatus { kOk, kSyntax, kRange };

// strconv.ParseUint(s, 0, 64): a base prefix picks the base (0b/0B binary, 0o/0O or a bare
// leading 0 octal, 0x/0X hex, else decimal); underscores may stand between digits and after a
// prefix only; no sign. A value past 2^64-1 is kRange as soon as it overflows, whatever
// follows. `out` is set only on kOk.
ParseStatus parse_uint(std::string_view s, uint64_t& out);
// strconv.ParseInt(s, 0, 64): an optional + or - sign, then parse_uint's text; kRange outside
// int64.
ParseStatus parse_int(std::string_view s, int64_t& out);
// strconv's underscoreOK: the underscores in the number `s` (sign and base prefix included)
// each stand between two digits, or between the base prefix and a digit.
bool underscore_ok(std::string_view s);

// strconv.ParseFloat(s, 64): decimal or hexadecimal (with a 'p' exponent) text, underscores
// as underscore_ok allows them, "inf"/"infinity" with a sign and "nan" without, in any case.
// kRange past the largest float64, with `out` the infinity Go returns; an underflow is kOk.
ParseStatus parse_float(std::string_view s, double& out);

// strconv.FormatFloat(f, fmt, -1, bit_size) for fmt 'e', 'E', 'f', 'g' or 'G': the fewest
// digits that read back as the same float64 (bit_size 64) or float32 (32); NaN, +Inf, -Inf.
std::string format_float(double f, char fmt, int bit_size = 64);

// ---- math ----------------------------------------------------------------------------------

// Go's math package as a Go 1.19 program on amd64 computes it, bit for bit (math.cpp): the
// routines Go writes in Go, and Exp, Log and Hypot as its amd64 assembly computes them (Exp
// with fused multiply-adds on a CPU with AVX and FMA, as Go's runtime picks).
namespace math {
double sin(double x);
double cos(double x);
double tan(double x);
double asin(double x);
double acos(double x);
double atan(double x);
double atan2(double y, double x);
double sinh(double x);
double cosh(double x);
double tanh(double x);
double asinh(double x);
double acosh(double x);
double atanh(double x);
double exp(double x);
double log(double x);
double log1p(double x);
double pow(double x, double y);
double hypot(double p, double q);
double gamma(double x);
double frexp(double f, int& exp);  // the fraction in [0.5, 1); `exp` its power of two
double ldexp(double frac, int exp);
double modf(double f, double& frac);  // the integer part; `frac` the rest, with f's sign
}  // namespace math

// ---- encoding/json -------------------------------------------------------------------------

// encoding/json's quoteChar, how its scanner names an unexpected byte: '\'' and '"' spelled
// out, any other byte quoted as strconv.Quote quotes the code point of the same value, between
// single quotes ('\x01', 'é' for 0xE9, '\u0080').
std::string json_quote_char(unsigned char c);
// encoding/json's spelling of a finite float64: %f, or %e from 1e21 up and below 1e-6 (with
// the exponent's leading zero dropped: 1e-07 is 1e-7).
std::string json_float(double f);

// A JSON text as json.Unmarshal reads it, before it is stored into Go values: strings are
// unquoted (invalid UTF-8 and lone surrogate escapes read as U+FFFD), numbers keep their
// literal, an object's members stay in text order with repeated keys kept (Go stores each in
// turn, so the last one wins).
struct JsonMember;
struct JsonValue {
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;  // a string's value, a number's literal
  std::vector<JsonValue> elements;
  std::vector<JsonMember> members;
};
struct JsonMember {
  std::string key;
  JsonValue value;
};
// The value, or (`error` not empty, `value` null) the text of Go's SyntaxError: its scanner
// checks the whole text first ("invalid character 'x' looking for beginning of value",
// "unexpected end of JSON input", "exceeded max depth" past 10,000 levels).
struct JsonParse {
  JsonValue value;
  std::string error;
};
// Each level of nesting is a call (and a JsonValue's destruction one more): deep texts want a
// big stack, as the ytt engine runs on (diag::run_with_big_stack).
JsonParse parse_json(std::string_view text);

// ---- net/url -------------------------------------------------------------------------------

// url.go's encoding modes: which bytes a part of a URL keeps as they are.
enum class UrlEncoding {
  kPath,
  kPathSegment,
  kHost,
  kZone,
  kUserPassword,
  kQueryComponent,
  kFragment
};
// shouldEscape: whether `c` is written %XX in that part.
bool url_should_escape(unsigned char c, UrlEncoding mode);
// escape: each byte to escape as %XX (uppercase), and in a query component a space as `+`
// (url.QueryEscape is kQueryComponent, url.PathEscape kPathSegment).
std::string url_escape(std::string_view s, UrlEncoding mode);
// unescape: false, with Go's error text in `error` ("invalid URL escape \"%zz\"", ...), where
// Go fails; else the text in `out`, `+` a space in a query component.
bool url_unescape(std::string_view s, UrlEncoding mode, std::string& out, std::string& error);

// ---- encoding/base64 -----------------------------------------------------------------------

// One of Go's base64 encodings: StdEncoding, or URLEncoding with `url`; `raw` is the unpadded
// one (RawStdEncoding, RawURLEncoding); `strict` is WithStrict (no stray bits in the last
// quantum).
struct Base64Encoding {
  bool url = false;
  bool raw = false;
  bool strict = false;

  std::string encode(std::string_view in) const;  // EncodeToString
  // DecodeString: '\r' and '\n' are skipped; on failure `bad` is the offset of the first bad
  // byte, as Go's CorruptInputError reports it.
  bool decode(std::string_view in, std::string& out, size_t& bad) const;
};

// ---- Go type names in ytt's messages ---------------------------------------------------------

// What a Starlark dict or struct, and a YAML map, become when ytt converts them to Go values
// (its orderedmap); its %T in messages such as "expected value to be map, but was ...".
inline constexpr char kOrderedMapType[] = "*orderedmap.Map";
// What a Starlark list, tuple or set, and a YAML array, become as a Go value.
inline constexpr char kSliceType[] = "[]interface {}";
// Go's %T of the starlark-go value whose type() is `starlark_type` in ytt ("int" ->
// "starlark.Int", "dict" -> "*starlark.Dict", "struct" -> "*core.StarlarkStruct", "module" ->
// "*starlarkstruct.Module", "yamlfragment" -> "*yamltemplate.StarlarkFragment"); a type Go has
// no other name for comes back as it is.
std::string_view starlark_go_type(std::string_view starlark_type);

}  // namespace hintkit::gocompat
