// A model of go-yaml v2's scanner (as vendored by ytt v0.48.0) that produces no values, only
// the order in which its tokens reach the parser and the first scanner error on the way. It
// exists for yaml-cpp's path: yaml-cpp's scanner has no "required simple key" (a key line
// without `:` where a block map's next key belongs), so it runs on past the place where
// go-yaml stops; this model tells where go-yaml stopped instead (see `go_yaml_scan` in
// internal.h). Mechanisms followed one by one: the token queue, simple keys per flow level,
// the indentation stack, and the extents of plain, quoted and block scalars, anchors and tags.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "yaml/internal.h"

namespace hintkit::yaml::internal {
namespace {

enum class Tok : uint8_t {
  kStreamStart,
  kStreamEnd,
  kDocumentStart,  // `---`
  kDocumentEnd,    // `...`
  kBlockSeqStart,
  kBlockMapStart,
  kBlockEnd,
  kFlowSeqStart,
  kFlowMapStart,
  kFlowSeqEnd,
  kFlowMapEnd,
  kFlowEntry,
  kBlockEntry,
  kKey,
  kValue,
  kAnchor,
  kAlias,
  kTag,
  kScalar,
  kVersionDirective,  // `%YAML 1.1`
  kTagDirective,      // `%TAG !e! tag:example.com,2000:`
};

struct Token {
  Tok type;
  size_t offset;
  size_t length = 0;  // anchors and aliases: the name's bytes after `&` or `*`
  // An anchor or alias name go-yaml ends at `:`, `?`, `%`, `@` or a backquote, where
  // yaml-cpp reads on (`&a: 1` is a null key anchored `a` to go-yaml, the scalar 1 anchored
  // `a:` to yaml-cpp): the trees would differ, so the parser refuses it when it takes it.
  bool split = false;
  bool named_handle = false;  // a tag `!name!suffix`
  // A flow `:` with text right after it that follows `?`, an anchor or a tag (`{!t :b}`): a
  // value indicator to go-yaml, the start of a plain scalar to yaml-cpp. Refused when the
  // parser takes it as a value; a parser error before that is go-yaml's answer.
  bool flow_colon = false;
  std::string_view handle = {};  // a named tag's `!name!`; a %TAG directive's handle
  bool version_1_1 = false;      // a %YAML directive naming 1.1, the one go-yaml takes
};

// What go-yaml's scanner reads of a directive line: its words when it cannot (empty when it
// can), and the token it makes.
struct Directive {
  std::string problem;
  Token token{Tok::kVersionDirective, 0};
};

// go-yaml's mark: lines and columns count characters (not bytes) from 0; `index` counts
// characters from the start (the 1024-character limit of a simple key).
struct Mark {
  size_t offset = 0;
  size_t index = 0;
  int line = 0;
  int column = 0;
};

struct SimpleKey {
  bool possible = false;
  bool required = false;
  size_t token_number = 0;
  Mark mark;
};

// Ends the scan: a scanner error (kind kNone when it is one the model does not name, or a
// construct it does not follow, such as directives), a parser error (`parser`), or the parser
// taking the token where yaml-cpp's path stopped (`reached`).
struct Stop {
  ErrorKind kind;
  size_t offset;
  bool parser = false;
  bool reached = false;
  int problem_line = -1;  // a required key's end: go-yaml's line when it found the `:` missing
  // A scanner error yaml-cpp reports in its own way where it stops (kind kNone): what go-yaml
  // says there, for inputs yaml-cpp does not read (see GoScan::unnamed).
  ErrorKind unnamed = ErrorKind::kNone;
};

constexpr size_t kMaxSimpleKeyChars = 1024;  // go-yaml's limit on a simple key's length

Stop unnamed(ErrorKind kind, size_t offset) {
  Stop s{ErrorKind::kNone, offset};
  s.unnamed = kind;
  return s;
}

class Scanner {
 public:
  Scanner(std::string_view s, const ReaderStop* reader) : s_(s), reader_(reader) {}

  // The parser's view of the token queue: `peek` scans as far as go-yaml's scanner must to
  // know the next token; `skip` hands it to the parser.
  const Token& peek() {
    if (queue_.empty() && stream_start_) {
      stream_start_ = false;
      indent_ = -1;
      keys_.push_back({});
      allowed_ = true;
      queue_.push_back({Tok::kStreamStart, 0});
    }
    fetch_more_tokens();
    return queue_.front();
  }
  std::string_view name(const Token& t) const { return slice(t.offset + 1, t.length); }
  bool spans_lines(size_t from, size_t to) const {
    for (size_t i = from; i < to && i < s_.size(); ++i) {
      if (break_at(i) != 0) return true;
    }
    return false;
  }
  void skip(size_t parser_stop) {
    Token t = queue_.front();
    queue_.pop_front();
    ++tokens_parsed_;
    if (t.flow_colon) throw Stop{ErrorKind::kUnsupportedFlowColon, t.offset};
    // The parser takes this token now: if yaml-cpp's path could not, the parser's error
    // comes before anything the scanner finds later.
    if (parser_stop != std::string_view::npos && t.type != Tok::kStreamStart &&
        t.type != Tok::kBlockEnd && t.type != Tok::kStreamEnd && t.offset >= parser_stop) {
      throw Stop{ErrorKind::kNone, t.offset, false, true};
    }
  }

 private:
  // ---- characters ---------------------------------------------------------------------

