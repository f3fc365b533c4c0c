#include "types/types.h"

#include <gtest/gtest.h>

namespace hintkit::types {
namespace {

yaml::Node parse(std::string_view text) {
  diag::Diagnostics d;
  auto docs = yaml::load(text, "t.yaml", d);
  EXPECT_FALSE(d.has_errors());
  return docs.empty() ? yaml::make_null() : docs[0].root;
}

TEST(Fits, HintShapes) {
  struct Case {
    std::string_view value;
    Kind kind;
    bool want;
  };
  const Case cases[] = {
      {"a", Kind::kScalar, true},   {"1", Kind::kScalar, true},    {"true", Kind::kScalar, true},
      {"1.5", Kind::kScalar, true}, {"[a]", Kind::kScalar, false}, {"{a: 1}", Kind::kScalar, false},
      {"~", Kind::kScalar, false},  {"[]", Kind::kArray, true},    {"x", Kind::kArray, false},
      {"{}", Kind::kMap, true},     {"[1]", Kind::kMap, false},    {"1", Kind::kFloat, true},
      {"1.5", Kind::kInt, false},   {"yes", Kind::kBool, true},    {"'yes'", Kind::kBool, false},
      {"~", Kind::kAny, true},      {"~", Kind::kNull, true},      {"a", Kind::kString, true},
      {"1", Kind::kString, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.value) + " as " + std::string(to_string(c.kind)));
    Type t = c.kind == Kind::kMap ? make_open_map() : make(c.kind);
    EXPECT_EQ(fits(parse(std::string("v: ") + std::string(c.value)).items[0].value, t), c.want);
  }
}

TEST(Check, ReportsEveryMismatchWithPaths) {
  // A closed map {port: int, hosts: [string]} against a value with three problems.
  Type schema = make(Kind::kMap);
  schema.fields.push_back({"port", make(Kind::kInt)});
  schema.fields.push_back({"hosts", make_array(make(Kind::kString))});
  yaml::Node v = parse("port: '80'\nhosts: [a, 2, c]\nprot: 1\n");
  auto got = check(v, schema, "db");
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].path, "db.port");
  EXPECT_EQ(got[0].found, "string");
  EXPECT_EQ(got[0].expected, Kind::kInt);
  EXPECT_EQ(got[1].path, "db.hosts[1]");
  EXPECT_EQ(got[1].found, "int");
  EXPECT_EQ(got[1].value_span.begin.line, 2);
  EXPECT_EQ(got[2].reason, MismatchReason::kUnknownKey);
  EXPECT_EQ(got[2].key, "prot");
  EXPECT_EQ(got[2].known_keys, (std::vector<std::string>{"port", "hosts"}));
}

TEST(Check, NullableAcceptsNull) {
  Type t = make(Kind::kString);
  yaml::Node null_value = yaml::make_null();
  EXPECT_EQ(check(null_value, t).size(), 1u);
  EXPECT_EQ(check(null_value, t)[0].reason, MismatchReason::kNull);
  t.nullable = true;
  EXPECT_TRUE(check(null_value, t).empty());
}

TEST(Paths, JoinAndIndex) {
  EXPECT_EQ(join_path("", "a"), "a");
  EXPECT_EQ(join_path("a", "b"), "a.b");
  EXPECT_EQ(index_path("a", 3), "a[3]");
}

// A big closed map is looked up through its hash index and gives the same answers.
TEST(Check, IndexedFieldsMatchLinearLookup) {
  Type t = make(Kind::kMap);
  for (int i = 0; i < 40; ++i) t.fields.emplace_back("k" + std::to_string(i), make(Kind::kInt));
  t.index_fields();
  EXPECT_EQ(t.field_index("k0"), 0);
  EXPECT_EQ(t.field_index("k39"), 39);
  EXPECT_EQ(t.field_index("nope"), -1);
  auto got = check(parse("k3: 1\nk7: x\nzz: 2\n"), t);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].path, "k7");
  EXPECT_EQ(got[1].reason, MismatchReason::kUnknownKey);
  EXPECT_EQ(got[1].key, "zz");
}

// Any tree can be checked through a view; here a tiny hand-made one: an array of ints.
struct IntsView {
  const std::vector<int>* ints;
  int index = -1;  // -1: the array itself
  yaml::Kind kind() const { return index < 0 ? yaml::Kind::kArray : yaml::Kind::kInt; }
  size_t size() const { return index < 0 ? ints->size() : 0; }
  IntsView child(size_t i) const { return {ints, static_cast<int>(i)}; }
  std::string_view key(size_t, std::string&) const { return {}; }
};

TEST(CheckEach, WalksAnyViewAndReportsPaths) {
  const std::vector<int> ints = {1, 2, 3};
  std::vector<std::string> paths;
  const bool ok = check_each(
      IntsView{&ints}, make_array(make(Kind::kString)),
      [&](MismatchReason r, const IntsView& at, const Type&, const std::vector<PathStep>& steps) {
        EXPECT_EQ(r, MismatchReason::kWrongType);
        EXPECT_EQ(at.kind(), yaml::Kind::kInt);
        paths.push_back(path_text("xs", steps));
        return paths.size() < 2;  // stop after the second
      });
  EXPECT_FALSE(ok);
  EXPECT_EQ(paths, (std::vector<std::string>{"xs[0]", "xs[1]"}));
}

}  // namespace
}  // namespace hintkit::types
