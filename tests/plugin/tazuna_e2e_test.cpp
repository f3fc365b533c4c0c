// End-to-end: the binary as helmfile runs a hook, and as the tazuna preprocessor.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "tests/support/run_binary.h"
#include "tests/support/temp_dir.h"

namespace fs = std::filesystem;
using hintkit::testing::has;
using hintkit::testing::run_hintkit;
using hintkit::testing::slurp;

namespace {

class E2e : public hintkit::testing::TempDirTest {};

constexpr const char* kHint =
    "vars:\n"
    "  clusterName: {type: string, required: true}\n"
    "  ingressHost: {type: string, format: hostname}\n"
    "  apiToken: {type: string, required_with: [ingressHost]}\n"
    "  zones: {type: slice}\n";

TEST_F(E2e, HookPresyncAcceptsGoEncodedValues) {
  write("helmfile/tazuna.hint.yaml", kHint);
  // What `{{ .Values | toJson }}` renders: compact, sorted keys, <>& escaped.
  const std::string json =
      R"({"apiToken":"t\u003c\u0026\u003e","clusterName":"prod","ingressHost":"api.example.com",)"
      R"("zones":["a","b"]})";
  auto r = run_hintkit({"hook", "presync", "--values-json", json}, (dir_ / "helmfile").string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  r = run_hintkit({"hook", "presync", "--values-json", json, "--show-values"},
                  (dir_ / "helmfile").string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(has(r.out, "apiToken: t<&>")) << r.out;
}

TEST_F(E2e, HookReportsEveryViolationWithoutLeakingValues) {
  write("helmfile/tazuna.hint.yaml", kHint);
  const std::string json = R"({"ingressHost":"secret_host.example","zones":"a"})";
  for (const char* event : {"presync", "prepare"}) {
    SCOPED_TRACE(event);
    auto r = run_hintkit({"hook", event, "--values-json", json}, (dir_ / "helmfile").string());
    EXPECT_EQ(r.rc, 1);
    EXPECT_EQ(r.out, "");
    for (const char* want : {"clusterName", "apiToken", "ingressHost", "hostname", "zones"}) {
      EXPECT_TRUE(has(r.err, want)) << want << " in " << r.err;
    }
    EXPECT_FALSE(has(r.err, "secret_host")) << r.err;
  }
}

TEST_F(E2e, HookWithoutHintPassesAndBadJsonIsAUsageError) {
  fs::create_directories(dir_ / "nohint");
  auto r =
      run_hintkit({"hook", "presync", "--values-json", "{\"a\":1}"}, (dir_ / "nohint").string());
  EXPECT_EQ(r.rc, 0);
  write("helmfile/tazuna.hint.yaml", kHint);
  // Each malformed input has its own message; none passes with nothing checked.
  const std::pair<std::string, const char*> bad[] = {
      {"{\"a\":", "is not valid JSON (parse error at line 1, column 6"},
      {"[1,2]", "must be a JSON object of the release's values, found a JSON array"},
      {"\"text\"", "found a JSON string"},
      {"42", "found a JSON number"},
      {"true", "found a JSON boolean"},
      {"null", "found JSON null"},
      {"", "--values-json is empty"},
      {"  ", "--values-json is empty"},
      {"a: 1", "is not valid JSON"},  // YAML, not JSON
      {"{\"a\": 1,}", "is not valid JSON"},
      {"{{ .Values | toJson }}", "unrendered helmfile template"},
      // 20,000 levels crashed the conversion (exit 139); nesting is bounded as YAML's is.
      {"{\"a\":" + std::string(20000, '[') + std::string(20000, ']') + "}",
       "--values-json nests deeper than 512 levels"},
  };
  for (const auto& [input, want] : bad) {
    SCOPED_TRACE(input);
    r = run_hintkit({"hook", "presync", "--values-json", input}, (dir_ / "helmfile").string());
    EXPECT_EQ(r.rc, 2);
    EXPECT_TRUE(has(r.err, want)) << r.err;
  }
  r = run_hintkit({"hook", "presync", "--values-json", "{{ .Values | toJson }}"},
                  (dir_ / "nohint").string());
  EXPECT_EQ(r.rc, 2) << "an unrendered template stops the hook even without a hint";
  EXPECT_TRUE(has(r.err, "helmfile.yaml.gotmpl")) << r.err;
  // A value may contain "{{" in valid JSON.
  r = run_hintkit({"hook", "presync", "--values-json", R"({"clusterName":"{{x}}"})"},
                  (dir_ / "helmfile").string());
  EXPECT_EQ(r.rc, 0) << r.err;
  r = run_hintkit({"hook", "presync", "--dir", "nonexistent", "--values-json", "{}"},
                  (dir_ / "helmfile").string());
  EXPECT_EQ(r.rc, 2);
  EXPECT_TRUE(has(r.err, "--dir nonexistent is not a folder")) << r.err;
  r = run_hintkit({"hook", "presync"}, (dir_ / "helmfile").string());
  EXPECT_EQ(r.rc, 2);
  r = run_hintkit({"hook", "postsync", "--values-json", "{}"}, (dir_ / "helmfile").string());
  EXPECT_EQ(r.rc, 2);
}

// A stand-in for the 1Password CLI: answers `op --format json item get --vault=V -- ITEM`.
// It notes each run in $OP_RAN; `slow` records its process id and its child's in $OP_PIDS, then
// waits.
constexpr const char* kFakeOp = R"(#!/bin/sh
[ -n "$OP_RAN" ] && echo ran >> "$OP_RAN"
[ "$1 $2 $3 $4 $6 $#" = "--format json item get -- 7" ] || { echo "bad args: $*" >&2; exit 9; }
case "$5" in --vault=*) ;; *) echo "bad vault: $5" >&2; exit 9 ;; esac
case "$7" in
  db) echo '{"id":"x","fields":[{"id":"f1","label":"password","value":"s3cret"},{"id":"f2","label":"user","value":"app"}]}' ;;
  garbage) echo 'not json' ;;
  slow) sleep 10 & [ -n "$OP_PIDS" ] && echo "$$ $!" > "$OP_PIDS"; wait; echo '{}' ;;
  *) echo "[ERROR] \"$7\" isn't an item in the \"${5#--vault=}\" vault" >&2; exit 1 ;;