  unsigned char byte(size_t i) const {
    if (reader_ != nullptr && i >= reader_->chunk_start) {
      throw Stop{reader_->kind, reader_->offset};
    }
    return i < s_.size() ? static_cast<unsigned char>(s_[i]) : 0;
  }
  unsigned char cur() const { return byte(m_.offset); }
  // s_.substr that is empty past the end (the reader may stand there after a skip at the end).
  std::string_view slice(size_t from, size_t n) const {
    return from <= s_.size() ? s_.substr(from, n) : std::string_view();
  }
  unsigned char ahead(size_t n) const { return byte(m_.offset + n); }
  bool at_end() const { return m_.offset >= s_.size(); }
  static size_t width(unsigned char b) {
    if ((b & 0x80) == 0) return 1;
    if ((b & 0xE0) == 0xC0) return 2;
    if ((b & 0xF0) == 0xE0) return 3;
    if ((b & 0xF8) == 0xF0) return 4;
    return 1;  // the reader rejected invalid UTF-8 before
  }
  // Width of the line break at i (CR LF counts as one), 0 when there is none. go-yaml's
  // breaks: CR, LF, NEL, LS, PS.
  size_t break_at(size_t i) const {
    unsigned char b = byte(i);
    if (b == '\r') return byte(i + 1) == '\n' ? 2 : 1;
    if (b == '\n') return 1;
    if (b == 0xC2 && byte(i + 1) == 0x85) return 2;
    if (b == 0xE2 && byte(i + 1) == 0x80 && (byte(i + 2) == 0xA8 || byte(i + 2) == 0xA9)) return 3;
    return 0;
  }
  bool is_break(size_t n = 0) const { return break_at(m_.offset + n) != 0; }
  bool is_blank(size_t n = 0) const { return ahead(n) == ' ' || ahead(n) == '\t'; }
  bool is_breakz(size_t n = 0) const { return m_.offset + n >= s_.size() || is_break(n); }
  bool is_blankz(size_t n = 0) const { return is_blank(n) || is_breakz(n); }
  // At a `?`: the key is empty on its line (only blanks, then a comment, the end of the line
  // or the `:` of its value).
  bool key_line_is_empty() const {
    size_t n = 1;
    while (is_blank(n)) ++n;
    if (ahead(n) == ':') {  // `{? :b}`: see kUnsupportedFlowColon
      unsigned char after = ahead(n + 1);
      return is_blankz(n + 1) || after == ',' || after == ']' || after == '}';
    }
    return is_breakz(n) || (n > 1 && ahead(n) == '#');
  }
  static bool is_alpha(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           c == '-';
  }
  static bool is_hex(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
  }
  static int hex(unsigned char c) {
    return c <= '9' ? c - '0' : (c >= 'a' ? c - 'a' + 10 : c - 'A' + 10);
  }
  bool marker_here() const {  // `---` or `...` at column 0, then a blank or the end
    unsigned char c = cur();
    return m_.column == 0 && (c == '-' || c == '.') && ahead(1) == c && ahead(2) == c &&
           is_blankz(3);
  }

  void skip() {
    m_.offset += width(cur());
    ++m_.index;
    ++m_.column;
  }
  void skip_line() {
    size_t w = break_at(m_.offset);
    if (w == 0) return;
    m_.index += cur() == '\r' && w == 2 ? 2 : 1;
    m_.offset += w;
    m_.column = 0;
    ++m_.line;
  }

  // ---- the token queue ----------------------------------------------------------------

  void insert(size_t number, Token t) {  // number: counted from the first token ever
    queue_.insert(queue_.begin() + static_cast<std::ptrdiff_t>(number - tokens_parsed_), t);
  }
  void append(Tok type, size_t offset) {
    queue_.push_back({type, offset});
    last_ = type;
  }

  void fetch_more_tokens() {
    while (true) {
      bool need = queue_.empty();
      if (!need) {
        stale_simple_keys();
        for (const SimpleKey& k : keys_) {
          if (k.possible && k.token_number == tokens_parsed_) {
            need = true;
            break;
          }
        }
      }
      if (!need) return;
      fetch_next_token();
    }
  }

  // ---- simple keys and indentation ----------------------------------------------------

  // A simple key lives on one line and within 1024 characters; one that go-yaml requires
  // (it stands where a block map's next key belongs) and that ends without `:` is an error.
  void stale_simple_keys() {
    for (SimpleKey& k : keys_) {
      if (k.possible && (k.mark.line < m_.line || k.mark.index + kMaxSimpleKeyChars < m_.index)) {
        if (k.required) throw Stop{ErrorKind::kMissingColon, k.mark.offset, false, false, m_.line};
        k.possible = false;
      }
    }
  }
  void save_simple_key() {
    bool required = flow_level_ == 0 && indent_ == m_.column;
    if (!allowed_) return;
    SimpleKey k{true, required, tokens_parsed_ + queue_.size(), m_};
    remove_simple_key();
    keys_.back() = k;
  }
  void remove_simple_key() {
    SimpleKey& k = keys_.back();
    if (k.possible && k.required) {
      throw Stop{ErrorKind::kMissingColon, k.mark.offset, false, false, m_.line};
    }
    k.possible = false;
  }

  void roll_indent(int column, long number, Tok type, size_t offset) {
    if (flow_level_ > 0 || indent_ >= column) return;
    indents_.push_back(indent_);
    indent_ = column;
    Token t{type, offset};
    if (number < 0) {
      queue_.push_back(t);
    } else {
      insert(static_cast<size_t>(number), t);
    }
  }
  void unroll_indent(int column) {
    if (flow_level_ > 0) return;
    while (indent_ > column) {
      append(Tok::kBlockEnd, m_.offset);
      indent_ = indents_.back();
      indents_.pop_back();
    }
  }

  // ---- fetching -----------------------------------------------------------------------

