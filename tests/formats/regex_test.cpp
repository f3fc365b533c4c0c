#include <gtest/gtest.h>

#include "formats/formats.h"

namespace hintkit::formats {
namespace {

// Replaces every match with "<...>" around the whole match, as Go's ReplaceAllString would
// with the template "<$0>".
std::string bracket_all(const Regex& re, std::string_view text) {
  std::string out;
  size_t last = 0;
  for (const Regex::Match& m : re.replace_matches(text)) {
    auto [b, e] = *m.groups[0];
    out +=
        std::string(text.substr(last, b - last)) + "<" + std::string(text.substr(b, e - b)) + ">";
    last = e;
  }
  return out + std::string(text.substr(last));
}

TEST(Regex, ReplaceMatchesFollowGo) {
  struct Case {
    std::string_view pattern, text, want;
  };
  // Expected strings are what Go's regexp.MustCompile(p).ReplaceAllString(t, "<$0>") gives.
  const Case cases[] = {
      {"a", "banana", "b<a>n<a>n<a>"},
      {"a*", "baaac", "<>b<aaa>c<>"},
      {"x*", "", "<>"},
      {"", "ab", "<>a<>b<>"},
      {"[0-9]+", "v1.22.3", "v<1>.<22>.<3>"},
      {"^", "abc", "<>abc"},
      {"$", "abc", "abc<>"},
      {"\\b", "hi yo", "<>hi<> <>yo<>"},
      {"é*", "aé", "<>a<é>"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pattern);
    Regex re(c.pattern);
    ASSERT_TRUE(re.ok()) << re.error();
    EXPECT_EQ(bracket_all(re, c.text), c.want);
  }
}

TEST(Regex, GroupsAndSearch) {
  Regex re("(\\w+)@(\\w+)?\\.com");
  ASSERT_TRUE(re.ok());
  EXPECT_TRUE(re.search("mail alice@example.com now"));
  EXPECT_FALSE(re.search("no address"));
  auto ms = re.replace_matches("bob@.com");
  ASSERT_EQ(ms.size(), 1u);
  ASSERT_EQ(ms[0].groups.size(), 3u);
  EXPECT_EQ(ms[0].groups[1], std::make_pair(size_t{0}, size_t{3}));
  EXPECT_FALSE(ms[0].groups[2].has_value());
}

TEST(Regex, BadPatternsAndHostileInputNeverThrowOrHang) {
  Regex bad("(a");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "missing closing ): `(a`");
  EXPECT_EQ(Regex("a**").error(), "invalid nested repetition operator: `**`");
  EXPECT_EQ(Regex("[z-a]").error(), "invalid character class range: `z-a`");
  EXPECT_TRUE(bad.replace_matches("aaa").empty());
  // Catastrophic for backtracking engines; linear here.
  Regex evil("(a+)+$");
  ASSERT_TRUE(evil.ok());
  std::string text(200000, 'a');
  text += 'b';
  EXPECT_FALSE(evil.search(text));
}

TEST(Regex, GroupNamedFindsNamedGroupsOnly) {
  Regex re("(?P<first>a)(b)(?P<third>c)");
  ASSERT_TRUE(re.ok());
  EXPECT_EQ(re.group_named("first"), std::optional<size_t>(1));
  EXPECT_EQ(re.group_named("third"), std::optional<size_t>(3));
  EXPECT_EQ(re.group_named("second"), std::nullopt);
  EXPECT_EQ(re.group_named("2"), std::nullopt);
}

}  // namespace
}  // namespace hintkit::formats