esac
)";

std::string config_for(const std::string& manifests) {
  return "apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n" + manifests;
}

class Tazuna : public E2e {
 protected:
  void SetUp() override {
    E2e::SetUp();
    fs::path op = write("bin/op", kFakeOp);
    fs::permissions(op, fs::perms::owner_all);
    path_ = "PATH=" + (dir_ / "bin").string() + ":/usr/bin:/bin";
    write("api/tazuna.hint.yaml", kHint);
    write("api/helmfile.yaml", "releases: []\n");
    write("web/helmfile.yaml.gotmpl", "releases: []\n");
    write("web/tazuna.hint.yaml",
          "vars:\n  dbPassword: {type: string, required: true}\n"
          "  dbUser: {type: string}\n  labels: {type: map}\n  port: {type: string}\n");
  }
  std::string path_;
};

TEST_F(Tazuna, ResolvesEverySourceKind) {
  write("tazuna.yaml",
        config_for("    - name: api\n      type: helmfile\n      path: api\n      helmfile:\n"
                   "        vars:\n"
                   "          clusterName: {from: env, env: CLUSTER}\n"
                   "          apiToken: {from: env, env: EMPTY_ONE}\n"
                   "          zones: {from: static, staticSlice: [a, c]}\n"
                   "    - name: manifests-only\n      type: kustomize\n      path: k\n"
                   "    - name: web\n      type: helmfile\n      path: web/helmfile.yaml.gotmpl\n"
                   "      helmfile:\n        vars:\n"
                   "          dbPassword: {from: op, op: {key: label, vault: V, item: db, field: "
                   "password}}\n"
                   "          dbUser: {from: op, op: {key: id, vault: V, item: db, field: f2}}\n"
                   "          labels: {from: static, staticMap: {team: web}}\n"
                   "          port: {from: static, static: 8080}\n"));
  auto r = run_hintkit({"resolve", "--config", "tazuna.yaml"}, dir_.string(), "/dev/null",
                       {path_, "CLUSTER=prod", "EMPTY_ONE="});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(
      r.out,
      "api:\n  clusterName: prod\n  ingressHost: \"\"\n  apiToken: \"\"\n  zones:\n  - a\n  - c\n"
      "web:\n  dbPassword: s3cret\n  dbUser: app\n  labels:\n    team: web\n  port: \"8080\"\n");
  r = run_hintkit({"resolve", "--config", "tazuna.yaml", "-m", "web", "-o", "json"}, dir_.string(),
                  "/dev/null", {path_});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(has(r.out, "\"dbPassword\": \"s3cret\"")) << r.out;
  EXPECT_FALSE(has(r.out, "\"api\"")) << r.out;
}

