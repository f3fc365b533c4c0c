// go-yaml v2's wording of the loader's errors (see `go_yaml_message` in yaml.h). One case per
// error kind; the kinds come from the parser paths, never from reading a message.
#include <algorithm>
#include <cctype>

#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {
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

// Whether the last entry before `line` (blank and comment lines skipped) is a `-` with no
// value at `line`'s indentation: go-yaml then reads the next token as that entry's node and
// finds no node content there, rather than a missing `-`.
bool follows_empty_sequence_entry(std::string_view text, int line) {
  size_t indent = indentation(line_at(text, line));
  for (int l = line - 1; l >= 1; --l) {
    std::string_view prev = line_at(text, l);
    size_t first = prev.find_first_not_of(" \t");
    if (first == std::string_view::npos || prev[first] == '#') continue;
    if (first != indent || prev[first] != '-') return false;
    std::string_view rest = prev.substr(first + 1);
    size_t after = rest.find_first_not_of(" \t\r");
    return after == std::string_view::npos || (after > 0 && rest[after] == '#');
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

std::string with_line(int line, std::string_view m) {
  std::string out = line > 0 ? "yaml: line " + std::to_string(line) + ": " : "yaml: ";
  out += m;
  return out;
}

// Our own words at go-yaml's place, for kinds go-yaml has no spelling of.
std::string own_words(const diag::Diagnostic& d) {
  std::string_view msg = d.message;
  if (starts_with(msg, "syntax error: ")) msg.remove_prefix(14);
  return with_line(d.span.begin.line, msg);
}

// The line go-yaml names for a parser error at `at`: the token's 0-based line, which is the
// line before in our 1-based count; at the end of an input without a final line break the
// scanner has already moved the end onto a line of its own.
int parser_error_line(std::string_view text, const diag::Position& at) {
  bool unterminated_end = offset_of(text, at) >= text.size() && !text.empty() &&
                          text.back() != '\n' && text.back() != '\r';
  return unterminated_end ? at.line : at.line - 1;
}

// `text` and `at` (the offset of the token the parser could not take) tell which directive a
// duplicate is.
std::string parser_problem(ErrorKind kind, bool through_ytt_parser, std::string_view text,
                           size_t at) {
  switch (kind) {
    case ErrorKind::kDuplicateDirective:
      return starts_with(text.substr(std::min(at, text.size())), "%YAML")
                 ? "found duplicate %YAML directive"
                 : "found duplicate %TAG directive";
    case ErrorKind::kIncompatibleYamlVersion:
      return "found incompatible YAML document";
    case ErrorKind::kMissingKey:
      return "did not find expected key";
    case ErrorKind::kMissingDash:
      return "did not find expected '-' indicator";
    case ErrorKind::kMissingDocumentMarker:
      return "did not find expected <document start>";
    case ErrorKind::kUndefinedTagHandle:
      return "found undefined tag handle";
    case ErrorKind::kMissingFlowListEntryEnd:
      return through_ytt_parser ? "did not find expected ',' or '"
                                : "did not find expected ',' or ']'";
    case ErrorKind::kMissingFlowMapEntryEnd:
      return through_ytt_parser ? "did not find expected ',' or '"
                                : "did not find expected ',' or '}'";
    default:
      return "did not find expected node content";
  }
}

// A parser error's words, from go-yaml's parser when it stops on `text` (some reported kinds
// name where a collection's end went wrong rather than go-yaml's problem); "" when it does not
// stop at a parser error.
std::string modelled_parser_error(std::string_view text, bool through_ytt_parser) {
  internal::GoScan go =
      internal::go_yaml_scan(text, std::string_view::npos, internal::ytt_puts_document_start(text));
  // An undefined alias is the decoder's error, worded with no line.
  if (!go.parser_error || go.kind == ErrorKind::kUndefinedAlias) return "";
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  diag::Position at = internal::position_at(starts, go.offset);
  return with_line(parser_error_line(text, at),
                   parser_problem(go.kind, through_ytt_parser, text, go.offset));
}

bool is_parser_kind(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kMissingDash:
    case ErrorKind::kMissingKey:
    case ErrorKind::kEndOfListNotFound:
    case ErrorKind::kEndOfMapNotFound:
    case ErrorKind::kMissingDocumentMarker:
    case ErrorKind::kUnclosedFlowMap:
    case ErrorKind::kUnclosedFlowList:
    case ErrorKind::kUnexpectedClosingBracket:
    case ErrorKind::kMissingNodeContent:
    case ErrorKind::kMissingFlowListEntryEnd:
    case ErrorKind::kMissingFlowMapEntryEnd:
    case ErrorKind::kUndefinedTagHandle:
    case ErrorKind::kDuplicateDirective:
    case ErrorKind::kIncompatibleYamlVersion:
      return true;
    default:
      return false;
  }
}

// go-yaml names no line for an error on line 0 of what it parsed: ytt's parser (files, flag
// values and yaml.decode alike) puts a `---` line before a text that does not start with one,
// so that is the text's first line only when it starts with `---` (ytt's test: optional white
// space, `---`, white space).
bool first_line_unnamed(std::string_view text) { return !internal::ytt_puts_document_start(text); }

}  // namespace

