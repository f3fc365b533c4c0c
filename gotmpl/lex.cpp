// The state machine of Go's text/template/parse/lex.go, one function per state.
#include "gotmpl/lex.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "gocompat/gocompat.h"

namespace hintkit::gotmpl {
namespace {

constexpr std::string_view kLeftDelim = "{{";
constexpr std::string_view kRightDelim = "}}";
constexpr std::string_view kLeftComment = "/*";
constexpr std::string_view kRightComment = "*/";
constexpr size_t kTrimMarkerLen = 2;  // the marker and the space beside it
constexpr uint32_t kEof = 0xFFFFFFFF;

bool has_left_trim_marker(std::string_view s) {
  return s.size() >= 2 && s[0] == '-' && is_space_char(s[1]);
}
bool has_right_trim_marker(std::string_view s) {
  return s.size() >= 2 && is_space_char(s[0]) && s[1] == '-';
}

// Byte classes, looked up rather than compared: the lexer asks about every byte of an action.
enum : uint8_t { kSpaceByte = 1, kWordByte = 2 };
constexpr std::array<uint8_t, 256> kByteClass = [] {
  std::array<uint8_t, 256> t{};
  for (char c : {' ', '\t', '\r', '\n'}) t[static_cast<unsigned char>(c)] = kSpaceByte;
  for (int c = '0'; c <= '9'; ++c) t[c] = kWordByte;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = t[c - 'a' + 'A'] = kWordByte;
  t['_'] = kWordByte;
  return t;
}();

bool is_ascii_alpha_numeric(unsigned char c) { return kByteClass[c] == kWordByte; }

bool is_alpha_numeric(uint32_t r) {
  if (r < 0x80) return is_ascii_alpha_numeric(static_cast<unsigned char>(r));
  return gocompat::is_letter(r) || gocompat::is_digit(r);
}

// "U+0001", "U+00E9 'é'": Go's %#U.
std::string sharp_u(uint32_t r) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", r);
  std::string out = buf;
  if (r != kEof && gocompat::is_print(r)) {
    out += " '";
    gocompat::append_rune(out, r);
    out += "'";
  }
  return out;
}

class Lexer {
 public:
  Lexer(std::string_view input, const LexOptions& options, Lexed& out)
      : in_(input), options_(options), items_(out.items), message_(out.message) {
    // A helmfile template has about one item per 6 bytes (spaces inside actions are items).
    items_.reserve(input.size() / 5 + 4);
  }

  void run() {
    St st = St::kText;
    while (st != St::kDone) st = step(st);
  }

 private:
  enum class St {
    kDone,
    kText,
    kLeftDelim,
    kComment,
    kRightDelim,
    kInside,
    kSpace,
    kIdentifier,
    kVariable,
    kField,
    kChar,
    kQuote,
    kRawQuote,
    kNumber,
  };
  St step(St st) {
    switch (st) {
      case St::kText:
        return lex_text();
      case St::kLeftDelim:
        return lex_left_delim();
      case St::kComment:
        return lex_comment();
      case St::kRightDelim:
        return lex_right_delim();
      case St::kInside:
        return lex_inside_action();
      case St::kSpace:
        return lex_space();
      case St::kIdentifier:
        return lex_identifier();
      case St::kVariable:
        return lex_variable();
      case St::kField:
        return lex_field();
      case St::kChar:
        return lex_char();
      case St::kQuote:
        return lex_quote();
      case St::kRawQuote:
        return lex_raw_quote();
      case St::kNumber:
        return lex_number();
      case St::kDone:
        break;
    }
    return St::kDone;
  }

  uint32_t next() {
    if (pos_ >= in_.size()) {
      width_ = 0;
      return kEof;
    }
    const unsigned char c = static_cast<unsigned char>(in_[pos_]);
    if (c < 0x80) {
      width_ = 1;
      ++pos_;
      return c;
    }
    gocompat::Rune r = gocompat::decode_rune(in_, pos_);
    width_ = r.width;
    pos_ += r.width;
    return r.cp;
  }
  void backup() { pos_ -= width_; }
  uint32_t peek() {
    uint32_t r = next();
    backup();
    return r;
  }
  bool accept(std::string_view valid) {
    if (pos_ < in_.size() && valid.find(in_[pos_]) != std::string_view::npos) {
      next();
      return true;
    }
    return false;
  }
  void accept_run(std::string_view valid) {
    while (accept(valid)) {
    }
  }
  // Inlined everywhere: half the items are single spaces, and a call per item cost more than
  // the item.
  [[gnu::always_inline]] void emit(ItemType t) {
    items_.push_back(
        Item{t, space_before_, start_, std::string_view(in_.data() + start_, pos_ - start_)});
    space_before_ = false;
    start_ = pos_;
  }
  void ignore() { start_ = pos_; }
  St errorf(std::string message) {
    message_ = std::move(message);  // the lexer stops at its first error
    items_.push_back(Item{ItemType::kError, space_before_, start_, message_});
    return St::kDone;
  }
  std::string_view rest() const { return in_.substr(std::min(pos_, in_.size())); }

