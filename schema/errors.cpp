// ytt's error blocks.
#include "schema/errors.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>

#include "yaml/yaml.h"

namespace hintkit::schema {

namespace {

constexpr int kUnprintableColumn = -1;
constexpr int kNoPositionColumn = -2;

// Every memory line of the process, numbered from 1 (few: one per item of a with_data_values
// argument). Libraries render the spans their caller made, so the table is not per run.
std::vector<std::string>& memory_lines() {
  static std::vector<std::string> lines;
  return lines;
}
std::mutex& memory_lines_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

diag::Span memory_span(std::string line) {
  std::lock_guard lock(memory_lines_mutex());
  auto& lines = memory_lines();
  lines.push_back(std::move(line));
  diag::Span s;
  s.begin.column = static_cast<int>(lines.size());
  return s;
}

diag::Span unprintable_memory_span() {
  diag::Span s;
  s.begin.column = kUnprintableColumn;
  return s;
}

diag::Span no_position_span() {
  diag::Span s;
  s.begin.column = kNoPositionColumn;
  return s;
}

bool is_no_position(const diag::Span& s) {
  return s.begin.line == 0 && s.file.empty() && s.begin.column == kNoPositionColumn;
}

bool is_unprintable_memory(const diag::Span& s) {
  return s.begin.line == 0 && s.file.empty() && s.begin.column == kUnprintableColumn;
}

const std::string* memory_line(const diag::Span& s) {
  if (s.begin.line != 0 || !s.file.empty() || s.begin.column <= 0) return nullptr;
  std::lock_guard lock(memory_lines_mutex());
  const auto& lines = memory_lines();
  const auto i = static_cast<size_t>(s.begin.column);
  return i <= lines.size() ? &lines[i - 1] : nullptr;
}

std::optional<std::string> go_quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      // Runes Go's unicode.IsPrint accepts for certain: Latin-1 letters and signs (not the
      // soft hyphen), Latin Extended-A/B and the CJK ideographs; any other is refused.
      uint32_t r = 0;
      size_t n = 0;
      if ((c >> 5) == 6) {
        r = c & 0x1F;
        n = 2;
      } else if ((c >> 4) == 14) {
        r = c & 0x0F;
        n = 3;
      } else {
        return std::nullopt;
      }
      if (i + n > s.size()) return std::nullopt;
      for (size_t k = 1; k < n; ++k) {
        const auto cc = static_cast<unsigned char>(s[i + k]);
        if ((cc & 0xC0) != 0x80) return std::nullopt;
        r = (r << 6) | (cc & 0x3F);
      }
      const bool printable =
          n == 2 ? r >= 0xA1 && r <= 0x24F && r != 0xAD : r >= 0x4E00 && r <= 0x9FFF;
      if (!printable) return std::nullopt;
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    switch (c) {
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  return out + "\"";
}

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

ErrorPlace place_of(const Files& files, const diag::Span& s) {
  if (s.begin.line <= 0 || memory_line(s) || is_no_position(s)) return {};
  const SourceFile* f = files.find(s.file);
  if (f && (!f->label.empty() || f->path.starts_with('\x01'))) return {};  // not a file
  return {s.file.str(), s.begin.line};
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

}  // namespace hintkit::schema

namespace hintkit::schema {

std::string go_yaml_error(const diag::Diagnostic& d, std::string_view text,
                          bool through_ytt_parser) {
  switch (yaml::error_kind(d)) {
    case yaml::ErrorKind::kUnsupportedLineBreak:
      // ytt reads on; its values and lines would differ from ours.
      throw Unsupported{
          "YAML with CR (without LF), NEL, LS or PS line breaks (U+000D, U+0085, U+2028, U+2029)"};
    case yaml::ErrorKind::kUnsupportedFlowColon:
      throw Unsupported{"YAML with a ':' and text right after '?', an anchor or a tag in [] or {}"};
    case yaml::ErrorKind::kUnsupportedNelNbspEscape:
      throw Unsupported{"YAML with the escapes \\N or \\_ in double-quoted text"};
    case yaml::ErrorKind::kUnsupportedEmptyExplicitKey:
      throw Unsupported{"YAML with an empty key after a '?' key indicator"};
    case yaml::ErrorKind::kUnsupportedFlowEntryLines:
      throw Unsupported{"YAML flow map entries without ':' that end on a later line"};
    case yaml::ErrorKind::kUnsupportedAnchorName:
      // go-yaml ends the name earlier than our parser does; the trees would differ.
      throw Unsupported{"YAML anchor or alias names followed by ':', '?', '%', '@' or '`'"};
    case yaml::ErrorKind::kIncompatibleYamlVersion:
      // ytt's parser (files, flag values and yaml.decode alike) puts a `---` line before a
      // text that does not start with one and takes one off the line go-yaml names; on the
      // text's first line that leaves line 0, where ytt crashes.
      if (d.span.begin.line == 1) {
        throw Unsupported{"a %YAML directive other than 1.1 on a file's first line (ytt crashes)"};
      }
      return yaml::go_yaml_message(d, text, through_ytt_parser);
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