  void fetch_next_token() {
    scan_to_next_token();
    stale_simple_keys();
    unroll_indent(m_.column);
    if (at_end()) {
      fetch_stream_end();
      return;
    }
    unsigned char c = cur();
    if (m_.column == 0 && c == '%') {
      unroll_indent(-1);
      remove_simple_key();
      allowed_ = false;
      Directive d = read_directive();
      if (!d.problem.empty()) throw Stop{ErrorKind::kBadDirective, d.token.offset};
      last_ = d.token.type;
      queue_.push_back(d.token);
      return;
    }
    if (marker_here()) {
      unroll_indent(-1);
      remove_simple_key();
      allowed_ = false;
      append(c == '-' ? Tok::kDocumentStart : Tok::kDocumentEnd, m_.offset);
      skip();
      skip();
      skip();
      return;
    }
    switch (c) {
      case '[':
      case '{':
        save_simple_key();
        ++flow_level_;
        keys_.push_back({});
        allowed_ = true;
        append(c == '[' ? Tok::kFlowSeqStart : Tok::kFlowMapStart, m_.offset);
        skip();
        return;
      case ']':
      case '}':
        remove_simple_key();
        if (flow_level_ > 0) {
          --flow_level_;
          keys_.pop_back();
        }
        allowed_ = false;
        append(c == ']' ? Tok::kFlowSeqEnd : Tok::kFlowMapEnd, m_.offset);
        skip();
        return;
      case ',':
        remove_simple_key();
        allowed_ = true;
        append(Tok::kFlowEntry, m_.offset);
        skip();
        return;
      default:
        break;
    }
    if (c == '-' && is_blankz(1)) {
      if (flow_level_ == 0) {
        if (!allowed_) throw unnamed(ErrorKind::kUnexpectedDash, m_.offset);
        roll_indent(m_.column, -1, Tok::kBlockSeqStart, m_.offset);
      }
      remove_simple_key();
      allowed_ = true;
      append(Tok::kBlockEntry, m_.offset);
      skip();
      return;
    }
    if (c == '?' && (flow_level_ > 0 || is_blankz(1))) {
      if (flow_level_ == 0 && !allowed_) throw Stop{ErrorKind::kUnexpectedKeyIndicator, m_.offset};
      if (key_line_is_empty()) {
        throw Stop{ErrorKind::kUnsupportedEmptyExplicitKey, m_.offset};
      }
      if (flow_level_ == 0) roll_indent(m_.column, -1, Tok::kBlockMapStart, m_.offset);
      remove_simple_key();
      allowed_ = flow_level_ == 0;
      append(Tok::kKey, m_.offset);
      skip();
      return;
    }
    if (c == ':' && (flow_level_ > 0 || is_blankz(1))) {
      fetch_value();
      return;
    }
    if (c == '*' || c == '&') {
      if (c == '&') note_property_key();
      save_simple_key();
      allowed_ = false;
      size_t start = m_.offset;
      skip();
      size_t n = 0;
      for (; is_alpha(cur()); ++n) skip();
      unsigned char e = cur();
      if (n == 0 || !(is_blankz() || e == '?' || e == ':' || e == ',' || e == ']' || e == '}' ||
                      e == '%' || e == '@' || e == '`')) {
        throw Stop{ErrorKind::kBadAnchorOrAlias, start};
      }
      last_ = c == '&' ? Tok::kAnchor : Tok::kAlias;
      queue_.push_back(
          {last_, start, m_.offset - start - 1, !is_blankz() && e != ',' && e != ']' && e != '}'});
      return;
    }
    if (c == '!') {
      note_property_key();
      save_simple_key();
      allowed_ = false;
      size_t start = m_.offset;
      scan_tag();
      // `!name!suffix`: a named handle, which only a %TAG directive of its document defines.
      size_t second = s_.find('!', start + 1);
      bool named = byte(start + 1) != '<' && byte(start + 1) != '!' &&
                   second != std::string_view::npos && second < m_.offset;
      last_ = Tok::kTag;
      Token t{Tok::kTag, start, 0, false, named};
      if (named) t.handle = slice(start, second - start + 1);
      queue_.push_back(t);
      return;
    }
    if ((c == '|' || c == '>') && flow_level_ == 0) {
      remove_simple_key();
      allowed_ = true;
      size_t start = m_.offset;
      scan_block_scalar();
      append(Tok::kScalar, start);
      return;
    }
    if (c == '\'' || c == '"') {
      save_simple_key();
      allowed_ = false;
      size_t start = m_.offset;
      scan_quoted(c == '\'');
      append(Tok::kScalar, start);
      return;
    }
    static constexpr std::string_view kNotPlainStart = "-?:,[]{}#&*!|>'\"%@`";
    bool plain =
        !(is_blankz() || kNotPlainStart.find(static_cast<char>(c)) != std::string_view::npos) ||
        (c == '-' && !is_blank(1)) || (flow_level_ == 0 && (c == '?' || c == ':') && !is_blankz(1));
    // Cannot start any token. Named for a tab (one where go-yaml wants a token: in block
    // indentation, or right after a block collection's `- `, `? ` or `: `), which yaml-cpp
    // reads as whitespace and goes on.
    if (c == '\t' && !plain) throw Stop{ErrorKind::kUnknownToken, m_.offset};
    if (!plain) throw unnamed(ErrorKind::kUnknownToken, m_.offset);
    save_simple_key();
    allowed_ = false;
    size_t start = m_.offset;
    scan_plain();
    append(Tok::kScalar, start);
  }

