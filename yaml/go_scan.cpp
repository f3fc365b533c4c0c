// The YAML reader: go-yaml v2's scanner and parser (as vendored by ytt v0.48.0, libyaml's
// algorithm), followed mechanism by mechanism: the token queue, simple keys per flow level
// (a required one that ends without `:` is the error go-yaml names), the indentation stack,
// plain, quoted and block scalars with their folding, escapes and chomping, anchors, tags and
// %TAG prefixes, and the parser's state machine. Every event goes to an EventHandler, the tree's
// builder (go_yaml_read). The first stop (scanner, parser or reader) is go-yaml's first error, at
// go-yaml's place, with the problem and mark go-yaml sets where it meets it, from the same pass.
// Bottom up: ScannerInput (the text and the mark), ScalarScanner (directives, scalars, tags),
// Scanner (tokens, simple keys, indentation), Parser (events).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "yaml/internal.h"

namespace hintkit::yaml::internal {
namespace {

using NodeMark = internal::Mark;  // the tree's mark (`Mark` below is go-yaml's)

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
  Token() = default;
  Token(Tok t, size_t at) : type(t), offset(at) {}
  Tok type = Tok::kStreamEnd;
  // Scalars: how it is written.
  Style style = Style::kPlain;
  // The value (scalars), suffix (tags) or prefix (%TAG directives) is built in the queue's text
  // (TokenQueue::text) rather than a slice of the source (see `value_at`).
  bool owned = false;
  bool named_handle = false;  // a tag `!name!suffix`
  bool version_1_1 = false;   // a %YAML directive naming 1.1, the one go-yaml takes
  // Where the token starts, as the tree wants it: 0-based line, and the offset its line starts at.
  int line = 0;
  // Scalars: the scanner's end mark (past the closing quote, the last character of a plain
  // scalar, the breaks and indentation after a block scalar), in bytes from `offset` (a text
  // is at most fileio::kMaxFileBytes).
  uint32_t end_delta = 0;
  size_t offset = 0;
  size_t line_start = 0;
  // Scalars, tags, %TAG directives: the text (see `owned`): bytes [value_at, value_at +
  // value_len) of the source, or of the queue's text when `owned` (most scalars are slices of
  // the source). Anchors and aliases: `value_len` is the name's bytes after `&` or `*`.
  size_t value_at = 0;
  size_t value_len = 0;
  // Tags: the handle as go-yaml's parser resolves it ("" for verbatim tags and `!`), a slice of
  // the source or "!"; for a named one (`!name!`) also the handle a %TAG directive must define.
  // A %TAG directive: its handle.
  std::string_view tag_handle;
};
// Tokens are copied and moved as plain bytes: the queue inserts at its front without a
// constructor call per token.
static_assert(std::is_trivially_copyable_v<Token>);

// What go-yaml's scanner reads of a directive line: its words when it cannot (empty when it
// can), and the token it makes.
struct Directive {
  std::string problem;
  Token token{Tok::kVersionDirective, 0};
};

// The scanner's token queue: a buffer read from `head_` to `tail_`, emptied whenever the
// parser has taken every token (it holds a few at a time), so that tokens are not allocated
// one by one. It starts with room before its head: go-yaml inserts a simple key's KEY (and the
// BLOCK-MAPPING-START before it) in front of the key's token, which is most often the head.
// Values built by the scanner (folded, unescaped) live in `text`, emptied with the queue.
class TokenQueue {
 public:
  TokenQueue() : tokens_(kInitialSize) {}
  bool empty() const { return head_ == tail_; }
  size_t size() const { return tail_ - head_; }
  Token& front() { return tokens_[head_]; }
  Token& back() { return tokens_[tail_ - 1]; }
  void push_back(const Token& t) { emplace(t.type, t.offset) = t; }
  // A new last token, filled in place.
  [[gnu::always_inline]] Token& emplace(Tok type, size_t offset) {
    if (tail_ == tokens_.size()) make_room();
    Token& t = tokens_[tail_++];
    t = Token(type, offset);
    return t;
  }
  void insert_at(size_t index, const Token& t) {
    if (index == 0 && head_ > 0) {
      tokens_[--head_] = t;
      return;
    }
    if (tail_ == tokens_.size()) make_room();
    const size_t at = head_ + index;
    std::memmove(&tokens_[at + 1], &tokens_[at], (tail_ - at) * sizeof(Token));
    ++tail_;
    tokens_[at] = t;
  }
  [[gnu::always_inline]] void pop_front() {
    if (++head_ == tail_) {
      head_ = tail_ = kFrontRoom;
      text.clear();
    }
  }
  std::string text;

 private:
  static constexpr size_t kFrontRoom = 2;  // a KEY and a BLOCK-MAPPING-START
  static constexpr size_t kInitialSize = 32;
  // At the buffer's end: move the tokens back to the front when that frees half of it, else
  // double it.
  [[gnu::noinline]] void make_room() {
    if (head_ > kFrontRoom && (head_ - kFrontRoom) * 2 >= tokens_.size()) {
      std::memmove(&tokens_[kFrontRoom], &tokens_[head_], (tail_ - head_) * sizeof(Token));
      tail_ -= head_ - kFrontRoom;
      head_ = kFrontRoom;
      return;
    }
    tokens_.resize(tokens_.size() * 2);
  }
  std::vector<Token> tokens_;
  size_t head_ = kFrontRoom;
  size_t tail_ = kFrontRoom;
};

// go-yaml's mark: lines and columns count characters (not bytes) from 0; `index` counts
// characters from the start (the 1024-character limit of a simple key).
struct Mark {
  size_t offset = 0;
  size_t index = 0;
  int line = 0;
  int column = 0;
  size_t line_start = 0;  // the offset of the line's first byte
};

struct SimpleKey {
  bool possible = false;
  bool required = false;
  bool indexed = false;  // go-yaml v2.4 finds it by its token number (Scanner::head_key_is_valid)
  size_t token_number = 0;
  Mark mark;
};

// Ends the scan: go-yaml's error, as its scanner and parser set it where they meet it
// (yaml_parser_set_scanner_error, yaml_parser_set_parser_error), or its reader's.
struct Stop {
  ErrorKind kind;
  size_t offset;
  std::string problem = {};  // go-yaml's words; empty for the reader's errors (ReaderStop)
  int line = -1;             // the problem's mark: 0-based line (-1: the decoder's error, no line)
  bool parser = false;       // a parser error (its mark is the token's); else a scanner error's
};

constexpr size_t kMaxSimpleKeyChars = 1024;  // go-yaml's limit on a simple key's length
constexpr const char* kNoColon = "could not find expected ':'";

// go-yaml's reader as its scanner sees it: the text, the mark and the characters at and after
// it (readerc.go's buffer and the scanner's character tests), and the scanner's state, which
// the scalar scanners and the token logic above both read.
class ScannerInput {
 public:
  ScannerInput(std::string_view s, const ReaderStop* reader, SourceMap* map)
      : s_(s),
        reader_(reader),
        map_(map),
        fast_end_(reader != nullptr ? std::min(reader->chunk_start, s.size()) : s.size()) {}

 protected:
  // go-yaml's scanner error: `problem` at the reader's mark (`offset`: where we report it).
  [[noreturn]] void error(ErrorKind kind, size_t offset, std::string problem) const {
    throw Stop{kind, offset, std::move(problem), m_.line};
  }

  // ---- characters ---------------------------------------------------------------------

