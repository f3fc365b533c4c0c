// How go-yaml v2 words the YAML errors ytt prints, go-cli-ui's layout of an error, and how an
// error is rendered with the context it gained.
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

std::string go_yaml_error(const diag::Diagnostic& d, bool through_ytt_parser) {
  switch (yaml::error_kind(d)) {
    case yaml::ErrorKind::kUnsupportedLineBreak:
      // ytt reads on; its values and lines would differ from ours.
      throw Unsupported{
          "YAML with CR (without LF), NEL, LS or PS line breaks (U+000D, U+0085, U+2028, U+2029)"};
    case yaml::ErrorKind::kIncompatibleYamlVersion:
      // ytt's parser (files, flag values and yaml.decode alike) puts a `---` line before a
      // text that does not start with one and takes one off the line go-yaml names; on the
      // text's first line that leaves line 0, where ytt crashes.
      if (d.span.begin.line == 1) {
        throw Unsupported{"a %YAML directive other than 1.1 on a file's first line (ytt crashes)"};
      }
      return yaml::go_yaml_message(d, through_ytt_parser);
    case yaml::ErrorKind::kNone:
      // Limits (HK003) and problems found after loading: our words at go-yaml's place.
      return d.span.begin.line > 0
                 ? "yaml: line " + std::to_string(d.span.begin.line) + ": " + d.message
                 : "yaml: " + d.message;
    default:
      // Every error kind of the loader: go-yaml's words, which the yaml module owns.
      return yaml::go_yaml_message(d, through_ytt_parser);
  }
}
// ---- Error layout (go-cli-ui's MultiLineError, as ytt's main prints errors) ----------------

namespace {

// One piece of go-cli-ui's error parse: text, or a bracketed (or `...|`-raw) container.
struct ErrorPiece {
  std::string value;
  char container = 0;  // 0: text; '*': the root; '(', '[', '{'; 'r': raw (`...|` to `|...`)
  bool closed = false;
  std::vector<ErrorPiece> pieces;

  void add_str(char ch) {
    if (pieces.empty() || pieces.back().container != 0) pieces.emplace_back();
    pieces.back().value += ch;
  }

  std::string text() const {
    if (!value.empty()) return value;
    std::string out;
    if (container == '(' || container == '[' || container == '{') out += container;
    for (const auto& p : pieces) out += p.text();
    if (closed) {
      if (container == '(') out += ')';
      if (container == '[') out += ']';
      if (container == '{') out += '}';
    }
    return out;
  }
};

// NewErrorPiecesFromString: brackets nest (not inside raw pieces); a closer with nothing open
// closes the root, and whatever follows it is dropped, as go-cli-ui drops it.
ErrorPiece parse_error_pieces(std::string_view str) {
  ErrorPiece root;
  root.container = '*';
  std::vector<ErrorPiece*> stack = {&root};
  for (size_t i = 0; i < str.size(); ++i) {
    if (stack.empty()) break;
    const char ch = str[i];
    ErrorPiece* top = stack.back();
    if (top->container != 'r') {
      if (ch == '(' || ch == '[' || ch == '{') {
        top->pieces.emplace_back();
        top->pieces.back().container = ch;
        stack.push_back(&top->pieces.back());
        continue;
      }
      if (ch == ')' || ch == ']' || ch == '}') {
        top->closed = true;
        stack.pop_back();
        continue;
      }
    }
    if (i + 4 < str.size() && str.substr(i, 4) == "...|") {
      top->pieces.emplace_back();
      top->pieces.back().container = 'r';
      ErrorPiece* raw = &top->pieces.back();
      raw->add_str(ch);
      stack.push_back(raw);
    } else if (i >= 3 && str.substr(i - 3, 4) == "|...") {
      top->add_str(ch);
      top->closed = true;
      stack.pop_back();
    } else {
      top->add_str(ch);
    }
  }
  return root;
}

}  // namespace

std::string multi_line_error(std::string_view text) {
  size_t nl = text.find('\n');
  std::string_view first = text.substr(0, nl);
  std::string rest = nl == std::string_view::npos ? "" : std::string(text.substr(nl));
  // The root's text pieces (never those inside brackets) break after each ": " followed by a
  // capital letter.
  ErrorPiece root = parse_error_pieces(first);
  for (auto& piece : root.pieces) {
    if (piece.value.empty()) continue;
    std::string broken;
    const std::string& v = piece.value;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == ':' && i + 2 < v.size() && v[i + 1] == ' ' && v[i + 2] >= 'A' &&
          v[i + 2] <= 'Z') {
        broken += ":\n";
        ++i;
        continue;
      }
      broken += v[i];
    }
    piece.value = std::move(broken);
  }
  const std::string laid = root.text();
  std::string out;
  size_t line = 0;
  for (size_t pos = 0;; ++line) {
    size_t end = laid.find('\n', pos);
    if (line) out += "\n";
    for (size_t k = 0; k < line; ++k) out += "  ";
    out += laid.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return out + rest;
}

// ---- Errors with context ------------------------------------------------------------------

std::string YttError::message() const {
  std::string out = text;
  for (const std::string& context : frames) out = context + out;
  return out;
}

std::string YttError::error_text() const {
  std::string out = message();
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace hintkit::ytt