  // A directive, from its `%` at the start of a line through the line's break: a name (go-yaml's
  // alphabet), then for YAML a version `major.minor` (at most two digits each), for TAG a handle
  // (`!`, `!!` or `!name!`), blanks and a prefix (URI characters and %-escapes of UTF-8), then
  // blanks, an optional comment and the end of the line.
 public:
  Directive read_directive() {
    Directive d;
    d.token.offset = m_.offset;
    auto problem = [&](const char* words) {
      d.problem = words;
      return d;
    };
    skip();  // '%'
    size_t name_at = m_.offset;
    while (is_alpha(cur())) skip();
    std::string_view name = slice(name_at, m_.offset - name_at);
    if (name.empty()) return problem("could not find expected directive name");
    if (!is_blankz()) return problem("found unexpected non-alphabetical character");
    if (name == "YAML") {
      while (is_blank()) skip();
      int version[2] = {0, 0};
      for (int part = 0; part < 2; ++part) {
        if (part == 1) {
          if (cur() != '.') return problem("did not find expected digit or '.' character");
          skip();
        }
        int digits = 0;
        for (; cur() >= '0' && cur() <= '9'; ++digits) {
          if (digits == 2) return problem("found extremely long version number");
          version[part] = version[part] * 10 + (cur() - '0');
          skip();
        }
        if (digits == 0) return problem("did not find expected version number");
      }
      d.token.version_1_1 = version[0] == 1 && version[1] == 1;
    } else if (name == "TAG") {
      d.token.type = Tok::kTagDirective;
      while (is_blank()) skip();
      size_t handle_at = m_.offset;
      if (cur() != '!') return problem("did not find expected '!'");
      skip();
      while (is_alpha(cur())) skip();
      if (cur() == '!') {
        skip();
      } else if (m_.offset - handle_at != 1) {
        return problem("did not find expected '!'");
      }
      d.token.handle = slice(handle_at, m_.offset - handle_at);
      if (!is_blank()) return problem("did not find expected whitespace");
      while (is_blank()) skip();
      static constexpr std::string_view kUriMarks = ";/?:@&=+$,.!~*'()[]";
      bool any = false;
      while (is_alpha(cur()) ||
             kUriMarks.find(static_cast<char>(cur())) != std::string_view::npos || cur() == '%') {
        any = true;
        if (cur() != '%') {
          skip();
          continue;
        }
        // One UTF-8 character as %-escaped octets: the first gives the count.
        for (int left = -1; left != 0; --left) {
          if (cur() != '%' || !is_hex(ahead(1)) || !is_hex(ahead(2))) {
            return problem("did not find URI escaped octet");
          }
          int octet = hex(ahead(1)) * 16 + hex(ahead(2));
          if (left == -1) {
            left = (octet & 0x80) == 0x00   ? 1
                   : (octet & 0xE0) == 0xC0 ? 2
                   : (octet & 0xF0) == 0xE0 ? 3
                   : (octet & 0xF8) == 0xF0 ? 4
                                            : 0;
            if (left == 0) return problem("found an incorrect leading UTF-8 octet");
          } else if ((octet & 0xC0) != 0x80) {
            return problem("found an incorrect trailing UTF-8 octet");
          }
          skip();
          skip();
          skip();
        }
      }
      if (!any) return problem("did not find expected tag URI");
      if (!is_blankz()) return problem("did not find expected whitespace or line break");
    } else {
      return problem("found unknown directive name");
    }
    while (is_blank()) skip();
    if (cur() == '#') {
      while (!is_breakz()) skip();
    }
    if (!is_breakz()) return problem("did not find expected comment or line break");
    skip_line();
    return d;
  }
  void start_at_line(size_t offset) { m_.offset = offset; }

 private:
  void fetch_stream_end() {
    if (m_.column != 0) {
      m_.column = 0;
      ++m_.line;
    }
    unroll_indent(-1);
    remove_simple_key();
    allowed_ = false;
    append(Tok::kStreamEnd, m_.offset);
  }

  void fetch_value() {
    const Tok previous = last_;
    SimpleKey& k = keys_.back();
    if (k.possible) {
      insert(k.token_number, {Tok::kKey, k.mark.offset});
      if (!property_keys_.empty() && property_keys_.back() == k.mark.offset) {
        property_keys_.pop_back();  // a key after all
      }
      roll_indent(k.mark.column, static_cast<long>(k.token_number), Tok::kBlockMapStart,
                  k.mark.offset);
      keys_.back().possible = false;
      allowed_ = false;
    } else {
      if (flow_level_ == 0) {
        if (!allowed_) throw unnamed(ErrorKind::kUnexpectedColon, m_.offset);
        roll_indent(m_.column, -1, Tok::kBlockMapStart, m_.offset);
      }
      allowed_ = flow_level_ == 0;
    }
    // After `?`, an anchor or a tag, go-yaml's parser takes this ':' as ending an empty key;
    // yaml-cpp reads a ':' with text after it as the start of a plain scalar there.
    unsigned char after = ahead(1);
    append(Tok::kValue, m_.offset);
    queue_.back().flow_colon =
        flow_level_ > 0 && !is_blankz(1) && after != ',' && after != '[' && after != ']' &&
        after != '{' && after != '}' &&
        (previous == Tok::kKey || previous == Tok::kAnchor || previous == Tok::kTag);
    skip();
  }

  void scan_to_next_token() {
    while (true) {
      while (cur() == ' ' || ((flow_level_ > 0 || !allowed_) && cur() == '\t')) skip();
      if (cur() == '#') {
        while (!is_breakz()) skip();
      }
      if (!is_break()) return;
      skip_line();
      if (flow_level_ == 0) allowed_ = true;
    }
  }

  // ---- scalars, tags ------------------------------------------------------------------

  void scan_plain() {
    const int indent = indent_ + 1;
    bool leading_blanks = false;
    while (true) {
      if (marker_here() || cur() == '#') break;
      while (!is_blankz()) {
        unsigned char c = cur();
        if ((c == ':' && is_blankz(1)) ||
            (flow_level_ > 0 &&
             std::string_view(",?[]{}").find(static_cast<char>(c)) != std::string_view::npos)) {
          break;
        }
        leading_blanks = false;
        skip();
      }
      if (!(is_blank() || is_break())) break;
      while (is_blank() || is_break()) {
        if (is_blank()) {
          if (leading_blanks && m_.column < indent && cur() == '\t') {
            throw Stop{ErrorKind::kTabInIndentation, m_.offset};
          }
          skip();
        } else {
          skip_line();
          leading_blanks = true;
        }
      }
      if (flow_level_ == 0 && m_.column < indent) break;
    }
    if (leading_blanks) allowed_ = true;
  }

