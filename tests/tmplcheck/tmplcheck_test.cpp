// The template checker: what dot and variables stand for through each construct, and each
// diagnostic at its place. A table of templates checked against one hint; each case lists
// "line:col CODE name" for every finding (HK405 at the hint's line), in order.
#include "tmplcheck/tmplcheck.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "hintfile/hintfile.h"

namespace hintkit::tmplcheck {
namespace {

constexpr std::string_view kHint = R"(vars:
  clusterName:
    type: string
  zones:
    type: slice
  labels:
    type: map
)";

std::vector<std::string> findings(std::string_view text, Flavor flavor = Flavor::kAny) {
  diag::Diagnostics hint_diags;
  hintfile::HintFile hint = hintfile::parse(kHint, "tazuna.hint.yaml", hint_diags);
  EXPECT_FALSE(hint_diags.has_errors());
  diag::Diagnostics diags;
  Usage usage;
  check_template(text, "helmfile.yaml", hint, flavor, usage, diags);
  report_unused(hint, usage, "helmfile.yaml", diags);
  std::vector<std::string> out;
  for (const diag::Diagnostic& d : diags.items()) {
    std::string line = std::to_string(d.span.begin.line) + ":" +
                       std::to_string(d.span.begin.column) + " " + d.code;
    if (!d.path.empty()) line += " " + d.path;
    for (const std::string& h : d.hints) line += " (" + h + ")";
    out.push_back(line);
  }
  return out;
}

// Uses every var, so the cases below show only what they are about.
constexpr std::string_view kAll = "{{.Values.clusterName}}{{.Values.zones}}{{.Values.labels}}";

struct Case {
  std::string_view name;
  std::string text;
  std::vector<std::string> want;
};

TEST(Check, DotAndVariablesThroughEveryConstruct) {
  const std::string all(kAll);
  const Case kCases[] = {
      {"declared vars through Values and StateValues",
       "{{.Values.clusterName}}\n"
       "{{.StateValues.zones}}{{.Values.labels.x}}",
       {}},
      {"a misspelt var, with did-you-mean",
       all + "\n{{ .StateValues.clsuterName }}",
       {"2:16 HK402 clsuterName (did you mean \"clusterName\"?)"}},
      {"inside an if that is never taken",
       all + "\n{{if false}}{{ .Values.zone }}{{end}}",
       {"2:23 HK402 zone (did you mean \"zones\"?)"}},
      {"in else branches",
       all + "{{if .Values.zones}}{{else if .Values.labels}}{{else}}\n{{.Values.nope}}{{end}}",
       {"2:10 HK402 nope"}},
      {"a field of the data that is not there", all + "{{if .a}}{{end}}", {"1:64 HK406"}},
      {"with moves dot to the vars",
       all + "\n{{with .Values}}{{.clustername}}{{end}}",
       {"2:19 HK402 clustername (did you mean \"clusterName\"?)"}},
      {"with's else keeps the outer dot",
       all + "\n{{with .Values.labels}}{{else}}{{.Values.nope}}{{end}}",
       {"2:41 HK402 nope"}},
      {"else with",
       all + "\n{{with .Values.labels}}{{else with .Values}}{{.nope}}{{end}}",
       {"2:47 HK402 nope"}},
      {"$ is the data inside with and range",
       all + "\n{{with .Values}}{{$.Values.nope}}{{end}}{{range .Values.zones}}{{$.Values.nop}}"
             "{{end}}",
       {"2:27 HK402 nope", "2:74 HK402 nop"}},
      {"a variable bound to the vars",
       all + "\n{{$v := .Values}}{{$v.nope}}{{$v.clusterName}}",
       {"2:22 HK402 nope"}},
      {"a variable bound in with",
       all + "\n{{with $v := .Values}}{{$v.nope}}{{end}}",
       {"2:27 HK402 nope"}},
      {"index with literal keys",
       all + "\n{{ index .Values \"ingresHost\" }}",
       {"2:18 HK402 ingresHost"}},
      {"index on the data", all + "\n{{ index . \"Values\" \"nope\" }}", {"2:21 HK402 nope"}},
      {"helmfile's get with a dotted path",
       all + "\n{{ get \"nope.x\" .Values }}",
       {"2:8 HK402 nope"}},
      {"helmfile's get with a default",
       all + "\n{{ get \"nope\" \"d\" .Values }}",
       {"2:8 HK402 nope"}},
      {"sprig's get and hasKey",
       all + "\n{{ sprigGet .Values \"nope\" }}{{hasKey .Values \"nop\"}}",
       {"2:21 HK402 nope", "2:47 HK402 nop"}},
      {"getOrNil, pluck, dig, pick",
       all + "\n{{getOrNil \"a\" .Values}}{{pluck \"b\" .Values}}{{dig \"c\" \"x\" .Values}}"
             "{{pick .Values \"d\"}}",
       {"2:12 HK402 a", "2:33 HK402 b", "2:52 HK402 c", "2:84 HK402 d"}},
      {"a field below a string var",
       all + "\n{{ .Values.clusterName.name }}",
       {"2:23 HK403 clusterName"}},
      {"a field below a slice var", all + "\n{{ .Values.zones.first }}", {"2:17 HK403 zones"}},
      {"a field below a map var is anything", all + "\n{{ .Values.labels.team.x }}", {}},
      {"range over a string var",
       all + "\n{{range .Values.clusterName}}{{end}}",
       {"2:9 HK404 clusterName"}},
      {"range over a string var through a variable",
       all + "\n{{$c := .Values.clusterName}}{{range $i, $e := $c}}{{end}}",
       {"2:48 HK404 clusterName"}},
      {"range over required's value",
       all + "\n{{range required \"m\" .Values.clusterName}}{{end}}",
       {"2:9 HK404 clusterName"}},
      {"range over a slice: dot is an element", all + "\n{{range .Values.zones}}{{.x}}{{end}}", {}},
      {"a misspelt field of the data",
       all + "\n{{ .Valuess.clusterName }}",
       {"2:4 HK406 (did you mean \"Values\"?)"}},
      {"a misspelt field of the environment",
       all + "\n{{ .Environment.Nmae }}",
       {"2:16 HK406 (did you mean \"Name\"?)"}},
      {"define called with the vars",
       all + "\n{{define \"d\"}}{{.nope}}{{end}}{{template \"d\" .Values}}",
       {"2:17 HK402 nope"}},
      {"block with the data",
       all + "\n{{block \"b\" .}}{{.Values.nope}}{{end}}",
       {"2:25 HK402 nope"}},
      {"unused vars are reported at the hint",
       "{{.Values.clusterName}}",
       {"4:3 HK405 zones", "6:3 HK405 labels"}},
      {"the vars handed whole to a function", "{{ toJson .Values }}", {}},
      {"the vars piped whole", "{{ .Values | toYaml }}", {}},
      {"the vars printed whole", "{{ .StateValues }}", {}},
      {"the vars ranged over", "{{ range $k, $v := .Values }}{{ $v }}{{ end }}", {}},
      {"a dynamic key", "{{ $k := \"x\" }}{{ index .Values $k }}", {}},
      {"a variable holding the vars handed on", "{{ $v := .Values }}{{ toJson $v }}", {}},
      {"the data passed to a helper defined elsewhere", "{{ template \"helper\" . }}", {}},
      {"a condition does not use the vars",
       "{{ if .Values }}{{ end }}",
       {"2:3 HK405 clusterName", "4:3 HK405 zones", "6:3 HK405 labels"}},
      {"a template that does not parse: no unused-var warnings",
       "{{ .Values.clusterName ",
       {"1:24 HK401"}},
      {"an unknown function, with did-you-mean",
       "{{ toJosn .Values }}",
       {"1:4 HK401 (did you mean \"toJson\"?)"}},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(c.name));
    EXPECT_EQ(findings(c.text), c.want);
  }
}

