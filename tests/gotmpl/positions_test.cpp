// Positions in the tree and in errors, the nesting limit, comments kept on request, the walk.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "gotmpl/gotmpl.h"

namespace hintkit::gotmpl {
namespace {

std::string where(const TreeSet& set, size_t offset) {
  diag::Position p = set.position(offset);
  return std::to_string(p.line) + ":" + std::to_string(p.column);
}

TEST(Positions, EveryPartOfAFieldChainHasItsPlace) {
  auto parsed = parse("a: 1\nb: {{ .Values.clsuterName }}\nc: {{ $v.x.y }}", "t");
  ASSERT_FALSE(parsed.ok());  // $v is undefined
  EXPECT_EQ(parsed.error().message, "undefined variable \"$v\"");
  EXPECT_EQ(parsed.error().at, (diag::Position{3, 7}));

  auto ok = parse("a: 1\nb: {{ .Values.clsuterName }}\nc: é{{ $.x.y }}", "t");
  ASSERT_TRUE(ok.ok());
  std::vector<std::string> seen;
  walk(*ok->trees.at("t").root, [&](const Node& n) {
    if (n.type == NodeType::kField) {
      const auto& f = static_cast<const FieldNode&>(n);
      for (size_t i = 0; i < f.ident.size(); ++i) {
        seen.push_back(std::string(f.ident[i]) + "@" + where(*ok, f.ident_pos[i]));
      }
    }
    if (n.type == NodeType::kVariable) {
      const auto& v = static_cast<const VariableNode&>(n);
      for (size_t i = 0; i < v.ident.size(); ++i) {
        seen.push_back(std::string(v.ident[i]) + "@" + where(*ok, v.ident_pos[i]));
      }
    }
    return true;
  });
  // Columns count code points: "é" is one column.
  EXPECT_EQ(seen, (std::vector<std::string>{"Values@2:7", "clsuterName@2:14", "$@3:8", "x@3:9",
                                            "y@3:11"}));
}

TEST(Positions, ErrorsStandWhereTheParserStood) {
  struct Case {
    std::string_view input;
    diag::Position at;
  };
  static const Case kCases[] = {
      {"x\n  {{ if .a }}\n{{ end ", {3, 8}},            // unclosed action: where the input ends
      {"{{ .a }}\n\n   {{ .b | 1 }}", {3, 12}},         // non executable: the command
      {"ok\n{{ nosuch 1 }}", {2, 4}},                   // function not defined
      {"{{ if .a }}\n{{ else }}\n{{ else }}", {3, 4}},  // expected end; found {{else}}
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(c.input));
    Options o;
    o.is_function = is_builtin;
    auto parsed = parse(c.input, "t", o);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().at, c.at) << parsed.error().message;
  }
}

TEST(Limits, DeepNestingIsAnErrorNotACrash) {
  std::string deep;
  for (int i = 0; i < kMaxNesting + 10; ++i) deep += "{{if .a}}";
  auto parsed = parse(deep, "t");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message, "max nesting depth exceeded");

  std::string parens =
      "{{" + std::string(kMaxNesting + 10, '(') + "1" + std::string(kMaxNesting + 10, ')') + "}}";
  parsed = parse(parens, "t");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message, "max nesting depth exceeded");

  std::string within;
  for (int i = 0; i < 50; ++i) within += "{{if .a}}";
  for (int i = 0; i < 50; ++i) within += "{{end}}";
  EXPECT_TRUE(parse(within, "t").ok());
}

TEST(Comments, KeptOnlyWhenAsked) {
  auto dropped = parse("a{{/* c */}}b", "t");
  ASSERT_TRUE(dropped.ok());
  EXPECT_EQ(dropped->trees.at("t").root->nodes.size(), 2u);
  Options o;
  o.keep_comments = true;
  auto kept = parse("a{{/* c */}}b", "t", o);
  ASSERT_TRUE(kept.ok());
  ASSERT_EQ(kept->trees.at("t").root->nodes.size(), 3u);
  EXPECT_EQ(to_string(*kept->trees.at("t").root->nodes[1]), "{{/* c */}}");
}

TEST(Numbers, ValuesAsGoReadsThem) {
  auto parsed = parse("{{0x1F}}{{-3}}{{1.5}}{{'a'}}{{2i}}{{1e3}}", "t");
  ASSERT_TRUE(parsed.ok());
  std::vector<const NumberNode*> nums;
  walk(*parsed->trees.at("t").root, [&](const Node& n) {
    if (n.type == NodeType::kNumber) nums.push_back(static_cast<const NumberNode*>(&n));
    return true;
  });
  ASSERT_EQ(nums.size(), 6u);
  EXPECT_TRUE(nums[0]->is_int && nums[0]->int64 == 31 && nums[0]->is_uint);
  EXPECT_TRUE(nums[1]->is_int && nums[1]->int64 == -3 && !nums[1]->is_uint);
  EXPECT_TRUE(nums[2]->is_float && !nums[2]->is_int && nums[2]->float64 == 1.5);
  EXPECT_TRUE(nums[3]->is_int && nums[3]->int64 == 'a');
  EXPECT_TRUE(nums[4]->is_complex && nums[4]->imag == 2 && !nums[4]->is_float);
  EXPECT_TRUE(nums[5]->is_int && nums[5]->int64 == 1000 && nums[5]->is_float);
}

}  // namespace
}  // namespace hintkit::gotmpl
