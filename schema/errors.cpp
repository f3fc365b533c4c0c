// ytt's error blocks.
#include "schema/errors.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "yaml/yaml.h"

namespace hintkit::schema {

std::string file_label(const Files& files, const diag::Span& s) {
  const SourceFile* f = files.find(s.file);
  if (f && (!f->label.empty() || f->path.starts_with('\x01'))) return f->label;  // not a file
  return s.file.str();
}

std::string compact_position(const Files& files, const diag::Span& s) {
  const std::string file = file_label(files, s);
  return (file.empty() ? "" : file + ":") + (s.begin.line > 0 ? std::to_string(s.begin.line) : "?");
}

namespace {

std::string line_number(const diag::Span& s) {
  return s.begin.line > 0 ? std::to_string(s.begin.line) : "?";
}

bool next_to(const diag::Span& a, const diag::Span& b) {
  return a.begin.line > 0 && b.begin.line > 0 && a.file == b.file &&
         std::abs(a.begin.line - b.begin.line) <= 1;
}

}  // namespace

// Follows the layout of ytt's error template line by line (pkg/schema/error.go).
std::string render(const Files& files, const SchemaError& e) {
  size_t width = 0;
  for (const auto& f : e.failures) width = std::max(width, line_number(f.position).size());
  auto pad = [&](const char* delim, const std::string& pos) {
    return "  " + std::string(width - std::min(width, pos.size()), ' ') + pos + " " + delim;
  };
  std::string out;
  if (!e.summary.empty()) {
    out += "\n" + e.summary + "\n" + std::string(e.summary.size(), '=') + "\n";
  }
  for (const auto& f : e.failures) {
    if (!f.description.empty()) out += "\n" + f.description;
    out += "\n" + file_label(files, f.position) + ":\n" + pad("|", "");
    std::vector<diag::Span> lines = f.ann_positions;
    std::stable_sort(lines.begin(), lines.end(), [](const diag::Span& a, const diag::Span& b) {
      if (a.begin.line <= 0) return b.begin.line > 0;
      if (b.begin.line <= 0) return false;
      return a.begin.line < b.begin.line;
    });
    lines.push_back(f.position);
    for (size_t i = 0; i < lines.size(); ++i) {
      if (i > 0 && !next_to(lines[i], lines[i - 1])) out += "\n" + pad("|", "") + " ...";
      const int l = lines[i].begin.line;
      out += "\n" + pad("|", line_number(lines[i])) + " " +
             (l > 0 ? files.line(lines[i].file, l) : std::string());
    }
    out += "\n" + pad("|", "") + "\n\n";
    if (!f.found.empty()) out += pad("=", "") + " found: " + f.found;
    out += "\n";
    if (!f.expected.empty()) out += pad("=", "") + " expected: " + f.expected;
    for (const auto& h : f.hints) out += "\n" + pad("=", "") + " hint: " + h;
    out += "\n";
  }
  out += e.misc + "\n";
  return out;
}

void throw_schema(const Files& files, const SchemaError& e) {
  // ytt prints a newline after the message; ours is added only when the text lacks one.
  std::string text = render(files, e);
  throw YttError{" " + text + "\n", 1, std::move(text)};
}

SchemaAssertion assertion_of(const TypeProblem& p, const diag::Span* at, std::string_view at_word) {
  SchemaAssertion a;
  a.position = p.at;
  if (at) a.ann_positions.push_back(*at);
  a.description = p.unknown_key ? "Given data value is not declared in schema" : "";
  a.found = p.found;
  if (at) a.found += " (" + std::string(at_word) + " " + pos_text(*at) + ")";
  a.expected = p.expected + " (" + (p.unknown_key ? "from " : "by ") + pos_text(p.by) + ")";
  if (!p.hint.empty()) a.hints.push_back(p.hint);
  return a;
}

}  // namespace hintkit::schema

namespace hintkit::schema {

std::string go_yaml_error(const diag::Diagnostic& d, std::string_view text,
                          bool through_ytt_parser) {
  switch (yaml::error_kind(d)) {
    case yaml::ErrorKind::kUnsupportedLineBreak:
      // ytt reads on; its values and lines would differ from ours.
      throw Unsupported{"YAML with NEL, LS or PS line breaks (U+0085, U+2028, U+2029)"};
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
