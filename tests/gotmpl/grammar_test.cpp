// The grammar of Go's text/template: each template's trees printed back (Go's Node.String())
// or Go's parse error, as "template: t:LINE: message". The expectations were recorded from Go
// 1.19's text/template/parse (a small Go program printing the tree set), except the one marked:
// `{{else with}}`, which Go 1.23 added.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "gotmpl/gotmpl.h"

namespace hintkit::gotmpl {
namespace {

// The function map the recording used (text/template adds its builtins; parse.Parse does not).
bool recorded_funcs(std::string_view name) {
  static const std::set<std::string_view> kFuncs = {"f",  "toJson", "index", "len", "printf",
                                                    "eq", "and",    "not",   "get", "default"};
  return kFuncs.count(name) > 0;
}

std::string run(std::string_view text) {
  Options options;
  options.is_function = recorded_funcs;
  auto parsed = parse(text, "t", options);
  if (!parsed.ok()) {
    return "template: t:" + std::to_string(parsed.error().at.line) + ": " + parsed.error().message;
  }
  std::string out;
  for (const auto& [name, tree] : parsed->trees) out += "[" + name + "]" + to_string(*tree.root);
  return out;
}

struct Case {
  std::string_view input, want;
};

TEST(Grammar, TreesAndErrorsAsGoHasThem) {
  static const Case kCases[] = {
      {"", "[t]"},
      {"hello", "[t]hello"},
      {"{{.}}", "[t]{{.}}"},
      {"{{.Values.clusterName}}", "[t]{{.Values.clusterName}}"},
      {"{{ .Values.a.b.c }}", "[t]{{.Values.a.b.c}}"},
      {"{{$x := .Values}}{{$x.a}}", "[t]{{$x := .Values}}{{$x.a}}"},
      {"{{$x = 1}}", "[t]{{$x := 1}}"},
      {"{{$x := 1}}{{$x = 2}}{{$x}}", "[t]{{$x := 1}}{{$x := 2}}{{$x}}"},
      {"{{(.Values).a.b}}", "[t]{{(.Values).a.b}}"},
      {"{{(f .).x}}", "[t]{{(f .).x}}"},
      {"{{.a | f | printf \"%s\"}}", "[t]{{.a | f | printf \"%s\"}}"},
      {"{{if .a}}A{{else if .b}}B{{else}}C{{end}}",
       "[t]{{if .a}}A{{else}}{{if .b}}B{{else}}C{{end}}{{end}}"},
      {"{{with .Values}}{{.x}}{{else with .y}}Y{{end}}",
       "[t]{{with .Values}}{{.x}}{{else}}{{with .y}}Y{{end}}{{end}}"},
      {"{{with .Values}}{{.x}}{{else}}none{{end}}", "[t]{{with .Values}}{{.x}}{{else}}none{{end}}"},
      {"{{range $i, $v := .Values.list}}{{$i}}{{$v}}{{end}}",
       "[t]{{range $i, $v := .Values.list}}{{$i}}{{$v}}{{end}}"},
      {"{{range .a}}{{break}}{{continue}}{{end}}", "[t]{{range .a}}{{break}}{{continue}}{{end}}"},
      {"{{range .a}}x{{else}}y{{end}}", "[t]{{range .a}}x{{else}}y{{end}}"},
      {"{{define \"x\"}}body{{.}}{{end}}{{template \"x\" .Values}}",
       "[t]{{template \"x\" .Values}}[x]body{{.}}"},
      {"{{block \"b\" .}}inside{{end}}", "[b]inside[t]{{template \"b\" .}}"},
      {"{{template \"x\"}}", "[t]{{template \"x\"}}"},
      {"{{/* comment */}}a", "[t]a"},
      {"a  {{- /* c */ -}}  b", "[t]ab"},
      {"a  {{- .x -}}  b", "[t]a{{.x}}b"},
      {"{{- .x}}", "[t]{{.x}}"},
      {"{{`raw\\n`}}{{\"in\\tterp\"}}", "[t]{{`raw\\n`}}{{\"in\\tterp\"}}"},
      {"{{'a'}}{{'\\n'}}{{'\\x41'}}", "[t]{{'a'}}{{'\\n'}}{{'\\x41'}}"},
      {"{{1}}{{-1}}{{0x1F}}{{1.5}}{{1e3}}{{0b101}}{{0o17}}{{017}}{{1_000}}{{1i}}{{1+2i}}",
       "[t]{{1}}{{-1}}{{0x1F}}{{1.5}}{{1e3}}{{0b101}}{{0o17}}{{017}}{{1_000}}{{1i}}{{1+2i}}"},
      {"{{nil}}{{true}}{{false}}", "[t]{{nil}}{{true}}{{false}}"},
      {"{{index .Values \"k\"}}", "[t]{{index .Values \"k\"}}"},
      {"{{get \"a.b\" .Values}}", "[t]{{get \"a.b\" .Values}}"},
      {"{{eq .a \"x\" | not}}", "[t]{{eq .a \"x\" | not}}"},
      {"{{and .a (not .b)}}", "[t]{{and .a (not .b)}}"},
      {"{{.a}", "template: t:1: bad character U+007D '}'"},
      {"{{.a", "template: t:1: unclosed action"},
      {"{{if .a}}", "template: t:1: unexpected EOF"},
      {"{{end}}", "template: t:1: unexpected {{end}}"},
      {"{{else}}", "template: t:1: unexpected {{else}}"},
      {"{{if}}{{end}}", "template: t:1: missing value for if"},
      {"{{range}}{{end}}", "template: t:1: missing value for range"},
      {"{{$x}}", "template: t:1: undefined variable \"$x\""},
      {"{{undefinedfn 1}}", "template: t:1: function \"undefinedfn\" not defined"},
      {"{{break}}", "template: t:1: {{break}} outside {{range}}"},
      {"{{continue}}", "template: t:1: {{continue}} outside {{range}}"},
      {"{{range .a}}{{break 1}}{{end}}", "template: t:1: unexpected \"1\" in {{break}}"},
      {"{{.a | 1}}", "template: t:1: non executable command in pipeline stage 2"},
      {"{{(1).x}}", "[t]{{(1).x}}"},
      {"{{\"x\".y}}", "template: t:1: unexpected . after term \"\\\"x\\\"\""},
      {"{{.x.}}", "template: t:1: unexpected <.> in operand"},
      {"{{1x}}", "template: t:1: bad number syntax: \"1x\""},
      {"{{99999999999999999999}}", "template: t:1: integer overflow: \"99999999999999999999\""},
      {"{{0x}}", "template: t:1: illegal number syntax: \"0x\""},
      {"{{1__0}}", "template: t:1: illegal number syntax: \"1__0\""},
      {"{{'ab'}}", "template: t:1: malformed character constant: 'ab'"},
      {"{{'\\q'}}", "template: t:1: invalid syntax"},
      {"{{\"\\q\"}}", "template: t:1: invalid syntax"},
      {"{{\"abc}}", "template: t:1: unterminated quoted string"},
      {"{{`abc}}", "template: t:1: unterminated raw quoted string"},
      {"{{'a}}", "template: t:1: unterminated character constant"},
      {"{{/* unclosed", "template: t:1: unclosed comment"},
      {"{{/* x */ .a}}", "template: t:1: comment ends before closing delimiter"},
      {"{{ /* x */ }}", "template: t:1: unexpected \"/\" in command"},
      {"{{$x, $y := .a}}", "template: t:1: too many declarations in command"},
      {"{{range $x, $y, $z := .a}}{{end}}", "template: t:1: too many declarations in range"},
      {"{{range $x, 1}}{{end}}", "template: t:1: range can only initialize variables"},
      {"{{define \"x\"}}a{{end}}{{define \"x\"}}b{{end}}",
       "template: t:1: template: multiple definition of template \"x\""},
      {"{{define \"x\"}}{{end}}{{define \"x\"}}b{{end}}", "[t][x]b"},
      {"{{define x}}{{end}}", "template: t:1: unexpected \"x\" in define clause"},
      {"{{template x}}", "template: t:1: unexpected \"x\" in template clause"},
      {"{{.a (}}", "template: t:1: unclosed left paren"},
      {"{{.a )}}", "template: t:1: unexpected \")\" in command"},
      {"{{(.a}}", "template: t:1: unclosed left paren"},
      {"{{.a}}\n{{.b\n| f}}", "[t]{{.a}}\n{{.b | f}}"},
      {"line1\n{{ .a\n\n.b }}", "[t]line1\n{{.a .b}}"},
      {"{{#}}", "template: t:1: unexpected \"#\" in command"},
      {"{{.a@}}", "template: t:1: bad character U+0040 '@'"},
      {"{{\xc3\xa9"
       "}}",
       "template: t:1: function \"\xc3\xa9"
       "\" not defined"},
      {"{{.\xc3\xa9"
       "}}",
       "[t]{{.\xc3\xa9"
       "}}"},
      {"{{$\xc3\xa9"
       " := 1}}{{$\xc3\xa9"
       "}}",
       "[t]{{$\xc3\xa9"
       " := 1}}{{$\xc3\xa9"
       "}}"},
      {"{{.a :}}", "template: t:1: expected :="},
      {"{{if .a}}{{$x := 1}}{{end}}{{$x}}", "template: t:1: undefined variable \"$x\""},
      {"{{with $v := .a}}{{$v}}{{end}}", "[t]{{with $v := .a}}{{$v}}{{end}}"},
      {"{{if .a}}x{{else}}y{{else}}z{{end}}", "template: t:1: expected end; found {{else}}"},
      {"{{.a | .b}}", "[t]{{.a | .b}}"},
      {"{{.a | \"s\"}}", "template: t:1: non executable command in pipeline stage 2"},
      {"{{.a,}}", "template: t:1: unexpected \",\" in operand"},
      {"{{print 1 2 ,}}", "template: t:1: function \"print\" not defined"},
      {"{{1.5e}}", "template: t:1: illegal number syntax: \"1.5e\""},
      {"{{0x1.8}}", "template: t:1: illegal number syntax: \"0x1.8\""},
      {"{{0x1p4}}", "[t]{{0x1p4}}"},
      {"{{\"\\u00e9\"}}", "[t]{{\"\\u00e9\"}}"},
      {"{{\"\\ud800\"}}", "template: t:1: invalid syntax"},
      {"{{-}}", "template: t:1: illegal number syntax: \"-\""},
      {"{{- -}}", "template: t:1: illegal number syntax: \"-\""},
      {"{{ - }}", "template: t:1: illegal number syntax: \"-\""},
      {"{{.a -}}x", "[t]{{.a}}x"},
      {"{{$}}", "[t]{{$}}"},
      {"{{$.a}}", "[t]{{$.a}}"},
      {"{{.Values.a.b | printf \"%v\" | f}}", "[t]{{.Values.a.b | printf \"%v\" | f}}"},
      {"{{else if .a}}", "template: t:1: unexpected {{else}}"},
      {"{{if .a}}{{else if .b}}{{end}}{{end}}", "template: t:1: unexpected {{end}}"},
      {"{{template \"x\" | f}}", "template: t:1: unexpected \"|\" in template clause"},
      {"{{block \"b\"}}{{end}}", "template: t:1: missing value for block clause"},
      {"{{define \"x\"}}{{else}}{{end}}", "template: t:1: unexpected {{else}} in define clause"},
      {"{{range .a}}{{define \"y\"}}{{end}}{{end}}",
       "template: t:1: unexpected <define> in command"},
      {"{{ .a}}\r\n{{ .b }}", "[t]{{.a}}\r\n{{.b}}"},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(c.input));
    EXPECT_EQ(run(c.input), c.want);
  }
}

}  // namespace
}  // namespace hintkit::gotmpl
