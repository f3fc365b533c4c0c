// `hintkit values` on hostile or broken input: always a clear error and a non-zero exit,
// never a crash or a hang.
#include <gtest/gtest.h>

#include "starlark/starlark.h"
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

// ytt panics converting a map that repeats a key (its message then carries a Go backtrace,
// which no golden case can hold); the text must first parse and hold one document.
TEST_F(BadInput, YamlDecodeMeetsADuplicateKeyOnlyInItsOneDocument) {
  write("t.yml",
        "#@ load(\"@ytt:yaml\", \"yaml\")\nv: #@ yaml.decode(\"a: 1\\nb: {x: 1, x: 2}\\n\")\n");
  auto r = run_hintkit({"values", "-f", "t.yml"}, dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "- (p) Unexpected duplicate key")) << r.err;
  write("t.yml",
        "#@ load(\"@ytt:yaml\", \"yaml\")\nv: #@ yaml.decode(\"a: 1\\nb: {x: 1, x: 2}\\n]\")\n");
  r = run_hintkit({"values", "-f", "t.yml"}, dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "- yaml.decode: yaml: line 2: did not find expected key")) << r.err;
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

// ytt crashes on a value that contains itself; hintkit names the cycle where it closes.
TEST_F(BadInput, ListsRepeatingASharedListStopAtTheNodeBudget) {
  // 40 bytes of Starlark, 10^12 YAML nodes written out: the conversion stops at its budget
  // (and the search for unconvertible values looks into each shared list once).
  write("t.yaml", "#@ a = [[[[1] * 1000] * 1000] * 1000] * 1000\n---\nx: #@ a\n");
  auto r = run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(has(r.err, "value is too large to become YAML: more than 4194304 nodes")) << r.err;
}

TEST_F(BadInput, ADirectiveAtTheEndAfterAParagraphSeparatorIsAnError) {
  // fuzz_values: a `%` line at the end of the text, after a U+2029 earlier on, read past the
  // end of the text (std::out_of_range, abort). ytt: "line 6: found unknown directive name".
  write("t.yaml",
        ".DeclineUU6loc\xe2\x80\xa9"
        "ale5-rtma\n---\n\n- a\n%-NS");
  auto r = run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "yaml: line 6:")) << r.err;
}

