// texttemplate: ytt's pkg/texttemplate. Text with `(@ code @)` and `(@= expr @)` compiles to
// the Starlark program of ytt/template (a text root whose pieces are text nodes and code);
// `-` after `(@` or before `@)` trims the white space on that side. Start at
// `eval_text_template` (a `.txt` template of the file set); `start_text_template` is the same
// compiler for a YAML string under `@yaml/text-templated-strings` (ytt/yamltemplate).
#pragma once

#include <string>
#include <vector>

#include "ytt/files/files.h"
#include "ytt/template/template.h"

namespace hintkit::ytt {

// Evaluates `file` as a ytt text template and returns its text; its globals are kept for
// load(). Throws TemplateError: `compile` set for a template that does not parse ("Parsing text
// template 'x': ...").
std::string eval_text_template(Files& files, const SourceFile& file, sl::Thread& thread);

// Compiles `text` (its first line is source line `start_line` of `c`'s file) into `out`: a
// text context is opened (ytt's set_ctx_type, start_ctx), a text root started and each piece
// added under it; the caller ends the context. Throws CompileProblem (the parser's messages,
// "Unexpected code opening '(@' at line 1 col 4").
void start_text_template(CompiledTemplate& c, const std::string& text, int start_line,
                         std::vector<CodeLine>& out);

}  // namespace hintkit::ytt