namespace {
std::string go_yaml_words(const diag::Diagnostic& d, std::string_view text,
                          bool through_ytt_parser);

// NEL, LS or PS: line breaks of go-yaml's that only the model of its scanner follows.
bool has_go_only_line_break(std::string_view text) {
  return text.find("\xC2\x85") != std::string_view::npos ||
         text.find("\xE2\x80\xA8") != std::string_view::npos ||
         text.find("\xE2\x80\xA9") != std::string_view::npos;
}

// go-yaml's words for the error the model of its scanner and parser stops at in `text`, with
// lines counted as go-yaml counts them; "" when the model stops at no error of `d`'s kind.
std::string modelled_error_at_go_lines(const diag::Diagnostic& d, std::string_view text,
                                       bool through_ytt_parser) {
  internal::GoScan go =
      internal::go_yaml_scan(text, std::string_view::npos, internal::ytt_puts_document_start(text));
  const ErrorKind kind = go.kind != ErrorKind::kNone ? go.kind : go.unnamed;
  if (kind == ErrorKind::kNone || kind != error_kind(d)) return "";
  const std::vector<size_t> starts = internal::go_line_starts(text);
  const diag::Position at = internal::position_at(starts, go.offset);
  if (kind == ErrorKind::kUndefinedAlias) {  // the decoder's words, with the alias's name
    std::string name;
    for (size_t i = go.offset + 1; i < text.size(); ++i) {
      char c = text[i];
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') break;
      name += c;
    }
    return "yaml: unknown anchor '" + name + "' referenced";
  }
  if (go.parser_error) {
    // The token's 0-based line; at the end of an input without a final line break, the line
    // the scanner moved the end onto.
    const bool unterminated_end = go.offset >= text.size() && starts.back() < text.size();
    return with_line(unterminated_end ? at.line : at.line - 1,
                     parser_problem(kind, through_ytt_parser, text, go.offset));
  }
  if (kind == ErrorKind::kMissingColon) {
    return with_line(go.problem_line + 1, "could not find expected ':'");
  }
  diag::Diagnostic at_go_line = d;
  at_go_line.span.begin = at_go_line.span.end = at;
  std::string m = go_yaml_words(at_go_line, text, through_ytt_parser);
  if (m.rfind("yaml: line 1: ", 0) == 0 && first_line_unnamed(text)) m.erase(6, 8);
  return m;
}

}  // namespace

namespace internal {
// go-yaml's scanner reports these; the other syntax kinds are its parser's.
bool is_scanner_kind(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUnterminatedQuote:
    case ErrorKind::kUnknownEscape:
    case ErrorKind::kUnknownToken:
    case ErrorKind::kDocumentMarkerInQuote:
    case ErrorKind::kBadBlockScalarHeader:
    case ErrorKind::kBadAnchorOrAlias:
    case ErrorKind::kUnexpectedColon:
    case ErrorKind::kUnexpectedDash:
    case ErrorKind::kUnexpectedKeyIndicator:
    case ErrorKind::kMissingColon:
    case ErrorKind::kTabInIndentation:
    case ErrorKind::kTabInBlockScalarIndentation:
    case ErrorKind::kBadTagUri:
    case ErrorKind::kZeroIndentationIndicator:
    case ErrorKind::kBadHexEscape:
    case ErrorKind::kBadUnicodeEscape:
    case ErrorKind::kTagNotFollowedBySpace:
    case ErrorKind::kBadDirective:
      return true;
    default:
      return false;
  }
}
}  // namespace internal

ErrorKind error_kind(const diag::Diagnostic& d) {
  if (d.kind == 0 || d.kind > static_cast<uint16_t>(ErrorKind::kOther)) return ErrorKind::kNone;
  return static_cast<ErrorKind>(d.kind);
}

std::string go_yaml_message(const diag::Diagnostic& d, std::string_view text,
                            bool through_ytt_parser) {
  // Positions count go-yaml's lines, which a CR without LF ends (as the loader read them).
  if (internal::has_lone_cr(text)) {
    return go_yaml_message(d, internal::with_lone_cr_as_lf(text), through_ytt_parser);
  }
  if (has_go_only_line_break(text)) {
    std::string modelled = modelled_error_at_go_lines(d, text, through_ytt_parser);
    if (!modelled.empty()) return modelled;
  }
  if (is_parser_kind(error_kind(d))) {
    std::string modelled = modelled_parser_error(text, through_ytt_parser);
    if (!modelled.empty()) return modelled;
  }
  std::string m = go_yaml_words(d, text, through_ytt_parser);
  // A scanner error on line 1 (go-yaml's line 0) that go-yaml names with no line.
  if (m.rfind("yaml: line 1: ", 0) == 0 && internal::is_scanner_kind(error_kind(d)) &&
      first_line_unnamed(text)) {
    m.erase(6, 8);
  }
  return m;
}