  // Below `fast_end_` (the end of the text, or of the text before the chunk the reader rejects)
  // a byte is one comparison away.
  [[gnu::always_inline]] unsigned char byte(size_t i) const {
    if (i < fast_end_) [[likely]]
      return static_cast<unsigned char>(s_[i]);
    return byte_past_fast_end(i);
  }
  [[gnu::noinline]] unsigned char byte_past_fast_end(size_t i) const {
    if (reader_ != nullptr && i >= reader_->chunk_start) {
      throw Stop{reader_->kind, reader_->offset};
    }
    return i < s_.size() ? static_cast<unsigned char>(s_[i]) : 0;
  }
  [[gnu::always_inline]] unsigned char cur() const { return byte(m_.offset); }
  // s_.substr that is empty past the end (the reader may stand there after a skip at the end).
  std::string_view slice(size_t from, size_t n) const {
    return from <= s_.size() ? s_.substr(from, n) : std::string_view();
  }
  [[gnu::always_inline]] unsigned char ahead(size_t n) const { return byte(m_.offset + n); }
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
  [[gnu::always_inline]] size_t break_at(size_t i) const {
    unsigned char b = byte(i);
    if (b > '\r' && b < 0xC2) [[likely]]
      return 0;
    if (b != '\r' && b != '\n' && b != 0xC2 && b != 0xE2) return 0;
    if (b == '\r') return byte(i + 1) == '\n' ? 2 : 1;
    if (b == '\n') return 1;
    if (b == 0xC2 && byte(i + 1) == 0x85) return 2;
    if (b == 0xE2 && byte(i + 1) == 0x80 && (byte(i + 2) == 0xA8 || byte(i + 2) == 0xA9)) return 3;
    return 0;
  }
  [[gnu::always_inline]] bool is_break(size_t n = 0) const { return break_at(m_.offset + n) != 0; }
  [[gnu::always_inline]] bool is_blank(size_t n = 0) const {
    const unsigned char c = ahead(n);
    return c == ' ' || c == '\t';
  }
  [[gnu::always_inline]] bool is_breakz(size_t n = 0) const {
    return m_.offset + n >= s_.size() || is_break(n);
  }
  [[gnu::always_inline]] bool is_blankz(size_t n = 0) const {
    const unsigned char c = ahead(n);
    if (c > ' ' && c != 0xC2 && c != 0xE2) return false;
    return c == ' ' || c == '\t' || is_breakz(n);
  }
  // go-yaml's line folding inside a flow scalar (plain or double-quoted): one line feed between
  // two parts reads as a space, more keep all but the first; other breaks are kept as they are.
  static void fold_lines(std::string& out, std::string& leading_break,
                         std::string& trailing_breaks) {
    if (!leading_break.empty() && leading_break[0] == '\n') {
      if (trailing_breaks.empty()) {
        out += ' ';
      } else {
        out += trailing_breaks;
      }
    } else {
      out += leading_break;
      out += trailing_breaks;
    }
    trailing_breaks.clear();
    leading_break.clear();
  }
  // A byte a plain scalar takes without a second look (scan_plain): printable ASCII that is no
  // blank, no break and no indicator that may end the scalar.
  static bool plain_run_byte(unsigned char c) {
    static constexpr auto kTable = [] {
      std::array<bool, 256> t{};
      for (int b = '!'; b < 0x7F; ++b)
        t[b] = std::string_view(":,?[]{}").find(char(b)) == std::string_view::npos;
      return t;
    }();
    return kTable[c];
  }
  // A byte that cannot start a plain scalar as it is (one of "-?:,[]{}#&*!|>'\"%@`").
  static constexpr std::string_view kNotPlainStart = "-?:,[]{}#&*!|>'\"%@`";
  static bool not_plain_start(unsigned char c) {
    static constexpr auto kTable = [] {
      std::array<bool, 256> t{};
      for (char x : kNotPlainStart) t[static_cast<unsigned char>(x)] = true;
      return t;
    }();
    return kTable[c];
  }
  // A byte that starts a plain scalar whatever follows: no other token starts with it (printable
  // ASCII but the indicators, '.' of a `...` marker and '%' of a directive).
  static bool plain_for_sure(unsigned char c) {
    static constexpr auto kTable = [] {
      std::array<bool, 256> t{};
      for (int b = '!'; b < 0x7F; ++b) {
        t[b] = kNotPlainStart.find(static_cast<char>(b)) == std::string_view::npos;
      }
      t['.'] = false;
      return t;
    }();
    return kTable[c];
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
  void end_at(Token& t, size_t end) const { t.end_delta = static_cast<uint32_t>(end - t.offset); }
  bool marker_here() const {  // `---` or `...` at column 0, then a blank or the end
    if (m_.column != 0) return false;
    unsigned char c = cur();
    return (c == '-' || c == '.') && ahead(1) == c && ahead(2) == c && is_blankz(3);
  }

  void skip() {
    m_.offset += width(cur());
    ++m_.index;
    ++m_.column;
  }
  // `while (!is_breakz()) skip();` (the rest of a comment, or of a block scalar's line), taking
  // runs of ASCII that is no line break at once.
  void skip_to_breakz() {
    while (true) {
      size_t q = m_.offset;
      while (q < fast_end_) {
        const unsigned char c = static_cast<unsigned char>(s_[q]);
        if (c >= 0x80 || c == '\n' || c == '\r') break;
        ++q;
      }
      const size_t run = q - m_.offset;
      m_.offset = q;
      m_.index += run;
      m_.column += static_cast<int>(run);
      if (is_breakz()) return;
      skip();
    }
  }
  // `n` bytes of ASCII, a character each, at once (the caller has looked at them).
  void skip_ascii(size_t n) {
    m_.offset += n;
    m_.index += n;
    m_.column += static_cast<int>(n);
  }
  void skip_line() {
    size_t w = break_at(m_.offset);
    if (w == 0) return;
    m_.index += cur() == '\r' && w == 2 ? 2 : 1;
    m_.offset += w;
    m_.column = 0;
    m_.line_start = m_.offset;
    ++m_.line;
    if (map_ != nullptr) map_->line_starts.push_back(m_.offset);
  }
  // go-yaml's readLine: the line break appended to `out` as a scalar holds it (CR LF, CR, LF
  // and NEL as LF, LS and PS as themselves), then skipped.
  void read_line(std::string& out) {
    size_t w = break_at(m_.offset);
    if (w == 0) return;
    if (w == 3) {
      out.append(s_.substr(m_.offset, 3));
    } else {
      out += '\n';
    }
    skip_line();
  }

  std::string_view s_;
  const ReaderStop* reader_;
  SourceMap* map_;   // what the reader notes for the tree (optional)
  size_t fast_end_;  // see byte()
  Mark m_;
  TokenQueue queue_;
  int flow_level_ = 0;
  int indent_ = -1;
  bool allowed_ = false;  // go-yaml's simple_key_allowed
};

// go-yaml's scanning of directives, scalars and tags (scannerc.go's yaml_parser_scan_directive,
// _plain_scalar, _flow_scalar, _block_scalar, _tag): each reads one token's text at the mark.
class ScalarScanner : public ScannerInput {
 public:
  using ScannerInput::ScannerInput;

  // A directive, from its `%` at the start of a line through the line's break: a name (go-yaml's
  // alphabet), then for YAML a version `major.minor` (at most two digits each), for TAG a handle
  // (`!`, `!!` or `!name!`), blanks and a prefix (URI characters and %-escapes of UTF-8), then
  // blanks, an optional comment and the end of the line.
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
      d.token.tag_handle = slice(handle_at, m_.offset - handle_at);
      if (!is_blank()) return problem("did not find expected whitespace");
      while (is_blank()) skip();
      static constexpr std::string_view kUriMarks = ";/?:@&=+$,.!~*'()[]";
      std::string& prefix = queue_.text;
      d.token.owned = true;
      d.token.value_at = prefix.size();
      bool any = false;
      while (is_alpha(cur()) ||
             kUriMarks.find(static_cast<char>(cur())) != std::string_view::npos || cur() == '%') {
        any = true;
        if (cur() != '%') {
          prefix += static_cast<char>(cur());
          skip();
          continue;
        }
        if (const char* words = uri_escape(prefix)) return problem(words);
      }
      d.token.value_len = prefix.size() - d.token.value_at;
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

  // One UTF-8 character written as %-escaped octets, at a '%': its bytes appended to `out`, or
  // go-yaml's words for what is wrong with it.
  const char* uri_escape(std::string& out) {
    for (int left = -1; left != 0; --left) {
      if (cur() != '%' || !is_hex(ahead(1)) || !is_hex(ahead(2))) {
        return "did not find URI escaped octet";
      }
      int octet = hex(ahead(1)) * 16 + hex(ahead(2));
      if (left == -1) {
        left = (octet & 0x80) == 0x00   ? 1
               : (octet & 0xE0) == 0xC0 ? 2
               : (octet & 0xF0) == 0xE0 ? 3
               : (octet & 0xF8) == 0xF0 ? 4
                                        : 0;
        if (left == 0) return "found an incorrect leading UTF-8 octet";
      } else if ((octet & 0xC0) != 0x80) {
        return "found an incorrect trailing UTF-8 octet";
      }
      out += static_cast<char>(octet);
      skip();
      skip();
      skip();
    }
    return nullptr;
  }

 protected:
  // ---- scalars, tags ------------------------------------------------------------------

