// Internal: ytt's error blocks ("Invalid schema - ..." with found/expected/hints).
#pragma once

#include <string>
#include <vector>

#include "schema/internal.h"

namespace hintkit::schema {

struct SchemaProblem {
  std::string title;    // after "Invalid schema - "; empty: "Invalid schema"
  std::string summary;  // a line before the excerpt, may be empty
  std::string file;
  std::vector<int> lines;
  std::string found, expected;
  std::vector<std::string> hints;
  // ytt reports some problems as a block inside an outer "Invalid schema" error, which ends
  // the inner block with an extra " \n" line.
  bool nested = false;
};

std::string schema_problem_text(const Files& files, const SchemaProblem& p);
[[noreturn]] void throw_schema(const Files& files, SchemaProblem p);

}  // namespace hintkit::schema

namespace hintkit::schema {

// How go-yaml v2 (as vendored by ytt v0.48.0) words a YAML error that our loader reported as
// `d` for `text`: "yaml: line 2: did not find expected key". Errors of the loader go by their
// kind (`yaml::ErrorKind`, worded by `yaml::go_yaml_message`); limits keep our words.
// `through_ytt_parser`: files and flag values go through ytt's own parser, whose line fix-up
// cuts "did not find expected ',' or '}'" to "did not find expected ',' or '"; yaml.decode
// gets go-yaml's text unchanged.
std::string go_yaml_error(const diag::Diagnostic& d, std::string_view text,
                          bool through_ytt_parser);

}  // namespace hintkit::schema
