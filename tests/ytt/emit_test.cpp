// The engine prints its own tree (`ytt::emit_yaml(const DNode&)`) through the streaming
// emitter instead of copying it into yaml::Node first; it must print exactly what ytt printed
// for the recorded emit fixtures (fixtures/yaml/emit, recorded from the oracle).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "tests/support/run_binary.h"
#include "ytt/template/template.h"

namespace hintkit::ytt {
namespace {

namespace fs = std::filesystem;

TEST(EngineEmit, EngineTreePrintsAsYtt) {
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(fs::path(HINTKIT_SOURCE_DIR) / "fixtures/yaml/emit"))
    dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  ASSERT_GT(dirs.size(), 20u);
  for (const fs::path& dir : dirs) {
    SCOPED_TRACE(dir.filename().string());
    diag::Diagnostics diags;
    auto docs = yaml::load(hintkit::testing::slurp(dir / "input.yaml"), "input.yaml", diags);
    ASSERT_TRUE(diags.empty());
    std::string got;
    for (const yaml::Document& d : docs) {
      if (d.root.is_null()) continue;  // ytt skips null documents
      if (!got.empty()) got += "---\n";
      got += emit_yaml(*from_yaml(d.root));
    }
    EXPECT_EQ(got, hintkit::testing::slurp(dir / "expected.yaml"));
  }
}

TEST(EngineEmit, KeysOfEveryKindAndNesting) {
  // Built in code: non-string keys, an empty key, a multi-line key (`? |-`), arrays under
  // keys (not indented), arrays of arrays, empty collections as values. The expected text is
  // what the oracle prints for the same values.
  auto root = make_node(yaml::Kind::kMap);
  auto add = [](DNode& map, Scalar key, DPtr value) {
    DEntry e;
    e.key = std::move(key);
    e.value = std::move(value);
    map.entries.push_back(std::move(e));
  };
  auto str = [](std::string s) {
    auto n = make_node(yaml::Kind::kString);
    n->scalar = string_scalar(s);
    return n;
  };
  Scalar int_key;
  int_key.kind = yaml::Kind::kInt;
  int_key.int_value = 8080;
  add(*root, int_key, str("http"));
  add(*root, string_scalar(""), str("empty key"));
  add(*root, string_scalar("two\nlines"), str("multi\nline\n"));
  auto outer = make_node(yaml::Kind::kArray);
  auto inner = make_node(yaml::Kind::kArray);
  DEntry a;
  a.value = str("x");
  inner->entries.push_back(a);
  DEntry b;
  b.value = inner;
  outer->entries.push_back(b);
  DEntry c;
  c.value = make_node(yaml::Kind::kMap);
  outer->entries.push_back(c);
  add(*root, string_scalar("list"), outer);
  add(*root, string_scalar("none"), make_node(yaml::Kind::kArray));
  EXPECT_EQ(emit_yaml(*root), yaml::emit_yaml(to_yaml(*root)));
  EXPECT_EQ(emit_yaml(*root),
            "8080: http\n"
            "\"\": empty key\n"
            "? |-\n  two\n  lines\n: |\n  multi\n  line\n"
            "list:\n- - x\n- {}\n"
            "none: []\n");
}

}  // namespace
}  // namespace hintkit::ytt
