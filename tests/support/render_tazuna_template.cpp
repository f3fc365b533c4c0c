// Renders one tazuna.yaml Go template as hintkit's resolver does, for
// scripts/diff_tazuna_templates.py (which runs Go's text/template on the same input).
//
//   render_tazuna_template FILE ENVIRONMENT
//
// Exit status: 0 rendered (the text on stdout); 1 a diagnostic of the template (its message on
// stderr); 2 a text/template feature hintkit refuses (its message on stderr), or FILE unreadable.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "diag/diag.h"
#include "resolver/template.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: render_tazuna_template FILE ENVIRONMENT\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "cannot read " << argv[1] << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  hintkit::diag::Diagnostics diags;
  auto rendered = hintkit::resolver::render_template(
      text.str(), argv[1], hintkit::resolver::TemplateData{argv[2]},
      diags);  // named by its path, as tazuna names it
  if (!rendered.ok()) {
    std::cerr << rendered.error().message << "\n";
    return 2;
  }
  if (!diags.empty()) {
    for (const auto& d : diags.items()) std::cerr << d.code << ": " << d.message << "\n";
    return 1;
  }
  std::cout << rendered->text;
  return 0;
}
