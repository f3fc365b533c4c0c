// gocompat against answers printed by Go 1.19 itself (strconv.Quote, ParseUint/ParseInt with
// base 0, ParseFloat and FormatFloat, unicode.IsSpace, utf8.ValidString, encoding/base64,
// encoding/json's floats and its error for a bad byte).
#include "gocompat/gocompat.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "diag/stack.h"

namespace hintkit::gocompat {
namespace {

TEST(Quote, MatchesGo) {
  struct Case {
    std::string_view in, want;
  };
  const Case cases[] = {
      {"", R"("")"},
      {"abc ~", R"("abc ~")"},
      {"\a\b\f\n\r\t\v", R"("\a\b\f\n\r\t\v")"},
      {"\"\\'", R"("\"\\'")"},
      {std::string_view("\x00\x1f\x7f", 3), R"("\x00\x1f\x7f")"},
      {"\u00e9\u65e5\u672c", "\"\u00e9\u65e5\u672c\""},  // printable: as they are
      {"\U0001F600", "\"\U0001F600\""},                  // a printable symbol past U+FFFF
      {"\u0085", R"("\u0085")"},                         // NEL: a C1 control
      {"\u00a0", R"("\u00a0")"},                         // NBSP: space, not printable
      {"\u00ad", R"("\u00ad")"},                         // soft hyphen: a format character
      {"\u200b", R"("\u200b")"},
      {"\u2028", R"("\u2028")"},
      {"\u3000", R"("\u3000")"},
      {"\u0378", R"("\u0378")"},  // unassigned
      {"\ue000", R"("\ue000")"},  // private use
      {"\U000e0001", R"("\U000e0001")"},
      {"\U0010ffff", R"("\U0010ffff")"},
      {"\ufffd", "\"\ufffd\""},  // a well-formed U+FFFD is printable
      // Invalid UTF-8: each byte on its own as \x.
      {"\xff", R"("\xff")"},
      {"a\xc3", R"("a\xc3")"},                        // truncated
      {"\xc0\xaf", R"("\xc0\xaf")"},                  // overlong
      {"\xed\xa0\x80", R"("\xed\xa0\x80")"},          // a surrogate
      {"\xf4\x90\x80\x80", R"("\xf4\x90\x80\x80")"},  // past U+10FFFF
      {"\xe2\x82x", R"("\xe2\x82x")"},                // a sequence cut by ASCII
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    EXPECT_EQ(quote(c.in), c.want);
    std::string appended = "x=";
    append_quoted(appended, c.in);
    EXPECT_EQ(appended, "x=" + std::string(c.want));
  }
}

TEST(ParseInt, MatchesGoBaseZero) {
  struct Case {
    std::string_view in;
    ParseStatus uint_status;
    uint64_t uint_value;
    ParseStatus int_status;
    int64_t int_value;
  };
  constexpr auto kOk = ParseStatus::kOk, kSyntax = ParseStatus::kSyntax,
                 kRange = ParseStatus::kRange;
  const Case cases[] = {
      {"0x1F", kOk, 31, kOk, 31},
      {"0b101", kOk, 5, kOk, 5},
      {"0B11", kOk, 3, kOk, 3},
      {"0o17", kOk, 15, kOk, 15},
      {"0O7_7", kOk, 63, kOk, 63},
      {"017", kOk, 15, kOk, 15},
      {"0", kOk, 0, kOk, 0},
      {"00", kOk, 0, kOk, 0},
      {"08", kSyntax, 0, kSyntax, 0},
      {"0x", kSyntax, 0, kSyntax, 0},
      {"0b", kSyntax, 0, kSyntax, 0},
      {"0o", kSyntax, 0, kSyntax, 0},
      {"0xg", kSyntax, 0, kSyntax, 0},
      {"1e3", kSyntax, 0, kSyntax, 0},
      {"1_000", kOk, 1000, kOk, 1000},
      {"0x_1", kOk, 1, kOk, 1},
      {"0X_ff", kOk, 255, kOk, 255},
      {"0x1_F", kOk, 31, kOk, 31},
      {"0_1", kOk, 1, kOk, 1},
      {"_1", kSyntax, 0, kSyntax, 0},
      {"-_1", kSyntax, 0, kSyntax, 0},
      {"1__0", kSyntax, 0, kSyntax, 0},
      {"1_", kSyntax, 0, kSyntax, 0},
      {"", kSyntax, 0, kSyntax, 0},
      {"-", kSyntax, 0, kSyntax, 0},
      {"+", kSyntax, 0, kSyntax, 0},
      {"+5", kSyntax, 0, kOk, 5},
      {"-0x10", kSyntax, 0, kOk, -16},
      {"9223372036854775807", kOk, 9223372036854775807u, kOk, INT64_MAX},
      {"9223372036854775808", kOk, 9223372036854775808u, kRange, 0},
      {"-9223372036854775808", kSyntax, 0, kOk, INT64_MIN},
      {"-9223372036854775809", kSyntax, 0, kRange, 0},
      {"18446744073709551615", kOk, UINT64_MAX, kRange, 0},
      {"18446744073709551616", kRange, 0, kRange, 0},
      {"99999999999999999999x", kRange, 0, kRange, 0},  // out of range before the bad digit
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    uint64_t u = 7;
    EXPECT_EQ(parse_uint(c.in, u), c.uint_status);
    EXPECT_EQ(u, c.uint_status == kOk ? c.uint_value : 7u);  // untouched unless kOk
    int64_t i = 7;
    EXPECT_EQ(parse_int(c.in, i), c.int_status);
    EXPECT_EQ(i, c.int_status == kOk ? c.int_value : 7);
  }
}

TEST(IsSpace, MatchesGo) {
  for (uint32_t r : {0x9u, 0xAu, 0xBu, 0xCu, 0xDu, 0x20u, 0x85u, 0xA0u, 0x1680u, 0x2000u, 0x2005u,
                     0x200Au, 0x2028u, 0x2029u, 0x202Fu, 0x205Fu, 0x3000u}) {
    EXPECT_TRUE(is_space(r)) << std::hex << r;
  }
  for (uint32_t r : {0x0u, 0x1Cu, 0x61u, 0x200Bu, 0x180Eu, 0xFEFFu, 0x1FFFu, 0x200Cu, kRuneError}) {
    EXPECT_FALSE(is_space(r)) << std::hex << r;
  }
}

TEST(DecodeRune, InvalidSequencesAreOneByteOfRuneError) {
  struct Case {
    std::string_view in;
    uint32_t cp;
    size_t width;
  };
  const Case cases[] = {
      {"a", 'a', 1},
      {"\u00e9", 0xE9, 2},
      {"\u65e5", 0x65E5, 3},
      {"\U0001F600", 0x1F600, 4},
      {"\ufffd", kRuneError, 3},
      {"\xff", kRuneError, 1},
      {"\xc3", kRuneError, 1},
      {"\xc0\xaf", kRuneError, 1},
      {"\xed\xa0\x80", kRuneError, 1},
      {"\xf4\x90\x80\x80", kRuneError, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(quote(c.in));
    const Rune r = decode_rune(c.in, 0);
    EXPECT_EQ(r.cp, c.cp);
    EXPECT_EQ(r.width, c.width);
  }
  EXPECT_EQ(decode_last_rune("a\u00e9").cp, 0xE9u);
  EXPECT_EQ(decode_last_rune("a\xc3").width, 1u);
}

// Answers printed by Go 1.19's utf8.ValidString.
TEST(ValidUtf8, MatchesGo) {
  const std::pair<std::string_view, bool> cases[] = {
      {"", true},
      {"abc", true},
      {"\u00e9", true},
      {"\xc3", false},
      {"\xc3\xa9x", true},
      {"\xed\xa0\x80", false},
      {"\xf4\x90\x80\x80", false},
      {"\xc0\xaf", false},
      {"\xe0\x80\xaf", false},
      {"\xef\xbf\xbd", true},
      {"\xf0\x9f\x98\x80", true},
      {"\xff", false},
      {"a\x80\x62", false},  // \x62: b
      {"\xf4\x8f\xbf\xbf", true},
  };
  for (const auto& [in, valid] : cases) {
    EXPECT_EQ(valid_utf8(in), valid) << quote(in);
  }
}

// Answers printed by Go 1.19's encoding/base64 (StdEncoding, URLEncoding, the Raw ones and
// StdEncoding.Strict()); `bad` is CorruptInputError's offset, -1 when decoding succeeds.
TEST(Base64, MatchesGo) {
  struct EncodeCase {
    Base64Encoding encoding;
    std::string_view in, out;
  };
  const EncodeCase encodes[] = {
      {{false, false, false}, "", ""},
      {{false, false, false}, "f", "Zg=="},
      {{false, false, false}, "fo", "Zm8="},
      {{false, false, false}, "foo", "Zm9v"},
      {{false, false, false}, "\xff\xfe\xfd\xfc", "//79/A=="},
      {{true, false, false}, "", ""},
      {{true, false, false}, "f", "Zg=="},
      {{true, false, false}, "fo", "Zm8="},
      {{true, false, false}, "foo", "Zm9v"},
      {{true, false, false}, "\xff\xfe\xfd\xfc", "__79_A=="},
      {{false, true, false}, "", ""},
      {{false, true, false}, "f", "Zg"},
      {{false, true, false}, "fo", "Zm8"},
      {{false, true, false}, "foo", "Zm9v"},
      {{false, true, false}, "\xff\xfe\xfd\xfc", "//79/A"},
      {{true, true, false}, "", ""},
      {{true, true, false}, "f", "Zg"},
      {{true, true, false}, "fo", "Zm8"},
      {{true, true, false}, "foo", "Zm9v"},
      {{true, true, false}, "\xff\xfe\xfd\xfc", "__79_A"},
      {{false, false, true}, "", ""},
      {{false, false, true}, "f", "Zg=="},
      {{false, false, true}, "fo", "Zm8="},
      {{false, false, true}, "foo", "Zm9v"},
      {{false, false, true}, "\xff\xfe\xfd\xfc", "//79/A=="},
  };
  for (const EncodeCase& c : encodes) {
    EXPECT_EQ(c.encoding.encode(c.in), c.out) << quote(c.in);
  }
  struct DecodeCase {
    Base64Encoding encoding;
    std::string_view in, out;
    int bad;
  };
  const DecodeCase decodes[] = {
      {{false, false, false}, "Zm9v", "foo", -1},
      {{false, false, false}, "Zm8=", "fo", -1},
      {{false, false, false}, "Zm8", "", 0},
      {{false, false, false}, "Zg==", "f", -1},
      {{false, false, false}, "Zh==", "f", -1},
      {{false, false, false}, "Zm9v\r\nYmFy", "foobar", -1},
      {{false, false, false}, "Zm9v!", "", 4},
      {{false, false, false}, "Zg=", "", 3},
      {{false, false, false}, "Zg==x", "", 4},
      {{false, false, false}, "__79", "", 0},
      {{false, false, false}, "//79", "\xff\xfe\xfd", -1},
      {{false, false, false}, "Zm8=\n", "fo", -1},
      {{true, false, false}, "Zm9v", "foo", -1},
      {{true, false, false}, "Zm8=", "fo", -1},
      {{true, false, false}, "Zm8", "", 0},
      {{true, false, false}, "Zg==", "f", -1},
      {{true, false, false}, "Zh==", "f", -1},
      {{true, false, false}, "Zm9v\r\nYmFy", "foobar", -1},
      {{true, false, false}, "Zm9v!", "", 4},
      {{true, false, false}, "Zg=", "", 3},
      {{true, false, false}, "Zg==x", "", 4},
      {{true, false, false}, "__79", "\xff\xfe\xfd", -1},
      {{true, false, false}, "//79", "", 0},
      {{true, false, false}, "Zm8=\n", "fo", -1},
      {{false, true, false}, "Zm9v", "foo", -1},
      {{false, true, false}, "Zm8=", "", 3},
      {{false, true, false}, "Zm8", "fo", -1},
      {{false, true, false}, "Zg==", "", 2},
      {{false, true, false}, "Zh==", "", 2},
      {{false, true, false}, "Zm9v\r\nYmFy", "foobar", -1},
      {{false, true, false}, "Zm9v!", "", 4},
      {{false, true, false}, "Zg=", "", 2},
      {{false, true, false}, "Zg==x", "", 2},
      {{false, true, false}, "__79", "", 0},
      {{false, true, false}, "//79", "\xff\xfe\xfd", -1},
      {{false, true, false}, "Zm8=\n", "", 3},
      {{true, true, false}, "Zm9v", "foo", -1},
      {{true, true, false}, "Zm8=", "", 3},
      {{true, true, false}, "Zm8", "fo", -1},
      {{true, true, false}, "Zg==", "", 2},
      {{true, true, false}, "Zh==", "", 2},
      {{true, true, false}, "Zm9v\r\nYmFy", "foobar", -1},
      {{true, true, false}, "Zm9v!", "", 4},
      {{true, true, false}, "Zg=", "", 2},
      {{true, true, false}, "Zg==x", "", 2},
      {{true, true, false}, "__79", "\xff\xfe\xfd", -1},
      {{true, true, false}, "//79", "", 0},
      {{true, true, false}, "Zm8=\n", "", 3},
      {{false, false, true}, "Zm9v", "foo", -1},
      {{false, false, true}, "Zm8=", "fo", -1},
      {{false, false, true}, "Zm8", "", 0},
      {{false, false, true}, "Zg==", "f", -1},
      {{false, false, true}, "Zh==", "", 2},
      {{false, false, true}, "Zm9v\r\nYmFy", "foobar", -1},
      {{false, false, true}, "Zm9v!", "", 4},
      {{false, false, true}, "Zg=", "", 3},
      {{false, false, true}, "Zg==x", "", 4},
      {{false, false, true}, "__79", "", 0},
      {{false, false, true}, "//79", "\xff\xfe\xfd", -1},
      {{false, false, true}, "Zm8=\n", "fo", -1},
  };
  for (const DecodeCase& c : decodes) {
    SCOPED_TRACE(quote(c.in) + (c.encoding.url ? " url" : "") + (c.encoding.raw ? " raw" : "") +
                 (c.encoding.strict ? " strict" : ""));
    std::string out;
    size_t bad = 0;
    const bool ok = c.encoding.decode(c.in, out, bad);
    EXPECT_EQ(ok, c.bad < 0);
    if (ok) {
      EXPECT_EQ(out, c.out);
    } else {
      EXPECT_EQ(bad, static_cast<size_t>(c.bad));
    }
  }
}

// Answers printed by Go 1.19's strconv.ParseFloat(s, 64): the error, and the value's bits
// (for kSyntax Go returns 0).
TEST(ParseFloat, MatchesGo) {
  struct Case {
    std::string_view in;
    ParseStatus status;
    uint64_t bits;
  };
  const Case cases[] = {
      {"1", ParseStatus::kOk, 0x3ff0000000000000ull},
      {"1.", ParseStatus::kOk, 0x3ff0000000000000ull},
      {".5", ParseStatus::kOk, 0x3fe0000000000000ull},
      {"1e5", ParseStatus::kOk, 0x40f86a0000000000ull},
      {"1e", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"1e+", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"1_000.5", ParseStatus::kOk, 0x408f440000000000ull},
      {"1__0", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"_1", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"1_", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"0x1p3", ParseStatus::kOk, 0x4020000000000000ull},
      {"0x1.8p1", ParseStatus::kOk, 0x4008000000000000ull},
      {"0x1", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"0x_1p3", ParseStatus::kOk, 0x4020000000000000ull},
      {"0x1p-1074", ParseStatus::kOk, 0x0000000000000001ull},
      {"0x1p-1075", ParseStatus::kOk, 0x0000000000000000ull},
      {"1e400", ParseStatus::kRange, 0x7ff0000000000000ull},
      {"-1e400", ParseStatus::kRange, 0xfff0000000000000ull},
      {"1e-400", ParseStatus::kOk, 0x0000000000000000ull},
      {"inf", ParseStatus::kOk, 0x7ff0000000000000ull},
      {"+Inf", ParseStatus::kOk, 0x7ff0000000000000ull},
      {"-infinity", ParseStatus::kOk, 0xfff0000000000000ull},
      {"nan", ParseStatus::kOk, 0x7ff8000000000001ull},
      {"NaN", ParseStatus::kOk, 0x7ff8000000000001ull},
      {"+nan", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"-nan", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"+", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"-", ParseStatus::kSyntax, 0x0000000000000000ull},
      {".", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"1.5e3_0", ParseStatus::kOk, 0x4632eec2eb3869afull},
      {"1.5e_3", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"0b1", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"0o7", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"00.5", ParseStatus::kOk, 0x3fe0000000000000ull},
      {"1.7976931348623157e308", ParseStatus::kOk, 0x7fefffffffffffffull},
      {"1.7976931348623159e308", ParseStatus::kRange, 0x7ff0000000000000ull},
      {"4.9e-324", ParseStatus::kOk, 0x0000000000000001ull},
      {"2.4e-324", ParseStatus::kOk, 0x0000000000000000ull},
      {"+.5e-3", ParseStatus::kOk, 0x3f40624dd2f1a9fcull},
      {"0X1P+2", ParseStatus::kOk, 0x4010000000000000ull},
      {"1p3", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"0x.8p1", ParseStatus::kOk, 0x3ff0000000000000ull},
      {"0x1.p1", ParseStatus::kOk, 0x4000000000000000ull},
      {"0xp1", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"i", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"1i", ParseStatus::kSyntax, 0x0000000000000000ull},
      {"0.1e-0", ParseStatus::kOk, 0x3fb999999999999aull},
  };
  for (const Case& c : cases) {
    double out = 0;
    EXPECT_EQ(parse_float(c.in, out), c.status) << c.in;
    if (c.status == ParseStatus::kSyntax) continue;
    if (std::isnan(std::bit_cast<double>(c.bits))) {
      EXPECT_TRUE(std::isnan(out)) << c.in;
    } else {
      EXPECT_EQ(std::bit_cast<uint64_t>(out), c.bits) << c.in;
    }
  }
}

// Answers printed by Go 1.19: strconv.FormatFloat(f, fmt, -1, bits) and json.Marshal of a
// float64. Values are given by their bits (negative zero, NaN).
TEST(FormatFloat, MatchesGo) {
  struct Case {
    uint64_t bits;
    char fmt;
    int bit_size;
    std::string_view out;
  };
  const Case cases[] = {
      {0x0000000000000000ull, 'e', 64, "0e+00"},
      {0x0000000000000000ull, 'e', 32, "0e+00"},
      {0x0000000000000000ull, 'E', 64, "0E+00"},
      {0x0000000000000000ull, 'E', 32, "0E+00"},
      {0x0000000000000000ull, 'f', 64, "0"},
      {0x0000000000000000ull, 'f', 32, "0"},
      {0x0000000000000000ull, 'g', 64, "0"},
      {0x0000000000000000ull, 'g', 32, "0"},
      {0x0000000000000000ull, 'G', 64, "0"},
      {0x0000000000000000ull, 'G', 32, "0"},
      {0x8000000000000000ull, 'e', 64, "-0e+00"},
      {0x8000000000000000ull, 'e', 32, "-0e+00"},
      {0x8000000000000000ull, 'E', 64, "-0E+00"},
      {0x8000000000000000ull, 'E', 32, "-0E+00"},
      {0x8000000000000000ull, 'f', 64, "-0"},
      {0x8000000000000000ull, 'f', 32, "-0"},
      {0x8000000000000000ull, 'g', 64, "-0"},
      {0x8000000000000000ull, 'g', 32, "-0"},
      {0x8000000000000000ull, 'G', 64, "-0"},
      {0x8000000000000000ull, 'G', 32, "-0"},
      {0x3ff0000000000000ull, 'e', 64, "1e+00"},
      {0x3ff0000000000000ull, 'e', 32, "1e+00"},
      {0x3ff0000000000000ull, 'E', 64, "1E+00"},
      {0x3ff0000000000000ull, 'E', 32, "1E+00"},
      {0x3ff0000000000000ull, 'f', 64, "1"},
      {0x3ff0000000000000ull, 'f', 32, "1"},
      {0x3ff0000000000000ull, 'g', 64, "1"},
      {0x3ff0000000000000ull, 'g', 32, "1"},
      {0x3ff0000000000000ull, 'G', 64, "1"},
      {0x3ff0000000000000ull, 'G', 32, "1"},
      {0xbff8000000000000ull, 'e', 64, "-1.5e+00"},
      {0xbff8000000000000ull, 'e', 32, "-1.5e+00"},
      {0xbff8000000000000ull, 'E', 64, "-1.5E+00"},
      {0xbff8000000000000ull, 'E', 32, "-1.5E+00"},
      {0xbff8000000000000ull, 'f', 64, "-1.5"},
      {0xbff8000000000000ull, 'f', 32, "-1.5"},
      {0xbff8000000000000ull, 'g', 64, "-1.5"},
      {0xbff8000000000000ull, 'g', 32, "-1.5"},
      {0xbff8000000000000ull, 'G', 64, "-1.5"},
      {0xbff8000000000000ull, 'G', 32, "-1.5"},
      {0x3fb999999999999aull, 'e', 64, "1e-01"},
      {0x3fb999999999999aull, 'e', 32, "1e-01"},
      {0x3fb999999999999aull, 'E', 64, "1E-01"},
      {0x3fb999999999999aull, 'E', 32, "1E-01"},
      {0x3fb999999999999aull, 'f', 64, "0.1"},
      {0x3fb999999999999aull, 'f', 32, "0.1"},
      {0x3fb999999999999aull, 'g', 64, "0.1"},
      {0x3fb999999999999aull, 'g', 32, "0.1"},
      {0x3fb999999999999aull, 'G', 64, "0.1"},
      {0x3fb999999999999aull, 'G', 32, "0.1"},
      {0x3f1a36e2eb1c432dull, 'e', 64, "1e-04"},
      {0x3f1a36e2eb1c432dull, 'e', 32, "1e-04"},
      {0x3f1a36e2eb1c432dull, 'E', 64, "1E-04"},
      {0x3f1a36e2eb1c432dull, 'E', 32, "1E-04"},
      {0x3f1a36e2eb1c432dull, 'f', 64, "0.0001"},
      {0x3f1a36e2eb1c432dull, 'f', 32, "0.0001"},
      {0x3f1a36e2eb1c432dull, 'g', 64, "0.0001"},
      {0x3f1a36e2eb1c432dull, 'g', 32, "0.0001"},
      {0x3f1a36e2eb1c432dull, 'G', 64, "0.0001"},
      {0x3f1a36e2eb1c432dull, 'G', 32, "0.0001"},
      {0x3f1a36d1bd105b06ull, 'e', 64, "9.9999e-05"},
      {0x3f1a36d1bd105b06ull, 'e', 32, "9.9999e-05"},
      {0x3f1a36d1bd105b06ull, 'E', 64, "9.9999E-05"},
      {0x3f1a36d1bd105b06ull, 'E', 32, "9.9999E-05"},
      {0x3f1a36d1bd105b06ull, 'f', 64, "0.000099999"},
      {0x3f1a36d1bd105b06ull, 'f', 32, "0.000099999"},
      {0x3f1a36d1bd105b06ull, 'g', 64, "9.9999e-05"},
      {0x3f1a36d1bd105b06ull, 'g', 32, "9.9999e-05"},
      {0x3f1a36d1bd105b06ull, 'G', 64, "9.9999E-05"},
      {0x3f1a36d1bd105b06ull, 'G', 32, "9.9999E-05"},
      {0x3ee4f8b588e368f1ull, 'e', 64, "1e-05"},
      {0x3ee4f8b588e368f1ull, 'e', 32, "1e-05"},
      {0x3ee4f8b588e368f1ull, 'E', 64, "1E-05"},
      {0x3ee4f8b588e368f1ull, 'E', 32, "1E-05"},
      {0x3ee4f8b588e368f1ull, 'f', 64, "0.00001"},
      {0x3ee4f8b588e368f1ull, 'f', 32, "0.00001"},
      {0x3ee4f8b588e368f1ull, 'g', 64, "1e-05"},
      {0x3ee4f8b588e368f1ull, 'g', 32, "1e-05"},
      {0x3ee4f8b588e368f1ull, 'G', 64, "1E-05"},
      {0x3ee4f8b588e368f1ull, 'G', 32, "1E-05"},
      {0x40fe240000000000ull, 'e', 64, "1.23456e+05"},
      {0x40fe240000000000ull, 'e', 32, "1.23456e+05"},
      {0x40fe240000000000ull, 'E', 64, "1.23456E+05"},
      {0x40fe240000000000ull, 'E', 32, "1.23456E+05"},
      {0x40fe240000000000ull, 'f', 64, "123456"},
      {0x40fe240000000000ull, 'f', 32, "123456"},
      {0x40fe240000000000ull, 'g', 64, "123456"},
      {0x40fe240000000000ull, 'g', 32, "123456"},
      {0x40fe240000000000ull, 'G', 64, "123456"},
      {0x40fe240000000000ull, 'G', 32, "123456"},
      {0x412e847e00000000ull, 'e', 64, "9.99999e+05"},
      {0x412e847e00000000ull, 'e', 32, "9.99999e+05"},
      {0x412e847e00000000ull, 'E', 64, "9.99999E+05"},
      {0x412e847e00000000ull, 'E', 32, "9.99999E+05"},
      {0x412e847e00000000ull, 'f', 64, "999999"},
      {0x412e847e00000000ull, 'f', 32, "999999"},
      {0x412e847e00000000ull, 'g', 64, "999999"},
      {0x412e847e00000000ull, 'g', 32, "999999"},
      {0x412e847e00000000ull, 'G', 64, "999999"},
      {0x412e847e00000000ull, 'G', 32, "999999"},
      {0x412e848000000000ull, 'e', 64, "1e+06"},
      {0x412e848000000000ull, 'e', 32, "1e+06"},
      {0x412e848000000000ull, 'E', 64, "1E+06"},
      {0x412e848000000000ull, 'E', 32, "1E+06"},
      {0x412e848000000000ull, 'f', 64, "1000000"},
      {0x412e848000000000ull, 'f', 32, "1000000"},
      {0x412e848000000000ull, 'g', 64, "1e+06"},
      {0x412e848000000000ull, 'g', 32, "1e+06"},
      {0x412e848000000000ull, 'G', 64, "1E+06"},
      {0x412e848000000000ull, 'G', 32, "1E+06"},
      {0x4132d68700000000ull, 'e', 64, "1.234567e+06"},
      {0x4132d68700000000ull, 'e', 32, "1.234567e+06"},
      {0x4132d68700000000ull, 'E', 64, "1.234567E+06"},
      {0x4132d68700000000ull, 'E', 32, "1.234567E+06"},
      {0x4132d68700000000ull, 'f', 64, "1234567"},
      {0x4132d68700000000ull, 'f', 32, "1234567"},
      {0x4132d68700000000ull, 'g', 64, "1.234567e+06"},
      {0x4132d68700000000ull, 'g', 32, "1.234567e+06"},
      {0x4132d68700000000ull, 'G', 64, "1.234567E+06"},
      {0x4132d68700000000ull, 'G', 32, "1.234567E+06"},
      {0x4415af1d78b58c40ull, 'e', 64, "1e+20"},
      {0x4415af1d78b58c40ull, 'e', 32, "1e+20"},
      {0x4415af1d78b58c40ull, 'E', 64, "1E+20"},
      {0x4415af1d78b58c40ull, 'E', 32, "1E+20"},
      {0x4415af1d78b58c40ull, 'f', 64, "100000000000000000000"},
      {0x4415af1d78b58c40ull, 'f', 32, "100000000000000000000"},
      {0x4415af1d78b58c40ull, 'g', 64, "1e+20"},
      {0x4415af1d78b58c40ull, 'g', 32, "1e+20"},
      {0x4415af1d78b58c40ull, 'G', 64, "1E+20"},
      {0x4415af1d78b58c40ull, 'G', 32, "1E+20"},
      {0x444b1ae4d6e2ef50ull, 'e', 64, "1e+21"},
      {0x444b1ae4d6e2ef50ull, 'e', 32, "1e+21"},
      {0x444b1ae4d6e2ef50ull, 'E', 64, "1E+21"},
      {0x444b1ae4d6e2ef50ull, 'E', 32, "1E+21"},
      {0x444b1ae4d6e2ef50ull, 'f', 64, "1000000000000000000000"},
      {0x444b1ae4d6e2ef50ull, 'f', 32, "1000000000000000000000"},
      {0x444b1ae4d6e2ef50ull, 'g', 64, "1e+21"},
      {0x444b1ae4d6e2ef50ull, 'g', 32, "1e+21"},
      {0x444b1ae4d6e2ef50ull, 'G', 64, "1E+21"},
      {0x444b1ae4d6e2ef50ull, 'G', 32, "1E+21"},
      {0x3eb0c6f7a0b5ed8dull, 'e', 64, "1e-06"},
      {0x3eb0c6f7a0b5ed8dull, 'e', 32, "1e-06"},
      {0x3eb0c6f7a0b5ed8dull, 'E', 64, "1E-06"},
      {0x3eb0c6f7a0b5ed8dull, 'E', 32, "1E-06"},
      {0x3eb0c6f7a0b5ed8dull, 'f', 64, "0.000001"},
      {0x3eb0c6f7a0b5ed8dull, 'f', 32, "0.000001"},
      {0x3eb0c6f7a0b5ed8dull, 'g', 64, "1e-06"},
      {0x3eb0c6f7a0b5ed8dull, 'g', 32, "1e-06"},
      {0x3eb0c6f7a0b5ed8dull, 'G', 64, "1E-06"},
      {0x3eb0c6f7a0b5ed8dull, 'G', 32, "1E-06"},
      {0x3eb0c2ac1dbbe3d8ull, 'e', 64, "9.99e-07"},
      {0x3eb0c2ac1dbbe3d8ull, 'e', 32, "9.99e-07"},
      {0x3eb0c2ac1dbbe3d8ull, 'E', 64, "9.99E-07"},
      {0x3eb0c2ac1dbbe3d8ull, 'E', 32, "9.99E-07"},
      {0x3eb0c2ac1dbbe3d8ull, 'f', 64, "0.000000999"},
      {0x3eb0c2ac1dbbe3d8ull, 'f', 32, "0.000000999"},
      {0x3eb0c2ac1dbbe3d8ull, 'g', 64, "9.99e-07"},
      {0x3eb0c2ac1dbbe3d8ull, 'g', 32, "9.99e-07"},
      {0x3eb0c2ac1dbbe3d8ull, 'G', 64, "9.99E-07"},
      {0x3eb0c2ac1dbbe3d8ull, 'G', 32, "9.99E-07"},
      {0x3e7ad7f29abcaf48ull, 'e', 64, "1e-07"},
      {0x3e7ad7f29abcaf48ull, 'e', 32, "1e-07"},
      {0x3e7ad7f29abcaf48ull, 'E', 64, "1E-07"},
      {0x3e7ad7f29abcaf48ull, 'E', 32, "1E-07"},
      {0x3e7ad7f29abcaf48ull, 'f', 64, "0.0000001"},
      {0x3e7ad7f29abcaf48ull, 'f', 32, "0.0000001"},
      {0x3e7ad7f29abcaf48ull, 'g', 64, "1e-07"},
      {0x3e7ad7f29abcaf48ull, 'g', 32, "1e-07"},
      {0x3e7ad7f29abcaf48ull, 'G', 64, "1E-07"},
      {0x3e7ad7f29abcaf48ull, 'G', 32, "1E-07"},
      {0x0000000000000001ull, 'e', 64, "5e-324"},
      {0x0000000000000001ull, 'e', 32, "0e+00"},
      {0x0000000000000001ull, 'E', 64, "5E-324"},
      {0x0000000000000001ull, 'E', 32, "0E+00"},
      {0x0000000000000001ull, 'f', 64,
       "0."
       "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
       "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
       "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
       "000000000000000000000000000000000000000000000000005"},
      {0x0000000000000001ull, 'f', 32, "0"},
      {0x0000000000000001ull, 'g', 64, "5e-324"},
      {0x0000000000000001ull, 'g', 32, "0"},
      {0x0000000000000001ull, 'G', 64, "5E-324"},
      {0x0000000000000001ull, 'G', 32, "0"},
      {0x7fefffffffffffffull, 'e', 64, "1.7976931348623157e+308"},
      {0x7fefffffffffffffull, 'e', 32, "+Inf"},
      {0x7fefffffffffffffull, 'E', 64, "1.7976931348623157E+308"},
      {0x7fefffffffffffffull, 'E', 32, "+Inf"},
      {0x7fefffffffffffffull, 'f', 64,
       "1797693134862315700000000000000000000000000000000000000000000000000000000000000000000000000"
       "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
       "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
       "000000000000000000000000000000000000"},
      {0x7fefffffffffffffull, 'f', 32, "+Inf"},
      {0x7fefffffffffffffull, 'g', 64, "1.7976931348623157e+308"},
      {0x7fefffffffffffffull, 'g', 32, "+Inf"},
      {0x7fefffffffffffffull, 'G', 64, "1.7976931348623157E+308"},
      {0x7fefffffffffffffull, 'G', 32, "+Inf"},
      {0x4059000000000000ull, 'e', 64, "1e+02"},
      {0x4059000000000000ull, 'e', 32, "1e+02"},
      {0x4059000000000000ull, 'E', 64, "1E+02"},
      {0x4059000000000000ull, 'E', 32, "1E+02"},
      {0x4059000000000000ull, 'f', 64, "100"},
      {0x4059000000000000ull, 'f', 32, "100"},
      {0x4059000000000000ull, 'g', 64, "100"},
      {0x4059000000000000ull, 'g', 32, "100"},
      {0x4059000000000000ull, 'G', 64, "100"},
      {0x4059000000000000ull, 'G', 32, "100"},
      {0x3f201f31f46ed246ull, 'e', 64, "1.23e-04"},
      {0x3f201f31f46ed246ull, 'e', 32, "1.23e-04"},
      {0x3f201f31f46ed246ull, 'E', 64, "1.23E-04"},
      {0x3f201f31f46ed246ull, 'E', 32, "1.23E-04"},
      {0x3f201f31f46ed246ull, 'f', 64, "0.000123"},
      {0x3f201f31f46ed246ull, 'f', 32, "0.000123"},
      {0x3f201f31f46ed246ull, 'g', 64, "0.000123"},
      {0x3f201f31f46ed246ull, 'g', 32, "0.000123"},
      {0x3f201f31f46ed246ull, 'G', 64, "0.000123"},
      {0x3f201f31f46ed246ull, 'G', 32, "0.000123"},
      {0x3e90c6f7a0b5ed8dull, 'e', 64, "2.5e-07"},
      {0x3e90c6f7a0b5ed8dull, 'e', 32, "2.5e-07"},
      {0x3e90c6f7a0b5ed8dull, 'E', 64, "2.5E-07"},
      {0x3e90c6f7a0b5ed8dull, 'E', 32, "2.5E-07"},
      {0x3e90c6f7a0b5ed8dull, 'f', 64, "0.00000025"},
      {0x3e90c6f7a0b5ed8dull, 'f', 32, "0.00000025"},
      {0x3e90c6f7a0b5ed8dull, 'g', 64, "2.5e-07"},
      {0x3e90c6f7a0b5ed8dull, 'g', 32, "2.5e-07"},
      {0x3e90c6f7a0b5ed8dull, 'G', 64, "2.5E-07"},
      {0x3e90c6f7a0b5ed8dull, 'G', 32, "2.5E-07"},
      {0x41678c29dccccccdull, 'e', 64, "1.23456789e+07"},
      {0x41678c29dccccccdull, 'e', 32, "1.2345679e+07"},
      {0x41678c29dccccccdull, 'E', 64, "1.23456789E+07"},
      {0x41678c29dccccccdull, 'E', 32, "1.2345679E+07"},
      {0x41678c29dccccccdull, 'f', 64, "12345678.9"},
      {0x41678c29dccccccdull, 'f', 32, "12345679"},
      {0x41678c29dccccccdull, 'g', 64, "1.23456789e+07"},
      {0x41678c29dccccccdull, 'g', 32, "1.2345679e+07"},
      {0x41678c29dccccccdull, 'G', 64, "1.23456789E+07"},
      {0x41678c29dccccccdull, 'G', 32, "1.2345679E+07"},
      {0x54b249ad2594c37dull, 'e', 64, "1e+100"},
      {0x54b249ad2594c37dull, 'e', 32, "+Inf"},
      {0x54b249ad2594c37dull, 'E', 64, "1E+100"},
      {0x54b249ad2594c37dull, 'E', 32, "+Inf"},
      {0x54b249ad2594c37dull, 'f', 64,
       "1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
       "0000000000"},
      {0x54b249ad2594c37dull, 'f', 32, "+Inf"},
      {0x54b249ad2594c37dull, 'g', 64, "1e+100"},
      {0x54b249ad2594c37dull, 'g', 32, "+Inf"},
      {0x54b249ad2594c37dull, 'G', 64, "1E+100"},
      {0x54b249ad2594c37dull, 'G', 32, "+Inf"},
      {0x47efffffe54daff8ull, 'e', 64, "3.4028235e+38"},
      {0x47efffffe54daff8ull, 'e', 32, "3.4028235e+38"},
      {0x47efffffe54daff8ull, 'E', 64, "3.4028235E+38"},
      {0x47efffffe54daff8ull, 'E', 32, "3.4028235E+38"},
      {0x47efffffe54daff8ull, 'f', 64, "340282350000000000000000000000000000000"},
      {0x47efffffe54daff8ull, 'f', 32, "340282350000000000000000000000000000000"},
      {0x47efffffe54daff8ull, 'g', 64, "3.4028235e+38"},
      {0x47efffffe54daff8ull, 'g', 32, "3.4028235e+38"},
      {0x47efffffe54daff8ull, 'G', 64, "3.4028235E+38"},
      {0x47efffffe54daff8ull, 'G', 32, "3.4028235E+38"},
      {0x48078287f49c4a1dull, 'e', 64, "1e+39"},
      {0x48078287f49c4a1dull, 'e', 32, "+Inf"},
      {0x48078287f49c4a1dull, 'E', 64, "1E+39"},
      {0x48078287f49c4a1dull, 'E', 32, "+Inf"},
      {0x48078287f49c4a1dull, 'f', 64, "1000000000000000000000000000000000000000"},
      {0x48078287f49c4a1dull, 'f', 32, "+Inf"},
      {0x48078287f49c4a1dull, 'g', 64, "1e+39"},
      {0x48078287f49c4a1dull, 'g', 32, "+Inf"},
      {0x48078287f49c4a1dull, 'G', 64, "1E+39"},
      {0x48078287f49c4a1dull, 'G', 32, "+Inf"},
      {0x366244ce242c5561ull, 'e', 64, "1e-46"},
      {0x366244ce242c5561ull, 'e', 32, "0e+00"},
      {0x366244ce242c5561ull, 'E', 64, "1E-46"},
      {0x366244ce242c5561ull, 'E', 32, "0E+00"},
      {0x366244ce242c5561ull, 'f', 64, "0.0000000000000000000000000000000000000000000001"},
      {0x366244ce242c5561ull, 'f', 32, "0"},
      {0x366244ce242c5561ull, 'g', 64, "1e-46"},
      {0x366244ce242c5561ull, 'g', 32, "0"},
      {0x366244ce242c5561ull, 'G', 64, "1E-46"},
      {0x366244ce242c5561ull, 'G', 32, "0"},
      {0x3fd3333333333333ull, 'e', 64, "3e-01"},
      {0x3fd3333333333333ull, 'e', 32, "3e-01"},
      {0x3fd3333333333333ull, 'E', 64, "3E-01"},
      {0x3fd3333333333333ull, 'E', 32, "3E-01"},
      {0x3fd3333333333333ull, 'f', 64, "0.3"},
      {0x3fd3333333333333ull, 'f', 32, "0.3"},
      {0x3fd3333333333333ull, 'g', 64, "0.3"},
      {0x3fd3333333333333ull, 'g', 32, "0.3"},
      {0x3fd3333333333333ull, 'G', 64, "0.3"},
      {0x3fd3333333333333ull, 'G', 32, "0.3"},
      {0x7ff0000000000000ull, 'e', 64, "+Inf"},
      {0x7ff0000000000000ull, 'e', 32, "+Inf"},
      {0x7ff0000000000000ull, 'E', 64, "+Inf"},
      {0x7ff0000000000000ull, 'E', 32, "+Inf"},
      {0x7ff0000000000000ull, 'f', 64, "+Inf"},
      {0x7ff0000000000000ull, 'f', 32, "+Inf"},
      {0x7ff0000000000000ull, 'g', 64, "+Inf"},
      {0x7ff0000000000000ull, 'g', 32, "+Inf"},
      {0x7ff0000000000000ull, 'G', 64, "+Inf"},
      {0x7ff0000000000000ull, 'G', 32, "+Inf"},
      {0xfff0000000000000ull, 'e', 64, "-Inf"},
      {0xfff0000000000000ull, 'e', 32, "-Inf"},
      {0xfff0000000000000ull, 'E', 64, "-Inf"},
      {0xfff0000000000000ull, 'E', 32, "-Inf"},
      {0xfff0000000000000ull, 'f', 64, "-Inf"},
      {0xfff0000000000000ull, 'f', 32, "-Inf"},
      {0xfff0000000000000ull, 'g', 64, "-Inf"},
      {0xfff0000000000000ull, 'g', 32, "-Inf"},
      {0xfff0000000000000ull, 'G', 64, "-Inf"},
      {0xfff0000000000000ull, 'G', 32, "-Inf"},
      {0x7ff8000000000001ull, 'e', 64, "NaN"},
      {0x7ff8000000000001ull, 'e', 32, "NaN"},
      {0x7ff8000000000001ull, 'E', 64, "NaN"},
      {0x7ff8000000000001ull, 'E', 32, "NaN"},
      {0x7ff8000000000001ull, 'f', 64, "NaN"},
      {0x7ff8000000000001ull, 'f', 32, "NaN"},
      {0x7ff8000000000001ull, 'g', 64, "NaN"},
      {0x7ff8000000000001ull, 'g', 32, "NaN"},
      {0x7ff8000000000001ull, 'G', 64, "NaN"},
      {0x7ff8000000000001ull, 'G', 32, "NaN"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(format_float(std::bit_cast<double>(c.bits), c.fmt, c.bit_size), c.out)
        << std::hex << c.bits << " " << c.fmt << " " << std::dec << c.bit_size;
  }
  const std::pair<uint64_t, std::string_view> json_cases[] = {
      {0x0000000000000000ull, "0"},
      {0x8000000000000000ull, "-0"},
      {0x3ff0000000000000ull, "1"},
      {0xbff8000000000000ull, "-1.5"},
      {0x3fb999999999999aull, "0.1"},
      {0x3f1a36e2eb1c432dull, "0.0001"},
      {0x3f1a36d1bd105b06ull, "0.000099999"},
      {0x3ee4f8b588e368f1ull, "0.00001"},
      {0x40fe240000000000ull, "123456"},
      {0x412e847e00000000ull, "999999"},
      {0x412e848000000000ull, "1000000"},
      {0x4132d68700000000ull, "1234567"},
      {0x4415af1d78b58c40ull, "100000000000000000000"},
      {0x444b1ae4d6e2ef50ull, "1e+21"},
      {0x3eb0c6f7a0b5ed8dull, "0.000001"},
      {0x3eb0c2ac1dbbe3d8ull, "9.99e-7"},
      {0x3e7ad7f29abcaf48ull, "1e-7"},
      {0x0000000000000001ull, "5e-324"},
      {0x7fefffffffffffffull, "1.7976931348623157e+308"},
      {0x4059000000000000ull, "100"},
      {0x3f201f31f46ed246ull, "0.000123"},
      {0x3e90c6f7a0b5ed8dull, "2.5e-7"},
      {0x41678c29dccccccdull, "12345678.9"},
      {0x54b249ad2594c37dull, "1e+100"},
      {0x47efffffe54daff8ull, "3.4028235e+38"},
      {0x48078287f49c4a1dull, "1e+39"},
      {0x366244ce242c5561ull, "1e-46"},
      {0x3fd3333333333333ull, "0.3"},
  };
  for (const auto& [bits, out] : json_cases) {
    EXPECT_EQ(json_float(std::bit_cast<double>(bits)), out) << std::hex << bits;
  }
}

TEST(JsonQuoteChar, MatchesEncodingJson) {
  struct Case {
    unsigned char c;
    std::string_view want;
  };
  const Case cases[] = {
      {0x01, R"('\x01')"},   {0x7F, R"('\x7f')"},   {'x', "'x'"},          {'\'', R"('\'')"},
      {'"', R"('"')"},       {'\\', R"('\\')"},     {0xE9, "'\u00e9'"},    {0xFF, "'\u00ff'"},
      {0x80, R"('\u0080')"}, {0xA0, R"('\u00a0')"}, {0xAD, R"('\u00ad')"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(static_cast<int>(c.c));
    EXPECT_EQ(json_quote_char(c.c), c.want);
  }
}

// Texts of json.Unmarshal's errors, recorded from Go 1.19.
TEST(ParseJson, SyntaxErrorsAsGoWordsThem) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"", "unexpected end of JSON input"},
      {"x", "invalid character 'x' looking for beginning of value"},
      {"[1,", "unexpected end of JSON input"},
      {"{\"a\" 1}", "invalid character '1' after object key"},
      {"[1 2]", "invalid character '2' after array element"},
      {"tru", "invalid character ' ' in literal true (expecting 'e')"},
      {"-", "invalid character ' ' in numeric literal"},
      {"1.", "invalid character ' ' after decimal point in numeric literal"},
      {"1e", "invalid character ' ' in exponent of numeric literal"},
      {"\"\\q\"", "invalid character 'q' in string escape code"},
      {"\"\\u12g4\"", "invalid character 'g' in \\u hexadecimal character escape"},
      {"{1:2}", "invalid character '1' looking for beginning of object key string"},
      {"[1] x", "invalid character 'x' after top-level value"},
      {"\"a\x01\"", "invalid character '\\x01' in string literal"},
      {"{\"a\":1,}", "invalid character '}' looking for beginning of object key string"},
  };
  for (const auto& [text, error] : cases) EXPECT_EQ(parse_json(text).error, error) << text;
  // Each level is a call: the engine reads JSON on its big stack, and so does this.
  diag::run_with_big_stack([] {
    EXPECT_EQ(parse_json(std::string(10001, '[') + std::string(10001, ']')).error,
              "exceeded max depth");
    EXPECT_EQ(parse_json(std::string(10000, '[') + std::string(10000, ']')).error, "");
  });
}

TEST(ParseJson, ReadsValuesAsDecodeDoes) {
  JsonParse p = parse_json(" {\"b\": [1.5e3, true, null], \"a\": \"x\", \"b\": false} ");
  ASSERT_EQ(p.error, "");
  using Kind = JsonValue::Kind;
  ASSERT_EQ(p.value.kind, Kind::kObject);
  ASSERT_EQ(p.value.members.size(), 3u);  // repeats kept, in text order
  EXPECT_EQ(p.value.members[0].key, "b");
  const JsonValue& list = p.value.members[0].value;
  ASSERT_EQ(list.elements.size(), 3u);
  EXPECT_EQ(list.elements[0].kind, Kind::kNumber);
  EXPECT_EQ(list.elements[0].text, "1.5e3");
  EXPECT_TRUE(list.elements[1].boolean);
  EXPECT_EQ(list.elements[2].kind, Kind::kNull);
  EXPECT_EQ(p.value.members[2].value.kind, Kind::kBool);
  // A lone surrogate escape and a stray byte read as U+FFFD; a pair is one rune.
  EXPECT_EQ(parse_json("\"\\ud800\\u0041 \\ud83d\\ude00 \xff\"").value.text,
            "\xef\xbf\xbd"
            "A \xf0\x9f\x98\x80 \xef\xbf\xbd");
}

TEST(StarlarkGoType, NamesWhatYttPrints) {
  EXPECT_EQ(starlark_go_type("int"), "starlark.Int");
  EXPECT_EQ(starlark_go_type("list"), "*starlark.List");
  EXPECT_EQ(starlark_go_type("tuple"), "starlark.Tuple");
  EXPECT_EQ(starlark_go_type("range"), "starlark.rangeValue");
  EXPECT_EQ(starlark_go_type("struct"), "*core.StarlarkStruct");
  EXPECT_EQ(starlark_go_type("module"), "*starlarkstruct.Module");
  EXPECT_EQ(starlark_go_type("yamlfragment"), "*yamltemplate.StarlarkFragment");
  EXPECT_EQ(starlark_go_type("@ytt:ip.addr"), "*yttlibrary.IPAddrValue");
  EXPECT_EQ(starlark_go_type("something.else"), "something.else");
}

// Results of Go 1.19's math package on amd64, recorded with Go (the same with and without
// Exp's FMA path): the reductions and branches where the port could go wrong by a bit.
TEST(GoMath, GivesTheBitsOfGosMathPackage) {
  const double kHalfSqrt2 = std::bit_cast<double>(uint64_t{0x3FE6A09E667F3BCD});
  struct Case {
    const char* expr;
    double got;
    uint64_t want;
  };
  namespace m = math;
  const Case cases[] = {
      // Log's assembly doubles a fraction at Sqrt(2)/2 too, and reads a subnormal's bits as
      // they are.
      {"log(kHalfSqrt2 * 2)", m::log(kHalfSqrt2 * 2), 0x3fd62e42fefa39f0},
      {"log(kHalfSqrt2)", m::log(kHalfSqrt2), 0xbfd62e42fefa39ee},
      {"log(5e-324)", m::log(5e-324), 0xc08628b76e3a7b61},
      {"log(1e-310)", m::log(1e-310), 0xc08628ae3f3c2ff6},
      // Payne-Hanek reduction from 2**29 on.
      {"sin(1e22)", m::sin(1e22), 0xbfeb453ab76bf398},
      {"cos(5e15)", m::cos(5e15), 0xbfdbab6bd014d7f7},
      {"tan(1e300)", m::tan(1e300), 0x3ff6be411f37ac76},
      {"pow(1.0000001, 1e9)", m::pow(1.0000001, 1e9), 0x48f349445a543ab1},
      {"pow(-2, 1023)", m::pow(-2, 1023), 0xffe0000000000000},
      {"pow(0.5, 1074)", m::pow(0.5, 1074), 0x0000000000000001},
      {"gamma(-170.5)", m::gamma(-170.5), 0x8017d2374dfcda6e},
      {"gamma(1e-10)", m::gamma(1e-10), 0x4202a05f1ffb61dd},
      {"log1p(-0.29)", m::log1p(-0.29), 0xbfd5eb5c7907e4c8},
      {"atanh(0.99)", m::atanh(0.99), 0x40052c581997cd85},
      {"hypot(5e-324, 5e-324)", m::hypot(5e-324, 5e-324), 0x0000000000000001},
      {"exp(-708.5)", m::exp(-708.5), 0x000e6cf6d08897ac},
      {"ldexp(0.75, -1074)", m::ldexp(0.75, -1074), 0x0000000000000001},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(std::bit_cast<uint64_t>(c.got), c.want) << c.expr;
  }
  int e = 0;
  EXPECT_EQ(m::frexp(5e-324, e), 0.5);
  EXPECT_EQ(e, -1073);
  double frac = 0;
  EXPECT_EQ(m::modf(-3.75, frac), -3);
  EXPECT_EQ(frac, -0.75);
}

}  // namespace
}  // namespace hintkit::gocompat