TEST_F(BadInput, ValueThatContainsItselfIsAnErrorNamingTheCycle) {
  struct Case {
    std::string_view name, expr, want;
  };
  const Case cases[] = {
      {"template value", "a",
       "- value contains a reference cycle: the list at [1][\"k\"] is the "
       "value itself (a value that contains itself cannot be encoded)"},
      {"json.encode", "json.encode(a)",
       "- json.encode: value contains a reference cycle: the list "
       "at [1][\"k\"] is the value itself"},
      {"yaml.encode", "yaml.encode({\"top\": a})",
       "- yaml.encode: value contains a reference cycle: the list at [\"top\"][1][\"k\"] is the "
       "list at [\"top\"]"},
      // struct.encode/decode walked the value unguarded: a segfault (exit 139).
      {"struct.encode", "struct.encode({\"top\": a})",
       "- struct.encode: value contains a reference cycle: the list at [\"top\"][1][\"k\"] is "
       "the list at [\"top\"]"},
      {"struct.decode", "struct.decode(struct.make(top=a))",
       "- struct.decode: value contains a reference cycle: the list at .top[1][\"k\"] is the list "
       "at .top"},
      // starlark-go compares containers 10 levels deep at most, itself included.
      {"==", "a == a", "- comparison exceeded maximum recursion depth"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    write("t.yaml",
          "#@ load(\"@ytt:json\", \"json\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n"
          "#@ load(\"@ytt:struct\", \"struct\")\n#@ a = [1, {}]\n#@ a[1][\"k\"] = a\nx: #@ " +
              std::string(c.expr) + "\n");
    auto r = run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
    EXPECT_EQ(r.rc, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(has(r.err, std::string(c.want))) << r.err;
    EXPECT_TRUE(has(r.err, "t.yaml:6 | x: #@ ")) << r.err;
  }
}

// Modules that read hostile strings stop within the limits: toml11 recursed once per level
// (a segfault at 20,000) and regexp.replace held every match of millions.
TEST_F(BadInput, ModulesStopOnHostileStrings) {
  write("t.yaml",
        "#@ load(\"@ytt:toml\", \"toml\")\nx: #@ toml.decode(\"a = \" + \"[\" * 20000 + "
        "\"]\" * 20000)\n");
  auto r = run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_TRUE(has(r.err, "toml.decode of arrays or inline tables nested deeper than 512 levels"))
      << r.err;
  // 4 million matches whose replacement doubles the string: stopped at the string limit.
  write("t.yaml",
        "#@ load(\"@ytt:regexp\", \"regexp\")\nx: #@ len(regexp.replace(\"a\", \"ab\" * "
        "4000000, \"aaaaa\"))\n");
  r = run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_TRUE(has(r.err, "string too large: ")) << r.err;
  EXPECT_TRUE(has(r.err, " bytes exceeds the limit of 16777216")) << r.err;
}

TEST_F(BadInput, DeepValuesConvertUpToTheirLimit) {
  auto deep = [&](int levels, std::string_view use) {
    write("t.yaml", "#@ load(\"@ytt:json\", \"json\")\n#@ v = {}\n#@ for i in range(" +
                        std::to_string(levels) + "):\n#@   v = {\"a\": v}\n#@ end\nx: #@ " +
                        std::string(use) + "\n");
    return run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
  };
  // 99,999 wrappings around {} are 100,000 levels: the limit, still converted.
  auto ok = deep(99'999, "len(json.encode(v))");
  EXPECT_EQ(ok.rc, 0) << ok.err;
  EXPECT_EQ(ok.out, "x: 599996\n");
  auto over = deep(100'000, "json.encode(v)");
  EXPECT_EQ(over.rc, 1);
  EXPECT_TRUE(has(over.err,
                  "- json.encode: value is nested more than 100000 levels deep (limit "
                  "100000)"))
      << over.err;
  // Lists print as ytt prints them, 20,000 levels deep on one line.
  write("t.yaml", "#@ v = []\n#@ for i in range(20000):\n#@   v = [v]\n#@ end\nx: #@ v\n");
  auto list = run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
  EXPECT_EQ(list.rc, 0) << list.err;
  std::string want = "x:\n";
  for (int i = 0; i < 20000; ++i) want += "- ";
  want += "[]\n";
  EXPECT_EQ(list.out, want);
}

TEST_F(BadInput, TomlOfDeepTablesStopsAtTheStringLimit) {
  // Each table header repeats every key above it: 20,000 levels are hundreds of megabytes of
  // text (and a copy of the key path per level was gigabytes of memory).
  write("t.yaml",
        "#@ load(\"@ytt:toml\", \"toml\")\n#@ v = {}\n#@ for i in range(20000):\n"
        "#@   v = {\"k\": v}\n#@ end\nx: #@ len(toml.encode(v))\n");
  auto r = run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_TRUE(has(r.err, "toml.encode: string too large: more than ")) << r.err;
  EXPECT_TRUE(has(r.err, " bytes exceeds the limit of 16777216")) << r.err;
  // Shallow ones encode as before.
  write("t.yaml",
        "#@ load(\"@ytt:toml\", \"toml\")\n#@ v = {\"a\": 1}\n#@ for i in range(3):\n"
        "#@   v = {\"k\": v}\n#@ end\nx: #@ toml.encode(v)\n");
  r = run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  // As ytt v0.48.0 prints it.
  EXPECT_EQ(r.out, "x: |\n  [k]\n    [k.k]\n      [k.k.k]\n        a = 1\n");
}

TEST_F(BadInput, RecursionTenThousandCallsDeepWorksAsInYtt) {
  write("t.yaml",
        "#@ def f(n):\n#@   return 0 if n == 0 else 1 + f(n-1)\n#@ end\nx: #@ f(10000)\n");
  auto r = run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "x: 10000\n");
  write("t.yaml", "#@ def f(n):\n#@   return f(n+1)\n#@ end\nx: #@ f(0)\n");
  r = run_hintkit({"values", "-f", "t.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "- Starlark call stack exceeded the maximum depth (50000)\n    in f\n"))
      << r.err.substr(0, 300);
  // The stack keeps ten frames at each end (ytt has no such limit to compare with: it crashes
  // on its own stack): 20 of 50,001 listed (19 calls of f and the top level), one line for the
  // rest.
  const std::string frame = "    in f\n      t.yaml:2 | #@   return f(n+1)\n";
  size_t listed = 0;
  for (size_t at = r.err.find(frame); at != std::string::npos; at = r.err.find(frame, at + 1)) {
    ++listed;
  }
  EXPECT_EQ(listed, 2 * hintkit::starlark::kFramesKeptAtEachEnd - 1) << r.err.substr(0, 2000);
  EXPECT_TRUE(has(r.err, "\n    (49981 more calls left out)\n    in f\n")) << r.err.substr(0, 2000);
  EXPECT_TRUE(has(r.err, "    in <toplevel>\n      t.yaml:4 | x: #@ f(0)\n")) << r.err;
  EXPECT_LT(r.err.size(), 2000u);
}

}  // namespace