  void scan_quoted(bool single) {
    skip();
    while (true) {
      if (marker_here()) throw unnamed(ErrorKind::kDocumentMarkerInQuote, m_.offset);
      if (at_end()) throw Stop{ErrorKind::kUnterminatedQuote, s_.size()};
      while (!is_blankz()) {
        unsigned char c = cur();
        if (single && c == '\'' && ahead(1) == '\'') {
          skip();
          skip();
        } else if (c == (single ? '\'' : '"')) {
          break;
        } else if (!single && c == '\\' && is_break(1)) {
          skip();
          skip_line();
          break;
        } else if (!single && c == '\\') {
          skip_escape();
        } else {
          skip();
        }
      }
      if (cur() == (single ? '\'' : '"')) break;
      while (is_blank() || is_break()) {
        if (is_blank()) {
          skip();
        } else {
          skip_line();
        }
      }
    }
    skip();
  }

  void skip_escape() {
    size_t start = m_.offset;
    int digits = 0;
    switch (ahead(1)) {
      case 'x':
        digits = 2;
        break;
      case 'u':
        digits = 4;
        break;
      case 'U':
        digits = 8;
        break;
      case 'N':
      case '_':
        throw Stop{ErrorKind::kUnsupportedNelNbspEscape, start};
      default:
        if (ahead(1) == 0 ||
            std::string_view("0abt\tnvfre \"'\\N_LP").find(static_cast<char>(ahead(1))) ==
                std::string_view::npos) {
          throw Stop{ErrorKind::kUnknownEscape, start};  // `\/` too: YAML 1.2's, not go-yaml's
        }
    }
    skip();
    skip();
    // go-yaml reports both problems where the digits start.
    long value = 0;
    for (int k = 0; k < digits; ++k) {
      if (!is_hex(ahead(static_cast<size_t>(k)))) throw Stop{ErrorKind::kBadHexEscape, m_.offset};
      value = (value << 4) + hex(ahead(static_cast<size_t>(k)));
    }
    if ((value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) {
      throw Stop{ErrorKind::kBadUnicodeEscape, m_.offset};
    }
    for (int k = 0; k < digits; ++k) skip();
  }

  void scan_block_scalar() {
    size_t start = m_.offset;
    skip();
    int increment = 0;
    auto digit = [&] {
      if (cur() < '0' || cur() > '9') return;
      if (cur() == '0') throw Stop{ErrorKind::kZeroIndentationIndicator, m_.offset};
      increment = cur() - '0';
      skip();
    };
    if (cur() == '+' || cur() == '-') {
      skip();
      digit();
    } else if (cur() >= '0' && cur() <= '9') {
      digit();
      if (cur() == '+' || cur() == '-') skip();
    }
    while (is_blank()) skip();
    if (cur() == '#') {
      while (!is_breakz()) skip();
    }
    if (!is_breakz()) throw unnamed(ErrorKind::kBadBlockScalarHeader, start);
    skip_line();
    int indent = 0;
    if (increment > 0) indent = indent_ >= 0 ? indent_ + increment : increment;
    block_scalar_breaks(indent);
    while (m_.column == indent && !at_end()) {
      while (!is_breakz()) skip();
      skip_line();
      block_scalar_breaks(indent);
    }
  }

  void block_scalar_breaks(int& indent) {
    int max_indent = 0;
    while (true) {
      while ((indent == 0 || m_.column < indent) && cur() == ' ') skip();
      if (m_.column > max_indent) max_indent = m_.column;
      if ((indent == 0 || m_.column < indent) && cur() == '\t') {
        throw Stop{ErrorKind::kTabInBlockScalarIndentation, m_.offset};
      }
      if (!is_break()) break;
      skip_line();
    }
    if (indent == 0) {
      indent = std::max(max_indent, indent_ + 1);
      if (indent < 1) indent = 1;
    }
  }

  void scan_tag() {
    size_t start = m_.offset;
    std::vector<size_t> ends_yaml_cpp_tag;  // characters go-yaml reads on at, yaml-cpp stops at
    auto uri = [&](bool has) {
      static constexpr std::string_view kUriMarks = ";/?:@&=+$,.!~*'()[]";
      while (is_alpha(cur()) ||
             kUriMarks.find(static_cast<char>(cur())) != std::string_view::npos || cur() == '%') {
        if (cur() == '%') throw Stop{ErrorKind::kNone, start};  // escapes: not followed
        if (std::string_view("!,[]").find(static_cast<char>(cur())) != std::string_view::npos) {
          ends_yaml_cpp_tag.push_back(m_.offset);
        }
        skip();
        has = true;
      }
      if (!has) throw Stop{ErrorKind::kBadTagUri, start};
    };
    if (ahead(1) == '<') {
      skip();
      skip();
      uri(false);
      if (cur() != '>') throw Stop{ErrorKind::kNone, start};
      skip();
      ends_yaml_cpp_tag.clear();  // yaml-cpp reads a verbatim tag to its '>'

    } else {
      skip();  // '!'
      while (is_alpha(cur())) skip();
      if (cur() == '!') {
        skip();
        uri(false);  // `!!str`, `!e!x`: a suffix must follow
      } else {
        uri(true);  // `!x`: the handle is the suffix; `!` alone is a tag too
      }
    }
    if (!is_blankz()) throw Stop{ErrorKind::kTagNotFollowedBySpace, m_.offset};
    tag_chars_yaml_cpp_ends_at_.insert(tag_chars_yaml_cpp_ends_at_.end(), ends_yaml_cpp_tag.begin(),
                                       ends_yaml_cpp_tag.end());
  }

  // Properties that may start a simple key in block context: yaml-cpp opens an indentation
  // level at them until it knows, go-yaml does not (see GoScan::property_not_keys).
  void note_property_key() {
    if (allowed_ && flow_level_ == 0) property_keys_.push_back(m_.offset);
  }

 public:
  const std::vector<size_t>& tag_chars_yaml_cpp_ends_at() const {
    return tag_chars_yaml_cpp_ends_at_;
  }
  const std::vector<size_t>& property_not_keys() const { return property_keys_; }

 private:
  std::string_view s_;
  const ReaderStop* reader_;
  std::vector<size_t> tag_chars_yaml_cpp_ends_at_;
  std::vector<size_t> property_keys_;  // see note_property_key
  Mark m_;
  std::deque<Token> queue_;
  size_t tokens_parsed_ = 0;
  int flow_level_ = 0;
  int indent_ = -1;
  std::vector<int> indents_;
  bool stream_start_ = true;
  bool allowed_ = false;          // go-yaml's simple_key_allowed
  Tok last_ = Tok::kStreamStart;  // the token appended last
  std::vector<SimpleKey> keys_;
};

// go-yaml's parser: a state machine over the tokens, one event at a time, with a stack of
// the states to return to. It builds nothing; it only finds where the token stream stops
// being YAML, and with which of go-yaml's problems.
class Parser {
 public:
  Parser(std::string_view source, size_t parser_stop, bool after_document_start,
         const ReaderStop* reader)
      : scanner_(source, reader), stop_(parser_stop), after_document_start_(after_document_start) {}

