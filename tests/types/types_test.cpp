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

// ---- ytt's two passes (Order::kShapesFirst) --------------------------------------------------

// "path reason" of each mismatch, in the order reported.
std::vector<std::string> reported(const std::vector<Mismatch>& ms) {
  std::vector<std::string> out;
  for (const Mismatch& m : ms) {
    const char* why = m.reason == MismatchReason::kUnknownKey ? "unknown"
                      : m.reason == MismatchReason::kNull     ? "null"
                                                              : "wrong";
    out.push_back(m.path + " " + why);
  }
  return out;
}

Type closed_map(std::vector<Field> fields) {
  Type t = make(Kind::kMap);
  t.fields = std::move(fields);
  t.index_fields();
  return t;
}

// {x: {p: int}, y: string}
Type nested_schema() {
  return closed_map({{"x", closed_map({{"p", make(Kind::kInt)}})}, {"y", make(Kind::kString)}});
}

TEST(ShapesFirst, SecondPassReportsEachMapsUnknownKeysBeforeItsItems) {
  // Four problems: x.q and u are unknown, x.p and y have the wrong scalar; no map or array is
  // of the wrong kind, so everything comes from the second pass.
  const yaml::Node v = parse("x: {q: 1, p: s}\ny: 1\nu: 2\n");
  const Type t = nested_schema();
  // Document order: where each item stands.
  EXPECT_EQ(reported(check(v, t, "", Order::kDocument)),
            (std::vector<std::string>{"x.q unknown", "x.p wrong", "y wrong", "u unknown"}));
  // ytt's order: the root's unknown key u first, then x (its unknown q, then p), then y.
  EXPECT_EQ(reported(check(v, t, "", Order::kShapesFirst)),
            (std::vector<std::string>{"u unknown", "x.q unknown", "x.p wrong", "y wrong"}));
}

TEST(ShapesFirst, FirstPassReportsMapsAndArraysOfTheWrongKindAndSuppressesTheSecond) {
  // {a: {b: [int]}, c: {d: int}, s: string}
  const Type t = closed_map({{"a", closed_map({{"b", make_array(make(Kind::kInt))}})},
                             {"c", closed_map({{"d", make(Kind::kInt)}})},
                             {"s", make(Kind::kString)}});
  // a.b is a map where an array belongs, c an array where a map belongs; s (a wrong scalar),
  // a.b.k and z (unknown keys) and n (null) would be the second pass's, which does not run.
  const yaml::Node v = parse("s: 1\na: {b: {k: 1}}\nz: 2\nc: [1]\n");
  auto got = check(v, t, "", Order::kShapesFirst);
  EXPECT_EQ(reported(got), (std::vector<std::string>{"a.b wrong", "c wrong"}));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].found, "map");
  EXPECT_EQ(got[0].expected, Kind::kArray);
  EXPECT_EQ(got[1].found, "array");
  EXPECT_EQ(got[1].expected, Kind::kMap);
  // In document order the same value reports every problem, the scalar first.
  EXPECT_EQ(reported(check(v, t, "", Order::kDocument)),
            (std::vector<std::string>{"s wrong", "a.b wrong", "z unknown", "c wrong"}));
}

TEST(ShapesFirst, FirstPassGoesDepthFirstThroughArrays) {
  // [{m: [int]}]: the first item's m is fine, the second's is a map, the third is a string
  // (a scalar: left to the second pass, which does not run).
  const Type t = make_array(closed_map({{"m", make_array(make(Kind::kInt))}}));
  const yaml::Node v = parse("[{m: [1]}, {m: {k: 1}}, x, {m: y}, {m: {}}]");
  EXPECT_EQ(reported(check(v, t, "xs", Order::kShapesFirst)),
            (std::vector<std::string>{"xs[1].m wrong", "xs[4].m wrong"}));
}

TEST(ShapesFirst, FirstPassEntersNeitherUnknownKeysNorAny) {
  // z is unknown and holds a map, w is `any`: neither is entered by the first pass, so the
  // second runs and reports z as unknown only (its map is never checked against anything).
  const Type t = closed_map({{"w", make(Kind::kAny)}, {"n", make(Kind::kInt)}});
  const yaml::Node v = parse("z: {deep: [1]}\nw: {a: [1]}\nn: ~\n");
  auto got = check(v, t, "", Order::kShapesFirst);
  EXPECT_EQ(reported(got), (std::vector<std::string>{"z unknown", "n null"}));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].key, "z");
  EXPECT_EQ(got[0].value_span.begin.line, 1);
  EXPECT_EQ(got[1].value_span.begin.line, 3);
}

TEST(ShapesFirst, NullAndScalarsInPlaceOfMapsAreTheSecondPassesToReport) {
  // A null or scalar where a map belongs is not a shape mismatch: the first pass finds
  // nothing, so the unknown key after them is reported too, first (it is the root's).
  Type nullable_map = closed_map({{"p", make(Kind::kInt)}});
  nullable_map.nullable = true;
  const Type t = closed_map({{"a", closed_map({{"p", make(Kind::kInt)}})},
                             {"b", closed_map({{"p", make(Kind::kInt)}})},
                             {"c", nullable_map}});
  const yaml::Node v = parse("a: ~\nb: 3\nc: ~\nq: 1\n");
  auto got = check(v, t, "", Order::kShapesFirst);
  EXPECT_EQ(reported(got), (std::vector<std::string>{"q unknown", "a null", "b wrong"}));
}

TEST(ShapesFirst, StoppingInTheFirstPassSkipsTheSecond) {
  const Type t = closed_map({{"a", make_array(make(Kind::kInt))}, {"b", make(Kind::kInt)}});
  const yaml::Node v = parse("a: {k: 1}\nb: x\n");
  int calls = 0;
  const bool ok = check_each(
      YamlView{&v}, t,
      [&](MismatchReason r, const YamlView& at, const Type&, const std::vector<PathStep>& steps) {
        ++calls;
        EXPECT_EQ(r, MismatchReason::kWrongType);
        EXPECT_EQ(at.kind(), yaml::Kind::kMap);
        EXPECT_EQ(path_text("", steps), "a");
        return true;
      },
      Order::kShapesFirst);
  EXPECT_FALSE(ok);
  EXPECT_EQ(calls, 1);  // b's wrong scalar is not looked at
  // Without the shape problem, the second pass runs and finds b.
  const yaml::Node fixed = parse("a: [1]\nb: x\n");
  EXPECT_EQ(reported(check(fixed, t, "", Order::kShapesFirst)),
            (std::vector<std::string>{"b wrong"}));
  EXPECT_TRUE(check(parse("a: [1]\nb: 2\n"), t, "", Order::kShapesFirst).empty());
}

// An open map's values are checked against its item type by both passes.
TEST(ShapesFirst, OpenMapsCheckEveryValue) {
  Type t = make_open_map();
  t.item = std::make_shared<const Type>(make_array(make(Kind::kString)));
  EXPECT_EQ(reported(check(parse("a: [x]\nb: {k: 1}\nc: [1]\n"), t, "", Order::kShapesFirst)),
            (std::vector<std::string>{"b wrong"}));
  EXPECT_EQ(reported(check(parse("a: [x]\nc: [1]\nd: ~\n"), t, "", Order::kShapesFirst)),
            (std::vector<std::string>{"c[0] wrong", "d null"}));
}

}  // namespace
}  // namespace hintkit::types
