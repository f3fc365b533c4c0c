// go_yaml_error: our loader's YAML errors spelled as ytt v0.48.0 prints them. Every row was
// recorded from the reference ytt (`ytt -f input.yaml`, message after "Unmarshaling YAML
// template 'input.yaml': ").
#include <gtest/gtest.h>

#include "ytt/yamlmeta/yamlmeta.h"
#include "ytt/yamltemplate/yamltemplate.h"

namespace hintkit::ytt {
namespace {

struct Case {
  std::string_view input, want;
};

// Each input stops the reader with ytt's error text `want`.
template <size_t N>
void expect_go_yaml_errors(const Case (&cases)[N]) {
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.input));
    diag::Diagnostics diags;
    (void)yaml::load(c.input, "input.yaml", diags, ytt_yaml_options());
    ASSERT_FALSE(diags.empty());
    EXPECT_EQ(go_yaml_error(diags.items()[0], true), c.want);
  }
}

TEST(GoYamlError, MatchesYttForCommonSyntaxErrors) {
  const Case cases[] = {
      {"{a", "yaml: line 1: did not find expected ',' or '"},
      {"[a", "yaml: line 1: did not find expected ',' or '"},
      {"a: [", "yaml: line 1: did not find expected node content"},
      {"a: [\n", "yaml: line 1: did not find expected node content"},
      {"[1,\n 2", "yaml: line 2: did not find expected ',' or '"},
      {"{a: 1,\n b: 2", "yaml: line 2: did not find expected ',' or '"},
      {"x: 1\ny: {a: 1\nz: 2", "yaml: line 2: did not find expected ',' or '"},
      {"\"abc", "yaml: line 1: found unexpected end of stream"},
      {"\"abc\n\nd", "yaml: line 3: found unexpected end of stream"},
      {"'abc", "yaml: line 1: found unexpected end of stream"},
      {"k: 'abc", "yaml: line 1: found unexpected end of stream"},
      {"a: \"x\ny", "yaml: line 2: found unexpected end of stream"},
      {"a:\n  - b\n c: 1", "yaml: line 2: did not find expected key"},
      {"a: 1\n  b: 2", "yaml: line 2: mapping values are not allowed in this context"},
      {"a: b: c", "yaml: line 1: mapping values are not allowed in this context"},
      {"x: 1\na: b: c", "yaml: line 2: mapping values are not allowed in this context"},
      {"k: \"\\q\"", "yaml: line 1: found unknown escape character"},
      {"x: 1\nk: \"\\q\"", "yaml: line 2: found unknown escape character"},
      {"a: @b", "yaml: line 1: found character that cannot start any token"},
      {"x: 1\na: `b", "yaml: line 2: found character that cannot start any token"},
      {"a:\n\tb: 1", "yaml: line 2: found character that cannot start any token"},
      {"a: &x 1\nb: *y", "yaml: unknown anchor 'y' referenced"},
      {"a:\n  b: 1\n c: 2", "yaml: line 2: did not find expected key"},
      {"a: |\n  b\n c", "yaml: line 2: did not find expected key"},
      {"x:\n  y: 1\n  - z", "yaml: line 2: did not find expected key"},
      // Recorded from ytt as well; our loader finds these in its fast parser.
      {"a: 1\nb\n", "yaml: line 3: could not find expected ':'"},
      {"a: 1\nb\n\n\n# x\nc: 2\n", "yaml: line 5: could not find expected ':'"},
      {"x:\n  a: 1\n  b\ny: 2\n", "yaml: line 4: could not find expected ':'"},
      {"- a\n- b\nc: 1\n- d\n", "yaml: line 2: did not find expected '-' indicator"},
      {"x:\n  - a\n  b: 1\n", "yaml: line 2: did not find expected '-' indicator"},
      {"- a\nb: 1\n", "yaml: line 1: did not find expected '-' indicator"},
      {"- a\n - b\nc: 1\n", "yaml: line 2: did not find expected '-' indicator"},
      {"[1, 2]\nb: 1\n", "yaml: line 1: did not find expected <document start>"},
      {"- a\n...\n# c\n\n- b\n", "yaml: line 4: did not find expected <document start>"},
      // Found by mutating the conformance inputs and comparing with the reference ytt.
      {"nme: \"\n", "yaml: line 2: found unexpected end of stream"},
      {"l:\n\" 1- 3\n", "yaml: line 3: found unexpected end of stream"},
      {"'xray: 1\n", "yaml: line 2: found unexpected end of stream"},
      {"nested:\n  c: x\n  : y\n", "yaml: line 2: did not find expected key"},
      {"oauth:\n  enabl\n: true\n", "yaml: line 2: did not find expected key"},
      {">{o: 1\n", "yaml: line 1: did not find expected comment or line break"},
      {"a: b\nc: [ &\n  - d]\n",
       "yaml: line 2: did not find expected alphabetic or numeric character"},
      {"a: &x 1\nb: *c:x\n", "yaml: unknown anchor 'c' referenced"},
      {"rules:\n  - type: oneof_required\n   ! vars: [apiHost]\n",
       "yaml: line 2: did not find expected '-' indicator"},
      {"x:\n  a: 'multi\n  line\n", "yaml: line 4: found unexpected end of stream"},
      {"config:\n- 1\n- :\n", "yaml: line 2: did not find expected key"},
      {"a: : b\n", "yaml: line 1: mapping values are not allowed in this context"},
      {"a:\n  : b\n", "yaml: line 1: did not find expected key"},
      {"b: 2\n]lis:\n- z\n", "yaml: line 1: did not find expected key"},
      {"a: *\n", "yaml: line 1: did not find expected alphabetic or numeric character"},
      {"*oo[: 1\n", "yaml: line 1: did not find expected alphabetic or numeric character"},
      {"b: 1\nc: 'x\n---\n'\n", "yaml: line 3: found unexpected document indicator"},
      {"config:\n  c: }\n", "yaml: line 1: did not find expected node content"},
      {"v:\n  - c: {{ .S]s.c | q }}\n    i: 1\n", "yaml: line 1: did not find expected ',' or '"},
      // Values that do not fit their tag, and merges of something else than maps.
      {"a: !!int abc\n", "yaml: cannot decode !!str `abc` as a !!int"},
      {"a: !!bool 12\n", "yaml: cannot decode !!int `12` as a !!bool"},
      {"a: !!null \"x y\"\n", "yaml: cannot decode !!str `x y` as a !!null"},
      {"a: !!float yes\n", "yaml: cannot decode !!bool `yes` as a !!float"},
      {"m:\n  <<: 1\n", "yaml: map merge requires map or sequence of maps as the value"},
      // Tags: a verbatim tag's missing '>' and %-escapes are problems of their own, set where
      // go-yaml's scanner meets them.
      {"a: !<x y\n", "yaml: line 1: did not find the expected '>'"},
      {"a: !<> y\n", "yaml: line 1: did not find expected tag URI"},
      {"a: !x%ZZ y\n", "yaml: line 1: did not find URI escaped octet"},
      {"a: !x%FF y\n", "yaml: line 1: found an incorrect leading UTF-8 octet"},
      {"a: !x%C3%41 y\n", "yaml: line 1: found an incorrect trailing UTF-8 octet"},
      // Control characters and invalid UTF-8: go-yaml's reader, no line.
      {"a: \x04\n", "yaml: control characters are not allowed"},
      {"# \x7f\na: 1\n", "yaml: control characters are not allowed"},
      {"a: 1\n\x04: [\n", "yaml: control characters are not allowed"},
      {"a: \xc2\x9f\n", "yaml: control characters are not allowed"},
      {"a: \xef\xbf\xbe\n", "yaml: control characters are not allowed"},
      {"a: \xff\n", "yaml: invalid leading UTF-8 octet"},
  };
  expect_go_yaml_errors(cases);
}