  GoScan run() {
    GoScan out;
    try {
      while (state_ != State::kEnd) step();
    } catch (const Stop& stop) {
      out.kind = stop.kind;
      out.offset = stop.offset;
      out.parser_error = stop.parser;
      out.problem_line = stop.problem_line;
      out.reached = stop.reached;
      out.unnamed = stop.unnamed;
    }
    if (out.kind == ErrorKind::kNone && out.unnamed == ErrorKind::kNone &&
        std::min(split_, entry_lines_) != std::string_view::npos) {
      out = GoScan{};
      out.kind = split_ < entry_lines_ ? ErrorKind::kUnsupportedAnchorName
                                       : ErrorKind::kUnsupportedFlowEntryLines;
      out.offset = std::min(split_, entry_lines_);
    }
    out.tag_chars_yaml_cpp_ends_at = scanner_.tag_chars_yaml_cpp_ends_at();
    out.property_not_keys = scanner_.property_not_keys();
    return out;
  }

 private:
  enum class State : uint8_t {
    kStreamStart,
    kImplicitDocumentStart,
    kDocumentStart,
    kDocumentContent,
    kDocumentEnd,
    kBlockNode,
    kBlockSequenceFirstEntry,
    kBlockSequenceEntry,
    kIndentlessSequenceEntry,
    kBlockMappingFirstKey,
    kBlockMappingKey,
    kBlockMappingValue,
    kFlowSequenceFirstEntry,
    kFlowSequenceEntry,
    kFlowSequenceEntryMappingKey,
    kFlowSequenceEntryMappingValue,
    kFlowSequenceEntryMappingEnd,
    kFlowMappingFirstKey,
    kFlowMappingKey,
    kFlowMappingValue,
    kFlowMappingEmptyValue,
    kEnd,
  };

  const Token& peek() { return scanner_.peek(); }
  void skip() { scanner_.skip(stop_); }
  [[noreturn]] static void fail(ErrorKind kind, const Token& at) {
    throw Stop{kind, at.offset, true};
  }
  void pop_state() {
    state_ = states_.back();
    states_.pop_back();
  }

  void step() {
    switch (state_) {
      case State::kStreamStart:
        peek();
        skip();  // STREAM-START
        state_ = State::kImplicitDocumentStart;
        return;
      case State::kImplicitDocumentStart:
        if (after_document_start_) {  // as if a `---` had just been taken
          anchors_.clear();
          states_.push_back(State::kDocumentEnd);
          state_ = State::kDocumentContent;
          return;
        }
        return document_start(true);
      case State::kDocumentStart:
        return document_start(false);
      case State::kDocumentContent: {
        Tok t = peek().type;
        if (t == Tok::kDocumentStart || t == Tok::kDocumentEnd || t == Tok::kStreamEnd ||
            t == Tok::kVersionDirective || t == Tok::kTagDirective) {
          pop_state();  // an empty document
          return;
        }
        return node(true, false);
      }
      case State::kDocumentEnd:
        if (peek().type == Tok::kDocumentEnd) skip();
        tag_handles_.clear();  // a %TAG directive holds for its own document
        state_ = State::kDocumentStart;
        return;
      case State::kBlockNode:
        return node(true, false);
      case State::kBlockSequenceFirstEntry:
        skip();  // BLOCK-SEQUENCE-START
        [[fallthrough]];
      case State::kBlockSequenceEntry:
        return block_sequence_entry();
      case State::kIndentlessSequenceEntry:
        return indentless_sequence_entry();
      case State::kBlockMappingFirstKey:
        skip();  // BLOCK-MAPPING-START
        [[fallthrough]];
      case State::kBlockMappingKey:
        return block_mapping_key();
      case State::kBlockMappingValue:
        return block_mapping_value();
      case State::kFlowSequenceFirstEntry:
        skip();  // FLOW-SEQUENCE-START
        return flow_sequence_entry(true);
      case State::kFlowSequenceEntry:
        return flow_sequence_entry(false);
      case State::kFlowSequenceEntryMappingKey: {
        Tok t = peek().type;
        if (t != Tok::kValue && t != Tok::kFlowEntry && t != Tok::kFlowSeqEnd) {
          states_.push_back(State::kFlowSequenceEntryMappingValue);
          return node(false, false);
        }
        state_ = State::kFlowSequenceEntryMappingValue;  // an empty key
        return;
      }
      case State::kFlowSequenceEntryMappingValue:
        if (peek().type == Tok::kValue) {
          skip();
          Tok t = peek().type;
          if (t != Tok::kFlowEntry && t != Tok::kFlowSeqEnd) {
            states_.push_back(State::kFlowSequenceEntryMappingEnd);
            return node(false, false);
          }
        }
        state_ = State::kFlowSequenceEntryMappingEnd;
        return;
      case State::kFlowSequenceEntryMappingEnd:
        state_ = State::kFlowSequenceEntry;
        return;
      case State::kFlowMappingFirstKey:
        skip();  // FLOW-MAPPING-START
        return flow_mapping_key(true);
      case State::kFlowMappingKey:
        return flow_mapping_key(false);
      case State::kFlowMappingValue:
        if (peek().type == Tok::kValue) {
          skip();
          Tok t = peek().type;
          if (t != Tok::kFlowEntry && t != Tok::kFlowMapEnd) {
            states_.push_back(State::kFlowMappingKey);
            return node(false, false);
          }
        }
        state_ = State::kFlowMappingKey;
        return;
      case State::kFlowMappingEmptyValue: {
        // An entry without `:` (`{a, b}`): yaml-cpp reads it only when its `,` or `}` stands on
        // the entry's line, within 1024 bytes (its simple key must still be valid there).
        const size_t start = entry_starts_.back();
        entry_starts_.pop_back();
        const Token& next = peek();
        // Refused only if go-yaml goes on without an error (as a split anchor name).
        if ((next.type == Tok::kFlowEntry || next.type == Tok::kFlowMapEnd) &&
            (scanner_.spans_lines(start, next.offset) ||
             next.offset - start > kMaxSimpleKeyChars) &&
            entry_lines_ == std::string_view::npos) {
          entry_lines_ = start;
        }
        state_ = State::kFlowMappingKey;
        return;
      }
      case State::kEnd:
        return;
    }
  }