  // (at the right delimiter, with a trim marker)
  std::pair<bool, bool> at_right_delim() const {
    // Only a space (before a trim marker) or '}' can start one: most calls stop here.
    if (pos_ >= in_.size() || (in_[pos_] != '}' && !is_space_char(in_[pos_]))) {
      return {false, false};
    }
    std::string_view r = rest();
    if (has_right_trim_marker(r) && r.substr(kTrimMarkerLen).starts_with(kRightDelim)) {
      return {true, true};
    }
    if (r.starts_with(kRightDelim)) return {true, false};
    return {false, false};
  }

  bool at_terminator() const {
    if (pos_ >= in_.size()) return true;
    switch (in_[pos_]) {
      case ' ':
      case '\t':
      case '\r':
      case '\n':
      case '.':
      case ',':
      case '|':
      case ':':
      case ')':
      case '(':
        return true;
      default:
        break;
    }
    return rest().starts_with(kRightDelim);
  }

  // Go reads an identifier's runes one by one; ASCII runs are taken at once.
  uint32_t skip_alpha_numeric() {
    while (true) {
      while (pos_ < in_.size() && is_ascii_alpha_numeric(static_cast<unsigned char>(in_[pos_]))) {
        ++pos_;
      }
      const uint32_t r = next();
      if (!is_alpha_numeric(r)) {
        backup();
        return r;
      }
    }
  }

  St lex_text() {
    size_t x = in_.find(kLeftDelim, pos_);
    if (x != std::string_view::npos) {
      pos_ = x;
      size_t trim = 0;
      if (has_left_trim_marker(in_.substr(pos_ + kLeftDelim.size()))) {
        std::string_view before = in_.substr(start_, pos_ - start_);
        size_t keep = before.size();
        while (keep > 0 && is_space_char(before[keep - 1])) --keep;
        trim = before.size() - keep;
      }
      pos_ -= trim;
      if (pos_ > start_) emit(ItemType::kText);
      pos_ += trim;
      ignore();
      return St::kLeftDelim;
    }
    pos_ = in_.size();
    if (pos_ > start_) emit(ItemType::kText);
    emit(ItemType::kEOF);
    return St::kDone;
  }

  St lex_left_delim() {
    pos_ += kLeftDelim.size();
    const bool trim = has_left_trim_marker(rest());
    const size_t after_marker = trim ? kTrimMarkerLen : 0;
    if (in_.substr(pos_ + std::min(after_marker, in_.size() - pos_)).starts_with(kLeftComment)) {
      pos_ += after_marker;
      ignore();
      return St::kComment;
    }
    emit(ItemType::kLeftDelim);
    pos_ += after_marker;
    ignore();
    paren_depth_ = 0;
    return St::kInside;
  }

  St lex_comment() {
    pos_ += kLeftComment.size();
    size_t i = in_.find(kRightComment, pos_);
    if (i == std::string_view::npos) return errorf("unclosed comment");
    pos_ = i + kRightComment.size();
    auto [delim, trim] = at_right_delim();
    if (!delim) return errorf("comment ends before closing delimiter");
    if (options_.emit_comments) emit(ItemType::kComment);
    if (trim) pos_ += kTrimMarkerLen;
    pos_ += kRightDelim.size();
    if (trim) skip_left_space();
    ignore();
    return St::kText;
  }

  void skip_left_space() {
    while (pos_ < in_.size() && is_space_char(in_[pos_])) ++pos_;
  }

  St lex_right_delim() {
    const bool trim = has_right_trim_marker(rest());
    if (trim) {
      pos_ += kTrimMarkerLen;
      ignore();
    }
    pos_ += kRightDelim.size();
    emit(ItemType::kRightDelim);
    if (trim) {
      skip_left_space();
      ignore();
    }
    return St::kText;
  }

