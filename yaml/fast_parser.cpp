// The fast parser (see fast_parser.h). One recursive-descent pass over the bytes; block
// structure by indentation, flow structure by brackets. Every place where yaml-cpp's
// behaviour is unusual or unclear throws `Declined`, and the loader falls back to yaml-cpp.
//
// Marks follow yaml-cpp: a node's mark is its first token (its properties, if any); an empty
// node's mark is the next token (or the end of the input); columns and offsets count bytes.
#include "yaml/fast_parser.h"

#include <yaml-cpp/emitterstyle.h>
#include <yaml-cpp/mark.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>

namespace hintkit::yaml::internal {
namespace {

struct Declined {};
// Input that is certainly not YAML, in a shape whose error yaml-cpp gets wrong (it accepts
// `key` lines without `:` and items after a finished top-level list).
struct Definite {
  SyntaxProblem problem;
};

[[noreturn]] void decline() { throw Declined{}; }
[[noreturn]] void syntax_error(const YAML::Mark& at, ErrorKind kind) { throw Definite{{at, kind}}; }

constexpr size_t kMaxSimpleKeyBytes = 1000;  // yaml-cpp drops simple keys past 1024 chars

bool is_space_or_end(char c) { return c == ' ' || c == '\n' || c == '\0'; }
bool is_flow_end(char c) { return c == ',' || c == ']' || c == '}'; }
bool is_null_word(std::string_view v) {
  return v == "~" || v == "null" || v == "Null" || v == "NULL";
}

enum class Ctx { kDocRoot, kMapValue, kSeqEntry };

// Node properties (`&anchor`, `!tag`) read in front of a node.
struct Props {
  bool present = false;
  YAML::Mark mark;
  std::string tag;  // translated as yaml-cpp does: "!!str" -> "tag:yaml.org,2002:str"
  YAML::anchor_t anchor = 0;
};

// A scalar token scanned ahead (keys must be seen before the map they open is announced).
struct ScalarToken {
  YAML::Mark mark;
  std::string text;        // the decoded value, unless `sliced`
  std::string_view slice;  // the value when it is the source text as written
  bool sliced = false;
  bool plain = true;
  bool ends_with_colon = false;  // a `:` value indicator follows (it is a key)
  bool multi_line = false;

  std::string_view value() const { return sliced ? slice : std::string_view(text); }
};

const std::string kPlainTag = "?";
// The definite syntax errors (the loader words them).
constexpr ErrorKind kMissingColon = ErrorKind::kMissingColon;
constexpr ErrorKind kMissingDash = ErrorKind::kMissingDash;
constexpr ErrorKind kMissingKey = ErrorKind::kMissingKey;
constexpr ErrorKind kSecondColon = ErrorKind::kUnexpectedColon;
constexpr ErrorKind kUnterminated = ErrorKind::kUnterminatedQuote;
const std::string kQuotedTag = "!";

class Parser {
 public:
  Parser(std::string_view s, FastHandler& h) : s_(s), h_(h) {}

  void run() {
    while (true) {
      skip_to_token();
      if (eof()) return;
      if (doc_end_here()) decline();  // a stray `...`
      parse_document();
    }
  }

 private:
  // ---- position -----------------------------------------------------------------------

  bool eof() const { return p_ >= s_.size(); }
  char at(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }
  char cur() const { return at(p_); }
  int col() const { return static_cast<int>(p_ - line_start_); }
  YAML::Mark mark() const {
    YAML::Mark m;
    m.pos = static_cast<int>(p_);
    m.line = line_;
    m.column = col();
    return m;
  }
  // Moves forward to `q`, counting the line breaks passed.
  void move_to(size_t q) {
    while (true) {
      const void* nl = std::memchr(s_.data() + p_, '\n', q - p_);
      if (nl == nullptr) break;
      p_ = static_cast<size_t>(static_cast<const char*>(nl) - s_.data()) + 1;
      ++line_;
      line_start_ = p_;
    }
    p_ = q;
  }
  void newline() {
    ++p_;
    ++line_;
    line_start_ = p_;
  }

