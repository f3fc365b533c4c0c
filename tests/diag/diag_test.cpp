#include "diag/diag.h"

#include <gtest/gtest.h>

#include <array>
#include <sstream>

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

TEST(JsonQuote, EscapesLikeGo) {
  EXPECT_EQ(json_quote("<a&b>"), "\"\\u003ca\\u0026b\\u003e\"");
  EXPECT_EQ(json_quote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(json_quote("bad\xff"), "\"bad\\ufffd\"");
  EXPECT_EQ(json_quote("\xe2\x80\xa8"), "\"\\u2028\"");
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
