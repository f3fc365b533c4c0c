// Every diagnostic code the sources emit is documented (README table -> plugin/codes.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "plugin/commands.h"
#include "tests/support/run_binary.h"

namespace fs = std::filesystem;

TEST(Codes, EveryEmittedCodeIsDescribed) {
  std::set<std::string> used;
  const std::regex code("\"(HK[0-9]{3})\"");
  for (const char* module :
       {"diag", "yaml", "types", "formats", "hintfile", "resolver", "plugin"}) {
    for (const auto& e : fs::directory_iterator(fs::path(HINTKIT_SOURCE_DIR) / module)) {
      if (e.path().extension() != ".cpp" || e.path().filename() == "codes.cpp") continue;
      const std::string text = hintkit::testing::slurp(e.path());
      for (std::sregex_iterator it(text.begin(), text.end(), code), end; it != end; ++it) {
        used.insert((*it)[1]);
      }
    }
  }
  used.erase("HK000");  // the renderers' stand-in for a diagnostic without a code
  ASSERT_GT(used.size(), 30u);
  for (const std::string& c : used) {
    EXPECT_FALSE(hintkit::plugin::describe_code(c).empty()) << c << " is not in README's table";
  }
  EXPECT_TRUE(hintkit::plugin::describe_code("HK999").empty());
}
