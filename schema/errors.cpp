// ytt's error blocks.
#include "schema/errors.h"

#include <algorithm>
#include <cctype>

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

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Byte offset of a 1-based line:column in `text` (clamped to its end).
size_t offset_of(std::string_view text, const diag::Position& p) {
  size_t off = 0;
  for (int line = 1; line < p.line && off < text.size(); ++line) {
    size_t nl = text.find('\n', off);
    if (nl == std::string_view::npos) return text.size();
    off = nl + 1;
  }
  return std::min(text.size(), off + static_cast<size_t>(std::max(0, p.column - 1)));
}

int line_count(std::string_view text) {
  int n = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  return text.empty() || text.back() == '\n' ? n : n + 1;
}

std::string_view line_at(std::string_view text, int line) {
  size_t begin = offset_of(text, {line, 1});
  size_t end = text.find('\n', begin);
  return text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
}

size_t indentation(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  return i;
}

// A block sequence item at the same indentation before `line`: go-yaml then wants a `-`.
bool follows_sequence_item(std::string_view text, int line) {
  size_t indent = indentation(line_at(text, line));
  for (int l = line - 1; l >= 1; --l) {
    std::string_view prev = line_at(text, l);
    if (prev.find_first_not_of(' ') == std::string_view::npos) continue;
    size_t pi = indentation(prev);
    if (pi < indent) return false;
    if (pi == indent) return starts_with(prev.substr(pi), "- ") || prev.substr(pi) == "-";
  }
  return false;
}

// The innermost `[` or `{` still open before `end` (quotes and comments skipped), or 0.
char innermost_open_bracket(std::string_view text, size_t end) {
  std::string open;
  char quote = 0;
  for (size_t i = 0; i < end && i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\n')) {
      while (i < end && text[i] != '\n') ++i;
    } else if (c == '[' || c == '{') {
      open += c;
    } else if ((c == ']' || c == '}') && !open.empty()) {
      open.pop_back();
    }
  }
  return open.empty() ? 0 : open.back();
}

}  // namespace

std::string go_yaml_error(const diag::Diagnostic& d, std::string_view text,
                          bool through_ytt_parser) {
  std::string msg = d.message;
  if (starts_with(msg, "syntax error: ")) msg = msg.substr(14);
  int line = d.span.begin.line;
  auto with_line = [](int l, const std::string& m) {
    return l > 0 ? "yaml: line " + std::to_string(l) + ": " + m : "yaml: " + m;
  };
  // Scanner errors: go-yaml names the line where the problem is, as we do.
  if (msg == "unterminated quoted string") return with_line(line, "found unexpected end of stream");
  if (starts_with(msg, "unknown escape character")) {
    return with_line(line, "found unknown escape character");
  }
  if (msg == "unknown token") return with_line(line, "found character that cannot start any token");
  if (msg == "document marker inside a quoted string") {
    return with_line(line, "found unexpected document indicator");
  }
  if (msg == "unexpected character in block scalar") {
    return with_line(line, "did not find expected comment or line break");
  }
  if (msg == "anchor not found after &" || msg == "alias not found after *" ||
      msg == "illegal character found while scanning alias") {
    return with_line(line, "did not find expected alphabetic or numeric character");
  }
  if (msg == "unexpected ':' (a map value is not allowed here)") {
    bool tab_indent = starts_with(line_at(text, line), "\t");
    return with_line(line, tab_indent ? "found character that cannot start any token"
                                      : "mapping values are not allowed in this context");
  }
  if (msg == "unexpected '-' (a list item is not allowed here)") {
    return with_line(line, "block sequence entries are not allowed in this context");
  }
  if (msg == "missing ':' after a map key") {
    // Reported when the next token arrives; ytt's go-yaml counts comments as tokens.
    int next = line + 1;
    while (next <= line_count(text) &&
           line_at(text, next).find_first_not_of(" \t") == std::string_view::npos) {
      ++next;
    }
    return with_line(next, "could not find expected ':'");
  }
  // Parser errors: go-yaml names the line before the offending token.
  if (msg == "expected '- ' (a list item) at this indentation") {
    return with_line(line - 1, "did not find expected '-' indicator");
  }
  if (msg == "':' with no key before it") return with_line(line - 1, "did not find expected key");
  if (msg == "bad indentation of a list item (end of list not found)") {
    return with_line(line - 1, "did not find expected '-' indicator");
  }
  if (msg == "a new document needs '---' before it") {
    return with_line(line - 1, "did not find expected <document start>");
  }
  if (msg == "bad indentation or missing ':' (end of map not found)") {
    return with_line(line - 1, follows_sequence_item(text, line)
                                   ? "did not find expected '-' indicator"
                                   : "did not find expected key");
  }
  bool flow_map = starts_with(msg, "unclosed '{'");
  if (flow_map || starts_with(msg, "unclosed '['")) {
    // go-yaml stops at the first token that is neither ',' nor the closing bracket: a ':'
    // that made a plain scalar run on into a key (our loader points at it), else the end of
    // the input, which libyaml places at the start of the line after the last one.
    size_t at = offset_of(text, d.span.begin);
    bool at_colon = at < text.size() && text[at] == ':';
    int go_line = at_colon ? line - 1 : line_count(text);
    size_t last = text.find_last_not_of(" \t\r\n");
    char before = at_colon || last == std::string_view::npos ? '\0' : text[last];
    if (before == '[' || before == '{' || before == ',') {
      return with_line(go_line, "did not find expected node content");
    }
    std::string closing = flow_map ? "}'" : "]'";
    return with_line(go_line,
                     "did not find expected ',' or '" + (through_ytt_parser ? "" : closing));
  }
  if (msg == "unexpected closing bracket") {
    // What go-yaml expected instead depends on where the bracket stands (a parser error:
    // the line before).
    size_t at = offset_of(text, d.span.begin);
    if (char open = innermost_open_bracket(text, at)) {
      std::string closing = open == '{' ? "}'" : "]'";
      return with_line(line - 1,
                       "did not find expected ',' or '" + (through_ytt_parser ? "" : closing));
    }
    size_t line_start = offset_of(text, {line, 1});
    bool starts_line =
        text.substr(line_start, at - line_start).find_first_not_of(' ') == std::string_view::npos;
    return with_line(
        line - 1, starts_line ? "did not find expected key" : "did not find expected node content");
  }
  if (msg == "alias refers to an undefined anchor") {
    size_t at = offset_of(text, d.span.begin);
    size_t star = text.find('*', at);
    // go-yaml reads an alias name as letters, digits, '_' and '-'.
    std::string name;
    for (size_t i = star == std::string_view::npos ? text.size() : star + 1; i < text.size(); ++i) {
      char c = text[i];
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') break;
      name += c;
    }
    return "yaml: unknown anchor '" + name + "' referenced";
  }
  // cannot read "abc" as !!int (it reads as string)
  if (starts_with(msg, "cannot read \"")) {
    size_t q = msg.find("\" as !!");
    size_t sp = msg.find(' ', q == std::string::npos ? 0 : q + 5);
    size_t reads = msg.find("(it reads as ");
    if (q != std::string::npos && sp != std::string::npos && reads != std::string::npos) {
      std::string kind = msg.substr(reads + 13, msg.size() - reads - 14);
      std::string tag = kind == "string" ? "!!str" : "!!" + kind;
      return "yaml: cannot decode " + tag + " `" + msg.substr(13, q - 13) + "` as a " +
             msg.substr(q + 5, sp - q - 5);
    }
  }
  return with_line(line, msg);
}

}  // namespace hintkit::schema
