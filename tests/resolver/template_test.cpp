// tazuna.yaml as a Go template: output, positions back into the source, errors, refusals.
#include "resolver/template.h"

#include <gtest/gtest.h>

namespace hintkit::resolver {
namespace {

struct Case {
  std::string_view source, environment, want;
};

TEST(Template, RendersAsGoTextTemplateDoes) {
  const Case cases[] = {
      {"path: ./overlays/{{ .Environment }}", "prod", "path: ./overlays/prod"},
      {"path: ./overlays/{{ .Environment }}", "", "path: ./overlays/"},
      {"no actions at all", "prod", "no actions at all"},
      {"a: {{ if eq .Environment \"prod\" }}443{{ else }}80{{ end }}", "prod", "a: 443"},
      {"a: {{ if eq .Environment \"prod\" }}443{{ else }}80{{ end }}", "stg", "a: 80"},
      {"a: {{ if eq .Environment \"a\" }}1{{ else if eq .Environment \"b\" }}2{{ else }}3{{ end }}",
       "b", "a: 2"},
      {"a: {{ if .Environment }}set{{ end }}.", "", "a: ."},
      {"a: {{ with .Environment }}<{{ . }}>{{ else }}none{{ end }}", "x", "a: <x>"},
      {"a: {{ with .Environment }}<{{ . }}>{{ else }}none{{ end }}", "", "a: none"},
      {"a:   {{- .Environment -}}   !", "x", "a:x!"},
      {"a: {{/* a comment */}}b", "x", "a: b"},
      {"a: {{- /* trimmed */ -}} b", "x", "a:b"},
      {"a: {{ $e := .Environment }}{{ $e }}-{{ $.Environment }}", "x", "a: x-x"},
      {"a: {{ printf \"%s-%d-%q\" .Environment 7 .Environment }}", "x", "a: x-7-\"x\""},
      {"a: {{ .Environment | printf \"[%s]\" }}", "x", "a: [x]"},
      // %q is strconv.Quote: \r by name, unprintable runes as \u, invalid UTF-8 as \x.
      {"a: {{ printf \"%q\" .Environment }}", "x\r\u00a0\u00e9\xff",
       "a: \"x\\r\\u00a0\u00e9\\xff\""},
      {"a: {{ print 1 2 \"s\" 3 }}", "", "a: 1 2s3"},
      {"a: {{ len .Environment }} {{ not .Environment }} {{ and 1 0 }} {{ or 0 \"y\" }}", "abc",
       "a: 3 false 0 y"},
      {"a: {{ lt 1 2 }} {{ ge \"b\" \"a\" }} {{ ne .Environment \"x\" }} {{ 0x10 }} {{ 1.5 }}", "x",
       "a: true true false 16 1.5"},
      {"a: {{ (.Environment) }}", "q", "a: q"},
      {"a: {{ 1e6 }} {{ 123456.0 }} {{ 0.00001 }} {{ 2.50 }}", "", "a: 1e+06 123456 1e-05 2.5"},
      {"a: {{ and .Environment .Unknown }}", "", "a: "},  // and/or stop at the deciding operand
      {"a: {{ or .Environment .Unknown }}", "x", "a: x"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.source);
    diag::Diagnostics d;
    auto r = render_template(c.source, "t.yaml", TemplateData{std::string(c.environment)}, d);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_TRUE(d.empty()) << d.items()[0].message;
    EXPECT_EQ(r->text, c.want);
  }
}

TEST(Template, PositionsPointIntoTheSource) {
  const std::string src = "a: {{ .Environment }}-x\nb: {{ if true }}\n  c: 1{{ end }}\nd: 2\n";
  diag::Diagnostics d;
  auto r = render_template(src, "t.yaml", TemplateData{"production"}, d);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->text, "a: production-x\nb: \n  c: 1\nd: 2\n");
  struct P {
    diag::Position rendered, source;
  };
  const P cases[] = {
      {{1, 1}, {1, 1}},    // literal text before the action
      {{1, 4}, {1, 4}},    // the action's output maps to its {{
      {{1, 10}, {1, 4}},   // still inside the output
      {{1, 14}, {1, 22}},  // "-x" after the action
      {{3, 3}, {3, 3}},    // inside the if
      {{4, 1}, {4, 1}},
  };
  for (const P& p : cases) {
    SCOPED_TRACE(std::to_string(p.rendered.line) + ":" + std::to_string(p.rendered.column));
    EXPECT_EQ(r->source_position(p.rendered), p.source);
  }
}

struct ErrorCase {
  std::string_view source, message;
  int line, column;
};

TEST(Template, ErrorsAreDiagnosticsAtTheirPlace) {
  const ErrorCase cases[] = {
      {"a: 1\nb: {{ .Unknown }}", "can't evaluate field Unknown in type tmpl.Data", 2, 7},
      // Parse errors are Go's (gotmpl), where Go's parser stood: at the end for what the
      // text leaves open.
      {"a: {{ .Environment ", "unclosed action", 1, 20},
      {"a: {{ if true }}x", "unexpected EOF", 1, 18},
      {"a: {{ end }}", "unexpected {{end}}", 1, 7},
      {"a: {{ 1__0 }}", "illegal number syntax: \"1__0\"", 1, 7},
      {"a: {{ /* c */ }}", "unexpected \"/\" in command", 1, 7},
      {"a: {{ nosuch 1 }}", "function \"nosuch\" not defined", 1, 7},
      {"a: {{ eq 1 \"x\" }}", "incompatible types for comparison", 1, 7},
      // Go's parser places a chain of fields at its last one.
      {"a: {{ .Environment.Name }}", "can't evaluate field Name in type string", 1, 19},
      {"a: {{ $x }}", "undefined variable \"$x\"", 1, 7},
      {"a: {{ nil }}", "nil is not a command", 1, 7},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.source);
    diag::Diagnostics d;
    auto r = render_template(c.source, "t.yaml", TemplateData{"e"}, d);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d.items()[0].code, "HK316");
    EXPECT_NE(d.items()[0].message.find(c.message), std::string::npos) << d.items()[0].message;
    EXPECT_EQ(d.items()[0].span.begin, (diag::Position{c.line, c.column}));
  }
}

