#include "resolver/tazuna.h"

#include <gtest/gtest.h>

#include <map>

namespace hintkit::resolver {
namespace {

std::vector<std::string> codes(const diag::Diagnostics& d) {
  std::vector<std::string> out;
  for (const auto& x : d.items()) {
    out.push_back(x.code + "@" + std::to_string(x.span.begin.line) + ":" +
                  std::to_string(x.span.begin.column));
  }
  return out;
}

constexpr std::string_view kHeader =
    "apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n";

TEST(Config, ReadsEverySourceKind) {
  std::string text = std::string(kHeader) +
                     "    - name: api\n      type: helmfile\n      path: helmfile/api\n"
                     "      tags: [web, core]\n      helmfile:\n        vars:\n"
                     "          a: {from: env, env: A_VAR}\n"
                     "          b: {from: static, static: 8080}\n"
                     "          c: {from: static, staticSlice: [x, 2]}\n"
                     "          d: {from: static, staticMap: {k: v, n: 1}}\n"
                     "          e: {from: op, op: {key: label, vault: V, item: I, field: F}}\n"
                     "    - name: crds\n      type: kustomize\n      path: k/crds\n";
  diag::Diagnostics d;
  Config c = parse_config(text, "conf/tazuna.yaml", d);
  ASSERT_TRUE(d.empty()) << d.items()[0].message;
  ASSERT_EQ(c.manifests.size(), 2u);
  EXPECT_EQ(c.dir, "conf");
  const Manifest& m = c.manifests[0];
  EXPECT_EQ(m.tags, (std::vector<std::string>{"web", "core"}));
  ASSERT_EQ(m.vars.size(), 5u);
  EXPECT_EQ(m.vars[0].kind, SourceKind::kEnv);
  EXPECT_EQ(m.vars[0].env, "A_VAR");
  EXPECT_EQ(m.vars[1].value.kind, yaml::Kind::kString);
  EXPECT_EQ(m.vars[1].value.text, "8080");
  EXPECT_EQ(yaml::emit_json(m.vars[2].value), R"(["x","2"])");
  // The key `n` is YAML 1.1 false, and tazuna hands it on as "false".
  EXPECT_EQ(yaml::emit_json(m.vars[3].value), R"({"k":"v","false":"1"})");
  EXPECT_EQ(m.vars[4].op.field, "F");

  std::map<std::string, std::string> env_vars = {{"A_VAR", ""}};
  Environment env;
  env.getenv = [&](const std::string& n) -> std::optional<std::string> {
    auto it = env_vars.find(n);
    return it == env_vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  env.op_field = [](const OpRef& r) -> diag::Result<std::string> { return r.item + "/" + r.field; };
  diag::Diagnostics pd;
  yaml::Node provided = provided_vars(m, env, pd);
  EXPECT_TRUE(pd.empty());
  EXPECT_EQ(yaml::emit_json(provided),
            R"({"a":"","b":"8080","c":["x","2"],"d":{"k":"v","false":"1"},"e":"I/F"})");
}

TEST(Config, ReportsDeclarationMistakes) {
  struct Case {
    std::string_view name;
    std::string_view var;  // the body of one var declaration, at 10 spaces
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {"unknown from", "a: {from: enviroment, env: X}", {"HK304@10:21"}},
      {"no from", "a: {env: X}", {"HK304@10:11"}},
      {"unknown key", "a: {from: env, evn: X}", {"HK305@10:11", "HK302@10:26"}},
      {"two static values", "a: {from: static, static: x, staticSlice: [y]}", {"HK306@10:40"}},
      {"no static value", "a: {from: static}", {"HK306@10:11"}},
      {"slice of maps", "a: {from: static, staticSlice: [{k: v}]}", {"HK303@10:43"}},
      {"op without field", "a: {from: op, op: {key: id, vault: V, item: I}}", {"HK307@10:25"}},
      {"op key typo",
       "a: {from: op, op: {key: lable, vault: V, item: I, field: F}}",
       {"HK307@10:29"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::string text = std::string(kHeader) +
                       "    - name: api\n      type: helmfile\n      path: p\n      helmfile:\n"
                       "        vars:\n          " +
                       std::string(c.var) + "\n";
    diag::Diagnostics d;
    (void)parse_config(text, "tazuna.yaml", d);
    d.sort_and_dedupe();
    EXPECT_EQ(codes(d), c.want);
  }
}

TEST(Sources, UnsetEnvAndOpFailuresNameTheVar) {
  std::string text = std::string(kHeader) +
                     "    - name: api\n      type: helmfile\n      path: p\n      helmfile:\n"
                     "        vars:\n          token: {from: env, env: NOT_SET_ANYWHERE}\n"
                     "          pw: {from: op, op: {key: id, vault: V, item: I, field: F}}\n";
  diag::Diagnostics d;
  Config c = parse_config(text, "tazuna.yaml", d);
  ASSERT_TRUE(d.empty());
  Environment env;
  env.getenv = [](const std::string&) { return std::optional<std::string>(); };
  env.op_field = [](const OpRef&) -> diag::Result<std::string> {
    return diag::Error{"`op` was not found on PATH", {}};
  };
  yaml::Node provided = provided_vars(c.manifests[0], env, d);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NE(d.items()[0].message.find("\"token\""), std::string::npos);
  EXPECT_NE(d.items()[0].message.find("NOT_SET_ANYWHERE"), std::string::npos);
  EXPECT_NE(d.items()[1].message.find("\"pw\""), std::string::npos);
  EXPECT_TRUE(provided.items.empty());
}

TEST(Sources, PicksOpFieldsByIdOrLabel) {
  const std::string json =
      R"({"id":"x","fields":[{"id":"username","label":"user","value":"alice"},)"
      R"({"id":"pw1","label":"password","value":"s3cr<et>"}]})";
  auto by_label = pick_op_field(json, OpRef{"label", "V", "I", "password"});
  ASSERT_TRUE(by_label.ok());
  EXPECT_EQ(*by_label, "s3cr<et>");
  auto by_id = pick_op_field(json, OpRef{"id", "V", "I", "username"});
  ASSERT_TRUE(by_id.ok());
  EXPECT_EQ(*by_id, "alice");
  auto missing = pick_op_field(json, OpRef{"label", "V", "I", "pasword"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("did you mean \"password\"?"), std::string::npos);
  EXPECT_FALSE(pick_op_field("not json {", OpRef{"id", "V", "I", "F"}).ok());
}

TEST(Declarations, CrossCheckAgainstTheHint) {
  diag::Diagnostics d;
  hintfile::HintFile hint = hintfile::parse(
      "vars:\n  name: {type: string, required: true}\n  zones: {type: slice}\n"
      "  host: {type: string}\n",
      "tazuna.hint.yaml", d);
  std::string text = std::string(kHeader) +
                     "    - name: api\n      type: helmfile\n      path: p\n      helmfile:\n"
                     "        vars:\n          zones: {from: static, static: a}\n"
                     "          host: {from: static, staticSlice: [a]}\n"
                     "          hots: {from: static, static: a}\n";
  Config c = parse_config(text, "tazuna.yaml", d);
  ASSERT_TRUE(d.empty());
  check_declarations(c.manifests[0], hint, c, d);
  std::vector<std::string> got;
  for (const auto& x : d.items()) got.push_back(x.code);
  EXPECT_EQ(got, (std::vector<std::string>{"HK322", "HK322", "HK320", "HK321"}));
  EXPECT_EQ(d.items()[2].hints.at(0), "did you mean \"host\"?");
}

}  // namespace
}  // namespace hintkit::resolver
