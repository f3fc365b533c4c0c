// Every diagnostic code the sources emit is described (plugin/codes.cpp, for --help and SARIF)
// and documented (a heading of its own in docs/diagnostics.md, the anchor SARIF links to).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "plugin/commands.h"
#include "tests/support/run_binary.h"

namespace fs = std::filesystem;

namespace {

std::set<std::string> emitted_codes() {
  std::set<std::string> used;
  const std::regex code("\"(HK[0-9]{3})\"");
  for (const char* module :
       {"diag", "yaml", "types", "formats", "hintfile", "resolver", "tmplcheck", "plugin"}) {
    for (const auto& e : fs::directory_iterator(fs::path(HINTKIT_SOURCE_DIR) / module)) {
      if (e.path().extension() != ".cpp" || e.path().filename() == "codes.cpp") continue;
      const std::string text = hintkit::testing::slurp(e.path());
      for (std::sregex_iterator it(text.begin(), text.end(), code), end; it != end; ++it) {
        used.insert((*it)[1]);
      }
    }
  }
  used.erase("HK000");  // the renderers' stand-in for a diagnostic without a code
  return used;
}

}  // namespace

TEST(Codes, EveryEmittedCodeIsDescribed) {
  const std::set<std::string> used = emitted_codes();
  ASSERT_GT(used.size(), 30u);
  for (const std::string& c : used) {
    EXPECT_FALSE(hintkit::plugin::describe_code(c).empty()) << c << " is not in plugin/codes.cpp";
  }
  EXPECT_TRUE(hintkit::plugin::describe_code("HK999").empty());
}

TEST(Codes, EveryEmittedCodeHasItsSectionInTheDocs) {
  const std::string docs =
      hintkit::testing::slurp(fs::path(HINTKIT_SOURCE_DIR) / "docs" / "diagnostics.md");
  const std::set<std::string> used = emitted_codes();
  ASSERT_GT(used.size(), 30u);
  for (const std::string& c : used) {
    EXPECT_NE(docs.find("\n### " + c + "\n"), std::string::npos)
        << c << " has no section in docs/diagnostics.md";
  }
}