// Named templates as Go runs them (outputs recorded from Go 1.19's text/template).
TEST(Template, DefineTemplateAndBlockRunAsGoRunsThem) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      // The call's pipeline is the dot; `$` is the dot the call was given.
      {"{{define \"host\"}}{{.}}.example.com{{end}}x: {{template \"host\" .Environment}}",
       "x: prod.example.com"},
      {"{{define \"d\"}}{{printf \"%v|\" $}}{{with .}}[{{.}}]{{end}}{{end}}{{template \"d\" 1}}",
       "1|[1]"},
      // Without a pipeline the dot is nil; a block defines its name and calls it there.
      {"{{define \"n\"}}{{.}}{{end}}{{template \"n\"}}|{{block \"b\" .Environment}}<{{.}}>{{end}}",
       "<no value>|<prod>"},
      // A define of the main template's own name stands in for an empty main text.
      {"{{define \"t.yaml\"}}main{{end}}  \n", "main"},
      // Variables the call's pipeline declares stay the caller's.
      {"{{define \"e\"}}{{.}}{{end}}{{template \"e\" $v := \"a\"}}{{$v}}", "aa"},
      // A recursion that ends on its dot.
      {"{{define \"r\"}}{{.}}{{if ne . \"stop\"}}{{template \"r\" \"stop\"}}{{end}}{{end}}"
       "{{template \"r\" \"go\"}}",
       "gostop"},
  };
  for (const auto& [source, want] : cases) {
    SCOPED_TRACE(source);
    diag::Diagnostics d;
    auto r = render_template(source, "t.yaml", TemplateData{"prod"}, d);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(d.empty()) << d.items()[0].message;
    EXPECT_EQ(r->text, want);
  }
  // Errors Go's execution stops with: an undefined name, a caller's variable (a call sees
  // none), a recursion that never ends (Go's maxExecDepth, 100,000 calls).
  const std::pair<std::string_view, std::string_view> errors[] = {
      {"{{template \"nope\"}}", "template \"nope\" not defined"},
      {"{{$y := 1}}{{define \"v\"}}{{$y}}{{end}}{{template \"v\"}}", "undefined variable"},
      {"{{define \"a\"}}{{template \"a\" .}}{{end}}{{template \"a\" .}}",
       "exceeded maximum template depth (100000)"},
  };
  for (const auto& [source, message] : errors) {
    SCOPED_TRACE(source);
    diag::Diagnostics d;
    auto r = render_template(source, "t.yaml", TemplateData{"prod"}, d);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d.items()[0].code, "HK316");
    EXPECT_NE(d.items()[0].message.find(message), std::string::npos) << d.items()[0].message;
  }
}

