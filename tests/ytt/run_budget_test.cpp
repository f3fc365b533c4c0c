// Options::max_starlark_steps / max_starlark_call_depth: a host's smaller Starlark budgets
// reach every thread of the run, a library's too; unset, the interpreter's own apply.
#include <gtest/gtest.h>

#include <string>

#include "ytt/cmd/cmd.h"
#include "tests/support/temp_dir.h"

namespace {

using hintkit::ytt::Options;
using hintkit::ytt::run;

constexpr const char* kRecurse =
    "#@ def down(n):\n#@   return 0 if n == 0 else down(n - 1)\n#@ end\n";

class RunBudget : public hintkit::testing::TempDirTest {
 protected:
  hintkit::ytt::Outcome values(Options o) {
    o.files = {dir_.string()};
    return run(o);
  }
};

TEST_F(RunBudget, CallDepthBudgetStopsRecursionAtTheGivenDepth) {
  write("t.yml", std::string(kRecurse) + "---\nx: #@ down(300)\n");
  Options o;
  EXPECT_EQ(values(o).out, "x: 0\n");  // the default depth lets 300 calls through
  o.max_starlark_call_depth = 100;
  auto r = values(o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("Starlark call stack exceeded the maximum depth (100)"), std::string::npos)
      << r.err;
}

TEST_F(RunBudget, StepBudgetStopsALoop) {
  write("t.yml",
        "#@ def spin():\n#@   n = 0\n#@   for i in range(100000):\n#@     n += 1\n#@   end\n"
        "#@   return n\n#@ end\n---\nx: #@ spin()\n");
  Options o;
  EXPECT_EQ(values(o).out, "x: 100000\n");
  o.max_starlark_steps = 10'000;
  auto r = values(o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("too many steps (limit 10000)"), std::string::npos) << r.err;
}

TEST_F(RunBudget, ALibraryRunsUnderItsRootsBudget) {
  write("_ytt_lib/deep/lib.yml", std::string(kRecurse) + "---\nx: #@ down(300)\n");
  write("t.yml",
        "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n"
        "--- #@ template.replace(library.get(\"deep\").eval())\n");
  Options o;
  EXPECT_EQ(values(o).out, "x: 0\n");
  o.max_starlark_call_depth = 100;
  auto r = values(o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("maximum depth (100)"), std::string::npos) << r.err;
}

}  // namespace