TEST(Check, TazunaRendersWithItsOwnFunctionsAndData) {
  // env is not in tazuna's map (it is in helmfile's), nor is helmfile's get.
  EXPECT_EQ(findings(std::string(kAll) + "{{ env \"HOME\" }}", Flavor::kTazuna),
            (std::vector<std::string>{"1:62 HK401"}));
  EXPECT_EQ(findings(std::string(kAll) + "{{ env \"HOME\" }}", Flavor::kAny),
            (std::vector<std::string>{}));
  EXPECT_EQ(findings(std::string(kAll) + "{{ toYaml .Values.labels }}", Flavor::kTazuna),
            (std::vector<std::string>{}));
  // .Namespace and .Environment.Values are helmfile's.
  EXPECT_EQ(findings(std::string(kAll) + "{{ .Namespace }}", Flavor::kTazuna),
            (std::vector<std::string>{"1:62 HK406"}));
  EXPECT_EQ(findings(std::string(kAll) + "{{ .Environment.Values.nope }}", Flavor::kAny),
            (std::vector<std::string>{"1:81 HK402 nope"}));
}

TEST(Check, RecursiveDefinesEnd) {
  EXPECT_EQ(
      findings(std::string(kAll) +
               "{{define \"r\"}}{{template \"r\" .}}{{.nope}}{{end}}{{template \"r\" .Values}}"),
      (std::vector<std::string>{"1:93 HK402 nope"}));
}

}  // namespace
}  // namespace hintkit::tmplcheck
