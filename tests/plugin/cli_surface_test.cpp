// The command line as a new user meets it: did-you-mean for commands, flags and values,
// `version`, `-f` for files, --color and NO_COLOR, the progress line, and the completion
// scripts and man page generated from the same definitions as --help.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <thread>

#include "plugin/cli_spec.h"
#include "plugin/terminal.h"
#include "tests/support/run_binary.h"
#include "tests/support/temp_dir.h"

namespace fs = std::filesystem;
using hintkit::testing::has;
using hintkit::testing::run_hintkit;
using hintkit::testing::shell_quote;

namespace {

class CliSurface : public hintkit::testing::TempDirTest {
 protected:
  // A hint file with one error (HK104, type "String") under dir_/name.
  fs::path broken_hint(const std::string& name = "api") {
    return write(name + "/tazuna.hint.yaml", "vars:\n  host:\n    type: String\n");
  }
};

TEST_F(CliSurface, MistypedCommandsFlagsAndValuesGetTheNearestName) {
  broken_hint();
  struct Case {
    std::vector<std::string> args;
    std::string want_err;
  };
  const Case cases[] = {
      {{"lnit"}, "hintkit: unknown command \"lnit\"; did you mean \"lint\"?\n"},
      {{"--color", "never", "reslove"},
       "hintkit: unknown command \"reslove\"; did you mean \"resolve\"?\n"},
      {{"frobnicate"}, "hintkit: unknown command \"frobnicate\" (see hintkit --help)\n"},
      {{"lint", "--fromat", "sarif", "api"},
       "hintkit: lint: unknown flag \"--fromat\"; did you mean \"--format\"?\n"},
      {{"lint", "--fromat=sarif", "api"},
       "hintkit: lint: unknown flag \"--fromat\"; did you mean \"--format\"?\n"},
      {{"resolve", "--valeus", "v.yaml", "--dir", "api"},
       "hintkit: resolve: unknown flag \"--valeus\"; did you mean \"--values\"?\n"},
      {{"lint", "--colour", "never"},
       "hintkit: lint: unknown flag \"--colour\"; did you mean \"--color\"?\n"},
      {{"lint", "--zzzzzz"}, "hintkit: lint: unknown flag \"--zzzzzz\" (see hintkit lint --help)\n"},
      {{"--verison"}, "hintkit: unknown flag \"--verison\"; did you mean \"--version\"?\n"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args[0] + " " + (c.args.size() > 1 ? c.args[1] : ""));
    auto r = run_hintkit(c.args, dir_.string());
    EXPECT_EQ(r.rc, 2);
    EXPECT_EQ(r.err, c.want_err);
    EXPECT_EQ(r.out, "");
  }
  auto r = run_hintkit({"lint", "--format", "sarf", "api"}, dir_.string());
  EXPECT_EQ(r.rc, 2);
  EXPECT_TRUE(has(r.err, "\"sarf\" is not one of \"text\", \"json\", \"sarif\", \"github\"; did "
                         "you mean \"sarif\"?"))
      << r.err;
}

TEST_F(CliSurface, VersionCommandAndFlagPrintTheProjectVersion) {
  for (const char* arg : {"--version", "version"}) {
    SCOPED_TRACE(arg);
    auto r = run_hintkit({arg});
    EXPECT_EQ(r.rc, 0);
    EXPECT_EQ(r.out, std::string("hintkit ") + HINTKIT_VERSION + "\n");
    EXPECT_EQ(r.err, "");
  }
}

TEST_F(CliSurface, DashFIsAFileInEveryCommand) {
  fs::path hint = broken_hint("a");
  write("b/tazuna.hint.yaml", "vars:\n  host:\n    type: string\n");
  write("values.yaml", "host: example.com\n");
  write("b.json", "{\"host\": \"example.com\"}\n");

  // lint: -f FILE joins the positional paths (here both, each reported once).
  auto r = run_hintkit({"lint", "-f", "a/tazuna.hint.yaml", "b"}, dir_.string());
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_TRUE(has(r.out, "a/tazuna.hint.yaml:3:11: error:")) << r.out;
  EXPECT_TRUE(has(r.out, "checked 2 hint files: 1 error")) << r.out;
  r = run_hintkit({"lint", "-f", "b", "--format", "json"}, dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\"diagnostics\":[]")) << r.out;

