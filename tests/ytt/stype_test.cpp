// SType, the engine's schema type on top of the shared checker's types::Type: its keys (kept
// out of line only when some key is not a plain string) and the check of values through it.
#include <gtest/gtest.h>

#include "ytt/schema/schema.h"

namespace hintkit::ytt {
namespace {

std::shared_ptr<SType> scalar_type(types::Kind kind) {
  auto t = std::make_shared<SType>();
  t->kind = kind;
  return t;
}

Scalar int_key(int64_t v) {
  Scalar k;
  k.kind = yaml::Kind::kInt;
  k.int_value = v;
  k.text = std::to_string(v);
  return k;
}

TEST(STypeKeys, PlainStringKeysAreSpelledOnce) {
  SType t;
  t.kind = types::Kind::kMap;
  t.add_field(string_scalar("host"), scalar_type(types::Kind::kString));
  t.add_field(string_scalar("port"), scalar_type(types::Kind::kInt));
  EXPECT_TRUE(t.keys.empty());
  EXPECT_EQ(t.fields[1].key, "port");
  EXPECT_EQ(t.key(1).kind, yaml::Kind::kString);
  EXPECT_EQ(t.key(1).text, "port");
  EXPECT_EQ(&t.field_type(1), &SType::of(t.fields[1].type()));
  EXPECT_EQ(t.field_type(1).kind, types::Kind::kInt);
}

TEST(STypeKeys, AFirstKeyThatIsNotAPlainStringIsKept) {
  SType t;
  t.kind = types::Kind::kMap;
  t.add_field(int_key(8080), scalar_type(types::Kind::kString));
  t.add_field(string_scalar("name"), scalar_type(types::Kind::kString));
  ASSERT_EQ(t.keys.size(), 2u);
  EXPECT_EQ(t.key(0).kind, yaml::Kind::kInt);
  EXPECT_EQ(t.key(0).int_value, 8080);
  EXPECT_EQ(t.key(0).text, "8080");
  EXPECT_EQ(t.key(1).text, "name");
  EXPECT_EQ(t.field_index(int_key(8080)), 0);
  EXPECT_EQ(t.field_index(string_scalar("8080")), -1);
}

TEST(STypeKeys, AQuotedOrNonStringKeyKeepsEveryKeyAsWritten) {
  SType t;
  t.kind = types::Kind::kMap;
  t.add_field(string_scalar("a"), scalar_type(types::Kind::kString));
  Scalar quoted = string_scalar("8080");
  quoted.style = yaml::Style::kDoubleQuoted;
  t.add_field(quoted, scalar_type(types::Kind::kString));
  t.add_field(int_key(8080), scalar_type(types::Kind::kInt));
  t.index_fields();
  ASSERT_EQ(t.keys.size(), 3u);
  EXPECT_EQ(t.key(0).style, yaml::Style::kPlain);
  EXPECT_EQ(t.key(0).text, "a");
  EXPECT_EQ(t.key(1).style, yaml::Style::kDoubleQuoted);
  EXPECT_EQ(t.key(2).kind, yaml::Kind::kInt);
  EXPECT_EQ(t.key(2).int_value, 8080);
  // The string "8080" and the int 8080 are different fields.
  EXPECT_EQ(t.field_index(string_scalar("8080")), 1);
  EXPECT_EQ(t.field_index(int_key(8080)), 2);
  EXPECT_EQ(t.field_index(int_key(80)), -1);
}

// {port: int, tls: {enabled: bool}} with defaults, checked as ytt checks: every problem of the
// second pass, each map's unknown keys before its items' wrong values; nothing filled in.
TEST(STypeCheck, ProblemsComeInYttsOrderAndStopDefaults) {
  auto enabled = scalar_type(types::Kind::kBool);
  enabled->default_value = make_node(yaml::Kind::kBool);
  auto tls = std::make_shared<SType>();
  tls->kind = types::Kind::kMap;
  tls->add_field(string_scalar("enabled"), enabled);
  auto port = scalar_type(types::Kind::kInt);
  port->default_value = make_node(yaml::Kind::kInt);
  SType root;
  root.kind = types::Kind::kMap;
  root.add_field(string_scalar("port"), port);
  root.add_field(string_scalar("tls"), tls);

  diag::Diagnostics d;
  auto docs = yaml::load("port: x\ntls: {enabled: 1, mode: 2}\nzz: 1\n", "v.yaml", d);
  ASSERT_FALSE(d.has_errors());
  DPtr v = from_yaml(docs[0].root);
  std::vector<TypeProblem> problems;
  check_and_fill(v, root, problems);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_TRUE(problems[0].unknown_key);
  EXPECT_EQ(problems[0].found, "zz");
  EXPECT_EQ(problems[0].at.begin.line, 3);
  EXPECT_EQ(problems[1].found, "string");
  EXPECT_EQ(problems[1].expected, "integer");
  EXPECT_EQ(problems[1].at.begin.line, 1);
  EXPECT_TRUE(problems[2].unknown_key);
  EXPECT_EQ(problems[2].found, "mode");
  EXPECT_EQ(problems[2].expected, "a map item with the key named \"enabled\"");
  EXPECT_EQ(problems[3].found, "integer");
  EXPECT_EQ(problems[3].expected, "boolean");
  EXPECT_EQ(v->entries.size(), 3u);  // no defaults were added

  // A map where an int belongs hides the rest.
  auto docs2 = yaml::load("port: {a: 1}\nzz: 1\n", "v.yaml", d);
  DPtr v2 = from_yaml(docs2[0].root);
  problems.clear();
  check_and_fill(v2, root, problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].found, "map");
  EXPECT_EQ(problems[0].expected, "integer");

  // A value that fits gets the defaults it lacks, as written in the schema.
  auto docs3 = yaml::load("tls: {}\n", "v.yaml", d);
  DPtr v3 = from_yaml(docs3[0].root);
  problems.clear();
  check_and_fill(v3, root, problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(v3->entries.size(), 2u);
  EXPECT_EQ(v3->entries[0].key.text, "tls");
  ASSERT_EQ(v3->entries[0].value->entries.size(), 1u);
  EXPECT_EQ(v3->entries[0].value->entries[0].key.text, "enabled");
  EXPECT_EQ(v3->entries[1].key.text, "port");
  EXPECT_EQ(v3->entries[1].value->kind, yaml::Kind::kInt);
}

}  // namespace
}  // namespace hintkit::ytt
