// Pure helpers of the language server's features: text scanning that must stay linear on
// lines of any length, and URIs.
#include "lsp/features.h"

#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

namespace hintkit::lsp {
namespace {

TEST(DidYouMean, TakesTheFirstWellFormedSuggestion) {
  struct Case {
    std::string hint;
    std::optional<std::string> want;
  };
  const std::vector<Case> cases = {
      {"did you mean \"required\"?", "required"},
      {"unknown key; did you mean \"type\"? or not", "type"},
      {"did you mean \"\"? did you mean \"b\"?", "b"},  // empty names are no suggestion
      {"did you mean \"a\" did you mean \"b\"?", "b"},  // "a" is not followed by ?
      {"did you mean \"open", std::nullopt},
      {"no suggestion", std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.hint);
    EXPECT_EQ(did_you_mean(c.hint), c.want);
  }
}

TEST(DidYouMean, LongHintsAreScannedNotRecursed) {
  // std::regex recursed once per character here: 100,000 characters overflowed the stack.
  const std::string name(100000, 'x');
  EXPECT_EQ(did_you_mean("did you mean \"" + name + "\"?"), name);
  std::string repeated;
  for (int i = 0; i < 20000; ++i) repeated += "did you mean \"";
  EXPECT_EQ(did_you_mean(repeated), std::nullopt);
}

TEST(YttErrorLine, PlacesTheFirstReferenceToTheFile) {
  struct Case {
    std::string message;
    int want;
  };
  const std::vector<Case> cases = {
      {"values.yaml:3 | replicas: many\n", 3},
      {"in other.yaml:9 then values.yaml:12", 12},
      {"values.yaml:x values.yaml:7", 7},
      {"Overlaying data values (in following order: values.yaml):\n\nvalues.yaml:\n    |\n"
       "  4 | replicas: many\n",
       4},
      {"values.yaml:\n  no excerpt here\n", 1},
      {"nothing about the file", 1},
      {"values.yaml:99999999999999999999", std::numeric_limits<int>::max()},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    EXPECT_EQ(ytt_error_line(c.message, "values.yaml"), c.want);
  }
}

TEST(YttErrorLine, LongLinesAreScannedNotRecursed) {
  // A ytt error text with a 100,000-character line (an excerpt of a long value).
  const std::string blob(100000, 'a');
  EXPECT_EQ(ytt_error_line("values.yaml:\n  " + blob + "\n  8 | x: " + blob + "\n", "values.yaml"),
            8);
  EXPECT_EQ(ytt_error_line(blob + "\n" + blob, "values.yaml"), 1);
}

TEST(PathOfUri, BadEscapesAreCharactersNotErrors) {
  // `%zz` reached std::stoi, whose exception ended the server.
  struct Case {
    std::string uri, want;
  };
  const std::vector<Case> cases = {
      {"file:///a/b%20c.yaml", "/a/b c.yaml"},
      {"file:///a/%7e%7E", "/a/~~"},
      {"file:///a/%zz", "/a/%zz"},
      {"file:///a/%", "/a/%"},
      {"file:///a/%4", "/a/%4"},
      {"file:///a/%4g", "/a/%4g"},
      {"file:///a/%00b", ""},  // a NUL names no file
      {"untitled:x", ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.uri);
    EXPECT_EQ(path_of_uri(c.uri), c.want);
  }
  EXPECT_EQ(path_of_uri(uri_of_path("/a b/%zz/é")), "/a b/%zz/é");
}


TEST(Classify, HelmfilesByTheNamesTazunaRenders) {
  for (const char* name : {"helmfile.yaml.gotmpl", "helmfile.yaml", "helmfile.yml.gotmpl",
                           "helmfile.yml"}) {
    EXPECT_EQ(classify(std::string("/w/app/") + name, ""), DocKind::kHelmfile) << name;
  }
  EXPECT_EQ(classify("/w/app/helmfile.gotmpl", ""), DocKind::kOther);
  EXPECT_EQ(classify("/w/app/Helmfile.yaml", ""), DocKind::kOther);
}

// A helmfile checked against the hint open beside it (not on disk): HK402 at `.clsuterName`
// with a fix that replaces only the name; completion after `.Values.` offers the hint's vars.
TEST(Helmfile, DiagnosticsFixesAndCompletionFromTheOpenHint) {
  const std::string hint = "vars:\n  clusterName:\n    type: string\n";
  Document doc;
  doc.path = "/nonexistent-hintkit-dir/helmfile.yaml";
  doc.uri = uri_of_path(doc.path);
  doc.text = "x: {{ .Values.clsuterName }}\n";
  doc.kind = classify(doc.path, doc.text);
  OpenText open = [&](const std::string& path) -> const std::string* {
    return path == "/nonexistent-hintkit-dir/tazuna.hint.yaml" ? &hint : nullptr;
  };
  nlohmann::json diags = diagnostics(doc, open);
  ASSERT_EQ(diags.size(), 1u) << diags.dump();
  EXPECT_EQ(diags[0]["code"], "HK402");
  EXPECT_EQ(diags[0]["range"]["start"]["character"], 13);
  EXPECT_EQ(diags[0]["data"]["range"]["start"]["character"], 14);
  EXPECT_EQ(diags[0]["data"]["replacement"], "clusterName");
  doc.text += "y: {{ .Values. }}\n";  // as typed: does not parse yet
  nlohmann::json items = completion(doc, 1, 14, open);
  ASSERT_EQ(items.size(), 1u) << items.dump();
  EXPECT_EQ(items[0]["label"], "clusterName");
  EXPECT_TRUE(completion(doc, 0, 3, open).empty());
  OpenText nothing_open = [](const std::string&) -> const std::string* { return nullptr; };
  EXPECT_TRUE(diagnostics(doc, nothing_open).empty());  // no hint in the folder: nothing to check
}

}  // namespace
}  // namespace hintkit::lsp