// printf's verbs on every kind of operand, as Go's fmt prints them (recorded from Go 1.19).
TEST(Template, PrintfComplainsAsGoFmtDoes) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"{{printf \"%s|%s|%s|%s\" 1 true 1.5 .}}",
       "%!s(int=1)|%!s(bool=true)|%!s(float64=1.5)|{prod}"},
      {"{{printf \"%v|%v|%v|%v|%v\" 1 true 1.5 . nil}}", "1|true|1.5|{prod}|<nil>"},
      {"{{printf \"%d|%d|%d|%d\" true 1.5 . 7}}",
       "%!d(bool=true)|%!d(float64=1.5)|{%!d(string=prod)}|7"},
      {"{{printf \"%s %d\" nil nil}}", "%!s(<nil>) %!d(<nil>)"},
      {"{{printf \"x\" nil 1 \"s\" true .}}",
       "x%!(EXTRA <nil>, int=1, string=s, bool=true, tmpl.Data={prod})"},
      // html, js and urlquery escape what fmt.Sprint prints, nil given as "<no value>".
      {"{{js \"a\\\"b'c\\\\d<>&=\\t\\x01 \xC3\xA9 \xE2\x80\x8B x\" 1 nil}}",
       "a\\\"b\\'c\\\\d\\u003C\\u003E\\u0026\\u003D\\u0009\\u0001 \xC3\xA9 \\u200B x1\\u003Cno "
       "value\\u003E"},
      {"{{html \"<a href=\\\"x\\\">&'</a>\" 1 2 nil}}",
       "&lt;a href=&#34;x&#34;&gt;&amp;&#39;&lt;/a&gt;1 2&lt;no value&gt;"},
      {"{{urlquery \"a b/c?d=\xC3\xA9&~\" 1 2 true nil}}",
       "a+b%2Fc%3Fd%3D%C3%A9%26~1+2+true%3Cno+value%3E"},
  };
  for (const auto& [source, want] : cases) {
    SCOPED_TRACE(source);
    diag::Diagnostics d;
    auto r = render_template(source, "t.yaml", TemplateData{"prod"}, d);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(d.empty());
    EXPECT_EQ(r->text, want);
  }
}

TEST(Template, FeaturesHintkitDoesNotImplementAreRefusedByName) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"{{ range .Environment }}x{{ end }}", "`range`"},
      {"{{ define \"x\" }}{{ range . }}{{ end }}{{ end }}", "`range`"},  // in any tree
      {"{{ index .Environment 0 }}", "`index`"},
      {"{{ printf \"%x\" 1 }}", "%x"},
  };
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "{{ if true }}";
  std::string parens = "{{ " + std::string(100000, '(') + "1" + std::string(100000, ')') + " }}";
  const std::pair<std::string, std::string_view> limits[] = {{deep, "nesting deeper than 500"},
                                                             {parens, "nesting deeper than 500"}};
  for (const auto& [source, feature] : limits) {
    diag::Diagnostics d;
    auto r = render_template(source, "t.yaml", TemplateData{"e"}, d);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find(feature), std::string::npos) << r.error().message;
  }
  for (const auto& [source, feature] : cases) {
    SCOPED_TRACE(source);
    diag::Diagnostics d;
    auto r = render_template(source, "t.yaml", TemplateData{"e"}, d);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find(feature), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("not supported"), std::string::npos);
  }
}