  // go-yaml's scan_plain_scalar. The value is a slice of the source until a line break is
  // folded into it; from then on it is built in the queue's text.
  void scan_plain(Token& t) {
    const int indent = indent_ + 1;
    const size_t start = m_.offset;
    size_t end = start;  // past the last character taken
    bool leading_blanks = false;
    bool copying = false;
    std::string& out = queue_.text;
    const size_t out_at = out.size();
    std::string leading_break, trailing_breaks;
    size_t ws_from = 0, ws_to = 0;  // blanks after the last character, before any break
    while (true) {
      if (marker_here() || cur() == '#') break;
      while (!is_blankz()) {
        unsigned char c = cur();
        if ((c == ':' && is_blankz(1)) || (flow_level_ > 0 && (c == ',' || c == '?' || c == '[' ||
                                                               c == ']' || c == '{' || c == '}'))) {
          break;
        }
        if (leading_blanks) {
          if (!copying) {
            out.append(s_.data() + start, end - start);
            copying = true;
          }
          fold_lines(out, leading_break, trailing_breaks);
          leading_blanks = false;
        } else if (ws_to > ws_from && copying) {
          out.append(s_.data() + ws_from, ws_to - ws_from);
        }
        ws_from = ws_to = 0;
        const size_t from = m_.offset;
        skip();
        {  // the bytes after it that need no second look, at once
          size_t q = m_.offset;
          while (q < fast_end_ && plain_run_byte(static_cast<unsigned char>(s_[q]))) ++q;
          const size_t run = q - m_.offset;
          m_.offset = q;
          m_.index += run;
          m_.column += static_cast<int>(run);
        }
        if (copying) out.append(s_.data() + from, std::min(m_.offset, s_.size()) - from);
        end = m_.offset;
      }
      if (!(is_blank() || is_break())) break;
      while (is_blank() || is_break()) {
        if (cur() == ' ') {  // a run of spaces at once
          size_t q = m_.offset + 1;
          while (q < fast_end_ && s_[q] == ' ') ++q;
          if (!leading_blanks) {
            if (ws_to == 0) ws_from = m_.offset;
            ws_to = q;
          }
          skip_ascii(q - m_.offset);
        } else if (is_blank()) {
          if (leading_blanks && m_.column < indent && cur() == '\t') {
            error(ErrorKind::kTabInIndentation, m_.offset,
                  "found a tab character that violates indentation");
          }
          if (!leading_blanks) {
            if (ws_to == 0) ws_from = m_.offset;
            ws_to = m_.offset + 1;
          }
          skip();
        } else if (!leading_blanks) {
          ws_from = ws_to = 0;
          read_line(leading_break);
          leading_blanks = true;
        } else {
          read_line(trailing_breaks);
        }
      }
      if (flow_level_ == 0 && m_.column < indent) break;
    }
    if (leading_blanks) allowed_ = true;
    t.style = Style::kPlain;
    end_at(t, end);
    if (copying) {
      t.owned = true;
      t.value_at = out_at;
      t.value_len = out.size() - out_at;
    } else {
      t.value_at = start;
      t.value_len = end - start;
    }
  }

  // go-yaml's scan_flow_scalar: a slice of the source until an escape, a `''` or a line break
  // needs the value built in the queue's text.
  void scan_quoted(Token& t, bool single) {
    const unsigned char quote = single ? '\'' : '"';
    skip();
    const size_t body = m_.offset;
    bool copying = false;
    std::string& out = queue_.text;
    const size_t out_at = out.size();
    auto start_copy = [&](size_t upto) {
      if (copying) return;
      out.append(s_.data() + body, upto - body);
      copying = true;
    };
    std::string leading_break, trailing_breaks;
    while (true) {
      if (marker_here()) {
        error(ErrorKind::kDocumentMarkerInQuote, m_.offset, "found unexpected document indicator");
      }
      if (at_end()) {
        error(ErrorKind::kUnterminatedQuote, s_.size(), "found unexpected end of stream");
      }
      bool leading_blanks = false;
      while (!is_blankz()) {
        unsigned char c = cur();
        if (single && c == '\'' && ahead(1) == '\'') {
          start_copy(m_.offset);
          out += '\'';
          skip();
          skip();
        } else if (c == quote) {
          break;
        } else if (!single && c == '\\' && is_break(1)) {
          start_copy(m_.offset);
          skip();
          skip_line();
          leading_blanks = true;
          break;
        } else if (!single && c == '\\') {
          start_copy(m_.offset);
          read_escape(out);
        } else if (c > ' ' && c < 0x7F && c != '\'' && c != '"' && c != '\\') {
          // with the bytes after it that need no second look
          size_t q = m_.offset + 1;
          while (q < fast_end_) {
            const unsigned char b = static_cast<unsigned char>(s_[q]);
            if (b <= ' ' || b >= 0x7F || b == '\'' || b == '"' || b == '\\') break;
            ++q;
          }
          if (copying) out.append(s_.data() + m_.offset, q - m_.offset);
          skip_ascii(q - m_.offset);
        } else {
          const size_t w = width(c);
          if (copying) out.append(s_.data() + m_.offset, std::min(w, s_.size() - m_.offset));
          skip();
        }
      }
      if (cur() == quote) break;
      size_t ws_from = 0, ws_to = 0;
      while (is_blank() || is_break()) {
        if (is_blank()) {
          if (!leading_blanks) {
            if (ws_to == 0) ws_from = m_.offset;
            ws_to = m_.offset + 1;
          }
          skip();
        } else if (!leading_blanks) {
          start_copy(ws_to > 0 ? ws_from : m_.offset);
          ws_from = ws_to = 0;
          read_line(leading_break);
          leading_blanks = true;
        } else {
          read_line(trailing_breaks);
        }
      }
      if (leading_blanks) {
        fold_lines(out, leading_break, trailing_breaks);
      } else if (copying && ws_to > ws_from) {
        out.append(s_.data() + ws_from, ws_to - ws_from);
      }
    }
    const size_t end = m_.offset;
    skip();
    end_at(t, m_.offset);
    t.style = single ? Style::kSingleQuoted : Style::kDoubleQuoted;
    if (copying) {
      t.owned = true;
      t.value_at = out_at;
      t.value_len = out.size() - out_at;
    } else {
      t.value_at = body;
      t.value_len = end - body;
    }
  }

