// Values never reach messages of `resolve`, `--explain` or the hook without --show-values:
// they come from 1Password and the environment, and messages go to CI logs, SARIF uploads
// and helmfile's hook output.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/run_binary.h"
#include "tests/support/temp_dir.h"

namespace fs = std::filesystem;
using hintkit::testing::has;
using hintkit::testing::run_hintkit;
using hintkit::testing::RunResult;

namespace {

constexpr const char* kSecret = "SECRET";

constexpr const char* kHint =
    "vars:\n"
    "  token: {type: string, format: url}\n"
    "  host: {type: string, format: hostname}\n"
    "  port: {type: string}\n";

// A stand-in for the 1Password CLI: every field's value is a secret that is not a URL.
constexpr const char* kFakeOp = R"(#!/bin/sh
echo '{"id":"x","fields":[{"id":"f1","label":"token","value":"abc-SECRET-tok"}]}'
)";

class Secrets : public hintkit::testing::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    write("app/tazuna.hint.yaml", kHint);
    write("app/helmfile.yaml", "releases: []\n");
    fs::path op = write("bin/op", kFakeOp);
    fs::permissions(op, fs::perms::owner_all);
    write("tazuna.yaml",
          "apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n"
          "    - name: app\n      type: helmfile\n      path: app\n      helmfile:\n"
          "        vars:\n"
          "          token: {from: op, op: {key: label, vault: V, item: i, field: token}}\n"
          "          host: {from: env, env: HOST_FROM_ENV}\n");
    env_ = {"PATH=" + (dir_ / "bin").string() + ":/usr/bin:/bin", "HOST_FROM_ENV=env_SECRET_host"};
  }

  RunResult run(std::vector<std::string> args) {
    return run_hintkit(args, dir_.string(), "/dev/null", env_);
  }

  std::vector<std::string> env_;
};

// Every diagnostics format, with and without --explain (text and json), for both ways of
// resolving: a values file and tazuna.yaml's sources (op and env).
TEST_F(Secrets, ResolveNeverPrintsAValueInAMessageWithoutShowValues) {
  write("values.yaml", "token: hunter2-SECRET-tok\nhost: db_SECRET.example\n");
  const std::vector<std::vector<std::string>> inputs = {
      {"resolve", "--dir", "app", "--values", "values.yaml"},
      {"resolve", "--config", "tazuna.yaml"},
  };
  for (const auto& input : inputs) {
    for (const char* format : {"text", "json", "sarif", "github"}) {
      for (const std::vector<std::string>& extra :
           std::vector<std::vector<std::string>>{{}, {"--explain"}, {"--explain", "-o", "json"}}) {
        std::vector<std::string> args = input;
        args.insert(args.end(), {"--format", format});
        args.insert(args.end(), extra.begin(), extra.end());
        SCOPED_TRACE(::testing::PrintToString(args));
        RunResult r = run(args);
        EXPECT_EQ(r.rc, 1) << r.err;
        // The var, the format and what it takes are there; the value is not.
        EXPECT_TRUE(has(r.err, "token")) << r.err;
        EXPECT_TRUE(has(r.err, "url")) << r.err;
        EXPECT_TRUE(has(r.err, "HK204")) << r.err;
        EXPECT_FALSE(has(r.err, kSecret)) << r.err;
        EXPECT_FALSE(has(r.out, kSecret)) << r.out;
        args.push_back("--show-values");
        r = run(args);
        EXPECT_EQ(r.rc, 1) << r.err;
        EXPECT_TRUE(has(r.err, kSecret)) << "--show-values quotes the value: " << r.err;
      }
    }
  }
}

