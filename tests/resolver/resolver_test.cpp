#include "resolver/resolver.h"

#include <gtest/gtest.h>

namespace hintkit::resolver {
namespace {

yaml::Node values(std::string_view text) {
  diag::Diagnostics d;
  auto docs = yaml::load(text, "values.yaml", d);
  EXPECT_FALSE(d.has_errors());
  return docs.empty() || docs[0].empty ? yaml::make_null() : docs[0].root;
}

struct Case {
  std::string_view name;
  std::string_view hint;
  std::string_view provided;
  std::string_view want_json;           // resolved vars when no errors
  std::vector<std::string> want_codes;  // error codes in order, when invalid
  std::vector<std::string> mentions = {};
};

TEST(Resolve, SpecSemantics) {
  const Case cases[] = {
      {"zero values and defaults in hint order, then pass-through",
       "vars:\n  s: {type: string}\n  l: {type: slice}\n  m: {type: map}\n"
       "  d: {type: string, default: prod}\n",
       "extra: 1\nd: dev\n",
       R"({"s":"","l":[],"m":{},"d":"dev","extra":1})",
       {}},
      {"YAML 1.1 bool and number keys name vars by their Go spelling, on both sides",
       "vars:\n  on: {type: string, required: true}\n  0x1F: {type: string}\n",
       "on: a\n31: b\n1.50: c\n",
       R"({"true":"a","31":"b","1.5":"c"})",
       {}},
      {"null counts as not provided",
       "vars:\n  s: {type: string, default: x}\n",
       "s: null\n",
       R"({"s":"x"})",
       {}},
      {"empty string is provided",
       "vars:\n  s: {type: string, required: true}\n",
       "s: ''\n",
       R"({"s":""})",
       {}},
      {"string accepts any scalar",
       "vars:\n  s: {type: string}\n",
       "s: 8080\n",
       R"({"s":8080})",
       {}},
      {"missing required",
       "vars:\n  s: {type: string, required: true}\n",
       "{}",
       "",
       {"HK200"},
       {"\"s\""}},
      {"type mismatch and missing required are both reported",
       "vars:\n  c: {type: string, required: true}\n  nodes: {type: slice}\n",
       "nodes: x\n",
       "",
       {"HK200", "HK201"},
       {"\"c\"", "\"nodes\"", "slice"}},
      {"required_with triggered by a provided ref",
       "vars:\n  k: {type: string, required_with: [a, b]}\n  a: {type: string}\n  b: {type: "
       "string}\n",
       "b: x\n",
       "",
       {"HK202"},
       {"\"k\"", "\"b\""}},
      {"required_with ignores defaults",
       "vars:\n  k: {type: string, required_with: [a]}\n  a: {type: string, default: x}\n",
       "{}",
       R"({"k":"","a":"x"})",
       {}},
      {"required_without when none provided",
       "vars:\n  f: {type: string, required_without: [p, q]}\n  p: {type: string}\n"
       "  q: {type: string, default: d}\n",
       "{}",
       "",
       {"HK203"},
       {"\"f\"", "none of [p q] are provided"}},
      {"required_without satisfied by one",
       "vars:\n  f: {type: string, required_without: [p, q]}\n  p: {type: string}\n"
       "  q: {type: string}\n",
       "q: b\n",
       R"({"f":"","p":"","q":"b"})",
       {}},
      {"format checked on provided and injected values",
       "vars:\n  h: {type: string, format: hostname}\n  u: {type: string, format: url}\n",
       "h: 'a b'\n",
       "",
       {"HK204"},
       {"\"h\"", "hostname"}},
      {"empty strings skip formats",
       "vars:\n  h: {type: string, format: ip}\n",
       "h: ''\n",
       R"({"h":""})",
       {}},
      {"oneof_required default message",
       "vars:\n  a: {type: string, default: z}\n  b: {type: string}\n"
       "rules:\n  - {type: oneof_required, vars: [a, b]}\n",
       "{}",
       "",
       {"HK205"},
       {"at least one of [a b] must be provided"}},
      {"oneof_required custom messages for each failing rule",
       "vars:\n  a: {type: string}\n  b: {type: string}\n  c: {type: string}\n  d: {type: string}\n"
       "rules:\n  - {type: oneof_required, vars: [a, b], message: ab}\n"
       "  - {type: oneof_required, vars: [c, d], message: cd}\n",
       "{}",
       "",
       {"HK205", "HK205"},
       {"ab", "cd"}},
      {"values that are not a map", "vars: {}\n", "- a\n", "", {"HK210"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    diag::Diagnostics hd;
    hintfile::HintFile hint = hintfile::parse(c.hint, "tazuna.hint.yaml", hd);
    ASSERT_FALSE(hd.has_errors()) << hd.items()[0].message;
    diag::Diagnostics d;
    yaml::Node got = resolve(&hint, values(c.provided), d);
    std::vector<std::string> codes;
    std::string all;
    for (const auto& x : d.items()) {
      codes.push_back(x.code);
      all += x.message + "\n";
    }
    EXPECT_EQ(codes, c.want_codes);
    for (const std::string& m : c.mentions) EXPECT_NE(all.find(m), std::string::npos) << m;
    if (c.want_codes.empty()) {
      EXPECT_EQ(yaml::emit_json(got), c.want_json);
    }
  }
}

TEST(Resolve, WithoutHintPassesThrough) {
  diag::Diagnostics d;
  yaml::Node v = values("a: [1]\nb: {c: ''}\n");
  yaml::Node got = resolve(nullptr, v, d);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(yaml::emit_json(got), R"({"a":[1],"b":{"c":""}})");
}

}  // namespace
}  // namespace hintkit::resolver