  // A double-quoted scalar's escape at the backslash, its character appended to `out`.
  void read_escape(std::string& out) {
    size_t start = m_.offset;
    int digits = 0;
    switch (ahead(1)) {
      case '0':
        out += '\0';
        break;
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\x08';
        break;
      case 't':
      case '\t':
        out += '\x09';
        break;
      case 'n':
        out += '\x0A';
        break;
      case 'v':
        out += '\x0B';
        break;
      case 'f':
        out += '\x0C';
        break;
      case 'r':
        out += '\x0D';
        break;
      case 'e':
        out += '\x1B';
        break;
      case ' ':
        out += ' ';
        break;
      case '"':
        out += '"';
        break;
      case '\'':
        out += '\'';
        break;
      case '\\':
        out += '\\';
        break;
      case 'L':
        out += "\xE2\x80\xA8";
        break;
      case 'P':
        out += "\xE2\x80\xA9";
        break;
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
        out += "\xC2\x85";
        break;  // NEL
      case '_':
        out += "\xC2\xA0";
        break;  // NBSP
      default:  // `\/` too: YAML 1.2's, not go-yaml's
        error(ErrorKind::kUnknownEscape, start, "found unknown escape character");
    }
    skip();
    skip();
    // go-yaml reports both problems where the digits start.
    long value = 0;
    for (int k = 0; k < digits; ++k) {
      if (!is_hex(ahead(static_cast<size_t>(k)))) {
        error(ErrorKind::kBadHexEscape, m_.offset, "did not find expected hexdecimal number");
      }
      value = (value << 4) + hex(ahead(static_cast<size_t>(k)));
    }
    if ((value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) {
      error(ErrorKind::kBadUnicodeEscape, m_.offset, "found invalid Unicode character escape code");
    }
    if (digits == 0) return;
    if (value <= 0x7F) {
      out += static_cast<char>(value);
    } else if (value <= 0x7FF) {
      out += static_cast<char>(0xC0 + (value >> 6));
      out += static_cast<char>(0x80 + (value & 0x3F));
    } else if (value <= 0xFFFF) {
      out += static_cast<char>(0xE0 + (value >> 12));
      out += static_cast<char>(0x80 + ((value >> 6) & 0x3F));
      out += static_cast<char>(0x80 + (value & 0x3F));
    } else {
      out += static_cast<char>(0xF0 + (value >> 18));
      out += static_cast<char>(0x80 + ((value >> 12) & 0x3F));
      out += static_cast<char>(0x80 + ((value >> 6) & 0x3F));
      out += static_cast<char>(0x80 + (value & 0x3F));
    }
    for (int k = 0; k < digits; ++k) skip();
  }

  // go-yaml's scan_block_scalar: header, indentation, folding and chomping.
  void scan_block_scalar(Token& t, bool literal) {
    size_t start = m_.offset;
    skip();
    int increment = 0;
    int chomping = 0;
    auto digit = [&] {
      if (cur() < '0' || cur() > '9') return;
      if (cur() == '0') {
        error(ErrorKind::kZeroIndentationIndicator, m_.offset,
              "found an indentation indicator equal to 0");
      }
      increment = cur() - '0';
      skip();
    };
    if (cur() == '+' || cur() == '-') {
      chomping = cur() == '+' ? 1 : -1;
      skip();
      digit();
    } else if (cur() >= '0' && cur() <= '9') {
      digit();
      if (cur() == '+' || cur() == '-') {
        chomping = cur() == '+' ? 1 : -1;
        skip();
      }
    }
    while (is_blank()) skip();
    if (cur() == '#') {
      while (!is_breakz()) skip();
    }
    if (!is_breakz()) {
      error(ErrorKind::kBadBlockScalarHeader, start, "did not find expected comment or line break");
    }
    skip_line();
    int indent = 0;
    if (increment > 0) indent = indent_ >= 0 ? indent_ + increment : increment;
    std::string& out = queue_.text;
    const size_t out_at = out.size();
    std::string leading_break, trailing_breaks;
    block_scalar_breaks(indent, trailing_breaks);
    bool leading_blank = false;
    while (m_.column == indent && !at_end()) {
      const bool trailing_blank = is_blank();
      if (!literal && !leading_blank && !trailing_blank && !leading_break.empty() &&
          leading_break[0] == '\n') {
        if (trailing_breaks.empty()) out += ' ';
      } else {
        out += leading_break;
      }
      leading_break.clear();
      out += trailing_breaks;
      trailing_breaks.clear();
      leading_blank = is_blank();
      const size_t from = m_.offset;
      skip_to_breakz();
      out.append(s_.data() + from, std::min(m_.offset, s_.size()) - from);
      read_line(leading_break);
      block_scalar_breaks(indent, trailing_breaks);
    }
    if (chomping != -1) out += leading_break;
    if (chomping == 1) out += trailing_breaks;
    end_at(t, m_.offset);
    t.style = literal ? Style::kLiteral : Style::kFolded;
    t.owned = true;
    t.value_at = out_at;
    t.value_len = out.size() - out_at;
  }

  void block_scalar_breaks(int& indent, std::string& breaks) {
    int max_indent = 0;
    while (true) {
      while ((indent == 0 || m_.column < indent) && cur() == ' ') skip();
      if (m_.column > max_indent) max_indent = m_.column;
      if ((indent == 0 || m_.column < indent) && cur() == '\t') {
        error(ErrorKind::kTabInBlockScalarIndentation, m_.offset,
              "found a tab character where an indentation space is expected");
      }
      if (!is_break()) break;
      read_line(breaks);
    }
    if (indent == 0) {
      indent = std::max(max_indent, indent_ + 1);
      if (indent < 1) indent = 1;
    }
  }

  // go-yaml's scan_tag: the handle (`!`, `!!`, `!name!`, "" for verbatim tags and `!` alone)
  // in `t.tag_handle`, the suffix in the queue's text.
  void scan_tag(Token& t) {
    size_t start = m_.offset;
    // The URI characters from here, %-escapes decoded, into `out`.
    auto uri = [&](bool has, std::string& out) {
      static constexpr std::string_view kUriMarks = ";/?:@&=+$,.!~*'()[]";
      while (is_alpha(cur()) ||
             kUriMarks.find(static_cast<char>(cur())) != std::string_view::npos || cur() == '%') {
        if (cur() == '%') {
          if (const char* problem = uri_escape(out)) error(ErrorKind::kBadTagUri, start, problem);
        } else {
          out += static_cast<char>(cur());
          skip();
        }
        has = true;
      }
      if (!has) error(ErrorKind::kBadTagUri, start, "did not find expected tag URI");
    };
    std::string& suffix = queue_.text;
    t.owned = true;
    t.value_at = suffix.size();
    if (ahead(1) == '<') {
      skip();
      skip();
      uri(false, suffix);
      if (cur() != '>') error(ErrorKind::kBadTagUri, start, "did not find the expected '>'");
      skip();
    } else {
      skip();  // '!'
      while (is_alpha(cur())) skip();
      if (cur() == '!') {
        skip();
        t.tag_handle = slice(start, m_.offset - start);
        uri(false, suffix);  // `!!str`, `!e!x`: a suffix must follow
      } else {
        // `!x`: the handle is the suffix; `!` alone is a tag too
        suffix.append(slice(start + 1, m_.offset - start - 1));
        uri(true, suffix);
        t.tag_handle = "!";
        if (suffix.size() == t.value_at) {
          t.tag_handle = {};
          suffix += '!';
        }
      }
    }
    t.value_len = suffix.size() - t.value_at;
    if (!is_blankz()) {
      error(ErrorKind::kTagNotFollowedBySpace, m_.offset,
            "did not find expected whitespace or line break");
    }
  }
};

// go-yaml's scanner proper: the token queue, simple keys and indentation, and which token
// comes next (yaml_parser_fetch_next_token), over the scalar scanners below it.
class Scanner : public ScalarScanner {
 public:
  Scanner(std::string_view s, const ReaderStop* reader, SourceMap* map, GoYaml version)
      : ScalarScanner(s, reader, map), lazy_keys_(version == GoYaml::kV2_4) {}

  // The parser's view of the token queue: `peek` scans as far as go-yaml's scanner must to
  // know the next token; `take` hands it to the parser.
  const Token& peek() {
    if (ready_) [[likely]]
      return queue_.front();
    return fetch_for_peek();
  }
  // peek() when the scanner must go on first: kept out of line, so that the parser's many
  // looks at the same token stay cheap.
  [[gnu::noinline]] const Token& fetch_for_peek() {
    if (queue_.empty() && stream_start_) {
      stream_start_ = false;
      indent_ = -1;
      keys_.push_back({});
      allowed_ = true;
      queue_.push_back(make(Tok::kStreamStart, m_));
    }
    fetch_more_tokens();
    ready_ = true;  // until the parser takes the token: the scanner's state does not change
    return queue_.front();
  }
  std::string_view name(const Token& t) const { return slice(t.offset + 1, t.value_len); }
  [[gnu::always_inline]] void take() {
    queue_.pop_front();
    ready_ = false;
    ++tokens_parsed_;
  }
  // A scalar token's value.
  std::string_view value(const Token& t) const {
    return t.owned ? std::string_view(queue_.text).substr(t.value_at, t.value_len)
                   : s_.substr(t.value_at, t.value_len);
  }
  std::string_view source() const { return s_; }

 private:
  // ---- the token queue ----------------------------------------------------------------

  // number: counted from the first token ever. A token the parser has taken already (only
  // go-yaml v2.4's simple keys let the parser take a key's token) is no place: go-yaml's
  // yaml_insert_token puts the new token at the end.
  void insert(size_t number, const Token& t) {
    if (number < tokens_parsed_) [[unlikely]] {
      queue_.push_back(t);
      return;
    }
    queue_.insert_at(number - tokens_parsed_, t);
  }
  static Token make(Tok type, const Mark& at) {
    Token t{type, at.offset};
    t.line = at.line;
    t.line_start = at.line_start;
    return t;
  }
  void append(Tok type, const Mark& at) { emplace(type, at); }
  // A new token at the end of the queue, starting at `at`.
  [[gnu::always_inline]] Token& emplace(Tok type, const Mark& at) {
    Token& t = queue_.emplace(type, at.offset);
    t.line = at.line;
    t.line_start = at.line_start;
    return t;
  }

