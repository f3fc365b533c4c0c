// The fast parser: a hand-written, single-pass YAML reader for the subset of YAML that config
// files use, emitting exactly the events (and marks) yaml-cpp's parser would emit for the same
// text, into the same `YAML::EventHandler` (the loader's `Builder`). So both paths build their
// trees with one builder, and the trees agree by construction wherever the events agree.
//
// Entry point `fast_parse(source, handler)`. It returns false ("declined") as soon as it meets
// anything outside its subset or a syntax error; the loader then starts over with yaml-cpp,
// which produces the error messages. Declining is always safe; emitting an event that
// yaml-cpp would not emit is a bug (tests/yaml/fast_parser_test.cpp compares both paths).
// Two syntax errors are reported here instead (`SyntaxProblem`), because yaml-cpp accepts
// them: a block map line whose key has no `:`, and a key where a block list's next `- ` item
// belongs (yaml-cpp starts a new document there).
//
// Covered: block maps and sequences (compact `- key: v`, sequences not indented under their
// key, `- - x`), nested flow maps and sequences, single-line plain scalars, single/double-quoted
// scalars (all escapes, multi-line folding), literal/folded block scalars with chomping and
// indentation indicators, comments, `---`/`...`, anchors, aliases, `!!tag`/`!tag`.
// Declined: directives, `? ` keys, multi-line plain scalars, flow keys, compact maps
// inside flow sequences, properties in front of keys, tabs outside quoted/block scalars and
// comments, CR line ends, a byte-order mark, nesting deeper than kMaxFastDepth.
#pragma once

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>

#include <string>
#include <string_view>

#include "yaml/yaml.h"

namespace hintkit::yaml::internal {

// yaml-cpp's own recursion guard stops at 500 nested nodes; stay clear of it.
inline constexpr int kMaxFastDepth = 400;

// yaml-cpp's events, with scalars handed over as a view (most are slices of the source, so
// no string is made for them on the way).
class FastHandler : public YAML::EventHandler {
 public:
  virtual void OnScalarView(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                            std::string_view value) = 0;
};

// A syntax error the fast parser is sure of: yaml-cpp would accept the input (it reads a key
// line without `:` as a key with a null value, and items after a finished top-level list as
// a new document), so the loader reports this instead of asking yaml-cpp.
struct SyntaxProblem {
  YAML::Mark mark;
  ErrorKind kind = ErrorKind::kNone;
};

// Emits the events for every document of `source` into `handler`. Returns false when the
// input is outside the supported subset (events emitted so far must then be discarded); when
// it is certainly invalid, also fills `*problem` (if given). Exceptions thrown by `handler`
// propagate.
bool fast_parse(std::string_view source, FastHandler& handler, SyntaxProblem* problem = nullptr);

}  // namespace hintkit::yaml::internal
