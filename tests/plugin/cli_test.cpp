// End-to-end tests of the built binary: bad input never crashes or hangs, and every command
// explains itself.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "tests/support/run_binary.h"
#include "tests/support/temp_dir.h"
#include "ytt/cmd/cmd.h"

namespace fs = std::filesystem;
using hintkit::testing::has;
using hintkit::testing::run_hintkit;

namespace {

class Cli : public hintkit::testing::TempDirTest {};

TEST_F(Cli, HelpOnEveryCommandExplainsWithAnExample) {
  struct Case {
    std::vector<std::string> args;
    std::string must_mention;
  };
  const Case cases[] = {
      {{"--help"}, "lint"},
      {{"lint", "--help"}, "Examples:"},
      {{"resolve", "--help"}, "Examples:"},
      {{"describe", "--help"}, "Examples:"},
      {{"hook", "--help"}, "Exit:"},
      {{"values", "--help"}, "Examples:"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args[0]);
    auto r = run_hintkit(c.args);
    EXPECT_EQ(r.rc, 0);
    EXPECT_TRUE(has(r.out, c.must_mention)) << r.out;
  }
}

// Every ytt flag `values` implements is in its help; `values fmt` has its own.
TEST_F(Cli, ValuesHelpListsEveryImplementedFlag) {
  auto r = run_hintkit({"values", "--help"});
  ASSERT_EQ(r.rc, 0);
  for (const hintkit::ytt::FlagName& f : hintkit::ytt::implemented_flags()) {
    EXPECT_TRUE(has(r.out, "--" + f.name)) << f.name;
    if (f.shorthand != 0) {
      EXPECT_TRUE(has(r.out, std::string("-") + f.shorthand + ", --" + f.name)) << f.name;
    }
  }
  auto fmt = run_hintkit({"values", "fmt", "--help"});
  EXPECT_EQ(fmt.rc, 0);
  EXPECT_TRUE(has(fmt.out, "hintkit values fmt -f")) << fmt.out;
  EXPECT_TRUE(has(fmt.out, "--strict")) << fmt.out;
}

TEST_F(Cli, VersionAndUsageErrors) {
  auto v = run_hintkit({"--version"});
  EXPECT_EQ(v.rc, 0);
  EXPECT_TRUE(has(v.out, "0.1.0"));
  EXPECT_EQ(run_hintkit({}).rc, 2);
  EXPECT_EQ(run_hintkit({"frobnicate"}).rc, 2);
  EXPECT_EQ(run_hintkit({"lint", "--format", "xml"}).rc, 2);
  EXPECT_EQ(run_hintkit({"resolve", "--dir", ".", "--hint", "x", "--values", "v"}).rc, 2);
}

TEST_F(Cli, HugeFileGetsALimitDiagnosticOrLoads) {
  // ~50 MB of valid vars with long descriptions: under the 64 MiB limit, so it must load
  // and lint in one piece.
  std::string text = "vars:\n";
  text.reserve(66u << 20);
  const std::string padding(1000, 'x');
  for (int i = 0; text.size() < (50u << 20); ++i) {
    text += "  v" + std::to_string(i) + ":\n    type: string\n    description: " + padding + "\n";
  }
  fs::path p = write("big/tazuna.hint.yaml", text);
  auto r = run_hintkit({"lint", p.string()});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(has(r.out, "0 errors")) << r.out;
  // Over the limit: a clear error and exit 1, never a crash.
  text.append(15u << 20, '#');
  p = write("bigger/tazuna.hint.yaml", text);
  r = run_hintkit({"lint", p.string()});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.out, "over the limit")) << r.out;
}

TEST_F(Cli, EndlessStandardInputStopsAtTheInputLimit) {
  // `< /dev/zero` used to grow until the process was killed.
  fs::path dir = write("rd/tazuna.hint.yaml", "vars:\n  a:\n    type: string\n").parent_path();
  auto r = run_hintkit({"resolve", "--dir", dir.string(), "--values", "-"}, ".", "/dev/zero");
  EXPECT_EQ(r.rc, 2);
  EXPECT_TRUE(has(r.err, "cannot read standard input: input is over the limit of 67108864 bytes"))
      << r.err;
}

TEST_F(Cli, ParallelLintOfEndlessInputsEndsWithALimitErrorForEach) {
  // Sixteen hint files that never end (symlinks to /dev/zero) read under one shared budget.
  std::vector<std::string> args = {"lint", "-j", "16"};
  for (int i = 0; i < 16; ++i) {
    fs::path d = dir_ / ("z" + std::to_string(i));
    fs::create_directories(d);
    fs::create_symlink("/dev/zero", d / "tazuna.hint.yaml");
    args.push_back((d / "tazuna.hint.yaml").string());
  }
  auto r = run_hintkit(args);
  EXPECT_EQ(r.rc, 1);
  size_t errors = 0;
  for (size_t at = 0;
       (at = r.out.find("input is over the limit of 67108864 bytes", at)) != std::string::npos;
       ++at)
    ++errors;
  EXPECT_EQ(errors, 16u) << r.out.substr(0, 2000);
}