  // `---` or `...` then a blank (a tab too), a line end or the end.
  bool marker_at(size_t i, char c) const {
    return i + 3 <= s_.size() && s_[i] == c && s_[i + 1] == c && s_[i + 2] == c &&
           (is_space_or_end(at(i + 3)) || at(i + 3) == '\t');
  }
  bool at_line_start() const { return p_ == line_start_; }
  bool doc_start_here() const { return at_line_start() && marker_at(p_, '-'); }
  bool doc_end_here() const { return at_line_start() && marker_at(p_, '.'); }
  bool block_entry_here() const { return cur() == '-' && is_space_or_end(at(p_ + 1)); }

  // Skips spaces, comments and line breaks up to the next token. Declines on tabs, on
  // directives and on column-0 text starting with `---`/`...` that is not a marker.
  void skip_to_token() {
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (c == ' ') {
        ++p_;
      } else if (c == '\n') {
        newline();
      } else if (c == '#') {
        const void* nl = std::memchr(s_.data() + p_, '\n', s_.size() - p_);
        p_ = nl == nullptr ? s_.size()
                           : static_cast<size_t>(static_cast<const char*>(nl) - s_.data());
      } else if (c == '\t') {
        decline();
      } else {
        break;
      }
    }
    if (at_line_start() && !eof()) {
      char c = cur();
      if (c == '%') decline();
      if ((c == '-' || c == '.') && at(p_ + 1) == c && at(p_ + 2) == c && !marker_at(p_, c)) {
        decline();
      }
    }
  }

  void skip_spaces() {
    while (cur() == ' ') ++p_;
    if (cur() == '\t') decline();
  }

  // After a token in block context: only spaces and a comment may follow on the line.
  void expect_line_end() {
    size_t before = p_;
    skip_spaces();
    char c = cur();
    if (c == '#') {
      if (p_ == before) decline();
      return;  // skip_to_token eats it
    }
    if (c != '\n' && c != '\0') decline();
  }

  // ---- documents ----------------------------------------------------------------------

  void parse_document() {
    anchors_.clear();
    anchor_count_ = 0;
    h_.OnDocumentStart(mark());
    if (doc_start_here()) {
      p_ += 3;
      parse_node(-1, Ctx::kDocRoot);
    } else {
      parse_block_node_at(-1, Props{});
    }
    h_.OnDocumentEnd();
    skip_to_token();
    if (eof() || doc_start_here()) return;
    if (!doc_end_here()) decline();
    while (doc_end_here()) {
      p_ += 3;
      expect_line_end();
      skip_to_token();
    }
  }

  // ---- properties and scalars ---------------------------------------------------------

