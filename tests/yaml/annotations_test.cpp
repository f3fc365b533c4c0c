// `#@` annotations and comments are attached the way ytt attaches them: a comment belongs to
// the first node at or below its line; on the node's own line to the innermost node, above
// it to the outermost (document, then map item / array item).
#include <gtest/gtest.h>

#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

std::vector<Document> load_ok(std::string_view text, bool keep_comments = false) {
  diag::Diagnostics diags;
  LoadOptions options;
  options.keep_comments = keep_comments;
  auto docs = load(text, "t.yaml", diags, options);
  EXPECT_TRUE(diags.empty()) << (diags.empty() ? "" : diags.items()[0].message);
  return docs;
}

std::string show(const std::vector<Annotation>& as) {
  std::string out;
  for (const Annotation& a : as) {
    if (!out.empty()) out += " | ";
    out += "[" + a.name + "](" + a.args + ")";
  }
  return out;
}

TEST(YamlAnnotations, ParsesNamesAndCode) {
  struct Case {
    std::string_view comment, want;
  };
  const Case cases[] = {
      {"#@schema/default 3", "[schema/default](3)"},
      {"#@data/values", "[data/values]()"},
      {"#@overlay/match by=\"name\"", "[overlay/match](by=\"name\")"},
      {"#@template/code if True:", "[template/code](if True:)"},
      {"#@ def f():", "[](def f():)"},
      {"#@ load(\"x.star\", \"f\")", "[](load(\"x.star\", \"f\"))"},
      {"#@load(\"x.star\", \"f\")", "[](load(\"x.star\", \"f\"))"},
      {"#@ end", "[](end)"},
      {"#@   x = 1   ", "[](x = 1)"},
      {"#@schema/validation min=1, max=3", "[schema/validation](min=1, max=3)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.comment);
    auto docs = load_ok("---\n" + std::string(c.comment) + "\nkey: 1\n");
    ASSERT_EQ(docs.size(), 1u);
    EXPECT_EQ(show(docs[0].root.items[0].annotations), c.want);
  }
}

TEST(YamlAnnotations, Attachment) {
  struct Case {
    std::string_view name, input;
    std::string_view doc, first_item, first_nested;  // annotations shown with show()
  };
  const Case cases[] = {
      {"above the document marker", "#@data/values\n---\na: 1\n", "[data/values]()", "", ""},
      {"on the document marker", "--- #@data/values\na: 1\n", "[data/values]()", "", ""},
      {"first document without a marker goes to the first item (as ytt)", "#@data/values\na: 1\n",
       "", "[data/values]()", ""},
      {"above a map item", "---\n#@schema/default 3\na: 1\n", "", "[schema/default](3)", ""},
      {"stacked lines keep their order", "---\n#@a 1\n#@b 2\na: 1\n", "", "[a](1) | [b](2)", ""},
      {"trailing code on a key", "a: #@ data.values.x\n", "", "[](data.values.x)", ""},
      {"trailing after a scalar value", "a: 1 #@ x\n", "", "[](x)", ""},
      {"above a nested item", "a:\n  #@ x\n  b: 1\n", "", "", "[](x)"},
      {"above an array item", "a:\n#@ x\n- 1\n", "", "", "[](x)"},
      {"trailing on an array item", "a:\n- #@ x\n", "", "", "[](x)"},
      {"above an array item holding a map", "a:\n#@ x\n- b: 1\n", "", "", "[](x)"},
      {"trailing on a map inside an array item goes to the innermost", "a:\n- b: 1 #@ x\n", "", "",
       ""},
      {"hash inside quotes is not a comment", "a: \"x #@ y\"\nb: 'it''s #@ y'\n", "", "", ""},
      {"hash inside a block scalar is not a comment", "a: |\n  #@ y\n  z\nb: 1\n", "", "", ""},
      {"hash without space before is not a comment", "a: x#@y\n", "", "", ""},
      // go-yaml's scanner skips the comment after a block scalar's header (ytt's fork keeps
      // only those it passes between tokens): ytt reads no annotation there.
      {"comment after a block scalar's header is skipped", "a: | #@ x\n  y\n", "", "", ""},
      {"bang comments are dropped", "---\n#! note\na: 1\n", "", "", ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto docs = load_ok(c.input);
    ASSERT_GE(docs.size(), 1u);
    const Document& d = docs[0];
    EXPECT_EQ(show(d.annotations), c.doc);
    ASSERT_FALSE(d.root.items.empty());
    const MapItem& first = d.root.items[0];
    EXPECT_EQ(show(first.annotations), c.first_item);
    std::string nested;
    if (first.value.kind == Kind::kMap) nested = show(first.value.items[0].annotations);
    if (first.value.kind == Kind::kArray) nested = show(first.value.elements[0].annotations);
    EXPECT_EQ(nested, c.first_nested);
  }
}

TEST(YamlAnnotations, InnermostNodeOnTheLineOwnsATrailingComment) {
  auto docs = load_ok("a:\n- b: 1 #@ x\n");
  const Node& element = docs[0].root.items[0].value.elements[0];
  EXPECT_EQ(show(element.annotations), "");
  EXPECT_EQ(show(element.items[0].annotations), "[](x)");
}

TEST(YamlAnnotations, CommentsBetweenDocumentsGoToTheNextDocument) {
  auto docs = load_ok("a: 1\n#@ x\n---\nb: 2\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(show(docs[0].root.items[0].annotations), "");
  EXPECT_EQ(show(docs[1].annotations), "[](x)");
}

TEST(YamlAnnotations, TrailingAnnotationsMakeAnEmptyDocument) {
  auto docs = load_ok("#@ def f():\na: 1\n#@ end\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(show(docs[0].root.items[0].annotations), "[](def f():)");
  EXPECT_TRUE(docs[1].empty);
  EXPECT_EQ(show(docs[1].annotations), "[](end)");
  EXPECT_EQ(docs[1].span.begin, (diag::Position{3, 1}));

  auto only = load_ok("#@ load(\"x\", \"y\")\n");
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(show(only[0].annotations), "[](load(\"x\", \"y\"))");
}

TEST(YamlAnnotations, Spans) {
  auto docs = load_ok("---\n  #@schema/default 3\nkey: 1 #@ x\n");
  const MapItem& item = docs[0].root.items[0];
  ASSERT_EQ(item.annotations.size(), 2u);
  EXPECT_EQ(item.annotations[0].span.begin, (diag::Position{2, 3}));
  EXPECT_EQ(item.annotations[0].span.end, (diag::Position{2, 21}));
  EXPECT_EQ(item.annotations[1].span.begin, (diag::Position{3, 8}));
  EXPECT_EQ(item.annotations[1].span.file, "t.yaml");
}

TEST(YamlAnnotations, PlainCommentsOnlyWhenAsked) {
  const std::string_view text = "# top\na: 1 # trailing\n#@ x\nb: 2\n";
  auto without = load_ok(text);
  EXPECT_TRUE(without[0].root.items[0].comments.empty());
  EXPECT_EQ(show(without[0].root.items[1].annotations), "[](x)");

  auto with = load_ok(text, true);
  const Node& r = with[0].root;
  ASSERT_EQ(r.items[0].comments.size(), 2u);
  EXPECT_EQ(r.items[0].comments[0].text, " top");
  EXPECT_EQ(r.items[0].comments[1].text, " trailing");
  EXPECT_EQ(r.items[0].comments[1].span.begin, (diag::Position{2, 6}));
  EXPECT_EQ(show(r.items[1].annotations), "[](x)");
}

}  // namespace
}  // namespace hintkit::yaml