  void document_start(bool implicit) {
    anchors_.clear();
    if (!implicit) {
      while (peek().type == Tok::kDocumentEnd) skip();
    }
    const Token& t = peek();
    if (t.type == Tok::kStreamEnd) {
      skip();
      state_ = State::kEnd;
      return;
    }
    const bool directive = t.type == Tok::kVersionDirective || t.type == Tok::kTagDirective;
    if (implicit && t.type != Tok::kDocumentStart && !directive) {
      states_.push_back(State::kDocumentEnd);
      state_ = State::kBlockNode;
      return;
    }
    bool version_seen = false;
    for (const Token* d = &peek();
         d->type == Tok::kVersionDirective || d->type == Tok::kTagDirective; d = &peek()) {
      if (d->type == Tok::kVersionDirective) {
        if (version_seen) fail(ErrorKind::kDuplicateDirective, *d);
        if (!d->version_1_1) fail(ErrorKind::kIncompatibleYamlVersion, *d);
        version_seen = true;
      } else if (!tag_handles_.insert(std::string(d->handle)).second) {
        fail(ErrorKind::kDuplicateDirective, *d);
      }
      skip();
    }
    if (peek().type != Tok::kDocumentStart) fail(ErrorKind::kMissingDocumentMarker, peek());
    states_.push_back(State::kDocumentEnd);
    state_ = State::kDocumentContent;
    skip();
  }

  // A node: an alias, or properties (anchor, tag, either order) and content; properties
  // alone make an empty scalar.
  // go-yaml's decoder looks an alias up while it takes the document's events: an anchor
  // defined earlier in the same document (or on an enclosing node) is known.
  void node(bool block, bool indentless_sequence) {
    if (peek().type == Tok::kAlias) {
      if (anchors_.count(std::string(scanner_.name(peek()))) == 0) {
        fail(ErrorKind::kUndefinedAlias, peek());
      }
      note_split(peek());
      pop_state();
      skip();
      return;
    }
    bool properties = false;
    std::optional<Token> tag;
    if (peek().type == Tok::kAnchor) {
      properties = true;
      take_anchor();
      if (peek().type == Tok::kTag) {
        tag = peek();
        skip();
      }
    } else if (peek().type == Tok::kTag) {
      properties = true;
      tag = peek();
      skip();
      if (peek().type == Tok::kAnchor) take_anchor();
    }
    if (tag && tag->named_handle && tag_handles_.count(std::string(tag->handle)) == 0) {
      fail(ErrorKind::kUndefinedTagHandle, *tag);
    }
    const Token& t = peek();
    if (indentless_sequence && t.type == Tok::kBlockEntry) {
      state_ = State::kIndentlessSequenceEntry;
      return;
    }
    switch (t.type) {
      case Tok::kScalar:
        pop_state();
        skip();
        return;
      case Tok::kFlowSeqStart:
        state_ = State::kFlowSequenceFirstEntry;
        return;
      case Tok::kFlowMapStart:
        state_ = State::kFlowMappingFirstKey;
        return;
      case Tok::kBlockSeqStart:
        if (!block) break;
        state_ = State::kBlockSequenceFirstEntry;
        return;
      case Tok::kBlockMapStart:
        if (!block) break;
        state_ = State::kBlockMappingFirstKey;
        return;
      default:
        break;
    }
    if (properties) {
      pop_state();
      return;
    }
    fail(ErrorKind::kMissingNodeContent, t);
  }

  // A split name (see Token::split) matters only if go-yaml goes on without an error: the
  // model reports the first one when it gets to the end or to `parser_stop`.
  void note_split(const Token& t) {
    if (t.split && split_ == std::string_view::npos) split_ = t.offset;
  }

  void take_anchor() {
    note_split(peek());
    anchors_.insert(std::string(scanner_.name(peek())));
    skip();
  }

  void block_sequence_entry() {
    const Token& t = peek();
    if (t.type == Tok::kBlockEntry) {
      skip();
      Tok next = peek().type;
      if (next != Tok::kBlockEntry && next != Tok::kBlockEnd) {
        states_.push_back(State::kBlockSequenceEntry);
        return node(true, false);
      }
      state_ = State::kBlockSequenceEntry;
      return;
    }
    if (t.type == Tok::kBlockEnd) {
      pop_state();
      skip();
      return;
    }
    fail(ErrorKind::kMissingDash, t);
  }