// A `%` at the start of a line is a directive to go-yaml wherever it stands (between map items
// too): every row recorded from ytt v0.48.0 as above.
TEST(GoYamlError, DirectivesAreScannedAndParsedAsGoYamlDoes) {
  const Case cases[] = {
      {"%s", "yaml: line 1: found unknown directive name"},
      {"\n%s\n", "yaml: line 2: found unknown directive name"},
      {"a: 1\n%s\n", "yaml: line 2: found unknown directive name"},
      {"%FOO bar\n---\na: 1\n", "yaml: line 1: found unknown directive name"},
      {"%\n---\n", "yaml: line 1: could not find expected directive name"},
      {"% s", "yaml: line 1: could not find expected directive name"},
      {"%YAML\n---\n", "yaml: line 1: did not find expected version number"},
      {"%YAML 1\n---\n", "yaml: line 1: did not find expected digit or '.' character"},
      {"%YAML 111.1\n---\n", "yaml: line 1: found extremely long version number"},
      {"%YAML 1.1 x\n---\n", "yaml: line 1: did not find expected comment or line break"},
      {"%YAML 1.1\n%YAML 1.1\n---\n", "yaml: line 1: found duplicate %YAML directive"},
      {"%YAML 1.1\na: 1\n", "yaml: line 1: did not find expected <document start>"},
      {"%TAG !e tag:x\n---\n", "yaml: line 1: did not find expected '!'"},
      {"%TAG !e!\n---\n", "yaml: line 1: did not find expected whitespace"},
      {"%TAG !e! %zz\n---\n", "yaml: line 1: did not find URI escaped octet"},
      {"%TAG !e! %C3\n---\n", "yaml: line 1: did not find URI escaped octet"},
      {"%TAG !e! tag:x\n%TAG !e! tag:y\n---\n", "yaml: line 1: found duplicate %TAG directive"},
      {"%TAG !e! tag:x,2000:\n--- !e!foo\na: 1\n---\n!e!x b\n",
       "yaml: line 4: found undefined tag handle"},
      {"---\nx: 1\n...\n%YAML 1.2\n---\na: 1\n", "yaml: line 3: found incompatible YAML document"},
  };
  expect_go_yaml_errors(cases);
}

