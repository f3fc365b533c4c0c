// --file-mark patterns, matched as ytt's fileMarkMatches matches them (a Go regexp made of the
// quoted pattern with its first `**/*` and first other `*` widened) but by plain code: the
// table's answers were computed with that very Go code (regexp, Go 1.19), and hostile patterns
// (120,000 characters; the old std::regex aborted on them) answer at once.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gocompat/gocompat.h"
#include "tests/support/temp_dir.h"
#include "ytt/cmd/cmd.h"
#include "ytt/files/files.h"

namespace {

using hintkit::ytt::FileMarkPattern;

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
      {"a*b",
       "a\xff"
       "b",
       true},
      {"a\uFFFDb",
       "a\xff"
       "b",
       true},
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

// The linear matcher against a brute-force one (every way of splitting the path between the
// pattern's pieces, rune by rune), on many small random patterns and paths over the letters
// that matter: '*', '/', a newline, a two-byte rune, a byte that is not UTF-8 (paths only).
TEST(FileMarkPattern, AgreesWithABruteForceMatcherOnRandomInputs) {
  using Runes = std::vector<uint32_t>;
  auto runes = [](std::string_view s) {
    Runes out;
    for (size_t i = 0; i < s.size();) {
      const auto r = hintkit::gocompat::decode_rune(s, i);
      out.push_back(r.cp);
      i += r.width;
    }
    return out;
  };
  // The pattern as ytt's two replacements leave it: literal runes, and -1 for `.+`, -2 for
  // `[^/]+`.
  auto pieces = [&](const std::string& p) {
    std::vector<int64_t> out;
    const size_t multi = p.find("**/*");
    size_t single = std::string::npos;
    for (size_t i = 0; i < p.size(); ++i) {
      if (p[i] == '*' && !(multi != std::string::npos && i >= multi && i < multi + 4)) {
        single = i;
        break;
      }
    }
    for (size_t i = 0; i < p.size();) {
      if (i == multi) {
        out.push_back(-1);
        i += 4;
      } else if (i == single) {
        out.push_back(-2);
        i += 1;
      } else {
        const auto r = hintkit::gocompat::decode_rune(p, i);
        out.push_back(r.cp);
        i += r.width;
      }
    }
    return out;
  };
  std::function<bool(const std::vector<int64_t>&, size_t, const Runes&, size_t)> brute =
      [&](const std::vector<int64_t>& pat, size_t pi, const Runes& s, size_t si) {
        if (pi == pat.size()) return si == s.size();
        if (pat[pi] >= 0) {
          return si < s.size() && s[si] == pat[pi] && brute(pat, pi + 1, s, si + 1);
        }
        for (size_t end = si + 1; end <= s.size(); ++end) {
          const uint32_t r = s[end - 1];
          if (pat[pi] == -1 ? r == '\n' : r == '/') break;
          if (brute(pat, pi + 1, s, end)) return true;
        }
        return false;
      };
  const std::vector<std::string> pattern_letters = {"a", "b", "/", "*", "**/*", "\n", "é"};
  const std::vector<std::string> path_letters = {"a", "b", "/", "*", "\n", "é", "\xff"};
  std::mt19937 rng(22);
  auto pick = [&](const std::vector<std::string>& from, size_t most) {
    std::string out;
    for (size_t n = rng() % (most + 1); n > 0; --n) out += from[rng() % from.size()];
    return out;
  };
  int matched = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string pattern = pick(pattern_letters, 6), path = pick(path_letters, 9);
    const bool want = brute(pieces(pattern), 0, runes(path), 0);
    matched += want;
    ASSERT_EQ(FileMarkPattern(pattern).matches(path), want)
        << "pattern " << ::testing::PrintToString(pattern) << " path "
        << ::testing::PrintToString(path);
  }
  EXPECT_GT(matched, 200);  // the inputs exercise matches, not only mismatches
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
  hintkit::ytt::Options o;
  o.files = {(dir_ / "a.yml").string()};
  const std::string mark = std::string(120000, 'x') + ":exclude=true";
  o.file_marks = {mark};
  auto r = hintkit::ytt::run(o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "Error: Expected file mark '" + mark +
                       "' to match at least one file by path, but did not\n");
}

TEST_F(FileMarkRun, APatternThatIsNotUtf8IsRefused) {
  write("a.yml", "a: 1\n");
  hintkit::ytt::Options o;
  o.files = {(dir_ / "a.yml").string()};
  o.file_marks = {"a\xff*:exclude=true"};
  auto r = hintkit::ytt::run(o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not valid UTF-8"), std::string::npos) << r.err;
}

}  // namespace
