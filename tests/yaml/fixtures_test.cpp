// Golden fixtures recorded from the reference ytt (fixtures/yaml/record-from-oracle.sh):
//   scalar-resolution/<case>/  input.yaml -> expected.json (or expected.yaml for inf/nan)
//   emit/<case>/               input.yaml -> expected.yaml (what `ytt -f input.yaml` prints)
// Every expectation here comes from the reference, so these tests only compare: HINTKIT_UPDATE=1
// (which rewrites hintkit's own goldens) leaves them alone; record them again with
// `YTT=path/to/ytt fixtures/yaml/record-from-oracle.sh`.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "tests/support/run_binary.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

namespace fs = std::filesystem;

fs::path fixtures_root() { return fs::path(HINTKIT_SOURCE_DIR) / "fixtures" / "yaml"; }

std::vector<fs::path> cases(const std::string& group) {
  std::vector<fs::path> out;
  fs::path dir = fixtures_root() / group;
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory()) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string_view starlark_type(Kind k) {
  switch (k) {
    case Kind::kNull:
      return "NoneType";
    case Kind::kBool:
      return "bool";
    case Kind::kInt:
      return "int";
    case Kind::kFloat:
      return "float";
    case Kind::kString:
      return "string";
    case Kind::kMap:
      return "struct";
    case Kind::kArray:
      return "list";
  }
  return "?";
}

// Checks `got` against the expectation recorded from the reference.
void compare(const fs::path& expected_file, const std::string& got) {
  EXPECT_EQ(got, hintkit::testing::slurp(expected_file));
}

TEST(YamlFixtures, ScalarResolutionMatchesYtt) {
  auto all = cases("scalar-resolution");
  ASSERT_FALSE(all.empty()) << "no fixtures under " << fixtures_root();
  for (const fs::path& dir : all) {
    SCOPED_TRACE(dir.filename().string());
    diag::Diagnostics diags;
    auto docs = load(hintkit::testing::slurp(dir / "input.yaml"), "input.yaml", diags);
    ASSERT_TRUE(diags.empty());
    ASSERT_EQ(docs.size(), 1u);
    const MapItem* v = docs[0].root.find("v");
    ASSERT_NE(v, nullptr);
    Node out = make_map();
    out.items.push_back(
        {make_string("type"), make_string(std::string(starlark_type(v->value.kind))), {}, {}, {}});
    out.items.push_back({make_string("v"), v->value, {}, {}, {}});
    if (fs::exists(dir / "expected.yaml")) {
      compare(dir / "expected.yaml", emit_yaml(out));
    } else {
      compare(dir / "expected.json", emit_json(out));
    }
  }
}

TEST(YamlFixtures, EmitMatchesYtt) {
  auto all = cases("emit");
  ASSERT_FALSE(all.empty());
  for (const fs::path& dir : all) {
    SCOPED_TRACE(dir.filename().string());
    diag::Diagnostics diags;
    auto docs = load(hintkit::testing::slurp(dir / "input.yaml"), "input.yaml", diags);
    ASSERT_TRUE(diags.empty()) << diags.items()[0].message;
    std::string got;
    for (const Document& d : docs) {
      if (d.root.is_null()) continue;  // ytt skips null documents
      if (!got.empty()) got += "---\n";
      got += emit_yaml(d.root);
    }
    compare(dir / "expected.yaml", got);
  }
}

}  // namespace
}  // namespace hintkit::yaml
