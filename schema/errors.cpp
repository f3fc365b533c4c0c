// ytt's error blocks.
#include "schema/errors.h"

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