TEST_F(Secrets, ValueFilesThatDoNotReadNameThePlaceNotTheText) {
  write("values.yaml", "port: !!int hunter2-SECRET\n");
  for (std::vector<std::string> args :
       {std::vector<std::string>{"resolve", "--dir", "app", "--values", "values.yaml"},
        std::vector<std::string>{"hook", "presync", "--dir", "app", "--values-file",
                                 "values.yaml"}}) {
    SCOPED_TRACE(args[0]);
    RunResult r = run(args);
    EXPECT_NE(r.rc, 0);
    EXPECT_TRUE(has(r.err, "values.yaml:1:7")) << r.err;
    EXPECT_TRUE(has(r.err, "cannot read the value as !!int")) << r.err;
    EXPECT_FALSE(has(r.err, kSecret)) << r.err;
    args.push_back("--show-values");
    r = run(args);
    EXPECT_TRUE(has(r.err, "cannot read \"hunter2-SECRET\" as !!int")) << r.err;
  }
  // An unknown escape said only "syntax error: " (no words for it); now it says what and
  // where, never the escaped character or the text around it.
  for (const char* text : {"port: \"abc\\qSECRET\"\n", "port: [x, \"abc\\qSECRET\", {b: c]\n"}) {
    SCOPED_TRACE(text);
    write("values.yaml", text);
    RunResult r = run({"resolve", "--dir", "app", "--values", "values.yaml"});
    EXPECT_EQ(r.rc, 1);
    EXPECT_TRUE(has(r.err, "syntax error: unknown escape in a double-quoted string")) << r.err;
    EXPECT_FALSE(has(r.err, kSecret)) << r.err;
  }
}

TEST_F(Secrets, HookJsonErrorsNameThePlaceNotTheText) {
  struct Case {
    std::string json, want;
  };
  const Case cases[] = {
      // A raw line break inside a string: nlohmann's message ended in the text read so far.
      {"{\"token\":\"abc-SECRET-tok\n\"}", "line 2, column 0"},
      {"{\"token\":\"abc-SECRET-tok", "missing closing quote"},
      {"{\"token\":tru-SECRET}", "invalid literal"},
      {"{\"token\":-SECRET}", "line 1, column 11"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    for (bool show : {false, true}) {
      std::vector<std::string> args = {"hook", "presync", "--dir", "app", "--values-json", c.json};
      if (show) args.push_back("--show-values");
      RunResult r = run(args);
      EXPECT_EQ(r.rc, 2);
      EXPECT_TRUE(has(r.err, "is not valid JSON (parse error at line")) << r.err;
      EXPECT_TRUE(has(r.err, c.want)) << r.err;
      EXPECT_FALSE(has(r.err, kSecret)) << r.err;
    }
  }
}

// 1e400 aborted the hook (an uncaught std::out_of_range from nlohmann: exit 134). Go's
// encoding/json, which produced and reads these values, refuses a number out of float64's range.
TEST_F(Secrets, HookRefusesANumberOutOfAFloatsRangeAtItsPlace) {
  for (const std::string json : {"{\"a\":1e400}", "{\"a\":[1, -1E+999]}", "{\"a\":\n  1e309}"}) {
    SCOPED_TRACE(json);
    RunResult r = run({"hook", "presync", "--dir", "app", "--values-json", json});
    EXPECT_EQ(r.rc, 2) << r.err;
    EXPECT_TRUE(has(r.err, "is out of the range of a 64-bit float")) << r.err;
    EXPECT_FALSE(has(r.err, "e400") || has(r.err, "E+999") || has(r.err, "e309")) << r.err;
  }
  RunResult r = run({"hook", "presync", "--dir", "app", "--values-json", "{\"a\":1e400}"});
  EXPECT_TRUE(has(r.err, "the number at line 1, column 6")) << r.err;
  r = run({"hook", "presync", "--dir", "app", "--values-json", "{\"a\":\n  1e309}"});
  EXPECT_TRUE(has(r.err, "the number at line 2, column 3")) << r.err;
  // Large but in range, and integers past int64: read as Go reads them.
  r = run({"hook", "presync", "--dir", "app", "--values-json",
           "{\"port\":\"1\",\"a\":1e308,\"b\":18446744073709551615,\"a\":2}", "--show-values"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(has(r.out, "a: 2\n")) << r.out;  // a repeated key: the later value wins
  EXPECT_TRUE(has(r.out, "b: 18446744073709551615\n")) << r.out;
}

}  // namespace
