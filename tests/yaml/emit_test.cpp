// Emitters on values built in code; ytt-recorded goldens live in fixtures/yaml/emit/.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

MapItem item(std::string key, Node value) {
  MapItem i;
  i.key = make_string(std::move(key));
  i.value = std::move(value);
  return i;
}

TEST(YamlEmit, BuiltValues) {
  Node arr = make_array();
  arr.elements = {make_int(1), make_string("yes"), make_null(), make_map()};
  Node inner = make_map();
  inner.items.push_back(item("x", make_float(1.5)));
  Node root = make_map();
  root.items.push_back(item("list", arr));
  root.items.push_back(item("inner", inner));
  root.items.push_back(item("text", make_string("a\nb")));
  root.items.push_back(item("flag", make_bool(false)));
  EXPECT_EQ(
      emit_yaml(root),
      "list:\n- 1\n- \"yes\"\n- null\n- {}\ninner:\n  x: 1.5\ntext: |-\n  a\n  b\nflag: false\n");
  EXPECT_EQ(emit_yaml(make_map()), "{}\n");
  EXPECT_EQ(emit_yaml(make_array()), "[]\n");
  EXPECT_EQ(emit_yaml(make_null()), "null\n");
  EXPECT_EQ(emit_yaml(make_string("")), "\"\"\n");
}