  // The states an action's items go through most, run here until the action needs another.
  St lex_inside_action() {
    St st;
    do {
      st = inside_action_item();
      switch (st) {
        case St::kSpace:
          st = lex_space();
          break;
        case St::kField:
          st = lex_field();
          break;
        case St::kIdentifier:
          st = lex_identifier();
          break;
        default:
          break;
      }
    } while (st == St::kInside);
    return st;
  }

  // Inlined into its one caller's loop: it runs once per item, and a call per item cost more
  // than most items.
  [[gnu::always_inline]] St inside_action_item() {
    auto [delim, trim] = at_right_delim();
    (void)trim;
    if (delim) {
      if (paren_depth_ == 0) return St::kRightDelim;
      return errorf("unclosed left paren");
    }
    const uint32_t r = next();
    if (r == kEof) return errorf("unclosed action");
    if (r < 0x80 && is_space_char(static_cast<char>(r))) {
      backup();
      return St::kSpace;
    }
    switch (r) {
      case '=':
        emit(ItemType::kAssign);
        return St::kInside;
      case ':':
        if (next() != '=') return errorf("expected :=");
        emit(ItemType::kDeclare);
        return St::kInside;
      case '|':
        emit(ItemType::kPipe);
        return St::kInside;
      case '"':
        return St::kQuote;
      case '`':
        return St::kRawQuote;
      case '$':
        return St::kVariable;
      case '\'':
        return St::kChar;
      case '(':
        emit(ItemType::kLeftParen);
        ++paren_depth_;
        return St::kInside;
      case ')':
        emit(ItemType::kRightParen);
        --paren_depth_;
        if (paren_depth_ < 0) return errorf("unexpected right paren " + sharp_u(r));
        return St::kInside;
      default:
        break;
    }
    if (r == '.') {
      // ".field" unless a digit follows ('.' can start a number).
      if (pos_ < in_.size() && (in_[pos_] < '0' || in_[pos_] > '9')) return St::kField;
    }
    if (r == '.' || r == '+' || r == '-' || (r >= '0' && r <= '9')) {
      backup();
      return St::kNumber;
    }
    if (is_alpha_numeric(r)) {
      backup();
      return St::kIdentifier;
    }
    if (r < 0x80 && r >= 0x20 && r < 0x7F) {
      emit(ItemType::kChar);
      return St::kInside;
    }
    return errorf("unrecognized character in action: " + sharp_u(r));
  }

  St lex_space() {
    size_t spaces = 0;
    while (pos_ < in_.size() && is_space_char(in_[pos_])) {
      ++pos_;
      ++spaces;
    }
    // A trim-marked closing delimiter has a minus after a space: leave that space to it.
    std::string_view from_last_space = in_.substr(pos_ - 1);
    if (has_right_trim_marker(from_last_space) &&
        from_last_space.substr(kTrimMarkerLen).starts_with(kRightDelim)) {
      --pos_;
      if (spaces == 1) return St::kRightDelim;
    }
    space_before_ = true;  // Go's itemSpace
    ignore();
    return St::kInside;
  }

  St lex_identifier() {
    const uint32_t r = skip_alpha_numeric();
    const std::string_view word = in_.substr(start_, pos_ - start_);
    if (!at_terminator()) return errorf("bad character " + sharp_u(r));
    ItemType kw = keyword(word);
    if (kw != ItemType::kError) {
      if ((kw == ItemType::kBreak && !options_.break_ok) ||
          (kw == ItemType::kContinue && !options_.continue_ok)) {
        emit(ItemType::kIdentifier);
      } else {
        emit(kw);
      }
    } else if (word[0] == '.') {
      emit(ItemType::kField);
    } else if (word == "true" || word == "false") {
      emit(ItemType::kBool);
    } else {
      emit(ItemType::kIdentifier);
    }
    return St::kInside;
  }

  static ItemType keyword(std::string_view w) {
    if (w.size() < 2 ? w != "." : w.size() > 8) return ItemType::kError;
    static constexpr std::pair<std::string_view, ItemType> kKeys[] = {
        {".", ItemType::kDot},
        {"block", ItemType::kBlock},
        {"break", ItemType::kBreak},
        {"continue", ItemType::kContinue},
        {"define", ItemType::kDefine},
        {"else", ItemType::kElse},
        {"end", ItemType::kEnd},
        {"if", ItemType::kIf},
        {"range", ItemType::kRange},
        {"nil", ItemType::kNil},
        {"template", ItemType::kTemplate},
        {"with", ItemType::kWith},
    };
    for (const auto& [k, t] : kKeys) {
      if (k == w) return t;
    }
    return ItemType::kError;
  }

