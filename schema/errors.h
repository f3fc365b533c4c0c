// Internal: ytt's error blocks ("Invalid schema - ..." with found/expected/hints).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schema/internal.h"

namespace hintkit::schema {

// One block of a schema error (ytt's `schemaAssertionError`): where (the node and the
// annotations that concern it), what was found, what was expected, and hints.
struct SchemaAssertion {
  std::vector<diag::Span> ann_positions = {};  // shown before the node's line, sorted by line
  diag::Span position = {};                    // the node
  std::string description = {};                // a line above the excerpt, may be empty
  std::string found = {};
  std::string expected = {};
  std::vector<std::string> hints = {};
  diag::Span by = {};  // where the expected type is declared, when known
};

// A whole schema error (ytt's `schemaError`): a summary with its underline, the blocks, and
// the text of other errors it wraps (each followed by " \n").
struct SchemaError {
  std::string summary = {};
  std::vector<SchemaAssertion> failures = {};
  std::string misc = {};
};

// Positions of values built in memory (`library.with_data_values(dict)`): unknown to ytt
// ("?"), but its error excerpts quote them as "Data value calculated:" with the item's line as
// Go's fmt prints it (`key: "value"`, `- 1`). Such a span has no file and line 0 (so every
// other use sees an unknown place); its column numbers the remembered line.
diag::Span memory_span(std::string line);
// A memory span whose line ytt would print as a Go pointer (`&yamlmeta.Map{...}`): a map or
// array value. No one can reproduce it, so an error that quotes it is refused.
diag::Span unprintable_memory_span();
// Where ytt holds a node with no position at all (a map a data value flag builds for its key
// path): an error that needs its place makes ytt crash, so hintkit refuses it.
diag::Span no_position_span();
bool is_no_position(const diag::Span& s);
// The line of a memory span; null for any other span (and for an unprintable one).
const std::string* memory_line(const diag::Span& s);
bool is_unprintable_memory(const diag::Span& s);
// Go's %#v of a string (strconv.Quote), or nullopt when it holds a rune whose printability
// this does not know (Go escapes unprintable runes by Unicode tables hintkit does not carry).
std::optional<std::string> go_quote(std::string_view s);

// How ytt names the file of a position: a file's path or its label; a flag's text by the
// flag's label, empty for a value parsed from a flag (ytt parses it under no name).
std::string file_label(const Files& files, const diag::Span& s);
// ytt's Position.AsCompactString: "file:line", "line" when the file has no name, "?" unknown.
std::string compact_position(const Files& files, const diag::Span& s);

// The error's text exactly as ytt prints it (the one place schema errors are rendered).
std::string render(const Files& files, const SchemaError& e);
// A span as a Problem's place: the input's path and line; empty for a place that is no file
// (a flag's text, a value in memory, an unknown line).
ErrorPlace place_of(const Files& files, const diag::Span& s);
// The error's blocks as problems, one per block at the node it shows (Outcome::problems).
std::vector<Problem> problems_of(const Files& files, const SchemaError& e);
// Stops the run with `e` (after the stage's "...: ").
[[noreturn]] void throw_schema(const Files& files, const SchemaError& e);

// A type mismatch the checker found, as one block: `at` is the annotation (default, example)
// whose value was checked, if any; its place is added to `found` as ` (at|by X)`.
SchemaAssertion assertion_of(const TypeProblem& p, const diag::Span* at = nullptr,
                             std::string_view at_word = "at");

}  // namespace hintkit::schema

namespace hintkit::schema {

// How go-yaml v2 (as vendored by ytt v0.48.0) words a YAML error that our loader reported as
// `d` for `text`: "yaml: line 2: did not find expected key". Errors of the loader go by their
// kind (`yaml::ErrorKind`, worded by `yaml::go_yaml_message`); limits keep our words.
// `through_ytt_parser`: files and flag values go through ytt's own parser, whose line fix-up
// cuts "did not find expected ',' or '}'" to "did not find expected ',' or '"; yaml.decode
// gets go-yaml's text unchanged. A line break go-yaml has and we do not (NEL, LS, PS) throws
// `Unsupported`.
std::string go_yaml_error(const diag::Diagnostic& d, std::string_view text,
                          bool through_ytt_parser);

}  // namespace hintkit::schema