TEST(YamlEmit, Floats) {
  struct Case {
    double value;
    std::string_view yaml, json;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const Case cases[] = {
      {1.0, "1", "1"},
      {0.1, "0.1", "0.1"},
      {1e6, "1e+06", "1000000"},
      {123456.0, "123456", "123456"},
      {1.5e-7, "1.5e-07", "1.5e-7"},
      {0.000001234, "1.234e-06", "0.000001234"},
      {1e21, "1e+21", "1e+21"},
      {1e20, "1e+20", "100000000000000000000"},
      {-0.0, "-0", "-0"},
      {18446744073709551616.0, "1.8446744073709552e+19", "18446744073709552000"},
      {inf, ".inf", "null"},
      {-inf, "-.inf", "null"},
      {std::nan(""), ".nan", "null"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.yaml);
    EXPECT_EQ(emit_yaml(make_float(c.value)), std::string(c.yaml) + "\n");
    EXPECT_EQ(emit_json(make_float(c.value)), c.json);
  }
}

TEST(YamlEmit, UnsignedInts) {
  Node n = resolve_plain_scalar("18446744073709551615");
  EXPECT_EQ(n.kind, Kind::kInt);
  EXPECT_TRUE(n.is_unsigned);
  EXPECT_EQ(emit_yaml(n), "18446744073709551615\n");
  EXPECT_EQ(emit_json(n), "18446744073709551615");
}

TEST(YamlEmitJson, CompactAndIndented) {
  diag::Diagnostics diags;
  auto docs = load("b: 1\na: [true, null, {}, []]\nc: {d: x}\n", "t.yaml", diags);
  ASSERT_TRUE(diags.empty());
  const Node& r = docs[0].root;
  EXPECT_EQ(emit_json(r), R"({"b":1,"a":[true,null,{},[]],"c":{"d":"x"}})");
  EXPECT_EQ(emit_json(r, 2),
            "{\n  \"b\": 1,\n  \"a\": [\n    true,\n    null,\n    {},\n    []\n  ],\n"
            "  \"c\": {\n    \"d\": \"x\"\n  }\n}");
}

TEST(YamlEmitJson, StringEscapesAsGo) {
  struct Case {
    std::string in;
    std::string_view want;
  };
  const Case cases[] = {
      {"plain", R"("plain")"},
      {"a\"b\\c", R"("a\"b\\c")"},
      {"<a href=\"x\">&</a>", R"("\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e")"},
      {"tab\tnl\ncr\r", R"("tab\tnl\ncr\r")"},
      {std::string("\x01\x08\x0c\x1f", 4), R"("\u0001\u0008\u000c\u001f")"},
      {"ls\u2028ps\u2029", R"("ls\u2028ps\u2029")"},
      {"é😀", "\"é😀\""},
      {"bad\xff", R"("bad\ufffd")"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.want);
    EXPECT_EQ(emit_json(make_string(c.in)), c.want);
  }
}

TEST(YamlScalars, ResolutionTable) {
  struct Case {
    std::string_view in;
    Kind kind;
    std::string_view value;  // emitted JSON of the resolved value
  };
  const Case cases[] = {
      {"yes", Kind::kBool, "true"},
      {"Off", Kind::kBool, "false"},
      {"tRUE", Kind::kString, "\"tRUE\""},
      {"~", Kind::kNull, "null"},
      {"", Kind::kNull, "null"},
      {"0x1F", Kind::kInt, "31"},
      {"1_000", Kind::kInt, "1000"},
      {"017", Kind::kInt, "15"},
      {"0o17", Kind::kInt, "15"},
      {"08", Kind::kFloat, "8"},
      {"+1", Kind::kInt, "1"},
      {"-0b101", Kind::kInt, "-5"},
      {".5", Kind::kFloat, "0.5"},
      {"1e3", Kind::kFloat, "1000"},
      {"1e400", Kind::kString, "\"1e400\""},
      {"1:20", Kind::kString, "\"1:20\""},
      {"2001-12-14", Kind::kString, "\"2001-12-14\""},
      {"2001-02-30", Kind::kString, "\"2001-02-30\""},
      {"12345678901234567890", Kind::kInt, "12345678901234567890"},
      {"-9223372036854775809", Kind::kFloat, "-9223372036854776000"},
      {".Inf", Kind::kFloat, "null"},
      {"<<", Kind::kString, "\"\\u003c\\u003c\""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    Node n = resolve_plain_scalar(c.in);
    EXPECT_EQ(n.kind, c.kind);
    EXPECT_EQ(emit_json(n), c.value);
    EXPECT_EQ(n.text, c.in);
  }
}

TEST(YamlScalars, TimestampsAndBase60AreQuotedOnOutput) {
  for (std::string_view s :
       {"2001-12-14", "2001-1-2", "2001-12-14t21:59:43Z", "1:20", "-1:30:00.5"}) {
    SCOPED_TRACE(s);
    std::string want = "\"";
    want.append(s);
    want.append("\"\n");
    EXPECT_EQ(emit_yaml(make_string(std::string(s))), want);
  }
  // Not a valid date, so not a timestamp: stays plain.
  EXPECT_EQ(emit_yaml(make_string("2001-02-30")), "2001-02-30\n");
}

// go-yaml reads timestamps with Go 1.19's time.Parse, whose edges decide what it quotes on
// output (each line checked against ytt v0.48.0).
TEST(YamlScalars, TimestampsAreWhatGoTimeParseReads) {
  struct Case {
    std::string_view text;
    bool timestamp;
  };
  const Case cases[] = {
      {"2001-12-14  21:59:43", true},             // a space in a layout matches a run of them
      {"2001-12-14 21:59:43.123456789", true},    // nine fraction digits at most
      {"2001-12-14 21:59:43.1234567890", false},  // a tenth is text left over
      {"2001-12-14T21:59:43,5Z", true},           // ',' starts a fraction too
      {"2001-12-14T21:59:43.Z", false},
      {"2001-12-14T21:59:43+99:99", true},  // Go 1.19 checks no zone offset range
      {"2001-12-14T21:59:43+-1:00", true},  // its atoi takes a sign
      {"2001-12-14T21:59:43++0:00", true},
      {"2001-12-14T21:59:43+:0:00", false},
      {"2001-12-14T24:00:00Z", false},
      {"2001-12-14T9:5:3Z", true},
      {"2001-12-14 21:59:43 -5", false},
      {"2001-2-29", false},
      {"2000-2-29", true},
      {"2001-012-14", false},
      {"20011-12-14", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EQ(internal::is_timestamp(c.text), c.timestamp);
    std::string want =
        c.timestamp ? "\"" + std::string(c.text) + "\"\n" : std::string(c.text) + "\n";
    EXPECT_EQ(emit_yaml(make_string(std::string(c.text))), want);
  }
}

}  // namespace
}  // namespace hintkit::yaml