  void fetch_more_tokens() {
    while (true) {
      bool need = queue_.empty();
      if (!need && possible_keys_ > 0) {
        if (lazy_keys_) {
          need = head_key_is_valid();
        } else {
          stale_simple_keys();
          for (const SimpleKey& k : keys_) {
            if (k.possible && k.token_number == tokens_parsed_) {
              need = true;
              break;
            }
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
    if (possible_keys_ == 0) return;
    for (SimpleKey& k : keys_) {
      if (k.possible && (k.mark.line < m_.line || k.mark.index + kMaxSimpleKeyChars < m_.index)) {
        if (k.required) error(ErrorKind::kMissingColon, k.mark.offset, kNoColon);
        k.possible = false;
        --possible_keys_;
      }
    }
  }
  [[gnu::always_inline]] void save_simple_key() {
    bool required = flow_level_ == 0 && indent_ == m_.column;
    if (!allowed_) return;
    SimpleKey k{true, required, lazy_keys_, tokens_parsed_ + queue_.size(), m_};
    remove_simple_key();
    SimpleKey& old = keys_.back();
    if (old.indexed) [[unlikely]]
      keep_stale_entry(old);
    old = k;
    ++possible_keys_;
  }
  // A stale key's entry outlives it (see key_is_valid).
  [[gnu::noinline]] void keep_stale_entry(const SimpleKey& key) {
    stale_entries_.push_back({key.token_number, keys_.size() - 1});
  }
  void remove_simple_key() {
    SimpleKey& k = keys_.back();
    if (!k.possible) return;
    if (k.required) error(ErrorKind::kMissingColon, k.mark.offset, kNoColon);
    k.possible = false;
    k.indexed = false;
    --possible_keys_;
  }

  // go-yaml v2.4's simple keys. v2.4 maps a token's number to the flow level of the key that
  // starts at it: an entry is made when the key is saved (here: the key is `indexed`) and dropped
  // where v2.4 drops it. A key is checked when the parser wants the token it starts at, or when
  // a ':' comes. As in v2.4, a key found stale keeps its entry (which outlives the key, in
  // `stale_entries_`, once its level saves another), and closing a flow level drops the entry of
  // its last key's token, which is the opening bracket's when no key was saved inside: that
  // drops the entry of the key the bracket itself started, one level out.
  bool key_is_valid(SimpleKey& k) {
    if (!k.possible) return false;
    if (k.mark.line < m_.line || k.mark.index + kMaxSimpleKeyChars < m_.index) {
      if (k.required) error(ErrorKind::kMissingColon, k.mark.offset, kNoColon);
      k.possible = false;
      --possible_keys_;
      return false;
    }
    return true;
  }
  bool head_key_is_valid() {
    for (size_t level = keys_.size(); level-- > 0;) {
      SimpleKey& k = keys_[level];
      if (k.indexed && k.token_number == tokens_parsed_) return key_is_valid(k);
    }
    if (stale_entries_.empty()) [[likely]]
      return false;
    for (const auto& [token, level] : stale_entries_) {
      if (token != tokens_parsed_) continue;
      // v2.4 looks the level's key up by the entry's level, which may have been closed since:
      // Go's index check fails there.
      if (level >= keys_.size()) {
        throw Stop{ErrorKind::kOther, m_.offset,
                   "go-yaml v2.4 crashes here (a simple key's index)"};
      }
      return key_is_valid(keys_[level]);
    }
    // Entries of tokens the parser has taken are never looked up again.
    if (stale_entries_.size() > kStaleEntriesPrune) {
      std::erase_if(stale_entries_, [&](const auto& e) { return e.first < tokens_parsed_; });
    }
    return false;
  }
  void forget_key_at(size_t token_number) {
    for (SimpleKey& key : keys_) {
      if (key.token_number == token_number) key.indexed = false;
    }
    std::erase_if(stale_entries_, [&](const auto& e) { return e.first == token_number; });
  }

  void roll_indent(int column, long number, Tok type, const Mark& at) {
    if (flow_level_ > 0 || indent_ >= column) return;
    indents_.push_back(indent_);
    indent_ = column;
    Token t = make(type, at);
    if (number < 0) {
      queue_.push_back(t);
    } else {
      insert(static_cast<size_t>(number), t);
    }
  }
  void unroll_indent(int column) {
    if (flow_level_ > 0) return;
    while (indent_ > column) {
      append(Tok::kBlockEnd, m_);
      indent_ = indents_.back();
      indents_.pop_back();
    }
  }

  // ---- fetching -----------------------------------------------------------------------

  void fetch_next_token() {
    scan_to_next_token();
    if (!lazy_keys_) stale_simple_keys();
    unroll_indent(m_.column);
    if (at_end()) {
      fetch_stream_end();
      return;
    }
    unsigned char c = cur();
    if (plain_for_sure(c)) {  // the most common token: straight to the plain scalar below
      fetch_plain();
      return;
    }
    if (m_.column == 0 && c == '%') {
      unroll_indent(-1);
      remove_simple_key();
      allowed_ = false;
      const Mark at = m_;
      Directive d = read_directive();
      if (!d.problem.empty()) error(ErrorKind::kBadDirective, d.token.offset, d.problem);
      d.token.line = at.line;
      d.token.line_start = at.line_start;
      queue_.push_back(d.token);
      return;
    }
    if (marker_here()) {
      unroll_indent(-1);
      remove_simple_key();
      allowed_ = false;
      append(c == '-' ? Tok::kDocumentStart : Tok::kDocumentEnd, m_);
      if (map_ != nullptr && (c == '-' || map_->comments_kept == SIZE_MAX)) {
        map_->comments_kept = c == '-' ? SIZE_MAX : map_->comments.size();
      }
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
        // Not possible; v2.4 numbers it with the token that opens the level (see forget_key_at).
        keys_.push_back(SimpleKey{false, false, false, tokens_parsed_ + queue_.size(), m_});
        allowed_ = true;
        append(c == '[' ? Tok::kFlowSeqStart : Tok::kFlowMapStart, m_);
        skip();
        return;
      case ']':
      case '}':
        remove_simple_key();
        if (flow_level_ > 0) {
          --flow_level_;
          if (lazy_keys_) forget_key_at(keys_.back().token_number);
          keys_.pop_back();
        }
        allowed_ = false;
        append(c == ']' ? Tok::kFlowSeqEnd : Tok::kFlowMapEnd, m_);
        skip();
        return;
      case ',':
        remove_simple_key();
        allowed_ = true;
        append(Tok::kFlowEntry, m_);
        skip();
        return;
      default:
        break;
    }
    if (c == '-' && is_blankz(1)) {
      if (flow_level_ == 0) {
        if (!allowed_) {
          error(ErrorKind::kUnexpectedDash, m_.offset,
                "block sequence entries are not allowed in this context");
        }
        roll_indent(m_.column, -1, Tok::kBlockSeqStart, m_);
      }
      remove_simple_key();
      allowed_ = true;
      append(Tok::kBlockEntry, m_);
      skip();
      return;
    }
    if (c == '?' && (flow_level_ > 0 || is_blankz(1))) {
      if (flow_level_ == 0 && !allowed_) {
        error(ErrorKind::kUnexpectedKeyIndicator, m_.offset,
              "mapping keys are not allowed in this context");
      }
      if (flow_level_ == 0) roll_indent(m_.column, -1, Tok::kBlockMapStart, m_);
      remove_simple_key();
      allowed_ = flow_level_ == 0;
      append(Tok::kKey, m_);
      skip();
      return;
    }
    if (c == ':' && (flow_level_ > 0 || is_blankz(1))) {
      fetch_value();
      return;
    }
    if (c == '*' || c == '&') {
      save_simple_key();
      allowed_ = false;
      const Mark at = m_;
      size_t start = m_.offset;
      skip();
      size_t n = 0;
      for (; is_alpha(cur()); ++n) skip();
      unsigned char e = cur();
      if (n == 0 || !(is_blankz() || e == '?' || e == ':' || e == ',' || e == ']' || e == '}' ||
                      e == '%' || e == '@' || e == '`')) {
        error(ErrorKind::kBadAnchorOrAlias, start,
              "did not find expected alphabetic or numeric character");
      }
      Token t = make(c == '&' ? Tok::kAnchor : Tok::kAlias, at);
      t.value_len = m_.offset - start - 1;
      queue_.push_back(t);
      return;
    }
    if (c == '!') {
      save_simple_key();
      allowed_ = false;
      Token& t = emplace(Tok::kTag, m_);
      scan_tag(t);
      // `!name!suffix`: a named handle, which only a %TAG directive of its document defines.
      t.named_handle = t.tag_handle.size() > 2;
      return;
    }
    if ((c == '|' || c == '>') && flow_level_ == 0) {
      remove_simple_key();
      allowed_ = true;
      scan_block_scalar(emplace(Tok::kScalar, m_), c == '|');
      return;
    }
    if (c == '\'' || c == '"') {
      save_simple_key();
      allowed_ = false;
      scan_quoted(emplace(Tok::kScalar, m_), c == '\'');
      return;
    }
    bool plain = !(is_blankz() || not_plain_start(c)) || (c == '-' && !is_blank(1)) ||
                 (flow_level_ == 0 && (c == '?' || c == ':') && !is_blankz(1));
    // Cannot start any token (a tab where go-yaml wants one too: in block indentation, or
    // right after a block collection's `- `, `? ` or `: `).
    if (!plain) {
      error(ErrorKind::kUnknownToken, m_.offset, "found character that cannot start any token");
    }
    fetch_plain();
  }
  void fetch_plain() {
    save_simple_key();
    allowed_ = false;
    scan_plain(emplace(Tok::kScalar, m_));
  }

  void fetch_stream_end() {
    if (m_.column != 0) {
      m_.column = 0;
      ++m_.line;
    }
    unroll_indent(-1);
    remove_simple_key();
    allowed_ = false;
    append(Tok::kStreamEnd, m_);
  }

  void fetch_value() {
    SimpleKey& k = keys_.back();
    if (lazy_keys_ ? key_is_valid(k) : k.possible) {
      insert(k.token_number, make(Tok::kKey, k.mark));
      roll_indent(k.mark.column, static_cast<long>(k.token_number), Tok::kBlockMapStart, k.mark);
      keys_.back().possible = false;
      keys_.back().indexed = false;
      --possible_keys_;
      allowed_ = false;
    } else {
      if (flow_level_ == 0) {
        if (!allowed_) {
          error(ErrorKind::kUnexpectedColon, m_.offset,
                "mapping values are not allowed in this context");
        }
        roll_indent(m_.column, -1, Tok::kBlockMapStart, m_);
      }
      allowed_ = flow_level_ == 0;
    }
    append(Tok::kValue, m_);
    skip();
  }

  void scan_to_next_token() {
    while (true) {
      while (true) {
        size_t q = m_.offset;
        while (q < fast_end_ && s_[q] == ' ') ++q;
        skip_ascii(q - m_.offset);
        if (!(cur() == ' ' || ((flow_level_ > 0 || !allowed_) && cur() == '\t'))) break;
        skip();
      }
      if (cur() == '#') fetch_comment();
      if (!is_break()) return;
      skip_line();
      if (flow_level_ == 0) allowed_ = true;
    }
  }

  // ytt's fork of go-yaml keeps the comments its scanner passes between tokens, with their
  // marks (yamlParserFetchComment); those after a directive or a block scalar's header it skips
  // as go-yaml does. Here `#@` annotations are always kept, plain comments when asked for and
  // `#!` ones never (ytt's templates drop them); kept as written, every comment is plain.
  void fetch_comment() {
    const Mark at = m_;
    skip_to_breakz();
    if (map_ == nullptr) return;
    std::string_view text = slice(at.offset + 1, m_.offset - at.offset - 1);
    const bool annotation = !map_->comments_as_written && !text.empty() && text[0] == '@';
    if (!map_->comments_as_written &&
        ((!text.empty() && text[0] == '!') || (!annotation && !map_->plain_comments))) {
      return;
    }
    ScannedComment& c = map_->comments.emplace_back();
    c.kind = annotation ? CommentKind::kAnnotation : CommentKind::kPlain;
    c.line = at.line + 1;
    c.column = static_cast<int>(at.offset - at.line_start) + 1;
    c.end_column = static_cast<int>(m_.offset - at.line_start) + 1;
    c.text = annotation ? text.substr(1) : text;
  }

  bool ready_ = false;  // the queue's front is what go-yaml's parser would see next
  size_t tokens_parsed_ = 0;
  std::vector<int> indents_;
  bool stream_start_ = true;
  std::vector<SimpleKey> keys_;
  size_t possible_keys_ = 0;  // how many of `keys_` are possible: none, nothing to look at
  const bool lazy_keys_;      // go-yaml v2.4's simple keys (GoYaml::kV2_4)
  std::vector<std::pair<size_t, size_t>> stale_entries_;  // token number, flow level
  static constexpr size_t kStaleEntriesPrune = 64;
};

// go-yaml's Error() text for `stop` (decode.go's fail): "yaml: line N: problem". go-yaml names
// the line of the problem's mark, 0-based for a parser error and one more for a scanner error,
// and none when the mark is on its input's first line. ytt's parser reads a text after a `---`
// line it puts before it (`ytt_line_first`) and takes one off the line named (which leaves none
// for line 0).
std::string go_yaml_text(const Stop& stop, bool ytt_line_first) {
  if (stop.problem.empty()) return {};
  const int prefix = ytt_line_first ? 1 : 0;
  const int go_line = stop.line < 0 ? 0 : stop.line + prefix;
  const int named = go_line == 0 ? 0 : (stop.parser ? go_line : go_line + 1) - prefix;
  return named > 0 ? "yaml: line " + std::to_string(named) + ": " + stop.problem
                   : "yaml: " + stop.problem;
}

// go-yaml's parser: a state machine over the tokens, one event at a time, with a stack of
// the states to return to. It hands every event to its handler (the tree's builder) with the
// marks the builder expects, and stops where the token stream stops being YAML, with which of
// go-yaml's problems. The marks: a node's first token
// (its first property, if any), and for an empty node the token that follows it, but for a map
// entry with no `:` at all, whose empty value sits at the entry's first token.
class Parser {
 public:
  Parser(std::string_view source, GoYaml version, bool after_document_start,
         const ReaderStop* reader, EventHandler& handler, SourceMap* map = nullptr)
      : scanner_(source, reader, map, version),
        after_document_start_(after_document_start),
        h_(handler) {}

  GoScan run() {
    GoScan out;
    try {
      while (state_ != State::kEnd) step();
    } catch (const Stop& stop) {
      out.kind = stop.kind;
      out.offset = stop.offset;
      out.parser_error = stop.parser;
      out.decoded_end = in_document_ ? document_start_ : stop.offset;
      out.message = go_yaml_text(stop, after_document_start_);
      stopped_ = true;
    }
    return out;
  }
  // After `run`: whether the whole input was read without a stop of any kind.
  bool read_whole() const { return !stopped_; }

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
  [[gnu::always_inline]] void skip() {
    before_last_ = last_;
    last_ = peek().type;
    scanner_.take();
  }
  // go-yaml's parser error: `problem` at the token it could not take.
  [[noreturn]] void fail(ErrorKind kind, const Token& at, std::string problem) {
    throw Stop{reported_kind(kind, at), at.offset, std::move(problem), at.line, true};
  }
  // The kind the loader reports for go-yaml's parser error `kind` at `at`. go-yaml's parser
  // meets the end of the input inside a flow collection as a missing entry or node: the
  // collection is unclosed; a closing bracket that closes no open collection of its kind is
  // one; a block map's next key missing where a token other than `:` stands ends the map.
  // A block list's entry with no node before a key or a `,` at its column wants the next `- `.
  ErrorKind reported_kind(ErrorKind kind, const Token& at) const {
    // (`{a: !t :` at the end: the value's properties end the entry, the node is what is missing.)
    const bool after_property_colon =
        last_ == Tok::kValue && (before_last_ == Tok::kTag || before_last_ == Tok::kAnchor);
    if (at.type == Tok::kStreamEnd && !flows_.empty() && !after_property_colon) {
      return flows_.back() ? ErrorKind::kUnclosedFlowMap : ErrorKind::kUnclosedFlowList;
    }
    if ((at.type == Tok::kFlowSeqEnd || at.type == Tok::kFlowMapEnd) &&
        (flows_.empty() || flows_.back() != (at.type == Tok::kFlowMapEnd))) {
      return ErrorKind::kUnexpectedClosingBracket;
    }
    if (kind == ErrorKind::kMissingKey && at.type != Tok::kValue && at.type != Tok::kTag &&
        at.type != Tok::kAnchor) {
      // Just after a list at its key's column: the list's end is where it went wrong.
      return indentless_end_ == at.offset ? ErrorKind::kEndOfListNotFound
                                          : ErrorKind::kEndOfMapNotFound;
    }
    if (kind == ErrorKind::kMissingNodeContent && flows_.empty() &&
        (at.type == Tok::kKey || at.type == Tok::kFlowEntry)) {
      return ErrorKind::kMissingDash;
    }
    return kind;
  }
  void pop_state() {
    state_ = states_.back();
    states_.pop_back();
  }

  // ---- events ---------------------------------------------------------------------------

  // The mark of the next event's node; a block sequence's element has its entry's `-` too.
  NodeMark mark(const Token& t) {
    NodeMark m;
    m.pos = t.offset;
    m.line = t.line;
    m.column = static_cast<int>(t.offset - t.line_start);
    m.dash_line = dash_.line;
    m.dash_column = dash_.column;
    dash_.line = -1;
    m.entry_line = flow_entry_line_;
    flow_entry_line_ = -1;
    return m;
  }
  // A block sequence's entry: its `-` goes with the element's mark.
  void take_entry_dash() {
    const Token& t = peek();
    dash_.line = t.line;
    dash_.column = static_cast<int>(t.offset - t.line_start);
    skip();
  }
  // An empty node at `at`: null, or the empty scalar of a tag.
  void empty(const NodeMark& at, const std::string& tag = {}, AnchorId anchor = 0) {
    if (tag.empty()) {
      h_.OnNull(at, anchor);
    } else {
      h_.OnScalarView(at, tag, anchor, std::string_view(), Style::kPlain);
    }
  }
  void empty_before_next() { empty(mark(peek())); }
  void end_sequence() { h_.OnSequenceEnd(); }
  void end_map() { h_.OnMapEnd(); }

  void step() {
    switch (state_) {
      case State::kStreamStart:
        peek();
        skip();  // STREAM-START
        state_ = State::kImplicitDocumentStart;
        return;
      case State::kImplicitDocumentStart:
        if (after_document_start_) {  // as if a `---` had just been taken
          // The tree is the text's own: the empty document go-yaml reads before a text that
          // starts with a marker (or has no content) is no document of it. Before a directive
          // it is one (go-yaml ends it at the directive), at the text's start.
          const Tok t = peek().type;
          if (t == Tok::kVersionDirective || t == Tok::kTagDirective) {
            h_.OnDocumentStart(NodeMark{}, false);
            h_.OnDocumentEnd();
          }
          if (t == Tok::kDocumentStart || t == Tok::kStreamEnd || t == Tok::kVersionDirective ||
              t == Tok::kTagDirective) {
            state_ = State::kDocumentStart;
            return;
          }
          if (t == Tok::kDocumentEnd) {
            skip();
            state_ = State::kDocumentStart;
            return;
          }
          begin_document(peek(), false);
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
          empty_before_next();
          pop_state();  // an empty document
          return;
        }
        return node(true, false);
      }
      case State::kDocumentEnd:
        peek();  // go-yaml's parser looks for a `...` before it ends the document
        in_document_ = false;
        h_.OnDocumentEnd();
        if (peek().type == Tok::kDocumentEnd) skip();
        tag_handles_.clear();  // a %TAG directive holds for its own document
        tag_prefixes_.clear();
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
        flow_entry_line_ = peek().line;
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
        // An empty key. go-yaml takes the token after it too (libyaml's quirk): `[? : 1]` loses
        // its `:` and `[?]` its `]`.
        empty_before_next();
        skip();
        state_ = State::kFlowSequenceEntryMappingValue;
        return;
      }
      case State::kFlowSequenceEntryMappingValue:
        return flow_mapping_value(Tok::kFlowSeqEnd, State::kFlowSequenceEntryMappingEnd);
      case State::kFlowSequenceEntryMappingEnd:
        end_map();
        state_ = State::kFlowSequenceEntry;
        return;
      case State::kFlowMappingFirstKey:
        skip();  // FLOW-MAPPING-START
        return flow_mapping_key(true);
      case State::kFlowMappingKey:
        return flow_mapping_key(false);
      case State::kFlowMappingValue:
        return flow_mapping_value(Tok::kFlowMapEnd, State::kFlowMappingKey);
      case State::kFlowMappingEmptyValue:  // an entry without `:` (`{a, b}`)
        empty_before_next();
        state_ = State::kFlowMappingKey;
        return;
      case State::kEnd:
        return;
    }
  }

  // A flow map entry's value, in a `{...}` or a single-pair map in a `[...]` (`closing` is
  // the collection's end token): after `:`, or empty at the entry's mark when there is none.
  void flow_mapping_value(Tok closing, State next) {
    const NodeMark entry = take_entry_mark();
    if (peek().type == Tok::kValue) {
      skip();
      Tok t = peek().type;
      if (t != Tok::kFlowEntry && t != closing) {
        states_.push_back(next);
        return node(false, false);
      }
      empty_before_next();
    } else {
      empty(entry);
    }
    state_ = next;
  }

  NodeMark take_entry_mark() {
    NodeMark m = entry_marks_.back();
    entry_marks_.pop_back();
    return m;
  }

  // `at`: the first directive or the `---` of an explicit document, else the implicit one's
  // first token.
  void begin_document(const Token& at, bool explicit_start) {
    in_document_ = true;
    document_start_ = explicit_start ? at.offset : 0;
    anchor_ids_.clear();
    h_.OnDocumentStart(mark(at), explicit_start);
  }

  void document_start(bool implicit) {
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
      begin_document(t, false);
      states_.push_back(State::kDocumentEnd);
      state_ = State::kBlockNode;
      return;
    }
    const Token first = t;  // go-yaml's document starts at its first directive, if any
    bool version_seen = false;
    for (const Token* d = &peek();
         d->type == Tok::kVersionDirective || d->type == Tok::kTagDirective; d = &peek()) {
      if (d->type == Tok::kVersionDirective) {
        if (version_seen) {
          fail(ErrorKind::kDuplicateDirective, *d, "found duplicate %YAML directive");
        }
        if (!d->version_1_1) {
          fail(ErrorKind::kIncompatibleYamlVersion, *d, "found incompatible YAML document");
        }
        version_seen = true;
      } else if (!tag_handles_.insert(std::string(d->tag_handle)).second) {
        fail(ErrorKind::kDuplicateDirective, *d, "found duplicate %TAG directive");
      } else {
        tag_prefixes_.emplace_back(std::string(d->tag_handle), scanner_.value(*d));
      }
      skip();
    }
    if (peek().type != Tok::kDocumentStart) {
      fail(ErrorKind::kMissingDocumentMarker, peek(), "did not find expected <document start>");
    }
    begin_document(first, true);
    states_.push_back(State::kDocumentEnd);
    state_ = State::kDocumentContent;
    skip();
  }

  // The tag as go-yaml's parser resolves it: the prefix of its handle (a %TAG directive's, or
  // the defaults `!` and `!!`) and the suffix; a verbatim tag as written.
  std::string resolve_tag(const Token& t) {
    const std::string_view suffix = scanner_.value(t);
    if (t.tag_handle.empty()) return std::string(suffix);
    for (const auto& [handle, prefix] : tag_prefixes_) {
      if (handle == t.tag_handle) return prefix + std::string(suffix);
    }
    if (t.tag_handle == "!") return "!" + std::string(suffix);
    if (t.tag_handle == "!!") return "tag:yaml.org,2002:" + std::string(suffix);
    return {};  // an undefined named handle: the parser has failed before
  }
  // Takes the tag token at the head: the token in `tag`, its resolved text (when building) in
  // `text`, read before the queue lets go of the suffix.
  void take_tag(std::optional<Token>& tag, std::string& text) {
    tag = peek();
    text = resolve_tag(*tag);
    skip();
  }

  // A node: an alias, or properties (anchor, tag, either order) and content; properties
  // alone make an empty scalar.
  // go-yaml's decoder looks an alias up while it takes the document's events: an anchor
  // defined earlier in the same document (or on an enclosing node) is known.
  void node(bool block, bool indentless_sequence) {
    if (peek().type == Tok::kScalar) {  // the most common node: a scalar without properties
      const Token& t = peek();
      scalar(t, mark(t), kNoTag, 0);
      pop_state();
      skip();
      return;
    }
    if (peek().type == Tok::kAlias) {
      std::string name(scanner_.name(peek()));
      auto it = anchor_ids_.find(name);
      if (it == anchor_ids_.end()) {  // the decoder's error, which names no line
        throw Stop{ErrorKind::kUndefinedAlias, peek().offset,
                   "unknown anchor '" + name + "' referenced", -1, true};
      }
      h_.OnAlias(mark(peek()), it->second);
      pop_state();
      skip();
      return;
    }
    bool properties = false;
    std::optional<Token> tag;
    std::string tag_text;  // resolved, when building
    NodeMark start;
    AnchorId anchor = 0;
    if (peek().type == Tok::kAnchor) {
      properties = true;
      start = mark(peek());
      anchor = take_anchor();
      if (peek().type == Tok::kTag) take_tag(tag, tag_text);
    } else if (peek().type == Tok::kTag) {
      properties = true;
      start = mark(peek());
      take_tag(tag, tag_text);
      if (peek().type == Tok::kAnchor) anchor = take_anchor();
    }
    if (tag && tag->named_handle && tag_handles_.count(std::string(tag->tag_handle)) == 0) {
      fail(ErrorKind::kUndefinedTagHandle, *tag, "found undefined tag handle");
    }
    const Token& t = peek();
    if (!properties) start = mark(t);
    // An untagged collection.
    const std::string& collection_tag = tag_text.empty() ? kNonSpecific : tag_text;
    if (indentless_sequence && t.type == Tok::kBlockEntry) {
      h_.OnSequenceStart(start, collection_tag, anchor, false);
      state_ = State::kIndentlessSequenceEntry;
      return;
    }
    switch (t.type) {
      case Tok::kScalar:
        scalar(t, start, tag_text, anchor);
        pop_state();
        skip();
        return;
      case Tok::kFlowSeqStart:
        h_.OnSequenceStart(start, collection_tag, anchor, true);
        flows_.push_back(false);
        state_ = State::kFlowSequenceFirstEntry;
        return;
      case Tok::kFlowMapStart:
        h_.OnMapStart(start, collection_tag, anchor, true);
        flows_.push_back(true);
        state_ = State::kFlowMappingFirstKey;
        return;
      case Tok::kBlockSeqStart:
        if (!block) break;
        h_.OnSequenceStart(start, collection_tag, anchor, false);
        state_ = State::kBlockSequenceFirstEntry;
        return;
      case Tok::kBlockMapStart:
        if (!block) break;
        h_.OnMapStart(start, collection_tag, anchor, false);
        state_ = State::kBlockMappingFirstKey;
        return;
      default:
        break;
    }
    if (properties) {
      empty(start, tag_text, anchor);
      pop_state();
      return;
    }
    fail(ErrorKind::kMissingNodeContent, t, "did not find expected node content");
  }

  // `~`, `null`, `Null`, `NULL`.
  static bool is_null_word(std::string_view v) {
    if (v.size() == 1) return v[0] == '~';
    if (v.size() != 4 || (v[0] != 'n' && v[0] != 'N')) return false;
    return v == "null" || v == "Null" || v == "NULL";
  }
  void scalar(const Token& t, const NodeMark& start, const std::string& tag, AnchorId anchor) {
    std::string_view value = scanner_.value(t);
    NodeMark at = start;
    at.end = t.offset + t.end_delta;
    const bool plain = t.style == Style::kPlain;
    if (!tag.empty()) {
      h_.OnScalarView(at, tag, anchor, value, t.style);
    } else if (plain && is_null_word(value)) {
      h_.OnNull(at, anchor);
    } else {
      h_.OnScalarView(at, plain ? kNonSpecific : kNonPlain, anchor, value, t.style);
    }
  }

  AnchorId take_anchor() {
    std::string name(scanner_.name(peek()));
    const AnchorId id = ++anchor_count_;
    anchor_ids_[std::move(name)] = id;
    skip();
    return id;
  }

  void block_sequence_entry() {
    const Token& t = peek();
    if (t.type == Tok::kBlockEntry) {
      take_entry_dash();
      Tok next = peek().type;
      if (next != Tok::kBlockEntry && next != Tok::kBlockEnd) {
        states_.push_back(State::kBlockSequenceEntry);
        return node(true, false);
      }
      empty_before_next();
      state_ = State::kBlockSequenceEntry;
      return;
    }
    if (t.type == Tok::kBlockEnd) {
      end_sequence();
      pop_state();
      skip();
      return;
    }
    fail(ErrorKind::kMissingDash, t, "did not find expected '-' indicator");
  }

  void indentless_sequence_entry() {
    if (peek().type == Tok::kBlockEntry) {
      take_entry_dash();
      Tok next = peek().type;
      if (next != Tok::kBlockEntry && next != Tok::kKey && next != Tok::kValue &&
          next != Tok::kBlockEnd) {
        states_.push_back(State::kIndentlessSequenceEntry);
        return node(true, false);
      }
      empty_before_next();
      state_ = State::kIndentlessSequenceEntry;
      return;
    }
    end_sequence();
    indentless_end_ = peek().offset;
    pop_state();
  }

  void block_mapping_key() {
    const Token& t = peek();
    if (t.type == Tok::kKey) {
      entry_marks_.push_back(mark(t));
      skip();
      Tok next = peek().type;
      if (next != Tok::kKey && next != Tok::kValue && next != Tok::kBlockEnd) {
        states_.push_back(State::kBlockMappingValue);
        return node(true, true);
      }
      // An empty key is where its `?` ends (go-yaml's KEY token's end mark), on the `?` line.
      NodeMark key_end = entry_marks_.back();
      key_end.pos += 1;
      key_end.column += 1;
      key_end.dash_line = -1;
      key_end.entry_line = -1;
      empty(key_end);
      state_ = State::kBlockMappingValue;
      return;
    }
    if (t.type == Tok::kBlockEnd) {
      end_map();
      pop_state();
      skip();
      return;
    }
    fail(ErrorKind::kMissingKey, t, "did not find expected key");
  }

  void block_mapping_value() {
    const NodeMark entry = take_entry_mark();
    if (peek().type == Tok::kValue) {
      skip();
      Tok next = peek().type;
      if (next != Tok::kKey && next != Tok::kValue && next != Tok::kBlockEnd) {
        states_.push_back(State::kBlockMappingKey);
        return node(true, true);
      }
      empty_before_next();
    } else {
      empty(entry);
    }
    state_ = State::kBlockMappingKey;
  }

  void flow_sequence_entry(bool first) {
    if (peek().type != Tok::kFlowSeqEnd) {
      if (!first) {
        if (peek().type != Tok::kFlowEntry) {
          fail(ErrorKind::kMissingFlowListEntryEnd, peek(), "did not find expected ',' or ']'");
        }
        flow_entry_line_ = peek().line;
        skip();
      }
      const Token& t = peek();
      if (t.type == Tok::kKey) {
        h_.OnMapStart(mark(t), kNonSpecific, 0, true);
        entry_marks_.push_back(mark(t));
        state_ = State::kFlowSequenceEntryMappingKey;
        skip();
        return;
      }
      if (t.type != Tok::kFlowSeqEnd) {
        states_.push_back(State::kFlowSequenceEntry);
        return node(false, false);
      }
    }
    end_sequence();
    flows_.pop_back();
    pop_state();
    skip();
  }

  void flow_mapping_key(bool first) {
    if (peek().type != Tok::kFlowMapEnd) {
      if (!first) {
        if (peek().type != Tok::kFlowEntry) {
          fail(ErrorKind::kMissingFlowMapEntryEnd, peek(), "did not find expected ',' or '}'");
        }
        skip();
      }
      const Token& t = peek();
      if (t.type == Tok::kKey) {
        entry_marks_.push_back(mark(t));
        skip();
        Tok next = peek().type;
        if (next != Tok::kValue && next != Tok::kFlowEntry && next != Tok::kFlowMapEnd) {
          states_.push_back(State::kFlowMappingValue);
          return node(false, false);
        }
        empty_before_next();
        state_ = State::kFlowMappingValue;
        return;
      }
      if (t.type != Tok::kFlowMapEnd) {
        states_.push_back(State::kFlowMappingEmptyValue);
        return node(false, false);
      }
    }
    end_map();
    flows_.pop_back();
    pop_state();
    skip();
  }

  static inline const std::string kNoTag;              // a node without a tag property
  static inline const std::string kNonSpecific = "?";  // the tag of untagged plain nodes
  static inline const std::string kNonPlain = "!";     // and of untagged quoted and block ones

  Scanner scanner_;
  bool after_document_start_;
  EventHandler& h_;
  bool stopped_ = false;
  bool in_document_ = false;   // between a document's start and its end
  size_t document_start_ = 0;  // and where it starts (see GoScan::decoded_end)
  State state_ = State::kStreamStart;
  std::vector<State> states_;
  std::unordered_set<std::string> tag_handles_;  // defined by the current document's %TAG
  // The marks of the map entries being read (where an entry with no `:` has its empty value),
  // the anchors' ids in the current document, its %TAG prefixes.
  std::vector<NodeMark> entry_marks_;
  NodeMark dash_;  // the `-` of the block sequence entry whose node comes next (line -1: none)
  int flow_entry_line_ = -1;      // the line of the `[` or `,` whose element comes next (-1: none)
  std::vector<bool> flows_;       // the open flow collections, innermost last: true for a map
  Tok last_ = Tok::kStreamStart;  // the token taken last
  Tok before_last_ = Tok::kStreamStart;  // and the one before it
  size_t indentless_end_ =
      std::string_view::npos;  // the token that ended a list at its key's column
  std::unordered_map<std::string, AnchorId> anchor_ids_;
  AnchorId anchor_count_ = 0;
  std::vector<std::pair<std::string, std::string>> tag_prefixes_;
};

}  // namespace

bool go_yaml_read(std::string_view source, EventHandler& handler, GoYaml version,
                  bool after_document_start, GoScan* stop, SourceMap* map,
                  const ReaderStop* reader) {
  Parser parser(source, version, after_document_start, reader, handler, map);
  GoScan out = parser.run();
  if (stop != nullptr) *stop = std::move(out);
  return parser.read_whole();
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

}  // namespace hintkit::yaml::internal

namespace hintkit::yaml {

bool ytt_puts_document_start(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n\f\v";
  size_t i = text.find_first_not_of(kSpace);
  return !(i != std::string_view::npos && text.substr(i, 3) == "---" && i + 3 < text.size() &&
           kSpace.find(text[i + 3]) != std::string_view::npos);
}

}  // namespace hintkit::yaml
