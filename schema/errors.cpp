// ytt's error blocks.
#include "schema/errors.h"

#include "yaml/yaml.h"

namespace hintkit::schema {

std::string schema_problem_text(const Files& files, const SchemaProblem& p) {
  std::string head = p.title.empty() ? "Invalid schema" : "Invalid schema - " + p.title;
  std::string out = head + "\n" + std::string(head.size(), '=') + "\n\n";
  if (!p.summary.empty()) out += p.summary + "\n";
  out += excerpt(files, p.file, p.file, p.lines) + "\n";
  out += p.found.empty() ? "\n" : "    = found: " + p.found + "\n";
  out += p.expected.empty() ? "\n" : "    = expected: " + p.expected + "\n";
  for (const auto& h : p.hints) out += "    = hint: " + h + "\n";
  out += p.nested ? "\n \n\n\n" : "\n\n";
  return out;
}

void throw_schema(const Files& files, SchemaProblem p) {
  throw YttError{" \n" + schema_problem_text(files, p)};
}

}  // namespace hintkit::schema

namespace hintkit::schema {

std::string go_yaml_error(const diag::Diagnostic& d, std::string_view text,
                          bool through_ytt_parser) {
  switch (yaml::error_kind(d)) {
    case yaml::ErrorKind::kNone:
      // Limits (HK003) and problems found after loading: our words at go-yaml's place.
      return d.span.begin.line > 0
                 ? "yaml: line " + std::to_string(d.span.begin.line) + ": " + d.message
                 : "yaml: " + d.message;
    default:
      // Every error kind of the loader: go-yaml's words, which the yaml module owns.
      return yaml::go_yaml_message(d, text, through_ytt_parser);
  }
}

}  // namespace hintkit::schema
