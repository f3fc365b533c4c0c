// `hintkit values` on hostile or broken input: always a clear error and a non-zero exit,
// never a crash or a hang.
#include <gtest/gtest.h>

#include "tests/support/run_binary.h"
#include "tests/support/temp_dir.h"

using hintkit::testing::has;
using hintkit::testing::run_hintkit;

namespace {

class BadInput : public hintkit::testing::TempDirTest {
 protected:
  hintkit::testing::RunResult values(const std::vector<std::string>& files) {
    std::vector<std::string> args = {"values"};
    for (const std::string& f : files) {
      args.push_back("-f");
      args.push_back(f);
    }
    args.push_back("--data-values-inspect");
    return run_hintkit(args, dir_.string());
  }
};

constexpr const char* kSchema = "#@data/values-schema\n---\nport: 80\nname: x\n";

TEST_F(BadInput, MalformedYamlNamesTheFile) {
  write("schema.yaml", kSchema);
  write("values.yaml", "#@data/values\n---\nport: [unclosed\n");
  auto r = values({"schema.yaml", "values.yaml"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(has(r.err, "hintkit: Error:")) << r.err;
  EXPECT_TRUE(has(r.err, "values.yaml")) << r.err;
}

TEST_F(BadInput, WrongTypesEverywhereAreReportedTogether) {
  write("schema.yaml", "#@data/values-schema\n---\nport: 80\nname: x\nflags: {debug: false}\n");
  write("values.yaml", "#@data/values\n---\nport: \"80\"\nname: 3\nflags: {debug: 1}\n");
  auto r = values({"schema.yaml", "values.yaml"});
  EXPECT_EQ(r.rc, 1);
  for (const char* want : {"port", "name", "debug", "found: string", "found: integer",
                           "expected: integer", "expected: string", "expected: boolean"}) {
    EXPECT_TRUE(has(r.err, want)) << want << " in " << r.err;
  }
}

TEST_F(BadInput, SchemaArrayWithTwoItemsIsRejected) {
  write("schema.yaml", "#@data/values-schema\n---\nports:\n- 80\n- 443\n");
  auto r = values({"schema.yaml"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "wrong number of items in array definition")) << r.err;
}

TEST_F(BadInput, RuleThatLoopsForeverIsStopped) {
  write("schema.yaml",
        "#@ def forever(v):\n#@   while True:\n#@     v = v + 1\n#@   end\n#@ end\n"
        "#@data/values-schema\n---\n#@schema/validation (\"never ends\", forever)\nport: 80\n");
  auto r = values({"schema.yaml"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "never ends")) << r.err;
}

TEST_F(BadInput, DeepNestingIsRejected) {
  std::string deep = "#@data/values\n---\nport: ";
  deep += std::string(10000, '[') + std::string(10000, ']') + "\n";
  write("schema.yaml", kSchema);
  write("values.yaml", deep);
  auto r = values({"schema.yaml", "values.yaml"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "nesting deeper than")) << r.err;
}

TEST_F(BadInput, FiftyMegabyteValuesFileIsHandled) {
  // 50 MB of long string values for one array: loads and type-checks, or fails clearly.
  std::string text = "#@data/values\n---\nnames:\n";
  const std::string long_name(1000, 'n');
  while (text.size() < (50u << 20)) text += "- " + long_name + "\n";
  write("schema.yaml", "#@data/values-schema\n---\nnames:\n- \"\"\n");
  write("values.yaml", text);
  auto r = values({"schema.yaml", "values.yaml"});
  EXPECT_EQ(r.rc, 0) << r.err.substr(0, 500);
  EXPECT_EQ(r.out.substr(0, 9), "names:\n- ");
  EXPECT_GT(r.out.size(), 50u << 20);
}

}  // namespace