TEST(Template, VariablesShadowAndEndWithTheirScopeAsInGo) {
  const Case cases[] = {
      {"{{ $x := \"a\" }}{{ if true }}{{ $x := \"b\" }}{{ $x }}{{ end }}{{ $x }}", "", "ba"},
      {"{{ $x := \"a\" }}{{ if true }}{{ $x = \"b\" }}{{ end }}{{ $x }}", "", "b"},
      {"{{ $x := \"a\" }}{{ with $x := \"c\" }}{{ $x }}{{ end }}{{ $x }}", "", "ca"},
      {"{{ $x := 1 }}{{ $x := 2 }}{{ $x }}", "", "2"},
      {"{{ $x := 1 }}{{ if true }}{{ $x := 2 }}{{ $x := 3 }}{{ $x = 4 }}{{ $x }}{{ end }}{{ $x }}",
       "", "41"},
      {"{{ $x := 1 }}{{ if false }}{{ else }}{{ $x := 5 }}{{ $x }}{{ end }}{{ $x }}", "", "51"},
      {"{{ $a := 1 }}{{ $b := 2 }}{{ if true }}{{ $a := 3 }}{{ $b = 4 }}{{ end }}{{ $a }}{{ $b }}",
       "", "14"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.source);
    diag::Diagnostics d;
    auto r = render_template(c.source, "t.yaml", TemplateData{std::string(c.environment)}, d);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_TRUE(d.empty()) << d.items()[0].message;
    EXPECT_EQ(r->text, c.want);
  }
  diag::Diagnostics d;
  auto r = render_template("{{ if true }}{{ $y := 1 }}{{ end }}{{ $y }}", "t.yaml", {}, d);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d.items()[0].message.find("undefined variable \"$y\""), std::string::npos);
}

// The first $v0 sits at the bottom of the stack: a search from the top walked every variable
// for each use (1,000,000 variables and 100,000 uses ran past 300 s).
TEST(Template, ManyVariablesAreFoundWithoutWalkingTheStack) {
  std::string src;
  for (int i = 0; i + 1 < 100000; ++i)
    src += "{{ $v" + std::to_string(i) + " := " + std::to_string(i) + " }}";
  for (int i = 0; i < 100000; ++i) src += "{{ $v0 }}";
  src += "{{ $v99998 }}";
  diag::Diagnostics d;
  auto r = render_template(src, "t.yaml", {}, d);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(d.empty()) << d.items()[0].message;
  EXPECT_EQ(r->text, std::string(100000, '0') + "99998");
  // One more than the limit (with `$`) is an error naming it.
  src = "";
  for (int i = 0; i < 100000; ++i) src += "{{ $v" + std::to_string(i) + " := 1 }}";
  r = render_template(src, "t.yaml", {}, d);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.items()[0].code, "HK003");
  EXPECT_NE(d.items()[0].message.find("more than 100000 variables"), std::string::npos)
      << d.items()[0].message;
}

std::string doubled(int times) {
  std::string src = "{{ $x := \"ab\" }}";
  for (int i = 0; i < times; ++i) src += "{{ $x = print $x $x }}";
  return src;
}

TEST(Template, StringsOutputAndWorkAreBounded) {
  // 40 doublings asked for 2 TiB (3.7 GB were taken before the process died).
  struct LimitCase {
    std::string source, message;
    int column;
  };
  const std::string mib = doubled(19);  // $x: 1 MiB, at the limit of a made string
  std::string copies = mib, compares = mib, outputs = mib;
  for (int i = 0; i < 64; ++i) copies += "{{ $y := print $x }}";
  for (int i = 0; i < 64; ++i) compares += "{{ eq $x $x }}";
  for (int i = 0; i < 65; ++i) outputs += "{{ $x }}";
  const LimitCase cases[] = {
      {doubled(40), "print makes a string over the limit of 1048576 bytes",
       static_cast<int>(doubled(19).size()) + 9},
      {mib + "{{ printf \"%s%s\" $x $x }}", "printf makes a string over the limit", 0},
      {mib + "{{ println $x }}", "println makes a string over the limit", 0},
      {copies, "make or compare more than 67108864 bytes of strings", 0},
      {compares, "make or compare more than 67108864 bytes of strings", 0},
      {outputs, "the rendered text is over the limit of 67108864 bytes", 0},
  };
  for (const LimitCase& c : cases) {
    SCOPED_TRACE(c.message);
    diag::Diagnostics d;
    auto r = render_template(c.source, "t.yaml", {}, d);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d.items()[0].code, "HK003");
    EXPECT_NE(d.items()[0].message.find(c.message), std::string::npos) << d.items()[0].message;
    if (c.column) {
      EXPECT_EQ(d.items()[0].span.begin, (diag::Position{1, c.column}));
    }
  }
  // Up to the limits all is rendered.
  diag::Diagnostics d;
  auto r = render_template(mib + "{{ len $x }}", "t.yaml", {}, d);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(d.empty()) << d.items()[0].message;
  EXPECT_EQ(r->text, "1048576");
}

}  // namespace
}  // namespace hintkit::resolver
