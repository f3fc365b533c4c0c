// Golden cases for `hintkit values`: fixtures/schema/<case>/ run as `hintkit values <cmd>`,
// expectations recorded from ytt v0.48.0 with "ytt: " replaced by "hintkit: " (see
// tests/support/golden.h for the layout and HINTKIT_UPDATE=1).
#include "tests/support/golden.h"

TEST(SchemaGolden, EveryCaseMatchesYttsOutput) {
  hintkit::testing::run_golden_cases({"schema"}, {"values"});
}

// @ytt: modules, the file set and load(), and the refusals of what hintkit does not do
// (fixtures/modules; refusals are hintkit's own expectations, the rest recorded from ytt).
TEST(ModulesGolden, EveryCaseMatchesYttsOutputOrIsRefused) {
  hintkit::testing::run_golden_cases({"modules"}, {"values"});
}

// The Starlark dialect inside templates: fixtures/starlark/<case>/ (the .star chunk files beside
// them are tests/starlark's); recorded from ytt, except where ytt panics (hintkit's own).
TEST(StarlarkGolden, EveryCaseMatchesYttsOutput) {
  hintkit::testing::run_golden_cases({"starlark"}, {"values"});
}

// Library modules: `@ytt:library`, `_ytt_lib` folders, `@library/ref` documents and
// `@lib:` flags (fixtures/library; recorded from ytt).
TEST(LibraryGolden, EveryCaseMatchesYttsOutput) {
  hintkit::testing::run_golden_cases({"library"}, {"values"});
}

// Text templates: `.txt` files evaluated in file order (their text goes to output files only),
// `.lib.txt` libraries loaded from YAML templates, the `(@ @)` forms, trimming and errors
// (fixtures/text; recorded from ytt).
TEST(TextTemplateGolden, EveryCaseMatchesYttsOutput) {
  hintkit::testing::run_golden_cases({"text"}, {"values"});
}

// `--strict`: ytt's strict YAML for input files, data values files and YAML flag values
// (fixtures/strict; recorded from ytt).
TEST(StrictYamlGolden, EveryCaseMatchesYttsOutput) {
  hintkit::testing::run_golden_cases({"strict"}, {"values"});
}