TEST(GoYamlError, ValidDirectivesLoad) {
  for (std::string_view ok :
       {"%YAML 1.1 # c\n---\na: 1\n", "%TAG !e! tag:e.com,2000:\n--- !e!foo\na: 1\n",
        "%TAG !e! %41x\n---\n- !e!a b\n", "a: |\n %s\n", "abc\n%s\n"}) {
    SCOPED_TRACE(std::string(ok));
    diag::Diagnostics diags;
    (void)yaml::load(ok, "input.yaml", diags, ytt_yaml_options());
    EXPECT_TRUE(diags.empty());
  }
}

// ytt crashes on an incompatible %YAML on a text's first line (its line fix-up reaches line 0).
TEST(GoYamlError, IncompatibleYamlVersionOnTheFirstLineIsRefused) {
  diag::Diagnostics diags;
  (void)yaml::load("%YAML 1.2\n---\na: 1\n", "input.yaml", diags, ytt_yaml_options());
  ASSERT_FALSE(diags.empty());
  EXPECT_THROW(go_yaml_error(diags.items()[0], true), Unsupported);
}

TEST(GoYamlError, YamlDecodeKeepsTheClosingBracket) {
  diag::Diagnostics diags;
  (void)yaml::load("x: [1, 2", "", diags, ytt_yaml_options());
  ASSERT_FALSE(diags.empty());
  EXPECT_EQ(go_yaml_error(diags.items()[0], false),
            "yaml: line 1: did not find expected ',' or ']'");
}

}  // namespace
}  // namespace hintkit::ytt