TEST_F(Tazuna, ReportsEveryFailingManifestAtOnce) {
  write("tazuna.yaml",
        config_for(
            "    - name: api\n      type: helmfile\n      path: api\n      helmfile:\n"
            "        vars:\n          clusterName: {from: env, env: UNSET_CLUSTER}\n"
            "          zones: {from: static, static: not-a-list}\n"
            "    - name: web\n      type: helmfile\n      path: web\n      helmfile:\n"
            "        vars:\n"
            "          dbPassword: {from: op, op: {key: label, vault: V, item: nope, field: x}}\n"
            "          dbUser: {from: op, op: {key: label, vault: V, item: db, field: pasword}}\n"
            "          labels: {from: op, op: {key: label, vault: V, item: garbage, field: x}}\n"));
  auto r = run_hintkit({"resolve", "--config", "tazuna.yaml"}, dir_.string(), "/dev/null",
                       {path_, "-u UNSET_CLUSTER"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(r.out, "");
  for (const char* want : {"manifest \"api\"", "UNSET_CLUSTER", "\"clusterName\"",
                           "manifest \"web\"", "\"dbPassword\"", "isn't an item",
                           "did you mean \"password\"?", "\"labels\"", "not a JSON item"}) {
    EXPECT_TRUE(has(r.err, want)) << want << " in " << r.err;
  }
  // Without op on PATH the error says so.
  r = run_hintkit({"resolve", "--config", "tazuna.yaml", "-m", "web"}, dir_.string(), "/dev/null",
                  {"PATH=/nonexistent"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "`op` was not found on PATH")) << r.err;
}

TEST_F(Tazuna, SlowOpIsStoppedAtItsTimeout) {
  write(
      "tazuna.yaml",
      config_for(
          "    - name: web\n      type: helmfile\n      path: web\n      helmfile:\n"
          "        vars:\n"
          "          dbPassword: {from: op, op: {key: label, vault: V, item: slow, field: x}}\n"));
  auto r = run_hintkit({"resolve", "--config", "tazuna.yaml", "--op-timeout", "1"}, dir_.string(),
                       "/dev/null", {path_});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "did not finish within 1 s")) << r.err;
  EXPECT_TRUE(has(r.err, "\"dbPassword\"")) << r.err;
}

// An item spelled like an option reaches op as an item: `--` ends op's options before it.
TEST_F(Tazuna, AnOpItemSpelledLikeAnOptionStaysAnItem) {
  write("tazuna.yaml",
        config_for("    - name: web\n      type: helmfile\n      path: web\n      helmfile:\n"
                   "        vars:\n          dbPassword: {from: op, op: {key: label, vault: "
                   "\"--account=x\", item: \"--config=/tmp/evil\", field: x}}\n"));
  auto r = run_hintkit({"resolve", "--config", "tazuna.yaml"}, dir_.string(), "/dev/null", {path_});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "\"--config=/tmp/evil\" isn't an item in the \"--account=x\" vault"))
      << r.err;
  EXPECT_FALSE(has(r.err, "bad args")) << r.err;
}

// op is looked up as Go's exec.LookPath does: an `op` reached through a relative PATH entry
// ("bin", or "" meaning the current folder) is refused and never run.
TEST_F(Tazuna, OpIsNeverRunFromARelativePathEntry) {
  write("tazuna.yaml",
        config_for("    - name: web\n      type: helmfile\n      path: web\n      helmfile:\n"
                   "        vars:\n          dbPassword: {from: op, op: {key: label, vault: V, "
                   "item: db, field: password}}\n"));
  fs::copy_file(dir_ / "bin/op", dir_ / "op");
  const std::string ran = (dir_ / "ran.txt").string();
  for (const std::string& path : {std::string("bin:/usr/bin:/bin"), std::string(":/usr/bin:/bin"),
                                  std::string("/usr/bin:.:/bin"), std::string("./bin")}) {
    SCOPED_TRACE(path);
    auto r = run_hintkit({"resolve", "--config", "tazuna.yaml"}, dir_.string(), "/dev/null",
                         {"PATH=" + path, "OP_RAN=" + ran});
    EXPECT_EQ(r.rc, 1);
    EXPECT_TRUE(has(r.err, "relative to the current folder")) << r.err;
    EXPECT_FALSE(fs::exists(ran));
  }
  // An absolute entry after an empty one that holds no op: found and run.
  fs::remove(dir_ / "op");
  auto r = run_hintkit(
      {"resolve", "--config", "tazuna.yaml"}, dir_.string(), "/dev/null",
      {"PATH=/nonexistent::" + (dir_ / "bin").string() + ":/usr/bin:/bin", "OP_RAN=" + ran});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "web:\n  dbPassword: s3cret\n  dbUser: \"\"\n  labels: {}\n  port: \"\"\n");
  EXPECT_TRUE(fs::exists(ran));
}