TEST_F(Cli, DeepNestingIsRejectedWithoutCrashing) {
  const std::string flow = "vars: " + std::string(10000, '[') + std::string(10000, ']') + "\n";
  // Block nesting on one line: each "- " opens a sequence inside the previous one.
  std::string block = "vars:\n  ";
  for (int i = 0; i < 10000; ++i) block += "- ";
  block += "x\n";
  for (const std::string& text : {flow, block}) {
    fs::path p = write("deep/tazuna.hint.yaml", text);
    auto r = run_hintkit({"lint", p.string()});
    EXPECT_EQ(r.rc, 1) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "HK003")) << r.out;
  }
}

TEST_F(Cli, UnreadableInputIsAnIoError) {
  fs::create_directories(dir_ / "adir");
  auto r = run_hintkit({"resolve", "--hint", (dir_ / "adir").string(), "--values", "-"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_TRUE(has(r.err, "is a directory")) << r.err;
  r = run_hintkit({"resolve", "--hint", (dir_ / "nope.yaml").string(), "--values", "-"});
  EXPECT_EQ(r.rc, 2);
  EXPECT_TRUE(has(r.err, "No such file")) << r.err;
  // A FIFO nobody writes to: reads as empty instead of hanging.
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  r = run_hintkit({"lint", (dir_ / "fifo").string()});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.out, "hint file is empty")) << r.out;
  if (::geteuid() != 0) {  // root reads everything; permissions only bite other users
    fs::path p = write("locked/tazuna.hint.yaml", "vars: {}\n");
    fs::permissions(p, fs::perms::none);
    r = run_hintkit({"lint", p.string()});
    EXPECT_EQ(r.rc, 1);
    EXPECT_TRUE(has(r.out, "HK010")) << r.out;
  }
}

TEST_F(Cli, LintSkipsGitAndNodeModules) {
  write("app/tazuna.hint.yaml", "vars: {}\n");
  write(".git/tazuna.hint.yaml", "not: [valid\n");
  write("app/node_modules/pkg/tazuna.hint.yaml", "not: [valid\n");
  auto r = run_hintkit({"lint", dir_.string()});
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_TRUE(has(r.out, "checked 1 hint file: 0 errors, 0 warnings")) << r.out;
}

TEST_F(Cli, ResolveStopsOnMalformedValues) {
  write("tazuna.hint.yaml", "vars:\n  a: {type: string}\n");
  write("values.yaml", "a: [unclosed\n");
  auto r = run_hintkit({"resolve", "--dir", ".", "--values", "values.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "values.yaml:")) << r.err;
  EXPECT_TRUE(has(r.err, "HK001")) << r.err;
  EXPECT_EQ(r.out, "");
}

// did-you-mean compared every unknown name with every declared one over the whole table:
// a 60,000-letter reference to a 60,000-letter var took `lint` 29 s, and 100 unknown names
// of 1,000 letters 85 s. Names past kMaxSpellingBytes (64) get no suggestion now.
TEST_F(Cli, LongUnknownNamesAreReportedAtOnceWithoutASuggestion) {
  const std::string declared(60000, 'a');
  std::string many = "vars:\n";
  for (int i = 0; i < 100; ++i) {
    std::string name(1000, static_cast<char>('a' + i % 24));
    name += std::to_string(i);
    many += "  " + name + ":\n    type: string\n    required_with: [z" + name.substr(1) + "]\n";
  }
  write("one/tazuna.hint.yaml", "vars:\n  ? " + declared + "\n  : {type: string}\n" +
                                    "  x: {type: string, required_with: [b" + declared.substr(1) +
                                    "]}\n  other: {type: string, " +
                                    "required_with: [requierd]}\n  required: {type: string}\n");
  write("many/tazuna.hint.yaml", many);
  const auto start = std::chrono::steady_clock::now();
  auto r = run_hintkit({"lint", "one", "many"}, dir_.string());
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_TRUE(has(r.out, "checked 2 hint files: 102 errors, 0 warnings")) << r.out;
  // The short typo beside them still gets its suggestion, and only it.
  EXPECT_TRUE(has(r.out, "did you mean \"required\"?")) << r.out;
  EXPECT_EQ(r.out.find("did you mean"), r.out.rfind("did you mean")) << r.out;
  EXPECT_LT(seconds.count(), 10.0);
}

}  // namespace
