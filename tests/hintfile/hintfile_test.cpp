#include "hintfile/hintfile.h"

#include <gtest/gtest.h>

namespace hintkit::hintfile {
namespace {

// "HK104@4:11" for each diagnostic, in order.
std::vector<std::string> codes_at(const diag::Diagnostics& d) {
  std::vector<std::string> out;
  for (const auto& x : d.items()) {
    out.push_back(x.code + "@" + std::to_string(x.span.begin.line) + ":" +
                  std::to_string(x.span.begin.column));
  }
  return out;
}

struct Case {
  std::string_view name;
  std::string_view source;
  std::vector<std::string> want;  // code@line:col, sorted by position
  std::string_view mention = "";  // a substring some message or hint must contain
};

TEST(Parse, SchemaChecks) {
  const Case cases[] = {
      {"valid file has no findings",
       "vars:\n  a:\n    type: string\n    format: url\n    default: \"https://x\"\n"
       "  b:\n    type: slice\n    required: true\n"
       "rules:\n  - type: oneof_required\n    vars: [a, b]\n",
       {}},
      {"empty file", "", {"HK100@1:1"}, "empty"},
      {"root is a list", "- vars: {}\n", {"HK100@1:1"}, "found an array"},
      {"vars missing", "apiVersion: v1\n", {"HK101@1:1"}, "vars"},
      {"vars null", "vars:\n", {"HK103@1:1"}, "vars: {}"},
      {"invalid type", "vars:\n  x:\n    type: integer\n", {"HK104@3:11"}, "integer"},
      {"type case", "vars:\n  x:\n    type: String\n", {"HK104@3:11"}, "did you mean \"string\"?"},
      {"missing type", "vars:\n  x:\n    required: false\n", {"HK104@2:3"}, "no type"},
      {"unknown key with did-you-mean",
       "vars:\n  x:\n    type: map\n    requried: true\n",
       {"HK102@4:5"},
       "did you mean \"required\"?"},
      {"exact case keys",
       "vars:\n  x:\n    type: map\n    Required: true\n",
       {"HK102@4:5"},
       "did you mean \"required\"?"},
      {"extension keys are allowed",
       "x-owner: me\nvars:\n  x:\n    type: map\n    x-note: hi\n",
       {}},
      {"unknown top-level key", "vars: {}\nrule: []\n", {"HK102@2:1"}, "did you mean \"rules\"?"},
      {"required as string",
       "vars:\n  x:\n    type: map\n    required: \"true\"\n",
       {"HK103@4:15"},
       "must be true or false"},
      {"required with default",
       "vars:\n  x:\n    type: string\n    required: true\n    default: a\n",
       {"HK105@5:14"},
       "required"},
      {"format on slice",
       "vars:\n  x:\n    type: slice\n    format: url\n",
       {"HK106@4:13"},
       "only valid for string type"},
      {"unknown format",
       "vars:\n  x:\n    type: string\n    format: URL\n",
       {"HK107@4:13"},
       "did you mean \"url\"?"},
      {"required and required_with",
       "vars:\n  x:\n    type: string\n    required: true\n"
       "    required_with: [w]\n  w:\n    type: string\n",
       {"HK108@5:21"},
       "contradictory"},
      {"reference to unknown var",
       "vars:\n  apiKey:\n    type: string\n    required_with: [secretKy]\n"
       "  secretKey:\n    type: string\n",
       {"HK109@4:21"},
       "did you mean \"secretKey\"?"},
      {"unknown rule type",
       "vars:\n  a: {type: string}\n  b: {type: string}\nrules:\n"
       "  - type: exactly_one\n    vars: [a, b]\n",
       {"HK110@5:11"},
       "exactly_one"},
      {"rule without type",
       "vars:\n  a: {type: string}\n  b: {type: string}\nrules:\n"
       "  - vars: [a, b]\n",
       {"HK110@5:5"},
       "rule[0] has no type"},
      {"rule with one var",
       "vars:\n  a: {type: string}\nrules:\n  - type: oneof_required\n"
       "    vars: [a]\n",
       {"HK111@4:5"},
       "at least 2"},
      {"rule with unknown and repeated vars",
       "vars:\n  a: {type: string}\n  b: {type: string}\n"
       "rules:\n  - type: oneof_required\n    vars: [a, a, c]\n",
       {"HK113@6:15", "HK112@6:18"},
       "twice"},
      {"default of wrong type",
       "vars:\n  x:\n    type: string\n    default: 3\n",
       {"HK114@4:14"},
       "must be a string, found int"},
      {"yaml 1.1 bool default",
       "vars:\n  x:\n    type: string\n    default: yes\n",
       {"HK114@4:14"},
       "found bool"},
      {"default fails its format",
       "vars:\n  x:\n    type: string\n    format: hostname\n"
       "    default: \"not a host!\"\n",
       {"HK115@5:14"},
       "hostname"},
      {"required_with self is a warning",
       "vars:\n  x:\n    type: string\n    required_with: [x]\n",
       {"HK116@4:21"},
       "itself"},
      {"every problem at once",
       "vars:\n  a:\n    type: integer\n  b:\n    type: string\n"
       "    format: ipaddr\n  c:\n    type: string\n    required_with: [zz]\n",
       {"HK104@3:11", "HK107@6:13", "HK109@9:21"}},
      {"syntax error stops with a position", "vars:\n  a: [\n", {"HK001@3:1"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    diag::Diagnostics d;
    HintFile h = parse(c.source, "tazuna.hint.yaml", d);
    d.sort_and_dedupe();
    EXPECT_EQ(codes_at(d), c.want);
    if (!c.mention.empty()) {
      bool found = false;
      for (const auto& x : d.items()) {
        found = found || x.message.find(c.mention) != std::string::npos;
        for (const auto& hint : x.hints) found = found || hint.find(c.mention) != std::string::npos;
      }
      EXPECT_TRUE(found) << "no message mentions " << c.mention;
    }
  }
}

TEST(Parse, BuildsTheModel) {
  diag::Diagnostics d;
  HintFile h = parse(
      "vars:\n  host:\n    type: string\n    format: hostname\n    default: a.example\n"
      "    description: The host\n  tags:\n    type: slice\n    required_without: [host]\n"
      "rules:\n  - type: oneof_required\n    vars: [host, tags]\n    message: pick one\n",
      "h.yaml", d);
  ASSERT_TRUE(d.empty());
  ASSERT_EQ(h.vars.size(), 2u);
  const Var* host = h.find("host");
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(host->type, VarType::kString);
  EXPECT_EQ(host->format, formats::Format::kHostname);
  EXPECT_EQ(host->description, "The host");
  ASSERT_TRUE(host->default_value.has_value());
  EXPECT_EQ(host->default_value->text, "a.example");
  EXPECT_EQ(host->span.begin.line, 2);
  const Var* tags = h.find("tags");
  ASSERT_NE(tags, nullptr);
  ASSERT_EQ(tags->required_without.size(), 1u);
  EXPECT_EQ(tags->required_without[0].name, "host");
  ASSERT_EQ(h.rules.size(), 1u);
  EXPECT_EQ(h.rules[0].message, "pick one");
  EXPECT_EQ(h.find("nope"), nullptr);
}

TEST(Parse, NullDefaultIsNoDefault) {
  diag::Diagnostics d;
  HintFile h =
      parse("vars:\n  x:\n    type: string\n    required: true\n    default: null\n", "h", d);
  EXPECT_TRUE(d.empty());
  EXPECT_FALSE(h.vars.at(0).default_value.has_value());
}

// tazuna decodes hint files with sigs.k8s.io/yaml: a number or bool in a string field arrives
// in its Go spelling, and null leaves a field at its zero value; neither is an error.
TEST(Parse, ScalarsInStringFieldsTakeTheirGoSpelling) {
  diag::Diagnostics d;
  HintFile h = parse(
      "apiVersion: 1\nkind: true\nvars:\n  a: {type: string, description: 0x1F, required: ~, "
      "format: ~}\n  b: {type: string, description: yes}\nrules:\n  - {type: oneof_required, "
      "vars: [a, b], message: 1.50}\n",
      "h.yaml", d);
  ASSERT_TRUE(d.empty());
  EXPECT_EQ(h.find("a")->description, "31");
  EXPECT_FALSE(h.find("a")->required);
  EXPECT_FALSE(h.find("a")->format.has_value());
  EXPECT_EQ(h.find("b")->description, "true");
  EXPECT_EQ(h.rules.at(0).message, "1.5");
}

// Var names in keys and in lists are read as tazuna.yaml's are: YAML 1.1 `on` is the bool
// true and names the var "true"; the change is a warning.
TEST(Parse, VarNamesTakeTheGoSpellingOfYaml11Scalars) {
  diag::Diagnostics d;
  HintFile h = parse(
      "vars:\n  on: {type: string}\n  0x1F: {type: string, required_with: [on]}\n"
      "  plain: {type: string}\nrules:\n  - {type: oneof_required, vars: [0x1F, plain]}\n",
      "h.yaml", d);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(h.var_names(), (std::vector<std::string>{"true", "31", "plain"}));
  EXPECT_EQ(h.find("31")->required_with.at(0).name, "true");
  EXPECT_EQ(h.rules.at(0).vars.at(0).name, "31");
  size_t warnings = 0;
  for (const auto& x : d.items()) warnings += x.code == "HK323";
  EXPECT_EQ(warnings, 4u);  // on, 0x1F, [on], [0x1F]
}

TEST(Parse, ScalarsSpelledAsGoDoStillNameUnknownTypesAndFormats) {
  diag::Diagnostics d;
  parse("vars:\n  a: {type: string, format: 5}\nrules:\n  - {type: 1, vars: [a, a]}\n", "h", d);
  std::string all;
  for (const auto& x : d.items()) all += x.code + " " + x.message + "\n";
  EXPECT_NE(all.find("HK107 var \"a\" has unknown format \"5\""), std::string::npos) << all;
  EXPECT_NE(all.find("HK110 rule[0] has unknown type \"1\""), std::string::npos) << all;
  // Collections are still no string.
  diag::Diagnostics c;
  parse("vars:\n  a: {type: string, description: [x]}\n", "h", c);
  ASSERT_EQ(c.items().size(), 1u);
  EXPECT_EQ(c.items()[0].code, "HK103");
}

}  // namespace
}  // namespace hintkit::hintfile
