#include "diag/diag.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

namespace hintkit::diag {
namespace {

TEST(Nearest, SuggestsCloseNamesOnly) {
  constexpr std::array<std::string_view, 7> kKeys = {
      "type", "required", "default", "description", "format", "required_with", "required_without"};
  struct Case {
    std::string_view word;
    std::string_view want;  // "" = no suggestion
  };
  const Case cases[] = {
      {"requried", "required"},
      {"Required", "required"},
      {"tpye", "type"},
      {"defualt", "default"},
      {"formt", "format"},
      {"required_withot", "required_without"},
      {"descripton", "description"},
      {"zzz", ""},
      {"banana", ""},
      {"type", ""},  // exact match is not a suggestion
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.word);
    auto got = nearest(c.word, kKeys);
    EXPECT_EQ(got.value_or(""), c.want);
  }
}

// Plain dynamic programming over the whole table: what the banded distance must agree with.
size_t full_distance(std::string_view a, std::string_view b, bool transpositions) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (transpositions && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

TEST(EditDistanceWithin, AgreesWithTheFullTableUpToTheLimit) {
  // Every pair of words of up to 5 letters over {a, b, c}, every limit 0-6, both rules.
  std::vector<std::string> words{""};
  for (size_t n = 0; n < words.size() && words.size() < 364; ++n) {
    if (words[n].size() == 5) continue;
    for (char c : {'a', 'b', 'c'}) words.push_back(words[n] + c);
  }
  size_t checked = 0;
  for (size_t i = 0; i < words.size(); i += 3) {
    for (size_t j = 0; j < words.size(); j += 2) {
      for (bool t : {false, true}) {
        const size_t want = full_distance(words[i], words[j], t);
        for (size_t limit = 0; limit <= 6; ++limit) {
          auto got = edit_distance_within(words[i], words[j], limit, t);
          ASSERT_EQ(got.has_value(), want <= limit) << words[i] << " " << words[j] << " " << limit;
          if (got) {
            ASSERT_EQ(*got, want) << words[i] << " " << words[j];
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 100000u);
}

TEST(EditDistanceWithin, CostsTheBandNotTheTable) {
  // 10^6 letters each: the full table is 10^12 cells (hours), the band of 3 is 7 * 10^6.
  std::string a(1000000, 'x');
  std::string b = a;
  b[500000] = 'y';
  b[11] = 'z';
  EXPECT_EQ(edit_distance_within(a, b, 3, true), std::optional<size_t>(2));
  EXPECT_EQ(edit_distance_within(a, b, 1, true), std::nullopt);
  // Lengths further apart than the limit: no work at all.
  EXPECT_EQ(edit_distance_within(a, "x", 3, false), std::nullopt);
}

TEST(Nearest, LongWordsGetNoSuggestion) {
  // A 60,000-letter name against a one-letter-off 60,000-letter declaration took `lint` 29 s.
  const std::string declared(60000, 'a');
  const std::string typed = "b" + declared.substr(1);
  const std::vector<std::string> names{declared, "short"};
  EXPECT_EQ(nearest(typed, names), std::nullopt);
  EXPECT_EQ(go_spell_nearest(typed, names), "");
  // At the cap a typo is still found; one letter past it, nothing is.
  const std::string at_cap(kMaxSpellingBytes, 'k');
  std::string typo = at_cap;
  typo[3] = 'q';
  EXPECT_EQ(nearest(typo, std::vector<std::string>{at_cap}), at_cap);
  EXPECT_EQ(nearest(typo + "k", std::vector<std::string>{at_cap + "k"}), std::nullopt);
  // ytt's rule has its own, higher cap: a 65-byte data value key still gets ytt's suggestion.
  EXPECT_EQ(go_spell_nearest(typo + "k", {at_cap + "k"}), at_cap + "k");
  const std::string go_cap(kMaxGoSpellingBytes, 'k');
  std::string go_typo = go_cap;
  go_typo[3] = 'q';
  EXPECT_EQ(go_spell_nearest(go_typo, {go_cap}), go_cap);
  EXPECT_EQ(go_spell_nearest(go_typo + "k", {go_cap + "k"}), "");
}

TEST(GoSpellNearest, IsStarlarkGosSpellNearest) {
  struct Case {
    std::string_view word;
    std::vector<std::string> candidates;
    std::string_view want;
  };
  const Case cases[] = {
      {"lenght", {"len", "length"}, "length"},
      {"Foo_Bar", {"foobar"}, "foobar"},       // '_' and case do not count
      {"abcd", {"abce", "abcf"}, "abce"},      // the first of equals
      {"abcd", {"abxy", "abcf"}, "abcf"},      // a closer one later wins
      {"ab", {"ac"}, ""},                      // under half the word: 1 edit < 1 fails
      {"abc", {"acb"}, ""},                    // no transpositions: 2 edits
      {"requried", {"required"}, "required"},  // 2 edits < 4
      {"x", {"y", "xx"}, ""},                  // budget (1 + 1) / 2 = 1: distance 0 only
      {"", {"a"}, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.word);
    EXPECT_EQ(go_spell_nearest(c.word, c.candidates), c.want);
  }
}

TEST(DidYouMean, FormatsTheHint) {
  constexpr std::array<std::string_view, 3> kTypes = {"string", "slice", "map"};
  EXPECT_EQ(did_you_mean("String", kTypes), "did you mean \"string\"?");
  EXPECT_EQ(did_you_mean("integer", kTypes), "");
}

Diagnostics sample() {
  Diagnostics d;
  d.error("HK104", Span{"b.yaml", {3, 5}, {3, 9}}, "var \"x\" has invalid type \"integer\"",
          "vars.x.type")
      .hints.push_back("did you mean \"int\"?");
  auto& w = d.warning("HK116", Span{"a.yaml", {7, 2}, {7, 2}}, "self reference", "vars.y");
  w.related.push_back({Span{"a.yaml", {5, 3}, {5, 3}}, "declared here"});
  d.error("HK100", Span{"a.yaml", {1, 1}, {1, 1}}, "root: not a map");
  return d;
}

TEST(Diagnostics, SortsByFileLineColumnAndDedupes) {
  Diagnostics d = sample();
  d.error("HK100", Span{"a.yaml", {1, 1}, {1, 1}}, "root: not a map");  // duplicate
  d.sort_and_dedupe();
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d.items()[0].code, "HK100");
  EXPECT_EQ(d.items()[1].code, "HK116");
  EXPECT_EQ(d.items()[2].code, "HK104");
  EXPECT_EQ(d.error_count(), 2u);
  EXPECT_EQ(d.warning_count(), 1u);
}

TEST(Render, TextHasPositionCodeNotesAndHints) {
  Diagnostics d = sample();
  d.sort_and_dedupe();
  std::ostringstream out;
  render(out, Format::kText, d);
  EXPECT_EQ(out.str(),
            "a.yaml:1:1: error: root: not a map [HK100]\n"
            "a.yaml:7:2: warning: self reference [HK116]\n"
            "  note: a.yaml:5:3: declared here\n"
            "b.yaml:3:5: error: var \"x\" has invalid type \"integer\" [HK104]\n"
            "  hint: did you mean \"int\"?\n");
}

TEST(Render, GithubEscapesPropertiesAndData) {
  Diagnostics d;
  d.error("HK1", Span{"dir,x/a:b.yaml", {2, 3}, {2, 3}}, "50% bad\nnext");
  std::ostringstream out;
  render(out, Format::kGithub, d);
  EXPECT_EQ(out.str(),
            "::error file=dir%2Cx/a%3Ab.yaml,line=2,col=3,title=HK1::50%25 bad%0Anext\n");
}

TEST(Render, JsonCarriesEveryField) {
  Diagnostics d = sample();
  std::ostringstream out;
  render(out, Format::kJson, d);
  const std::string s = out.str();
  for (std::string_view want :
       {"\"code\":\"HK104\"", "\"path\":\"vars.x.type\"", "\"line\":3,\"column\":5",
        "\"hints\":[\"did you mean \\\"int\\\"?\"]", "\"errors\":2", "\"warnings\":1",
        "\"message\":\"declared here\""}) {
    EXPECT_NE(s.find(want), std::string::npos) << want << " in " << s;
  }
}

TEST(Render, SarifIsVersion210WithRulesAndRegions) {
  Diagnostics d = sample();
  std::ostringstream out;
  RenderOptions options;
  options.tool_version = "1.2.3";
  options.describe_code = [](std::string_view code) {
    return code == "HK104" ? std::string("bad type") : std::string();
  };
  render(out, Format::kSarif, d, options);
  const std::string s = out.str();
  for (std::string_view want :
       {"\"version\":\"2.1.0\"", "\"name\":\"hintkit\"", "\"version\":\"1.2.3\"",
        "{\"id\":\"HK100\"", "\"ruleId\":\"HK104\"", "\"level\":\"warning\"",
        "\"startLine\":3,\"startColumn\":5", "\"relatedLocations\":[{\"id\":0,",
        "{\"id\":\"HK104\",\"shortDescription\":{\"text\":\"bad type\"}",
        "{\"id\":\"HK100\",\"shortDescription\":{\"text\":\"HK100\"}"}) {
    EXPECT_NE(s.find(want), std::string::npos) << want << " in " << s;
  }
}

// SARIF columns count UTF-16 code units of the line hintkit's position names, lines ended as
// the YAML reader ends them (a CR alone too).
TEST(Render, SarifColumnsCountUtf16UnitsOfLinesEndedByCrToo) {
  const std::string file = ::testing::TempDir() + "sarif_columns.yaml";
  {
    std::ofstream out(file, std::ios::binary);
    out << "a: 1\r\xC3\xA9\xC3\xA9: x\r\nb: \xF0\x9F\x98\x80y\n";
  }
  Diagnostics d;
  Span on_line_2{file, {2, 6}, {2, 6}};  // after "éé:": 5 bytes, 3 UTF-16 units
  Span on_line_3{file, {3, 8}, {3, 8}};  // after "b: 😀": 7 bytes, 5 UTF-16 units
  d.error("HK001", on_line_2, "x");
  d.error("HK001", on_line_3, "y");
  std::ostringstream out;
  render(out, Format::kSarif, d, RenderOptions{});
  const std::string s = out.str();
  EXPECT_NE(s.find("\"startLine\":2,\"startColumn\":4"), std::string::npos) << s;
  EXPECT_NE(s.find("\"startLine\":3,\"startColumn\":6"), std::string::npos) << s;
  std::remove(file.c_str());
}

TEST(JsonQuote, EscapesLikeGo) {
  EXPECT_EQ(json_quote("<a&b>"), "\"\\u003ca\\u0026b\\u003e\"");
  EXPECT_EQ(json_quote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(json_quote("bad\xff"), "\"bad\\ufffd\"");
  EXPECT_EQ(json_quote("\xe2\x80\xa8"), "\"\\u2028\"");
}

// Go's encoder reads with utf8.DecodeRune: each byte of an overlong form, a surrogate, a code
// point past U+10FFFF or a truncated sequence is one U+FFFD; U+FFFD itself stays as it is.
TEST(JsonQuote, InvalidSequencesAsGoReadsThem) {
  EXPECT_EQ(json_quote("x\xc0\x80y"), "\"x\\ufffd\\ufffdy\"");
  EXPECT_EQ(json_quote("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
  EXPECT_EQ(json_quote("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  EXPECT_EQ(json_quote("\xe2\x82"), "\"\\ufffd\\ufffd\"");
  EXPECT_EQ(json_quote("\xef\xbf\xbd\xf0\x9f\x98\x80"), "\"\xef\xbf\xbd\xf0\x9f\x98\x80\"");
}

TEST(JsonQuote, EscapesControlCharacters) {
  EXPECT_EQ(json_quote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
}

TEST(ResultType, CarriesValueOrError) {
  Result<int> good = 3;
  Result<int> bad = Error{"nope", {}};
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 3);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "nope");
}

}  // namespace
}  // namespace hintkit::diag
