// The fast parser: a hand-written, single-pass YAML reader for the subset of YAML that config
// files use, emitting exactly the events (and marks) yaml-cpp's parser would emit for the same
// text, into the same `YAML::EventHandler` (the loader's `Builder`). So both paths build their
// trees with one builder, and the trees agree by construction wherever the events agree.
//
// Entry point `fast_parse(source, handler)`. It returns false ("declined") as soon as it meets
// anything outside its subset or any syntax error; the loader then starts over with yaml-cpp,
// which also produces today's error messages. Declining is always safe; emitting an event that
// yaml-cpp would not emit is a bug (tests/yaml/fast_parser_test.cpp compares both paths).
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

#include <string>
#include <string_view>

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

// Emits the events for every document of `source` into `handler`. Returns false when the
// input is outside the supported subset (events emitted so far must then be discarded).
// Exceptions thrown by `handler` propagate.
bool fast_parse(std::string_view source, FastHandler& handler);

}  // namespace hintkit::yaml::internal