  void indentless_sequence_entry() {
    if (peek().type == Tok::kBlockEntry) {
      skip();
      Tok next = peek().type;
      if (next != Tok::kBlockEntry && next != Tok::kKey && next != Tok::kValue &&
          next != Tok::kBlockEnd) {
        states_.push_back(State::kIndentlessSequenceEntry);
        return node(true, false);
      }
      state_ = State::kIndentlessSequenceEntry;
      return;
    }
    pop_state();
  }

  void block_mapping_key() {
    const Token& t = peek();
    if (t.type == Tok::kKey) {
      skip();
      Tok next = peek().type;
      if (next != Tok::kKey && next != Tok::kValue && next != Tok::kBlockEnd) {
        states_.push_back(State::kBlockMappingValue);
        return node(true, true);
      }
      state_ = State::kBlockMappingValue;
      return;
    }
    if (t.type == Tok::kBlockEnd) {
      pop_state();
      skip();
      return;
    }
    fail(ErrorKind::kMissingKey, t);
  }

  void block_mapping_value() {
    if (peek().type == Tok::kValue) {
      skip();
      Tok next = peek().type;
      if (next != Tok::kKey && next != Tok::kValue && next != Tok::kBlockEnd) {
        states_.push_back(State::kBlockMappingKey);
        return node(true, true);
      }
    }
    state_ = State::kBlockMappingKey;
  }

  void flow_sequence_entry(bool first) {
    if (peek().type != Tok::kFlowSeqEnd) {
      if (!first) {
        if (peek().type != Tok::kFlowEntry) fail(ErrorKind::kMissingFlowListEntryEnd, peek());
        skip();
      }
      Tok t = peek().type;
      if (t == Tok::kKey) {
        state_ = State::kFlowSequenceEntryMappingKey;
        skip();
        return;
      }
      if (t != Tok::kFlowSeqEnd) {
        states_.push_back(State::kFlowSequenceEntry);
        return node(false, false);
      }
    }
    pop_state();
    skip();
  }

  void flow_mapping_key(bool first) {
    if (peek().type != Tok::kFlowMapEnd) {
      if (!first) {
        if (peek().type != Tok::kFlowEntry) fail(ErrorKind::kMissingFlowMapEntryEnd, peek());
        skip();
      }
      Tok t = peek().type;
      if (t == Tok::kKey) {
        skip();
        Tok next = peek().type;
        if (next != Tok::kValue && next != Tok::kFlowEntry && next != Tok::kFlowMapEnd) {
          states_.push_back(State::kFlowMappingValue);
          return node(false, false);
        }
        state_ = State::kFlowMappingValue;
        return;
      }
      if (t != Tok::kFlowMapEnd) {
        states_.push_back(State::kFlowMappingEmptyValue);
        entry_starts_.push_back(peek().offset);
        return node(false, false);
      }
    }
    pop_state();
    skip();
  }

  Scanner scanner_;
  size_t stop_;
  bool after_document_start_;
  std::vector<size_t> entry_starts_;  // of the flow map entries without `:` being read
  // The first such entry that ends on a later line (see kUnsupportedFlowEntryLines).
  size_t entry_lines_ = std::string_view::npos;
  State state_ = State::kStreamStart;
  std::vector<State> states_;
  std::unordered_set<std::string> anchors_;      // of the current document
  std::unordered_set<std::string> tag_handles_;  // defined by the current document's %TAG
  size_t split_ = std::string_view::npos;        // the first split anchor or alias name taken
};

}  // namespace

std::vector<size_t> go_line_starts(std::string_view text) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    size_t w = 0;
    if (c == '\r') {
      w = i + 1 < text.size() && text[i + 1] == '\n' ? 2 : 1;
    } else if (c == '\n') {
      w = 1;
    } else if (c == 0xC2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) == 0x85) {
      w = 2;
    } else if (c == 0xE2 && i + 2 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(text[i + 2]) == 0xA8 ||
                static_cast<unsigned char>(text[i + 2]) == 0xA9)) {
      w = 3;
    }
    if (w == 0) continue;
    i += w - 1;
    starts.push_back(i + 1);
  }
  return starts;
}

GoScan go_yaml_scan(std::string_view source, size_t parser_stop, bool after_document_start,
                    const ReaderStop* reader) {
  return Parser(source, parser_stop, after_document_start, reader).run();
}

size_t reader_chunk_start(std::string_view text, size_t offset, bool after_document_start) {
  constexpr size_t kChunk = 512;               // go-yaml's raw input buffer
  constexpr std::string_view kLine = "---\n";  // what ytt puts before the text
  const size_t prefix = after_document_start ? kLine.size() : 0;
  const size_t total = text.size() + prefix;
  auto raw = [&](size_t i) {
    return static_cast<unsigned char>(i < prefix ? kLine[i] : text[i - prefix]);
  };
  // Each chunk decodes whole characters; one cut by the chunk's end is read with the next.
  size_t start = 0;
  while (true) {
    size_t end = std::min(start + kChunk, total);
    if (end < total) {
      size_t lead = end;
      while (lead > start && (raw(lead) & 0xC0) == 0x80) --lead;
      if (lead > start) end = lead;
    }
    if (offset + prefix < end || end >= total) return start >= prefix ? start - prefix : 0;
    start = end;
  }
}

bool ytt_puts_document_start(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n\f\v";
  size_t i = text.find_first_not_of(kSpace);
  return !(i != std::string_view::npos && text.substr(i, 3) == "---" && i + 3 < text.size() &&
           kSpace.find(text[i + 3]) != std::string_view::npos);
}

std::string directive_problem(std::string_view source, size_t offset) {
  Scanner scanner(source, nullptr);
  scanner.start_at_line(offset);
  return scanner.read_directive().problem;
}

}  // namespace hintkit::yaml::internal