  // Reads `&name` or `*name` at p_ (on the sigil); returns the name.
  std::string_view read_anchor_name(bool flow) {
    // go-yaml's names are letters, digits, '_' and '-', then a blank or one of `?:,]}%@``;
    // yaml-cpp takes more, so anything else is a definite error here.
    const YAML::Mark sigil = mark();
    size_t q = p_ + 1;
    while (q < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[q])) || s_[q] == '_' || s_[q] == '-')) {
      ++q;
    }
    char after = at(q);
    if (static_cast<unsigned char>(after) >= 0x80) decline();  // NEL, LS, PS break lines there
    if (q == p_ + 1 || !(after == ' ' || after == '\t' || after == '\n' || after == '\r' ||
                         after == '\0' || std::strchr("?:,]}%@`", after) != nullptr)) {
      syntax_error(sigil, ErrorKind::kBadAnchorOrAlias);
    }
    size_t b = ++p_;
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (c == ' ' || c == '\n' || c == '\t' || c == '[' || c == ']' || c == '{' || c == '}' ||
          c == ',') {
        break;
      }
      if (std::strchr(":?%@`#\"'&*!|>", c) != nullptr) decline();
      ++p_;
    }
    if (p_ == b) decline();
    char next = cur();
    if (!(next == ' ' || next == '\n' || next == '\0' || (flow && is_flow_end(next)))) decline();
    return s_.substr(b, p_ - b);
  }

  // Reads `!!suffix` or `!suffix`; returns the tag as yaml-cpp translates it.
  std::string read_tag() {
    size_t b = p_ + 1;
    bool secondary = at(b) == '!';
    if (secondary) ++b;
    size_t e = b;
    while (e < s_.size()) {
      char c = s_[e];
      bool word =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
      if (!word) break;
      ++e;
    }
    if (e == b) decline();
    char next = at(e);
    if (next != ' ' && next != '\n' && next != '\0') decline();
    p_ = e;
    std::string tag = secondary ? "tag:yaml.org,2002:" : "!";
    tag.append(s_.substr(b, e - b));
    return tag;
  }

  // Reads any properties at p_. Leaves p_ after them and the spaces that follow.
  Props read_props(bool flow) {
    Props props;
    while (cur() == '&' || cur() == '!') {
      if (!props.present) {
        props.present = true;
        props.mark = mark();
      }
      if (cur() == '&') {
        if (props.anchor != 0) decline();
        YAML::Mark m = mark();
        std::string_view name = read_anchor_name(flow);
        props.anchor = ++anchor_count_;
        anchors_[name] = props.anchor;
        h_.OnAnchor(m, std::string(name));
      } else {
        if (!props.tag.empty()) decline();
        props.tag = read_tag();
      }
      skip_spaces();
    }
    return props;
  }

  void emit_alias(bool flow) {
    YAML::Mark m = mark();
    std::string_view name = read_anchor_name(flow);
    auto it = anchors_.find(name);
    if (it == anchors_.end()) decline();
    h_.OnAlias(m, it->second);
  }

  void emit_scalar(const Props& props, ScalarToken&& t) {
    const YAML::Mark& m = props.present ? props.mark : t.mark;
    if (props.tag.empty()) {
      if (t.plain && is_null_word(t.value())) {
        h_.OnNull(m, props.anchor);
      } else {
        h_.OnScalarView(m, t.plain ? kPlainTag : kQuotedTag, props.anchor, t.value());
      }
    } else {
      h_.OnScalarView(m, props.tag, props.anchor, t.value());
    }
  }

  // An empty node: nothing (or only properties) before the next token.
  void emit_empty(const Props& props) {
    if (!props.present) {
      h_.OnNull(mark(), 0);
    } else if (props.tag.empty()) {
      h_.OnNull(props.mark, props.anchor);
    } else {
      h_.OnScalarView(props.mark, props.tag, props.anchor, std::string_view());
    }
  }

  static bool plain_can_start(char c, char next, bool flow) {
    if (c == '\0' || c == ' ' || c == '\n' || c == '\t') return false;
    if (std::strchr(",[]{}#&*!|>'\"%@`", c) != nullptr) return false;
    if (flow) {
      // go-yaml's scanner reads every ':' in a flow collection as a value indicator, so no
      // plain scalar there starts with one (`{a: :b}` is an error, not the scalar `:b`).
      if (c == '?' || c == ':') return false;
      if (c == '-' && is_space_or_end(next)) return false;
    } else if ((c == '-' || c == '?' || c == ':') && is_space_or_end(next)) {
      return false;
    }
    return true;
  }

  // A plain scalar on one line. In block context `required_indent` is the column a
  // continuation line would need (the scalar then spans lines: declined).
  ScalarToken scan_plain(bool flow, int required_indent) {
    ScalarToken t;
    t.mark = mark();
    size_t b = p_;
    size_t q = p_;
    bool to_line_end = false;
    while (true) {
      char c = at(q);
      if (c == '\n' || c == '\0') {
        to_line_end = true;
        break;
      }
      if (c == '\t') decline();
      if (c == ':') {
        char d = at(q + 1);
        if (is_space_or_end(d) || d == '\t' || (flow && is_flow_end(d))) {
          t.ends_with_colon = true;
          break;
        }
      } else if (c == ' ' && at(q + 1) == '#') {
        break;
      } else if (flow && (is_flow_end(c))) {
        break;
      } else if (flow && (c == '?' || c == '[' || c == '{')) {
        decline();
      }
      ++q;
    }
    size_t e = q;
    while (e > b && s_[e - 1] == ' ') --e;
    t.slice = s_.substr(b, e - b);
    t.sliced = true;
    p_ = q;
    if (to_line_end && !t.ends_with_colon) check_plain_ends(flow, required_indent);
    return t;
  }

  // A plain scalar stopped at a line break: decline unless the next line cannot continue it.
  void check_plain_ends(bool flow, int required_indent) {
    size_t q = p_;
    while (q < s_.size()) {
      ++q;  // past '\n'
      size_t ls = q;
      while (at(q) == ' ') ++q;
      char c = at(q);
      if (c == '\t') decline();
      if (c == '\n') continue;
      if (c == '\0') return;
      int indent = static_cast<int>(q - ls);
      if (flow) {
        if (is_flow_end(c) || (c == '#' && indent > 0)) return;
        decline();
      }
      if (indent < required_indent) return;
      if (c == '#' && indent > 0) return;
      if (indent == 0 && (marker_at(q, '-') || marker_at(q, '.'))) return;
      decline();
    }
  }

  // The escapes yaml-cpp knows, appended to `out`; p_ is on the backslash.
  void read_escape(std::string& out) {
    char ch = at(p_ + 1);
    p_ += 2;
    switch (ch) {
      case '0':
        out += '\0';
        return;
      case 'a':
        out += '\x07';
        return;
      case 'b':
        out += '\x08';
        return;
      case 't':
      case '\t':
        out += '\x09';
        return;
      case 'n':
        out += '\x0A';
        return;
      case 'v':
        out += '\x0B';
        return;
      case 'f':
        out += '\x0C';
        return;
      case 'r':
        out += '\x0D';
        return;
      case 'e':
        out += '\x1B';
        return;
      case ' ':
        out += ' ';
        return;
      case '"':
        out += '"';
        return;
      case '\'':
        out += '\'';
        return;
      case '\\':
        out += '\\';
        return;
      case 'N':
      case '_':
        decline();  // yaml-cpp writes one byte (0x85, 0xA0), go-yaml the character: refused there
      case 'L':
        out += "\xE2\x80\xA8";
        return;
      case 'P':
        out += "\xE2\x80\xA9";
        return;
      case 'x':
        return read_hex(out, 2);
      case 'u':
        return read_hex(out, 4);
      case 'U':
        return read_hex(out, 8);
      default:
        decline();
    }
  }

  void read_hex(std::string& out, int digits) {
    uint32_t v = 0;
    for (int i = 0; i < digits; ++i) {
      char c = at(p_ + static_cast<size_t>(i));
      uint32_t d;
      if (c >= '0' && c <= '9') {
        d = static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        d = static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        d = static_cast<uint32_t>(c - 'A' + 10);
      } else {
        decline();
      }
      v = (v << 4) | d;
    }
    p_ += static_cast<size_t>(digits);
    if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF) decline();
    auto put = [&](uint32_t b) { out += static_cast<char>(b); };
    if (v <= 0x7F) {
      put(v);
    } else if (v <= 0x7FF) {
      put(0xC0 + (v >> 6));
      put(0x80 + (v & 0x3F));
    } else if (v <= 0xFFFF) {
      put(0xE0 + (v >> 12));
      put(0x80 + ((v >> 6) & 0x3F));
      put(0x80 + (v & 0x3F));
    } else {
      put(0xF0 + (v >> 18));
      put(0x80 + ((v >> 12) & 0x3F));
      put(0x80 + ((v >> 6) & 0x3F));
      put(0x80 + (v & 0x3F));
    }
  }

  // A single- or double-quoted scalar, folded over lines the way yaml-cpp folds them.
  ScalarToken scan_quoted() {
    ScalarToken t;
    t.plain = false;
    t.mark = mark();
    const char quote = cur();
    const bool dbl = quote == '"';
    const int start_line = line_;
    ++p_;
    // Most quoted scalars are one line with no escapes: their value is the text between.
    for (size_t q = p_; q < s_.size(); ++q) {
      char c = s_[q];
      if (c == '\n' || (dbl && c == '\\')) break;
      if (c == quote) {
        if (!dbl && at(q + 1) == '\'') break;  // '' is an escaped quote
        t.slice = s_.substr(p_, q - p_);
        t.sliced = true;
        p_ = q + 1;
        return t;
      }
    }
    std::string& out = t.text;
    size_t last_escaped = std::string::npos;
    bool empty_line = false;
    while (true) {
      size_t last_text = out.size();
      bool escaped_break = false;
      // One line of text.
      while (true) {
        // Copy a run of ordinary bytes at once.
        size_t q = p_;
        while (q < s_.size()) {
          char c = s_[q];
          if (c == quote || c == '\n' || (dbl && c == '\\')) break;
          ++q;
        }
        if (q > p_) {
          if (at_line_start() && (marker_at(p_, '-') || marker_at(p_, '.'))) decline();
          out.append(s_.data() + p_, q - p_);
          size_t k = q;
          while (k > p_ && (s_[k - 1] == ' ' || s_[k - 1] == '\t')) --k;
          if (k > p_) last_text = out.size() - (q - k);
          p_ = q;
        }
        char c = cur();
        if (c == '\0') syntax_error(mark(), kUnterminated);  // yaml-cpp takes what it has
        if (c == '\n') break;
        if (c == quote) {
          if (!dbl && at(p_ + 1) == '\'') {
            out += '\'';
            p_ += 2;
            last_text = last_escaped = out.size();
            continue;
          }
          ++p_;
          finish_quoted(out, last_escaped);
          t.multi_line = line_ != start_line;
          return t;
        }
        // A backslash in a double-quoted scalar.
        if (at(p_ + 1) == '\n') {
          ++p_;
          last_text = last_escaped = out.size();
          escaped_break = true;
          break;
        }
        read_escape(out);
        last_text = last_escaped = out.size();
      }
      out.erase(last_text);
      newline();
      while (cur() == ' ' || cur() == '\t') ++p_;
      bool next_empty = cur() == '\n';
      if (next_empty) {
        out += '\n';
      } else if (!empty_line && !escaped_break) {
        out += ' ';
      }
      empty_line = next_empty;
    }
  }

  static void finish_quoted(std::string& out, size_t last_escaped) {
    size_t pos = out.find_last_not_of('\n');
    if (last_escaped != std::string::npos && (pos < last_escaped || pos == std::string::npos)) {
      pos = last_escaped;
    }
    if (pos == std::string::npos) {
      out.clear();
    } else if (pos + 1 < out.size()) {
      out.erase(pos + 2);
    }
  }

  // A literal or folded block scalar; p_ on the indicator. `top_indent` is the column of the
  // innermost block collection.
  ScalarToken scan_block_scalar(int top_indent) {
    ScalarToken t;
    t.plain = false;
    t.mark = mark();
    const bool folded = cur() == '>';
    ++p_;
    enum { kClip, kStrip, kKeep } chomp = kClip;
    int indent = 1;
    bool detect = true;
    bool chomp_read = false;
    for (int i = 0; i < 2; ++i) {
      char c = cur();
      if ((c == '+' || c == '-') && !chomp_read) {
        chomp = c == '+' ? kKeep : kStrip;
        chomp_read = true;
        ++p_;
      } else if (c >= '1' && c <= '9' && detect) {
        indent = c - '0';
        detect = false;
        ++p_;
      } else {
        break;
      }
    }
    if (cur() >= '0' && cur() <= '9') decline();
    size_t before = p_;
    skip_spaces();
    if (cur() == '#') {
      if (p_ == before) decline();
      while (cur() != '\n' && !eof()) ++p_;
    }
    if (cur() != '\n' && !eof()) decline();
    if (top_indent >= 0) indent += top_indent;

    std::string& out = t.text;
    bool found_text = false, past_opening = false, empty_line = false, more_indented = false;
    int folded_breaks = 0;
    bool folded_started_more = false;
    while (!eof()) {
      // The rest of the current line is content.
      if (cur() != '\n') {
        const void* nl = std::memchr(s_.data() + p_, '\n', s_.size() - p_);
        size_t e = nl == nullptr ? s_.size()
                                 : static_cast<size_t>(static_cast<const char*>(nl) - s_.data());
        out.append(s_.data() + p_, e - p_);
        found_text = true;
        past_opening = true;
        p_ = e;
        if (eof()) break;
      }
      newline();
      while (cur() == ' ' && (col() < indent || (detect && !found_text))) ++p_;
      if (detect && !found_text) indent = std::max(indent, col());
      // go-yaml: no tab after the spaces of a line before the indentation is known.
      if (cur() == '\t' && (col() < indent || (detect && !found_text))) decline();
      bool next_empty = cur() == '\n';
      bool next_more = cur() == ' ' || cur() == '\t';
      if (folded && folded_breaks == 0 && next_empty) folded_started_more = more_indented;
      if (past_opening) {
        if (!folded) {
          out += '\n';
        } else {
          if (!empty_line && !next_empty && !more_indented && !next_more && col() >= indent) {
            out += ' ';
          } else if (next_empty) {
            ++folded_breaks;
          } else {
            out += '\n';
          }
          if (!next_empty && folded_breaks > 0) {
            out.append(static_cast<size_t>(folded_breaks - 1), '\n');
            if (folded_started_more || next_more || !found_text) out += '\n';
            folded_breaks = 0;
          }
        }
      }
      empty_line = next_empty;
      more_indented = next_more;
      past_opening = true;
      if (!empty_line && col() < indent) break;
    }
    size_t pos = out.find_last_not_of('\n');
    if (chomp == kClip) {
      if (pos == std::string::npos) {
        out.clear();
      } else if (pos + 1 < out.size()) {
        out.erase(pos + 2);
      }
    } else if (chomp == kStrip) {
      if (pos == std::string::npos) {
        out.clear();
      } else {
        out.erase(pos + 1);
      }
    }
    return t;
  }

  // ---- block structure ----------------------------------------------------------------

  void enter() {
    if (++depth_ > kMaxFastDepth) decline();
  }

  // A node after `key:`, `-` or `---`; p_ is just past the indicator. `parent_indent` is the
  // column of the enclosing block collection (-1 at the root).
  void parse_node(int parent_indent, Ctx ctx) {
    skip_spaces();
    Props props = read_props(false);
    char c = cur();
    if (c == '\n' || c == '\0' || c == '#') {
      if (c == '#' && !props.present && p_ > 0 && s_[p_ - 1] != ' ') decline();
      skip_to_token();
      bool indentless = ctx == Ctx::kMapValue && col() == parent_indent && block_entry_here();
      if (!eof() && !doc_start_here() && !doc_end_here() && (col() > parent_indent || indentless)) {
        if (cur() == '&' || cur() == '!') decline();
        parse_block_node_at(parent_indent, props);
      } else {
        emit_empty(props);
      }
      return;
    }
    parse_inline(parent_indent, ctx, props);
  }

  // A node that starts on the line of its indicator (after any properties).
  void parse_inline(int parent_indent, Ctx ctx, const Props& props) {
    char c = cur();
    if (c == '*') {
      if (props.present) decline();
      emit_alias(false);
      expect_line_end();
      return;
    }
    if (c == '[' || c == '{') {
      parse_flow_collection(props);
      expect_line_end();
      return;
    }
    if (c == '|' || c == '>') {
      ScalarToken t = scan_block_scalar(parent_indent);
      emit_scalar(props, std::move(t));
      return;
    }
    if (c == ':' && is_space_or_end(at(p_ + 1))) {
      // `- &a : x`: after `- ` the properties may start a key, here an empty one (go-yaml
      // reads `- {null: x}`); not for the fast path.
      if (ctx == Ctx::kSeqEntry && props.present) decline();
      // `- : x` has no key; `a: : b` and `--- :` put a value indicator where none may be.
      syntax_error(mark(), ctx == Ctx::kSeqEntry ? kMissingKey : kSecondColon);
    }
    if (ctx == Ctx::kSeqEntry && block_entry_here()) {
      // `- - x`: a sequence in the sequence entry, at the inner dash's column.
      if (props.present) decline();
      parse_block_seq(col(), mark(), kPlainTag, 0, false);
      return;
    }
    ScalarToken t = scan_block_scalar_or_key(parent_indent);
    if (t.ends_with_colon) {
      // `- key: value`: a map in the sequence entry, at the key's column.
      if (ctx != Ctx::kSeqEntry || props.present || t.multi_line) decline();
      parse_block_map(t.mark.column, t.mark, std::string(), 0, std::move(t));
      return;
    }
    emit_scalar(props, std::move(t));
    expect_line_end();
  }

  // A quoted or plain scalar in block context at p_; `ends_with_colon` tells whether it is
  // a map key.
  ScalarToken scan_block_scalar_or_key(int parent_indent) {
    char c = cur();
    if (c == '"' || c == '\'') {
      ScalarToken t = scan_quoted();
      skip_spaces();
      if (cur() == ':' && is_space_or_end(at(p_ + 1))) t.ends_with_colon = true;
      return t;
    }
    if (!plain_can_start(c, at(p_ + 1), false)) decline();
    return scan_plain(false, parent_indent + 1);
  }

  // A node that starts a line of its own, at column col() (> parent_indent, or equal for a
  // sequence not indented under its key).
  void parse_block_node_at(int parent_indent, const Props& props) {
    const YAML::Mark m = props.present ? props.mark : mark();
    const std::string& tag = props.tag.empty() ? kPlainTag : props.tag;
    char c = cur();
    if (c == ':' && is_space_or_end(at(p_ + 1))) syntax_error(mark(), kMissingKey);
    if (block_entry_here()) {
      parse_block_seq(col(), m, tag, props.anchor, col() == parent_indent);
      return;
    }
    if (c == '*' || c == '|' || c == '>' || c == '&' || c == '!') decline();
    if (c == '[' || c == '{') {
      parse_flow_collection(props);
      expect_line_end();
      return;
    }
    ScalarToken t = scan_block_scalar_or_key(parent_indent);
    if (t.ends_with_colon) {
      if (t.multi_line) decline();
      parse_block_map(t.mark.column, m, tag, props.anchor, std::move(t));
      return;
    }
    emit_scalar(props, std::move(t));
    expect_line_end();
  }

  // A block map at column `indent`; the first key is scanned already and p_ is on its `:`.
  void parse_block_map(int indent, const YAML::Mark& m, const std::string& tag,
                       YAML::anchor_t anchor, ScalarToken&& first_key) {
    enter();
    h_.OnMapStart(m, tag.empty() ? kPlainTag : tag, anchor, YAML::EmitterStyle::Block);
    ScalarToken key = std::move(first_key);
    while (true) {
      if (static_cast<size_t>(p_) - static_cast<size_t>(key.mark.pos) > kMaxSimpleKeyBytes) {
        decline();
      }
      emit_scalar(Props{}, std::move(key));
      ++p_;  // the ':'
      parse_node(indent, Ctx::kMapValue);
      skip_to_token();
      if (eof() || doc_start_here() || doc_end_here() || col() < indent) break;
      if (col() > indent) decline();
      key = scan_key();
    }
    h_.OnMapEnd();
    --depth_;
  }

  // A key at the start of a map line: a plain or quoted scalar followed by `:`.
  ScalarToken scan_key() {
    char c = cur();
    ScalarToken t;
    if (c == '"' || c == '\'') {
      t = scan_quoted();
      if (t.multi_line) decline();
      skip_spaces();
      if (!(cur() == ':' && is_space_or_end(at(p_ + 1)))) {
        if (cur() == '\n' || eof()) syntax_error(t.mark, kMissingColon);
        decline();
      }
      return t;
    }
    if (c == ':' && is_space_or_end(at(p_ + 1))) syntax_error(mark(), kMissingKey);
    if (!plain_can_start(c, at(p_ + 1), false)) decline();
    // A key cannot run on to the next line, so no continuation check: a key line without
    // `:` is an error whatever follows.
    t = scan_plain(false, std::numeric_limits<int>::max());
    if (!t.ends_with_colon) {
      // go-yaml reads the key on over deeper lines first, and stops at a tab in their
      // indentation before it misses the `:`.
      if (tab_in_continuation(t.mark.column + 1)) decline();
      syntax_error(t.mark, kMissingColon);
    }
    return t;
  }

  // Whether a plain scalar that stopped at the line break at p_ runs on (go-yaml: over lines
  // indented at least `indent`) into a tab inside a continuation line's indentation.
  bool tab_in_continuation(int indent) const {
    size_t q = p_;
    int column = 0;
    bool leading = false;  // past a line break
    while (at(q) != '\0') {
      for (char c = at(q); c == ' ' || c == '\t' || c == '\n'; c = at(q)) {
        if (c == '\n') {
          column = 0;
          leading = true;
        } else if (c == '\t' && leading && column < indent) {
          return true;
        } else {
          ++column;
        }
        ++q;
      }
      if (q >= s_.size() || column < indent || at(q) == '#') return false;
      // The continued text, up to a `:` that ends it or a blank.
      for (char c = at(q); !(c == ' ' || c == '\t' || c == '\n' || c == '\0'); c = at(q)) {
        if (c == ':' && is_space_or_end(at(q + 1))) return false;
        ++q;
        ++column;
        leading = false;
      }
    }
    return false;
  }

  // `indentless`: the sequence is a map value not indented under its key, so the map's next
  // key may follow at the same column.
  void parse_block_seq(int indent, const YAML::Mark& m, const std::string& tag,
                       YAML::anchor_t anchor, bool indentless) {
    enter();
    h_.OnSequenceStart(m, tag, anchor, YAML::EmitterStyle::Block);
    while (true) {
      ++p_;  // the '-'
      parse_node(indent, Ctx::kSeqEntry);
      skip_to_token();
      if (eof() || doc_start_here() || doc_end_here() || col() < indent) break;
      if (col() > indent) decline();
      if (!block_entry_here()) {
        if (indentless) break;  // the map this sequence sits under goes on
        // A `:` where the next item should be: go-yaml's parser gets a value, not a `-`.
        if (cur() == ':' && is_space_or_end(at(p_ + 1))) syntax_error(mark(), kMissingDash);
        // A key where the next item should be (a line without `:` fails as such first).
        ScalarToken key = scan_key();
        syntax_error(key.mark, kMissingDash);
      }
    }
    h_.OnSequenceEnd();
    --depth_;
  }

  // ---- flow structure -----------------------------------------------------------------

  void skip_in_flow() {
    skip_to_token();
    if (eof() || doc_start_here() || doc_end_here()) decline();
  }

  // p_ on '[' or '{'.
  void parse_flow_collection(const Props& props) {
    enter();
    const YAML::Mark m = props.present ? props.mark : mark();
    const std::string& tag = props.tag.empty() ? kPlainTag : props.tag;
    bool is_map = cur() == '{';
    ++p_;
    if (!is_map) {
      h_.OnSequenceStart(m, tag, props.anchor, YAML::EmitterStyle::Flow);
      while (true) {
        skip_in_flow();
        if (cur() == ']') break;
        parse_flow_node();
        skip_in_flow();
        if (cur() == ',') {
          ++p_;
          continue;
        }
        if (cur() != ']') decline();
        break;
      }
      ++p_;
      h_.OnSequenceEnd();
    } else {
      h_.OnMapStart(m, tag, props.anchor, YAML::EmitterStyle::Flow);
      while (true) {
        skip_in_flow();
        if (cur() == '}') break;
        // Key: a scalar on one line, then ':'.
        char c = cur();
        ScalarToken key;
        if (c == '"' || c == '\'') {
          key = scan_quoted();
          if (key.multi_line) decline();
          skip_spaces();
          if (cur() != ':') decline();
        } else if (plain_can_start(c, at(p_ + 1), true)) {
          key = scan_plain(true, 0);
          if (!key.ends_with_colon) decline();
        } else {
          decline();
        }
        emit_scalar(Props{}, std::move(key));
        ++p_;  // the ':'
        skip_in_flow();
        if (cur() == ',' || cur() == '}') {
          h_.OnNull(mark(), 0);
        } else {
          parse_flow_node();
        }
        skip_in_flow();
        if (cur() == ',') {
          ++p_;
          continue;
        }
        if (cur() != '}') decline();
        break;
      }
      ++p_;
      h_.OnMapEnd();
    }
    --depth_;
  }

  // One node inside a flow collection; declines when it turns out to be a key.
  void parse_flow_node() {
    Props props = read_props(true);
    if (props.present) {
      skip_in_flow();
      if (cur() == ',' || cur() == ']' || cur() == '}') decline();
    }
    char c = cur();
    if (c == '*') {
      if (props.present) decline();
      emit_alias(true);
    } else if (c == '[' || c == '{') {
      parse_flow_collection(props);
    } else if (c == '"' || c == '\'') {
      ScalarToken t = scan_quoted();
      emit_scalar(props, std::move(t));
    } else if (plain_can_start(c, at(p_ + 1), true)) {
      ScalarToken t = scan_plain(true, 0);
      if (t.ends_with_colon) decline();
      emit_scalar(props, std::move(t));
    } else {
      decline();
    }
    // `x: y` inside a flow sequence, or `{a: b: c}`: not for the fast path.
    size_t q = p_;
    while (at(q) == ' ') ++q;
    if (at(q) == ':') decline();
  }

  std::string_view s_;
  FastHandler& h_;
  size_t p_ = 0;
  size_t line_start_ = 0;
  int line_ = 0;
  int depth_ = 0;
  std::unordered_map<std::string_view, YAML::anchor_t> anchors_;
  YAML::anchor_t anchor_count_ = 0;
};

}  // namespace

bool fast_parse(std::string_view source, FastHandler& handler, SyntaxProblem* problem) {
  // A byte order mark here is text (the loader dropped one a reader drops): yaml-cpp reads it.
  if (source.substr(0, 3) == "\xEF\xBB\xBF") return false;
  if (source.find('\r') != std::string_view::npos) return false;
  if (source.size() > static_cast<size_t>(INT32_MAX)) return false;
  Parser parser(source, handler);
  try {
    parser.run();
  } catch (const Declined&) {
    return false;
  } catch (Definite& d) {
    if (problem != nullptr) *problem = std::move(d.problem);
    return false;
  }
  return true;
}

}  // namespace hintkit::yaml::internal
