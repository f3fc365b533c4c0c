// Every Starlark module env a values run makes goes with the run, whatever way it ends. The
// interpreter's collector frees the cycles between a module and its functions; a cycle that
// passes through a C++ object (a template's runtime, held by the module's predeclared ops)
// is invisible to it and would stay alive, held from the collector's registry where
// LeakSanitizer does not see it. Found by fuzz_values.
#include <gtest/gtest.h>

#include <string>

#include "starlark/starlark.h"
#include "tests/support/temp_dir.h"
#include "ytt/cmd/cmd.h"

namespace {

using hintkit::starlark::live_modules;
using hintkit::ytt::Options;
using hintkit::ytt::run;

class ModuleLifetime : public hintkit::testing::TempDirTest {
 protected:
  // Runs `text` as the only template; returns the run's exit code.
  int run_template(const std::string& text) {
    write("t.yaml", text);
    Options o;
    o.files = {(dir_ / "t.yaml").string()};
    return run(o).exit_code;
  }
};

TEST_F(ModuleLifetime, ATemplateThatFailsWithALambdaInAnOpenNodeLeavesNoModule) {
  // The lambda sits in an annotation of the map being built when the repeated key stops the
  // template: the open node holds the lambda, the lambda its module.
  const size_t before = live_modules();
  EXPECT_EQ(run_template("---\n#@foo (lambda v: v > 1)\nre:\n  cpu: 1\n  cpu: 2\n"), 1);
  EXPECT_EQ(live_modules(), before);
  EXPECT_EQ(run_template("#@data/values-schema\n---\n#@schema/validation (\"p\", lambda v: v > 1)"
                         "\nre: {a: 1, a: 2}\n"),
            1);
  EXPECT_EQ(live_modules(), before);
}

TEST_F(ModuleLifetime, ATemplateFunctionWhoseFailureWasCaughtLeavesNoModule) {
  // `assert.try_to` catches the function's failure with its context still open.
  const size_t before = live_modules();
  run_template(
      "#@ load(\"@ytt:assert\", \"assert\")\n#@ def f():\n#@foo (lambda v: v > 1)\nre:\n"
      "  cpu: 1\n  cpu: 2\n#@ end\n---\n#@ x = assert.try_to(f)\na: 1\n");
  EXPECT_EQ(live_modules(), before);
}

TEST_F(ModuleLifetime, ASucceedingTemplateWithFunctionsLeavesNoModule) {
  const size_t before = live_modules();
  EXPECT_EQ(run_template("#@ def f(x):\nv: #@ x\n#@ end\n---\n#@foo (lambda v: v > 1)\n"
                         "a: #@ f(1)\nb: #@ [lambda: f]\n"),
            1);  // a function is no YAML value
  EXPECT_EQ(live_modules(), before);
  EXPECT_EQ(run_template("#@ def f(x):\nv: #@ x\n#@ end\n---\n#@foo (lambda v: v > 1)\n"
                         "a: #@ f(1)\n"),
            0);
  EXPECT_EQ(live_modules(), before);
}

}  // namespace
