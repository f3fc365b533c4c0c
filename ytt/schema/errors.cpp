// ytt's schema error blocks (pkg/schema/error.go), rendered in one place.
#include <algorithm>
#include <cstdlib>

#include "ytt/schema/schema.h"

namespace hintkit::ytt {

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
    if (const std::string* line = memory_line(f.position)) {
      // ytt's FromMemory excerpt: the line it made up, between `#` rules.
      out += "\nData value calculated:\n" + pad("#", "") + "\n" + pad("#", "") + " " + *line +
             "\n" + pad("#", "") + "\n\n";
    } else {
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
    }
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
  throw YttError{" " + text + "\n", 1, std::move(text), problems_of(files, e)};
}

std::vector<Problem> problems_of(const Files& files, const SchemaError& e) {
  std::vector<Problem> out;
  for (const SchemaAssertion& f : e.failures) {
    // One line: the summary, the line the block shows, its description, then what was found
    // and what was expected.
    std::string message = e.summary;
    if (const ErrorPlace at = place_of(files, f.position); at.line > 0) {
      std::string source = files.line(f.position.file, at.line);
      const size_t first = source.find_first_not_of(" \t");
      source = first == std::string::npos ? "" : source.substr(first);
      if (!source.empty()) message += " (" + source + ")";
    }
    auto add = [&](const std::string& part) {
      if (part.empty()) return;
      message += (message.empty() ? "" : ": ") + part;
    };
    add(f.description);
    std::string found_expected;
    if (!f.found.empty()) found_expected = "found " + f.found;
    if (!f.expected.empty()) {
      found_expected +=
          (found_expected.empty() ? "" : ", ") + std::string("expected ") + f.expected;
    }
    add(found_expected);
    for (const std::string& h : f.hints) message += " (hint: " + h + ")";
    Problem p{place_of(files, f.position), message};
    for (const diag::Span& a : f.ann_positions) {
      if (ErrorPlace at = place_of(files, a); at.line > 0) p.related.push_back({at, "annotation"});
    }
    if (ErrorPlace by = place_of(files, f.by); by.line > 0) {
      p.related.push_back({by, "expected type declared here"});
    }
    out.push_back(std::move(p));
  }
  return out;
}

SchemaAssertion assertion_of(const TypeProblem& p, const diag::Span* at, std::string_view at_word) {
  SchemaAssertion a;
  a.position = p.at;
  if (at) a.ann_positions.push_back(*at);
  a.description = p.unknown_key ? "Given data value is not declared in schema" : "";
  a.found = p.found;
  if (at) a.found += " (" + std::string(at_word) + " " + pos_text(*at) + ")";
  // ytt names the expected type only when the type's definition has a known place (a schema
  // given by library.with_data_values_schema has none): "expected:  (by ?)".
  const bool named = p.unknown_key || p.by.begin.line > 0;
  a.expected =
      (named ? p.expected : "") + " (" + (p.unknown_key ? "from " : "by ") + pos_text(p.by) + ")";
  if (!p.hint.empty()) a.hints.push_back(p.hint);
  a.by = p.by;
  return a;
}
}  // namespace hintkit::ytt