  // resolve and hook: -f is the values file, as helm's -f.
  r = run_hintkit({"resolve", "--dir", "b", "-f", "values.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "host: example.com\n");
  r = run_hintkit({"hook", "presync", "--dir", "b", "-f", "b.json"}, dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;

  // describe: -f is the hint file or folder, as kubectl describe -f.
  r = run_hintkit({"describe", "-f", "b"}, dir_.string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(has(r.out, "host")) << r.out;
  EXPECT_EQ(run_hintkit({"describe"}, dir_.string()).rc, 2);
}

// ---- colour ------------------------------------------------------------------------------

constexpr const char* kRedError = "\033[1;31merror:\033[0m";

TEST_F(CliSurface, ColorAlwaysColoursTextAndNeverTheMachineFormats) {
  broken_hint();
  auto r = run_hintkit({"lint", "--color", "always", "api"}, dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.out, std::string("\033[1mapi/tazuna.hint.yaml:3:11:\033[0m ") + kRedError))
      << r.out;
  EXPECT_TRUE(has(r.out, "\033[2m[HK104]\033[0m")) << r.out;
  EXPECT_TRUE(has(r.out, "\033[1;32mhint:\033[0m did you mean")) << r.out;
  // Given before the command, and overriding NO_COLOR (a per-run choice beats the setting).
  r = run_hintkit({"--color=always", "lint", "api"}, dir_.string(), "/dev/null", {"NO_COLOR=1"});
  EXPECT_TRUE(has(r.out, kRedError)) << r.out;
  for (const char* format : {"json", "sarif", "github"}) {
    SCOPED_TRACE(format);
    r = run_hintkit({"lint", "--color", "always", "--format", format, "api"}, dir_.string());
    EXPECT_EQ(r.rc, 1);
    EXPECT_FALSE(has(r.out, "\033")) << r.out;
  }
  r = run_hintkit({"lint", "--color", "never", "api"}, dir_.string());
  EXPECT_FALSE(has(r.out, "\033")) << r.out;
  // auto: stdout is a file here, so no colour.
  r = run_hintkit({"lint", "api"}, dir_.string());
  EXPECT_FALSE(has(r.out, "\033")) << r.out;
  EXPECT_TRUE(has(r.out, "api/tazuna.hint.yaml:3:11: error:")) << r.out;
}

// `script` (util-linux) runs a command on a pseudo-terminal: what auto does on a terminal.
TEST_F(CliSurface, ColorAutoColoursATerminalUnlessNoColorIsSetAndNotEmpty) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1)";
  broken_hint();
  auto on_terminal = [&](const std::string& env) {
    const fs::path out = dir_ / "typescript.out";
    const std::string cmd = "cd " + shell_quote(dir_.string()) + " && env -u NO_COLOR " + env +
                            " TERM=xterm script -qec " +
                            shell_quote(shell_quote(HINTKIT_BINARY) + " lint api") +
                            " /dev/null </dev/null >" + shell_quote(out.string()) + " 2>&1";
    EXPECT_NE(std::system(cmd.c_str()), -1);
    return hintkit::testing::slurp(out);
  };
  EXPECT_TRUE(has(on_terminal(""), kRedError));
  EXPECT_TRUE(has(on_terminal("NO_COLOR="), kRedError));  // empty: not set, per no-color.org
  const std::string plain = on_terminal("NO_COLOR=1");
  EXPECT_FALSE(has(plain, "\033")) << plain;
  EXPECT_TRUE(has(plain, "api/tazuna.hint.yaml:3:11: error:")) << plain;
}

// ---- progress ----------------------------------------------------------------------------

TEST(Progress, RedrawsCountsAndErasesTheLineAtTheEnd) {
  std::ostringstream out;
  {
    hintkit::plugin::Progress p(out, true, 3, "hint files", std::chrono::milliseconds(0));
    p.tick();
    p.tick();
    // The reporter may draw 0/3 or 1/3 first; within one redraw interval it shows 2/3. The
    // bound only keeps a broken reporter from hanging the test.
    ASSERT_TRUE(p.wait_drawn(2, std::chrono::seconds(60)));
    p.finish();
  }
  const std::string s = out.str();
  EXPECT_EQ(s.rfind("\rchecked ", 0), 0u) << s;
  EXPECT_NE(s.find("\rchecked 2/3 hint files"), std::string::npos) << s;
  EXPECT_EQ(s.find("\rchecked 3/3"), std::string::npos) << s;
  EXPECT_EQ(s.substr(s.size() - 4), "\r\033[K") << s;
}

TEST(Progress, ShortRunsAndDisabledProgressPrintNothing) {
  std::ostringstream quick, off;
  {
    hintkit::plugin::Progress p(quick, true, 3, "hint files");  // finishes before the delay
    p.tick();
  }
  {
    hintkit::plugin::Progress p(off, false, 3, "hint files", std::chrono::milliseconds(0));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(quick.str(), "");
  EXPECT_EQ(off.str(), "");
}

TEST(Progress, IsNeverWantedOnAPipeOrAStringStream) {
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_FALSE(hintkit::plugin::progress_wanted({in, out, err}));
}

TEST_F(CliSurface, LintPrintsNoProgressIntoAPipe) {
  for (int i = 0; i < 300; ++i) broken_hint("m" + std::to_string(i));
  auto r = run_hintkit({"lint", "-j", "1", "."}, dir_.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_FALSE(has(r.err, "\r")) << r.err;
  EXPECT_FALSE(has(r.err, "checked")) << r.err;
  EXPECT_TRUE(has(r.out, "checked 300 hint files: 300 errors")) << r.out;
}

// ---- completion and the man page -----------------------------------------------------------

// Runs the bash completion function for `words` (the last is being completed) in `cwd`.
std::vector<std::string> bash_complete(const std::string& script, const std::string& cwd,
                                       const std::vector<std::string>& words) {
  std::string arr;
  for (const std::string& w : words) arr += " " + shell_quote(w);
  const std::string program = "source " + shell_quote(script) + "; COMP_WORDS=(" + arr +
                              "); COMP_CWORD=" + std::to_string(words.size() - 1) +
                              "; _hintkit; printf '%s\\n' \"${COMPREPLY[@]}\"";
  const std::string out_file = cwd + "/../complete.out";  // outside: not a candidate
  const std::string cmd = "cd " + shell_quote(cwd) + " && bash --norc -c " +
                          shell_quote(program) + " >" + shell_quote(out_file) + " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::vector<std::string> got;
  std::istringstream ss(hintkit::testing::slurp(out_file));
  for (std::string line; std::getline(ss, line);) {
    if (!line.empty()) got.push_back(line);
  }
  fs::remove(out_file);
  std::sort(got.begin(), got.end());
  return got;
}

TEST_F(CliSurface, BashCompletionOffersCommandsFlagsValuesAndFiles) {
  auto r = run_hintkit({"completion", "bash"});
  ASSERT_EQ(r.rc, 0) << r.err;
  const fs::path script = write("hintkit.bash", r.out);
  ASSERT_EQ(std::system(("bash -n " + shell_quote(script.string())).c_str()), 0);
  write("work/charts/tazuna.hint.yaml", "vars: {}\n");
  write("work/config.yaml", "x: 1\n");
  const std::string work = (dir_ / "work").string();
  using V = std::vector<std::string>;
  struct Case {
    V words;
    V want;
  };
  const Case cases[] = {
      {{"hintkit", "li"}, {"lint"}},
      {{"hintkit", "c"}, {"completion"}},
      {{"hintkit", "--"}, {"--color", "--help", "--version"}},
      {{"hintkit", "--color", ""}, {"always", "auto", "never"}},
      {{"hintkit", "--color", "never", "res"}, {"resolve"}},
      {{"hintkit", "lint", "--fo"}, {"--format"}},
      {{"hintkit", "lint", "--format", ""}, {"github", "json", "sarif", "text"}},
      {{"hintkit", "lint", "--format", "=", "s"}, {"sarif"}},
      {{"hintkit", "lint", "-f", ""}, {"charts", "config.yaml"}},
      {{"hintkit", "lint", "--format", "json", "c"}, {"charts", "config.yaml"}},
      {{"hintkit", "resolve", "--out-dir", ""}, {"charts"}},
      {{"hintkit", "resolve", "-o", ""}, {"json", "yaml"}},
      {{"hintkit", "hook", ""}, {"prepare", "presync"}},
      {{"hintkit", "hook", "presync", "--values-f"}, {"--values-file"}},
      {{"hintkit", "completion", ""}, {"bash", "fish", "zsh"}},
      {{"hintkit", "schema", ""}, {"hint-file"}},
      {{"hintkit", "describe", "-o", "j"}, {"json", "json-schema"}},
      {{"hintkit", "values", "--data-values-i"}, {"--data-values-inspect"}},
      {{"hintkit", "values", "-f", "con"}, {"config.yaml"}},
  };
  for (const Case& c : cases) {
    std::string trace;
    for (const std::string& w : c.words) trace += w + " ";
    SCOPED_TRACE(trace);
    EXPECT_EQ(bash_complete(script.string(), work, c.words), c.want);
  }
}

TEST_F(CliSurface, ZshAndFishScriptsParse) {
  for (const char* shell : {"zsh", "fish"}) {
    SCOPED_TRACE(shell);
    auto r = run_hintkit({"completion", shell});
    ASSERT_EQ(r.rc, 0) << r.err;
    if (std::system((std::string("command -v ") + shell + " >/dev/null 2>&1").c_str()) != 0) {
      continue;  // scripts/deps.sh installs both; a machine without them checks bash only
    }
    const fs::path script = write(std::string("completion.") + shell, r.out);
    const std::string check = std::string(shell) + " -n " + shell_quote(script.string());
    EXPECT_EQ(std::system(check.c_str()), 0) << r.out;
  }
  EXPECT_EQ(run_hintkit({"completion", "tcsh"}).rc, 2);
}

TEST_F(CliSurface, CompletionAndManPageCoverEveryCommandAndFlag) {
  const hintkit::plugin::CliSpec spec = hintkit::plugin::cli_spec();
  std::ostringstream man;
  hintkit::plugin::write_man_page(man, spec);
  auto roff = [](std::string s) {  // how a name reads in roff source
    std::string out;
    for (char c : s) out += c == '-' ? std::string("\\-") : std::string(1, c);
    return out;
  };
  for (const char* must : {"lsp", "completion", "version", "--explain", "--color", "NO_COLOR"}) {
    EXPECT_TRUE(has(man.str(), roff(must))) << must;
  }
  for (const char* shell : {"bash", "zsh", "fish"}) {
    std::ostringstream script;
    ASSERT_TRUE(hintkit::plugin::write_completion(script, spec, shell));
    for (const auto& c : spec.commands) {
      SCOPED_TRACE(std::string(shell) + " " + c.name);
      EXPECT_TRUE(has(script.str(), c.name));
      EXPECT_TRUE(has(man.str(), ".SS " + roff(c.name)));
      for (const auto& o : c.options) {
        const std::string& n = o.names.front();
        EXPECT_TRUE(has(script.str(), shell == std::string("fish") ? n.substr(2) : n)) << n;
        if (!c.passes_arguments_through) {
          EXPECT_TRUE(has(man.str(), roff(n))) << n;
        }
      }
    }
  }
  // Hidden commands are neither offered nor documented.
  for (const auto& c : spec.commands) EXPECT_NE(c.name.rfind("__", 0), 0u) << c.name;
}

TEST_F(CliSurface, ManPageRendersWithoutWarnings) {
  if (std::system("command -v man >/dev/null 2>&1") != 0) GTEST_SKIP() << "no man(1)";
  auto r = run_hintkit({"__man-page"});
  ASSERT_EQ(r.rc, 0);
  const fs::path page = write("hintkit.1", r.out);
  const std::string cmd = "MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z " +
                          shell_quote(page.string()) + " >/dev/null 2>" +
                          shell_quote((dir_ / "warnings").string());
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(hintkit::testing::slurp(dir_ / "warnings"), "");
}

}  // namespace
