// Runs fixtures/starlark/*.star: each file is split into chunks at lines that are exactly
// "---"; a chunk containing `### "regex"` must fail with an error matching the regex (compile
// or runtime), any other chunk must run cleanly. Chunks use the test-only `assert` module:
// assert.eq(a, b), assert.ne(a, b), assert.true(x), assert.fails(fn, "regex").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "starlark/starlark.h"

namespace hintkit::starlark {
namespace {

namespace fs = std::filesystem;

struct Chunk {
  std::string file;
  int first_line = 1;
  std::string source;
  std::string want_error;  // empty: must succeed
};

void PrintTo(const Chunk& c, std::ostream* os) { *os << c.file << ":" << c.first_line; }

std::vector<Chunk> load_chunks() {
  std::vector<Chunk> out;
  fs::path dir = fs::path(HINTKIT_SOURCE_DIR) / "fixtures" / "starlark";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".star") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  static const std::regex kWant(R"(###\s*\"(.*)\"\s*$)");
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line;
    Chunk cur{f.filename().string(), 1, "", ""};
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line == "---") {
        out.push_back(cur);
        cur = Chunk{f.filename().string(), n + 1, "", ""};
        continue;
      }
      std::smatch m;
      if (std::regex_search(line, m, kWant)) cur.want_error = m[1].str();
      cur.source += line + "\n";
    }
    out.push_back(cur);
  }
  return out;
}

std::string message_of(const Error& e) {
  std::string s = e.message;
  for (const auto& p : e.problems) s += "\n" + p.message;
  return s;
}

Value assert_module() {
  auto eq = make_builtin("assert.eq", [](const Call& c) -> Result<Value> {
    if (c.args.size() != 2) return fail_error("assert.eq: want 2 arguments");
    if (!(c.args[0] == c.args[1]))
      return fail_error("assert.eq: " + c.args[0].repr() + " != " + c.args[1].repr());
    return Value();
  });
  auto ne = make_builtin("assert.ne", [](const Call& c) -> Result<Value> {
    if (c.args.size() != 2) return fail_error("assert.ne: want 2 arguments");
    if (c.args[0] == c.args[1])
      return fail_error("assert.ne: " + c.args[0].repr() + " == " + c.args[1].repr());
    return Value();
  });
  auto truth = make_builtin("assert.true", [](const Call& c) -> Result<Value> {
    if (c.args.size() < 1 || !c.args[0].truth())
      return fail_error("assert.true: " + (c.args.empty() ? std::string() : c.args[0].repr()) +
                        " is not true" +
                        (c.args.size() > 1 ? ": " + c.args[1].str() : std::string()));
    return Value();
  });
  auto fails = make_builtin("assert.fails", [](const Call& c) -> Result<Value> {
    if (c.args.size() != 2 || !c.args[1].is(Kind::kString))
      return fail_error("assert.fails: want (fn, regex)");
    auto r = c.thread.call(c.args[0]);
    if (r.ok()) return fail_error("assert.fails: evaluation succeeded unexpectedly");
    std::regex re(std::string(c.args[1].as_string()));
    if (!std::regex_search(r.error().message, re))
      return fail_error("assert.fails: error \"" + r.error().message + "\" does not match \"" +
                        std::string(c.args[1].as_string()) + "\"");
    return Value();
  });
  return make_struct("module", "assert",
                     {{"eq", eq}, {"ne", ne}, {"true", truth}, {"fails", fails}});
}

class StarSuite : public ::testing::TestWithParam<Chunk> {};

TEST_P(StarSuite, Chunk) {
  const Chunk& c = GetParam();
  SCOPED_TRACE(c.file + ":" + std::to_string(c.first_line));
  // Pad so reported line numbers match the file.
  std::string src = std::string(static_cast<size_t>(c.first_line - 1), '\n') + c.source;
  ThreadOptions opts;
  opts.print = [](std::string_view) {};
  auto r = exec_file(c.file, src, {{"assert", assert_module()}}, opts);
  if (c.want_error.empty()) {
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  } else {
    ASSERT_FALSE(r.ok()) << "want error matching \"" << c.want_error << "\"";
    std::string msg = message_of(r.error());
    EXPECT_TRUE(std::regex_search(msg, std::regex(c.want_error)))
        << "error \"" << msg << "\" does not match \"" << c.want_error << "\"";
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, StarSuite, ::testing::ValuesIn(load_chunks()),
                         [](const ::testing::TestParamInfo<Chunk>& info) {
                           std::string n =
                               info.param.file + "_" + std::to_string(info.param.first_line);
                           for (auto& ch : n) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace hintkit::starlark