namespace {

std::string go_yaml_words(const diag::Diagnostic& d, std::string_view text,
                          bool through_ytt_parser) {
  const int line = d.span.begin.line;
  switch (error_kind(d)) {
    case ErrorKind::kNone:
    case ErrorKind::kOther:
    case ErrorKind::kUnsupportedLineBreak:  // no error of go-yaml's
    case ErrorKind::kUnsupportedFlowColon:
    case ErrorKind::kUnsupportedEmptyExplicitKey:
    case ErrorKind::kUnsupportedNelNbspEscape:
    case ErrorKind::kUnsupportedAnchorName:
    case ErrorKind::kUnsupportedFlowEntryLines:
      return own_words(d);
    case ErrorKind::kBadMerge:
      return "yaml: map merge requires map or sequence of maps as the value";
    case ErrorKind::kBadBinary:  // go-yaml's decoder names no line
      return "yaml: !!binary value contains invalid base64 data";
    case ErrorKind::kAnchorContainsItself:  // nor here
      return "yaml: anchor '" + d.kind_detail + "' value contains itself";
    case ErrorKind::kStrictScalar:  // go-yaml's failf in the decoder names no line
      return "yaml: " + d.kind_detail;
    // The reader's errors name no line.
    case ErrorKind::kControlCharacter:
      return "yaml: control characters are not allowed";
    case ErrorKind::kInvalidUtf8:
      return "yaml: " +
             (d.kind_detail.empty() ? std::string("invalid leading UTF-8 octet") : d.kind_detail);
    // Scanner errors: go-yaml names the line where the problem is, as we do.
    case ErrorKind::kUnterminatedQuote:
      return with_line(line, "found unexpected end of stream");
    case ErrorKind::kUnknownEscape:
      return with_line(line, "found unknown escape character");
    case ErrorKind::kUnknownToken:
      return with_line(line, "found character that cannot start any token");
    case ErrorKind::kDocumentMarkerInQuote:
      return with_line(line, "found unexpected document indicator");
    case ErrorKind::kBadBlockScalarHeader:
      return with_line(line, "did not find expected comment or line break");
    case ErrorKind::kBadAnchorOrAlias:
      return with_line(line, "did not find expected alphabetic or numeric character");
    case ErrorKind::kUnexpectedColon: {
      // A tab-indented line is one where go-yaml finds no token to start, unless the model of
      // its scanner gets to this `:` (the tab was in a plain scalar's continuation).
      internal::GoScan go = internal::go_yaml_scan(text, std::string_view::npos,
                                                   internal::ytt_puts_document_start(text));
      bool model_here = go.kind == ErrorKind::kNone && go.unnamed == ErrorKind::kUnexpectedColon &&
                        go.offset == offset_of(text, d.span.begin);
      bool tab_indent = !model_here && starts_with(line_at(text, line), "\t");
      return with_line(line, tab_indent ? "found character that cannot start any token"
                                        : "mapping values are not allowed in this context");
    }
    case ErrorKind::kUnexpectedDash:
      return with_line(line, "block sequence entries are not allowed in this context");
    case ErrorKind::kUnexpectedKeyIndicator:
      return with_line(line, "mapping keys are not allowed in this context");
    case ErrorKind::kTabInIndentation:
      return with_line(line, "found a tab character that violates indentation");
    case ErrorKind::kTabInBlockScalarIndentation:
      return with_line(line, "found a tab character where an indentation space is expected");
    case ErrorKind::kBadTagUri:
      return with_line(line, "did not find expected tag URI");
    case ErrorKind::kZeroIndentationIndicator:
      return with_line(line, "found an indentation indicator equal to 0");
    case ErrorKind::kBadHexEscape:
      return with_line(line, "did not find expected hexdecimal number");
    case ErrorKind::kBadUnicodeEscape:
      return with_line(line, "found invalid Unicode character escape code");
    case ErrorKind::kTagNotFollowedBySpace:
      return with_line(line, "did not find expected whitespace or line break");
    case ErrorKind::kBadDirective:
      return with_line(line, internal::directive_problem(text, offset_of(text, d.span.begin)));
    case ErrorKind::kUndefinedTagHandle:
    case ErrorKind::kDuplicateDirective:
    case ErrorKind::kIncompatibleYamlVersion:
    case ErrorKind::kMissingNodeContent:
    case ErrorKind::kMissingFlowListEntryEnd:
    case ErrorKind::kMissingFlowMapEntryEnd:
      return with_line(
          parser_error_line(text, d.span.begin),
          parser_problem(error_kind(d), through_ytt_parser, text, offset_of(text, d.span.begin)));
    case ErrorKind::kMissingColon: {
      // Reported where go-yaml's scanner found the key stale, which the model knows.
      internal::GoScan go = internal::go_yaml_scan(text, std::string_view::npos,
                                                   internal::ytt_puts_document_start(text));
      if (go.kind == ErrorKind::kMissingColon && go.offset == offset_of(text, d.span.begin)) {
        return with_line(go.problem_line + 1, "could not find expected ':'");
      }
      // Reported when the next token arrives, after the key (a plain key runs on over more
      // indented lines); go-yaml counts comments as tokens.
      size_t at = offset_of(text, d.span.begin);
      bool plain = at < text.size() && text[at] != '"' && text[at] != '\'';
      size_t key_column = static_cast<size_t>(std::max(0, d.span.begin.column - 1));
      int next = line + 1;
      for (; next <= line_count(text); ++next) {
        std::string_view l = line_at(text, next);
        size_t first = l.find_first_not_of(" \t");
        if (first == std::string_view::npos) continue;
        if (!plain || indentation(l) <= key_column || l[first] == '#') break;
        bool ends_here = false;  // a `:` or a comment after the continued text
        for (size_t i = first; i < l.size() && !ends_here; ++i) {
          ends_here = (l[i] == ':' && (i + 1 == l.size() || l[i + 1] == ' ')) ||
                      (l[i] == '#' && (l[i - 1] == ' ' || l[i - 1] == '\t'));
        }
        if (ends_here) break;
      }
      return with_line(next, "could not find expected ':'");
    }
    // Parser errors: go-yaml names the line before the offending token.
    case ErrorKind::kMissingDash:
    case ErrorKind::kEndOfListNotFound:
      return with_line(line - 1, follows_empty_sequence_entry(text, line)
                                     ? "did not find expected node content"
                                     : "did not find expected '-' indicator");
    case ErrorKind::kMissingKey:
      return with_line(line - 1, "did not find expected key");
    case ErrorKind::kMissingDocumentMarker:
      return with_line(line - 1, "did not find expected <document start>");
    case ErrorKind::kEndOfMapNotFound:
      return with_line(line - 1, follows_sequence_item(text, line)
                                     ? "did not find expected '-' indicator"
                                     : "did not find expected key");
    case ErrorKind::kUnclosedFlowMap:
    case ErrorKind::kUnclosedFlowList: {
      // go-yaml stops at the first token that is neither ',' nor the closing bracket: a ':'
      // that made a plain scalar run on into a key (the position points at it), else the end
      // of the input, which libyaml places at the start of the line after the last one.
      bool flow_map = error_kind(d) == ErrorKind::kUnclosedFlowMap;
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
    case ErrorKind::kUnexpectedClosingBracket: {
      // What go-yaml expected instead depends on where the bracket stands.
      size_t at = offset_of(text, d.span.begin);
      if (char open = innermost_open_bracket(text, at)) {
        std::string closing = open == '{' ? "}'" : "]'";
        return with_line(line - 1,
                         "did not find expected ',' or '" + (through_ytt_parser ? "" : closing));
      }
      size_t line_start = offset_of(text, {line, 1});
      bool starts_line =
          text.substr(line_start, at - line_start).find_first_not_of(' ') == std::string_view::npos;
      return with_line(line - 1, starts_line ? "did not find expected key"
                                             : "did not find expected node content");
    }
    case ErrorKind::kUndefinedAlias: {
      size_t at = offset_of(text, d.span.begin);
      size_t star = text.find('*', at);
      // go-yaml reads an alias name as letters, digits, '_' and '-'.
      std::string name;
      for (size_t i = star == std::string_view::npos ? text.size() : star + 1; i < text.size();
           ++i) {
        char c = text[i];
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') break;
        name += c;
      }
      return "yaml: unknown anchor '" + name + "' referenced";
    }
    case ErrorKind::kParserStalled:
      return own_words(d);
    case ErrorKind::kTagMismatch: {
      // kind_detail: "<resolved tag> <wanted tag> <value>".
      std::string_view detail = d.kind_detail;
      size_t a = detail.find(' ');
      size_t b = a == std::string_view::npos ? a : detail.find(' ', a + 1);
      if (b == std::string_view::npos) return own_words(d);
      return "yaml: cannot decode " + std::string(detail.substr(0, a)) + " `" +
             std::string(detail.substr(b + 1)) + "` as a " +
             std::string(detail.substr(a + 1, b - a - 1));
    }
  }
  return own_words(d);
}

}  // namespace

}  // namespace hintkit::yaml