  St lex_variable() {
    if (at_terminator()) {  // just "$"
      emit(ItemType::kVariable);
      return St::kInside;
    }
    return lex_field_or_variable(ItemType::kVariable);
  }
  St lex_field() { return lex_field_or_variable(ItemType::kField); }

  St lex_field_or_variable(ItemType t) {
    if (at_terminator()) {  // "." or "$"
      emit(t == ItemType::kVariable ? ItemType::kVariable : ItemType::kDot);
      return St::kInside;
    }
    const uint32_t r = skip_alpha_numeric();
    if (!at_terminator()) return errorf("bad character " + sharp_u(r));
    emit(t);
    return St::kInside;
  }

  St lex_char() {
    while (true) {
      uint32_t r = next();
      if (r == '\\') {
        uint32_t e = next();
        if (e != kEof && e != '\n') continue;
        return errorf("unterminated character constant");
      }
      if (r == kEof || r == '\n') return errorf("unterminated character constant");
      if (r == '\'') break;
    }
    emit(ItemType::kCharConstant);
    return St::kInside;
  }

  St lex_quote() {
    while (true) {
      uint32_t r = next();
      if (r == '\\') {
        uint32_t e = next();
        if (e != kEof && e != '\n') continue;
        return errorf("unterminated quoted string");
      }
      if (r == kEof || r == '\n') return errorf("unterminated quoted string");
      if (r == '"') break;
    }
    emit(ItemType::kString);
    return St::kInside;
  }

  St lex_raw_quote() {
    size_t end = in_.find('`', pos_);
    if (end == std::string_view::npos) return errorf("unterminated raw quoted string");
    pos_ = end + 1;
    emit(ItemType::kRawString);
    return St::kInside;
  }

  bool scan_number() {
    accept("+-");
    std::string_view digits = "0123456789_";
    if (accept("0")) {
      if (accept("xX")) {
        digits = "0123456789abcdefABCDEF_";
      } else if (accept("oO")) {
        digits = "01234567_";
      } else if (accept("bB")) {
        digits = "01_";
      }
    }
    accept_run(digits);
    if (accept(".")) accept_run(digits);
    if (digits.size() == 10 + 1 && accept("eE")) {
      accept("+-");
      accept_run("0123456789_");
    }
    if (digits.size() == 16 + 6 + 1 && accept("pP")) {
      accept("+-");
      accept_run("0123456789_");
    }
    accept("i");
    if (is_alpha_numeric(peek())) {
      next();
      return false;
    }
    return true;
  }

  St lex_number() {
    if (!scan_number()) {
      return errorf("bad number syntax: " + gocompat::quote(in_.substr(start_, pos_ - start_)));
    }
    if (pos_ < in_.size() && (in_[pos_] == '+' || in_[pos_] == '-')) {
      // Complex: 1+2i. No spaces, must end in 'i'.
      if (!scan_number() || in_[pos_ - 1] != 'i') {
        return errorf("bad number syntax: " + gocompat::quote(in_.substr(start_, pos_ - start_)));
      }
      emit(ItemType::kComplex);
      return St::kInside;
    }
    emit(ItemType::kNumber);
    return St::kInside;
  }

  std::string_view in_;
  LexOptions options_;
  std::vector<Item>& items_;
  std::string& message_;
  size_t start_ = 0;
  size_t pos_ = 0;
  size_t width_ = 0;
  int paren_depth_ = 0;
  bool space_before_ = false;  // spaces were read since the last item
};

}  // namespace

bool is_space_char(char c) { return kByteClass[static_cast<unsigned char>(c)] == kSpaceByte; }

std::string to_string(const Item& item) {
  if (item.type == ItemType::kEOF) return "EOF";
  if (item.type == ItemType::kError) return std::string(item.val);
  if (item.type > ItemType::kKeyword) return "<" + std::string(item.val) + ">";
  if (item.val.size() > 10) {
    // Go's %.10q: the first ten code points, quoted, then "...".
    size_t cut = 0;
    for (int n = 0; n < 10 && cut < item.val.size(); ++n)
      cut += gocompat::decode_rune(item.val, cut).width;
    return gocompat::quote(item.val.substr(0, cut)) + "...";
  }
  return gocompat::quote(item.val);
}

void lex(std::string_view input, const LexOptions& options, Lexed& out) {
  Lexer(input, options, out).run();
}

}  // namespace hintkit::gotmpl
