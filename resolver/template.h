// Internal: tazuna.yaml as a Go text/template, the way tazuna renders it before decoding
// (pkg/tmpl: `template.New(name).Option("missingkey=error")`, no extra functions, data
// `{Environment: "<-e value>"}`). The text after rendering keeps a map back to the source, so
// YAML positions still point at what the author wrote: literal text maps one to one, the output
// of an action maps to the action's `{{`.
//
// The text is parsed by Go's own parser (gotmpl/, the whole grammar, Go's error texts) and
// its tree is executed here. Executed: text, comments, trim markers, pipelines with `|`,
// `.Environment`, `.`, `$`, variables (`$x := ...`, `$x = ...`), every literal Go's lexer
// reads (numbers in any base, characters, quoted and raw strings, bool, nil), parentheses,
// `if`/`else if`/`else`/`with`/`end`, and the builtins and, or, not, eq, ne, lt, le, gt, ge,
// len, print, println, printf (%s %v %d %q %%). Anything else of text/template (range,
// define, template, block, break, continue, index, slice, html, js, urlquery, call, complex
// constants, other printf verbs) is refused with an `Error` naming it, never rendered
// differently. A string a function makes, the strings made and compared in one render, the
// rendered text and the variables alive at once are bounded (template.cpp's limits); past one,
// an HK003 diagnostic names it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diag/diag.h"

namespace hintkit::resolver {

struct TemplateData {
  std::string environment;
};

class Rendered {
 public:
  std::string text;
  // Where a 1-based position in `text` came from in the source.
  diag::Position source_position(diag::Position rendered) const;

  // Internal bookkeeping, filled by render_template.
  struct Segment {
    size_t out_begin;
    size_t src_begin;
    bool literal;
  };
  std::vector<Segment> segments;
  std::vector<size_t> out_lines, src_lines;  // offsets of line starts
  bool identity = true;
};

// Renders `source` (named `file` in messages). Parse and execution errors (an unknown field,
// an unclosed action) are HK316 diagnostics at their source position, and the result is
// then unusable (check diags). A text/template feature hintkit does not implement is an Error.
diag::Result<Rendered> render_template(std::string_view source, std::string_view file,
                                       const TemplateData& data, diag::Diagnostics& diags);

}  // namespace hintkit::resolver