// Whether process `pid` is gone (or a zombie waiting for its new parent to reap it).
bool process_gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z';
}

// Ctrl-C (SIGINT) or SIGTERM to hintkit while op runs in its own process group: op and what
// it started die with hintkit, which then dies of the signal.
TEST_F(Tazuna, OpDiesWithHintkitOnCtrlCAndSigterm) {
  write("tazuna.yaml",
        config_for("    - name: web\n      type: helmfile\n      path: web\n      helmfile:\n"
                   "        vars:\n          dbPassword: {from: op, op: {key: label, vault: V, "
                   "item: slow, field: x}}\n"));
  for (int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(strsignal(sig));
    const fs::path pids = dir_ / ("pids-" + std::to_string(sig));
    const std::string path_env = path_, pids_env = "OP_PIDS=" + pids.string();
    const pid_t hk = ::fork();
    ASSERT_GE(hk, 0);
    if (hk == 0) {
      ::signal(SIGINT, SIG_DFL);
      ::signal(SIGTERM, SIG_DFL);
      if (::chdir(dir_.c_str()) != 0) ::_exit(126);
      ::putenv(const_cast<char*>(path_env.c_str()));
      ::putenv(const_cast<char*>(pids_env.c_str()));
      ::freopen("/dev/null", "w", stdout);
      ::freopen("/dev/null", "w", stderr);
      ::execl(HINTKIT_BINARY, HINTKIT_BINARY, "resolve", "--config", "tazuna.yaml",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    std::string recorded;
    for (int i = 0; i < 500 && recorded.find(' ') == std::string::npos; ++i) {
      ::usleep(10'000);
      recorded = slurp(pids);
    }
    ASSERT_NE(recorded.find(' '), std::string::npos) << "op did not start";
    ::kill(hk, sig);
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 500 && done == 0; ++i) {
      done = ::waitpid(hk, &status, WNOHANG);
      if (done == 0) ::usleep(10'000);
    }
    if (done == 0) ::kill(hk, SIGKILL), ::waitpid(hk, &status, 0);
    ASSERT_EQ(done, hk) << "hintkit did not stop";
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    const pid_t op = std::stoi(recorded), child = std::stoi(recorded.substr(recorded.find(' ')));
    bool gone = false;
    for (int i = 0; i < 200 && !gone; ++i) {
      gone = process_gone(op) && process_gone(child);
      if (!gone) ::usleep(10'000);
    }
    EXPECT_TRUE(gone) << "op " << op << " or its child " << child << " outlived hintkit";
    ::kill(-op, SIGKILL);  // whatever the outcome, leave nothing behind
  }
}

TEST_F(Tazuna, OutDirIsAllOrNothing) {
  const std::string good = config_for(
      "    - name: api\n      type: helmfile\n      path: api\n      helmfile:\n"
      "        vars:\n          clusterName: {from: env, env: CLUSTER}\n"
      "    - name: web\n      type: helmfile\n      path: web\n      helmfile:\n"
      "        vars:\n          dbPassword: {from: static, static: pw}\n");
  write("tazuna.yaml", good);
  auto r = run_hintkit({"resolve", "--config", "tazuna.yaml", "--out-dir", "out"}, dir_.string(),
                       "/dev/null", {path_, "CLUSTER=one"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "out/api.yaml"),
            "clusterName: one\ningressHost: \"\"\napiToken: \"\"\nzones: []\n");
  EXPECT_TRUE(fs::exists(dir_ / "out/web.yaml"));
  // Now web fails: neither file may change.
  write("tazuna.yaml", good.substr(0, good.find("          dbPassword")) +
                           "          dbUser: {from: static, static: u}\n");
  r = run_hintkit({"resolve", "--config", "tazuna.yaml", "--out-dir", "out"}, dir_.string(),
                  "/dev/null", {path_, "CLUSTER=two"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "dbPassword")) << r.err;
  EXPECT_EQ(slurp(dir_ / "out/api.yaml"),
            "clusterName: one\ningressHost: \"\"\napiToken: \"\"\nzones: []\n");
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_ / "out")) ++entries;
  EXPECT_EQ(entries, 2u);  // no temporary files left behind
}

// Real faults through the binary: a file-size limit (the disk is "full" after 1 KiB), a
// directory in the way, a planted symlink. The folder is as it was after each failure.
TEST_F(Tazuna, OutDirSurvivesRealFaults) {
  const std::string big(4000, 'x');
  write("tazuna.yaml",
        config_for("    - name: api\n      type: helmfile\n      path: api\n      helmfile:\n"
                   "        vars:\n          clusterName: {from: static, static: small}\n"
                   "    - name: web\n      type: helmfile\n      path: web\n      helmfile:\n"
                   "        vars:\n          dbPassword: {from: static, static: " +
                   big + "}\n"));
  write("out/api.yaml", "old api\n");
  write("out/keep.txt", "mine\n");
  auto listing = [&] {
    std::string all;
    for (const auto& e : fs::directory_iterator(dir_ / "out")) {
      all += e.path().filename().string() + "=" +
             (fs::is_directory(e.path()) ? std::string("<dir>") : slurp(e.path())) + ";";
    }
    return all;
  };
  const std::string before = listing();
  // `ulimit -f 1`: writes past 1 KiB fail with EFBIG (hintkit ignores SIGXFSZ).
  const std::string cmd = "cd " + hintkit::testing::shell_quote(dir_.string()) +
                          " && ulimit -f 1 && " + hintkit::testing::shell_quote(HINTKIT_BINARY) +
                          " resolve --config tazuna.yaml --out-dir out 2>err.txt";
  const int status = std::system(("bash -c " + hintkit::testing::shell_quote(cmd)).c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_TRUE(has(slurp(dir_ / "err.txt"), "File too large")) << slurp(dir_ / "err.txt");
  EXPECT_EQ(listing(), before);

  write("tazuna.yaml", config_for("    - name: api\n      type: helmfile\n      path: api\n"
                                  "      helmfile:\n        vars:\n"
                                  "          clusterName: {from: static, static: x}\n"
                                  "    - name: web\n      type: helmfile\n      path: web\n"
                                  "      helmfile:\n        vars:\n"
                                  "          dbPassword: {from: static, static: pw}\n"));
  fs::create_directories(dir_ / "out/web.yaml");
  const std::string with_dir = listing();
  auto r = run_hintkit({"resolve", "--config", "tazuna.yaml", "--out-dir", "out"}, dir_.string(),
                       "/dev/null", {path_});
  EXPECT_EQ(r.rc, 2);
  EXPECT_TRUE(has(r.err, "cannot replace out/web.yaml: Is a directory")) << r.err;
  EXPECT_EQ(listing(), with_dir);

  fs::remove_all(dir_ / "out/web.yaml");
  write("victim.txt", "precious\n");
  fs::create_symlink(dir_ / "victim.txt", dir_ / "out/web.yaml");
  r = run_hintkit({"resolve", "--config", "tazuna.yaml", "--out-dir", "out"}, dir_.string(),
                  "/dev/null", {path_});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "victim.txt"), "precious\n");
  EXPECT_FALSE(fs::is_symlink(dir_ / "out/web.yaml"));
  EXPECT_EQ(slurp(dir_ / "out/web.yaml"), "dbPassword: pw\ndbUser: \"\"\nlabels: {}\nport: \"\"\n");
}

TEST_F(Tazuna, LintConfigCrossChecksDeclarations) {
  write("tazuna.yaml",
        config_for("    - name: api\n      type: helmfile\n      path: api\n      helmfile:\n"
                   "        vars:\n          ingresHost: {from: static, static: a}\n"
                   "          zones: {from: static, static: a}\n"));
  auto r = run_hintkit({"lint", "--config", "tazuna.yaml"}, dir_.string());
  EXPECT_EQ(r.rc, 1);
  for (const char* want : {"HK320", "did you mean \"ingressHost\"?", "HK321", "\"clusterName\"",
                           "HK322", "\"zones\"", "checked 1 helmfile manifest of"}) {
    EXPECT_TRUE(has(r.out, want)) << want << " in " << r.out;
  }
}

}  // namespace
