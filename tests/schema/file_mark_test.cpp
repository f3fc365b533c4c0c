// --file-mark patterns, matched as ytt's fileMarkMatches matches them (a Go regexp made of the
// quoted pattern with its first `**/*` and first other `*` widened) but by plain code: the
// table's answers were computed with that very Go code (regexp, Go 1.19), and hostile patterns
// (120,000 characters; the old std::regex aborted on them) answer at once.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "schema/file_set.h"
#include "schema/schema.h"
#include "tests/support/temp_dir.h"

namespace {

using hintkit::schema::FileMarkPattern;

struct Case {
  std::string pattern, path;
  bool want;
};

TEST(FileMarkPattern, MatchesAsYttsRegexpDoes) {
  const Case cases[] = {
      {"a.yml", "a.yml", true},
      {"a.yml", "aXyml", false},
      {"*.yml", "a.yml", true},
      {"*.yml", "sub/a.yml", false},
      {"*.yml", ".yml", false},
      {"**/*.yml", "sub/a.yml", true},
      {"**/*.yml", "a.yml", true},
      {"**/*.yml", "x/y/z.yml", true},
      {"**/*", "x", true},
      {"sub/*", "sub/a/b", false},
      {"sub/*", "sub/a", true},
      {"*/**/*", "a/b", true},
      {"*/**/*", "a/b/c", true},
      {"*/**/*", "/b", false},
      {"**/**/*", "ab/*", true},
      {"**/**/*", "a/b/c", false},
      {"a*b*c", "aXb*c", true},
      {"a*b*c", "aXbYc", false},
      {"**/*", "a\nb", false},
      {"*", "a\nb", true},
      {"*", "é", true},
      {"**/**", "é", false},
      {"**/**", "éé", true},
      {"a*b", "a\xff" "b", true},
      {"a\uFFFDb", "a\xff" "b", true},
      {"x(1)+[a]{2}|^$.yml", "x(1)+[a]{2}|^$.yml", true},
      {"a\\*", "a\\b", true},
      {"*x**/*y", "axbcy", true},
      {"*x**/*y", "xbcy", false},
      {"*x**/*y", "a/xby", false},
      {"*x**/*y", "axy", false},
      {"**/*x*", "ax", false},
      {"**/*x*", "axb", true},
      {"**/*x*", "ax/b", false},
      {"**/*/x/*", "a/b/x/c", true},
      {"**/*/x/*", "a/b/x/c/d", false},
      {"**/*/x/*", "a/x/c", true},
      {"**/*/x/*", "/x/c", false},
      {"**/*ab*", "abab", false},
      {"**/*ab*", "aab", false},
      {"**/*ab*", "xabx/y", false},
      {"", "", true},
      {"", "a", false},
      {"**/*", "", false},
      {"*", "", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "pattern " << ::testing::PrintToString(c.pattern)
                                      << " path " << ::testing::PrintToString(c.path));
    EXPECT_EQ(FileMarkPattern(c.pattern).matches(c.path), c.want);
  }
}

TEST(FileMarkPattern, HostilePatternsAnswerInLinearTime) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(FileMarkPattern(std::string(120000, 'a')).matches("a.yml"));
  // Two wildcards around a long literal, against a path made to offer it everywhere.
  const std::string inner(60000, 'a');
  EXPECT_TRUE(FileMarkPattern("**/*" + inner + "*").matches(std::string(120003, 'a')));
  EXPECT_FALSE(FileMarkPattern("**/*" + inner + "*").matches(std::string(60001, 'a')));
  EXPECT_FALSE(FileMarkPattern("**/*" + inner + "b*").matches(std::string(120000, 'a')));
  // The first `*` is a wildcard, the others match themselves.
  EXPECT_TRUE(FileMarkPattern(std::string(120000, '*')).matches("a" + std::string(119999, '*')));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 2.0);  // milliseconds in a release build; a backtracking match takes hours
}

class FileMarkRun : public hintkit::testing::TempDirTest {};

TEST_F(FileMarkRun, ALongPatternThatMatchesNothingIsYttsError) {
  write("a.yml", "a: 1\n");
  hintkit::schema::Options o;
  o.files = {(dir_ / "a.yml").string()};
  const std::string mark = std::string(120000, 'x') + ":exclude=true";
  o.file_marks = {mark};
  auto r = hintkit::schema::run(o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "Error: Expected file mark '" + mark +
                       "' to match at least one file by path, but did not\n");
}

TEST_F(FileMarkRun, APatternThatIsNotUtf8IsRefused) {
  write("a.yml", "a: 1\n");
  hintkit::schema::Options o;
  o.files = {(dir_ / "a.yml").string()};
  o.file_marks = {"a\xff*:exclude=true"};
  auto r = hintkit::schema::run(o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not valid UTF-8"), std::string::npos) << r.err;
}

}  // namespace
