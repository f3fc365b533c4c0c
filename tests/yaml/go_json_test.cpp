// sigs.k8s.io/yaml's YAML -> JSON conversion as tazuna's decoding goes through it: what it
// refuses (check_go_json) and what an `any` field receives (go_json_any).

#include <gtest/gtest.h>

#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

Node parse_one(std::string_view text) {
  diag::Diagnostics diags;
  auto docs = load(text, "t.yaml", diags);
  EXPECT_FALSE(diags.has_errors()) << text;
  return docs.empty() ? Node{} : docs.front().root;
}

// A struct with one text field, as a hint var's `description`.
const GoType& text_struct() {
  static const GoType names{.kind = GoType::Kind::kSlice, .fields = {}, .elem = GoType::string()};
  static const GoType t{.kind = GoType::Kind::kStruct,
                        .fields = {{"description", GoType::string()},
                                   {"names", &names},
                                   {"default", GoType::other()}},
                        .elem = nullptr};
  return t;
}

struct Problem {
  std::string_view text;
  std::string_view code;  // "" when nothing is refused
  int column;             // of the reported node
};

TEST(GoJson, RefusesWhatTheConversionRefusesAndNothingElse) {
  const Problem cases[] = {
      {"{~: x}", "HK005", 2},                             // a null key
      {"{null: x}", "HK005", 2},
      {"{12345678901234567890: x}", "HK005", 2},           // go-yaml's uint64
      {"{9223372036854775807: x}", "", 0},                 // int64: its digits
      {"{18446744073709551616: x}", "", 0},                // past uint64: a float key
      {"{default: .inf}", "HK005", 11},                    // no string target
      {"{default: [1, -.inf]}", "HK005", 15},
      {"{default: {a: .nan}}", "HK005", 15},
      {"{x-other: .NaN}", "HK005", 11},                    // no field: no target
      {"{description: .inf}", "", 0},                      // a string target: "+Inf"
      {"{Description: .nan}", "", 0},                      // matched case-insensitively
      {"{names: [.inf, .nan]}", "", 0},                    // []string elements
      {"{description: [.inf]}", "HK005", 16},              // a list where a string belongs
      {"{default: {1: a, '1': b}}", "HK002", 18},          // keys that collide
      {"{default: {on: a, 'true': b}}", "HK002", 19},
      {"{default: {on: a, 'on': b}}", "", 0},              // "true" and "on"
  };
  for (const Problem& c : cases) {
    SCOPED_TRACE(c.text);
    diag::Diagnostics diags;
    check_go_json(parse_one(c.text), text_struct(), "the file", diags);
    if (c.code.empty()) {
      EXPECT_TRUE(diags.empty()) << diags.items().front().message;
      continue;
    }
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags.items()[0].code, c.code);
    EXPECT_EQ(diags.items()[0].span.begin.column, c.column);
  }
}

TEST(GoJson, ARefusalSaysWhatAndWhy) {
  diag::Diagnostics diags;
  check_go_json(parse_one("a: {~: 1, 12345678901234567890: 2}\nb: .inf\n"), *GoType::other(),
                "the hint file", diags);
  ASSERT_EQ(diags.size(), 3u);
  EXPECT_EQ(diags.items()[0].message,
            "key ~ is null: tazuna's YAML-to-JSON conversion refuses the hint file (unsupported "
            "map key of type <nil>)");
  EXPECT_EQ(diags.items()[1].message,
            "key 12345678901234567890 is an integer past 2^63-1 (go-yaml's uint64): tazuna's "
            "YAML-to-JSON conversion refuses the hint file (unsupported map key of type uint64)");
  EXPECT_EQ(diags.items()[2].message,
            ".inf has no JSON spelling: tazuna's YAML-to-JSON conversion refuses the hint file "
            "(json: unsupported value: +Inf)");
}

TEST(GoJson, AnAnyFieldGetsStringKeysAndFloat64Numbers) {
  const Node in = parse_one(
      "{on: a, 0x10: b, 1.10: c, 012: d, -.inf: e, 1.5e300: f, list: [9007199254740993, "
      "12345678901234567890, 1000000, {yes: 1}]}");
  const Node out = go_json_any(in);
  EXPECT_EQ(emit_json(out),
            R"({"true":"a","16":"b","1.1":"c","10":"d","-.inf":"e",".inf":"f",)"
            R"("list":[9007199254740992,12345678901234567000,1000000,{"true":1}]})");
  // YAML shows the float64s as go-yaml prints them, as helmfile's templates would.
  EXPECT_EQ(emit_yaml(go_json_any(parse_one("[1000000, 5]"))), "- 1e+06\n- 5\n");
  // keep_ints: keys only.
  EXPECT_EQ(emit_json(go_json_any(parse_one("{on: 9007199254740993}"), /*keep_ints=*/true)),
            R"({"true":9007199254740993})");
}

}  // namespace
}  // namespace hintkit::yaml
