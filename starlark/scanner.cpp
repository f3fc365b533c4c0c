#include "starlark/scanner.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <unordered_map>

#include "starlark/bigint.h"
#include "starlark/values.h"

namespace hintkit::starlark {
namespace {

struct TokInfo {
  Tok tok;
  std::string_view text;
};

constexpr TokInfo kPunct[] = {
    {Tok::kPlus, "+"},        {Tok::kMinus, "-"},
    {Tok::kStar, "*"},        {Tok::kSlash, "/"},
    {Tok::kSlashSlash, "//"}, {Tok::kPercent, "%"},
    {Tok::kAmp, "&"},         {Tok::kPipe, "|"},
    {Tok::kCaret, "^"},       {Tok::kShl, "<<"},
    {Tok::kShr, ">>"},        {Tok::kTilde, "~"},
    {Tok::kDot, "."},         {Tok::kComma, ","},
    {Tok::kEq, "="},          {Tok::kSemi, ";"},
    {Tok::kColon, ":"},       {Tok::kLParen, "("},
    {Tok::kRParen, ")"},      {Tok::kLBrack, "["},
    {Tok::kRBrack, "]"},      {Tok::kLBrace, "{"},
    {Tok::kRBrace, "}"},      {Tok::kLt, "<"},
    {Tok::kGt, ">"},          {Tok::kGe, ">="},
    {Tok::kLe, "<="},         {Tok::kEqEq, "=="},
    {Tok::kNe, "!="},         {Tok::kPlusEq, "+="},
    {Tok::kMinusEq, "-="},    {Tok::kStarEq, "*="},
    {Tok::kSlashEq, "/="},    {Tok::kSlashSlashEq, "//="},
    {Tok::kPercentEq, "%="},  {Tok::kAmpEq, "&="},
    {Tok::kPipeEq, "|="},     {Tok::kCaretEq, "^="},
    {Tok::kShlEq, "<<="},     {Tok::kShrEq, ">>="},
    {Tok::kStarStar, "**"},
};

constexpr TokInfo kKeywords[] = {
    {Tok::kAnd, "and"},       {Tok::kBreak, "break"}, {Tok::kContinue, "continue"},
    {Tok::kDef, "def"},       {Tok::kElif, "elif"},   {Tok::kElse, "else"},
    {Tok::kFor, "for"},       {Tok::kIf, "if"},       {Tok::kIn, "in"},
    {Tok::kLambda, "lambda"}, {Tok::kLoad, "load"},   {Tok::kNot, "not"},
    {Tok::kOr, "or"},         {Tok::kPass, "pass"},   {Tok::kReturn, "return"},
    {Tok::kWhile, "while"},
};

// Python keywords Starlark reserves: scanned as illegal tokens.
constexpr std::string_view kReserved[] = {
    "as",     "class", "del",      "except", "finally", "from", "global",
    "import", "is",    "nonlocal", "raise",  "try",     "with", "yield",
};

class RawScanner {
 public:
  explicit RawScanner(std::string_view src) : src_(src) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      Token t = next();
      t.scan_end = pos();
      Tok k = t.kind;
      out.push_back(std::move(t));
      if (k == Tok::kEof || k == Tok::kError) break;
    }
    return out;
  }

 private:
  char peek(size_t ahead = 0) const { return i_ + ahead < src_.size() ? src_[i_ + ahead] : '\0'; }
  bool at_end() const { return i_ >= src_.size(); }
  Pos pos() const { return Pos{line_, col_}; }
  void advance() {
    if (src_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else if ((static_cast<unsigned char>(src_[i_]) & 0xC0) != 0x80) {
      ++col_;
    }
    ++i_;
  }
  Token error(Pos p, std::string msg) {
    Token t;
    t.kind = Tok::kError;
    t.pos = p;
    t.text = std::move(msg);
    return t;
  }

  Token next() {
    // Skip blanks, comments, continuations; emit NEWLINE at the end of a logical line.
    while (true) {
      if (at_end()) {
        if (!line_empty_ && depth_ == 0) {
          line_empty_ = true;
          Token t;
          t.kind = Tok::kNewline;
          t.pos = pos();
          return t;
        }
        Token t;
        t.kind = Tok::kEof;
        t.pos = pos();
        return t;
      }
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        advance();
      } else if (c == '#') {
        while (!at_end() && peek() != '\n') advance();
      } else if (c == '\\' && peek(1) == '\n') {
        advance();
        advance();
      } else if (c == '\\' && peek(1) == '\r' && peek(2) == '\n') {
        advance();
        advance();
        advance();
      } else if (c == '\n') {
        advance();
        if (depth_ == 0 && !line_empty_) {
          line_empty_ = true;
          Token t;
          t.kind = Tok::kNewline;
          t.pos = pos();  // like ytt: a newline is reported where the next line starts
          return t;
        }
      } else {
        break;
      }
    }
    line_empty_ = false;
    Pos start = pos();
    char c = peek();
    auto is_ident_start = [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
             (static_cast<unsigned char>(ch) >= 0x80);
    };
    auto is_digit = [](char ch) { return ch >= '0' && ch <= '9'; };
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number(start);
    if (c == 'r' && (peek(1) == '"' || peek(1) == '\'')) {  // starlark-go: lower-case only
      advance();
      return string(start, true);
    }
    if (c == '"' || c == '\'') return string(start, false);
    if (is_ident_start(c)) {
      size_t b = i_;
      while (!at_end() && (is_ident_start(peek()) || is_digit(peek()))) advance();
      std::string_view word = src_.substr(b, i_ - b);
      Token t;
      t.pos = start;
      for (const auto& kw : kKeywords) {
        if (kw.text == word) {
          t.kind = kw.tok;
          t.text = std::string(word);
          return t;
        }
      }
      for (auto r : kReserved) {
        if (r == word) {
          t.kind = Tok::kIllegal;
          t.text = std::string(word);
          return t;
        }
      }
      t.kind = Tok::kIdent;
      t.text = std::string(word);
      return t;
    }
    // Punctuation: longest match.
    const TokInfo* best = nullptr;
    for (const auto& p : kPunct) {
      if (src_.substr(i_, p.text.size()) == p.text && (!best || p.text.size() > best->text.size()))
        best = &p;
    }
    if (!best) {
      advance();
      return error(start, std::string("unexpected input character '") + c + "'");
    }
    for (size_t k = 0; k < best->text.size(); ++k) advance();
    switch (best->tok) {
      case Tok::kLParen:
      case Tok::kLBrack:
      case Tok::kLBrace:
        ++depth_;
        break;
      case Tok::kRParen:
      case Tok::kRBrack:
      case Tok::kRBrace:
        if (depth_ == 0) return error(start, "unexpected '" + std::string(best->text) + "'");
        --depth_;
        break;
      default:
        break;
    }
    Token t;
    t.kind = best->tok;
    t.pos = start;
    return t;
  }

  // starlark-go's scanNumber: consumes only the digits valid for the literal's form (so
  // `0b102` is 0b10 then 2), with its errors and their positions.
  Token number(Pos start) {
    size_t b = i_;
    auto digit = [&](int base) {
      char ch = at_end() ? '\0' : peek();
      if (base == 16) return std::isxdigit(static_cast<unsigned char>(ch)) != 0;
      return ch >= '0' && ch < static_cast<char>('0' + base);
    };
    auto skip = [&](int base) {
      while (!at_end() && digit(base)) advance();
    };
    bool fraction = false, exponent = false;
    int prefixed = 0;  // 16, 8 or 2 after 0x/0o/0b
    if (peek() == '.') {
      fraction = true;
    } else if (peek() == '0') {
      advance();
      char c = at_end() ? '\0' : peek();
      if (c == '.') {
        fraction = true;
      } else if (c == 'x' || c == 'X' || c == 'o' || c == 'O' || c == 'b' || c == 'B') {
        prefixed = (c == 'x' || c == 'X') ? 16 : (c == 'o' || c == 'O') ? 8 : 2;
        advance();
        if (!digit(prefixed)) {
          return error(prefixed == 16 ? start : pos(), prefixed == 16  ? "invalid hex literal"
                                                       : prefixed == 8 ? "invalid octal literal"
                                                                       : "invalid binary literal");
        }
        skip(prefixed);
      } else {
        bool all_zeros = true, octal = true;
        while (!at_end() && digit(10)) {
          if (peek() != '0') all_zeros = false;
          if (peek() > '7') octal = false;
          advance();
        }
        c = at_end() ? '\0' : peek();
        if (c == '.') {
          fraction = true;
        } else if (c == 'e' || c == 'E') {
          exponent = true;
        } else if (octal && !all_zeros) {
          return error(pos(), "obsolete form of octal literal; use 0o" +
                                  std::string(src_.substr(b + 1, i_ - b - 1)));
        }
      }
    } else {
      skip(10);
      char c = at_end() ? '\0' : peek();
      if (c == '.') {
        fraction = true;
      } else if (c == 'e' || c == 'E') {
        exponent = true;
      }
    }
    if (fraction) {
      advance();  // the '.'
      skip(10);
      if (!at_end() && (peek() == 'e' || peek() == 'E')) exponent = true;
    }
    if (exponent) {
      advance();  // the 'e'
      if (!at_end() && (peek() == '+' || peek() == '-')) {
        advance();
        if (!digit(10)) return error(pos(), "invalid float literal");
      }
      skip(10);
    }
    std::string text(src_.substr(b, i_ - b));
    Token t;
    t.pos = start;
    if (fraction || exponent) {
      // Go's strconv.ParseFloat: a missing exponent or an overflow is an invalid literal.
      char* end = nullptr;
      double d = std::strtod(text.c_str(), &end);
      bool ok = end == text.c_str() + text.size() && !std::isinf(d) &&
                !(text.back() == 'e' || text.back() == 'E');
      if (!ok) return error(pos(), "invalid float literal");
      t.kind = Tok::kFloat;
      t.literal = Value::from_float(d);
      return t;
    }
    std::optional<BigInt> v;
    if (prefixed == 8 || prefixed == 2) {
      v = BigInt::parse(text.substr(2), prefixed);  // Go's ParseInt: no big fallback here
      if (v && !int_value(*v).to_int64()) v.reset();
    } else if (prefixed == 16) {
      v = BigInt::parse(text.substr(2), 16);
    } else if (text.size() > 1 && text[0] == '0') {
      v = BigInt::parse(text.substr(1), 8);  // ParseInt base 0: a leading 0 means octal
      if (text.find_first_of("89") != std::string::npos) v.reset();
    } else {
      v = BigInt::parse(text, 10);
    }
    if (!v) return error(start, "invalid int literal");
    t.kind = Tok::kInt;
    t.literal = int_value(*v);
    return t;
  }

  // The escape after a backslash in a non-raw string literal, appended to `out`; an error token
  // when it is malformed.
  std::optional<Token> escape(Pos start, char quote, std::string& out) {
    static constexpr std::pair<char, char> kSimple[] = {
        {'a', '\a'}, {'b', '\b'}, {'f', '\f'},  {'n', '\n'},  {'r', '\r'},
        {'t', '\t'}, {'v', '\v'}, {'\\', '\\'}, {'\'', '\''}, {'"', '"'}};
    char e = peek();
    for (const auto& [name, byte] : kSimple) {
      if (e == name) {
        out.push_back(byte);
        advance();
        return std::nullopt;
      }
    }
    switch (e) {
      case '\n':  // a line continuation
        advance();
        return std::nullopt;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {
        int v = 0;
        for (int k = 0; k < 3 && peek() >= '0' && peek() <= '7'; ++k) {
          v = v * 8 + (peek() - '0');
          advance();
        }
        if (v > 255) {  // shown as starlark-go shows it: three octal digits
          char buf[16];  // room for any int: -O1 cannot see that v <= 0777
          std::snprintf(buf, sizeof buf, "%03o", v);
          return error(start, std::string("invalid escape sequence \\") + buf);
        }
        out.push_back(static_cast<char>(v));
        break;
      }
      case 'x': {  // ytt's starlark-go predates \u and \U: those stay verbatim (default)
        advance();
        // starlark-go unquotes the literal's whole text: fewer than two characters before the
        // closing quote is a truncated escape; two that are not hex digits an invalid one.
        std::string digits;
        for (size_t k = 0; k < 2; ++k) {
          char h = peek(k);
          if (h == '\0' || h == quote || h == '\n') break;
          digits.push_back(h);
        }
        if (digits.size() < 2) return error(start, "truncated escape sequence \\x" + digits);
        uint32_t v = 0;
        for (char h : digits) {
          int d = (h >= '0' && h <= '9')   ? h - '0'
                  : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                  : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                           : -1;
          if (d < 0) return error(start, "invalid escape sequence \\x" + digits);
          v = v * 16 + static_cast<uint32_t>(d);
        }
        advance();
        advance();
        out.push_back(static_cast<char>(v));
        break;
      }
      default:
        // Unknown escapes are kept verbatim, backslash included.
        out.push_back('\\');
        out.push_back(e);
        advance();
        break;
    }
    return std::nullopt;
  }

  Token string(Pos start, bool raw) {
    char quote = peek();
    bool triple = peek(1) == quote && peek(2) == quote;
    advance();
    if (triple) {
      advance();
      advance();
    }
    std::string out;
    while (true) {
      if (at_end()) return error(start, "unexpected EOF in string");
      char c = peek();
      if (c == quote) {
        if (!triple) {
          advance();
          break;
        }
        if (peek(1) == quote && peek(2) == quote) {
          advance();
          advance();
          advance();
          break;
        }
        out.push_back(c);
        advance();
        continue;
      }
      if (c == '\n' && !triple) return error(start, "unexpected newline in string");
      if (c != '\\') {
        out.push_back(c);
        advance();
        continue;
      }
      // Escape.
      advance();
      if (at_end()) return error(start, "unexpected EOF in string");
      char e = peek();
      if (raw) {
        if (e == '\n') {
          out += "\\\n";
          advance();
        } else {
          out.push_back('\\');
          out.push_back(e);
          advance();
        }
        continue;
      }
      if (auto err = escape(start, quote, out)) return *err;
    }
    Token t;
    t.kind = Tok::kString;
    t.pos = start;
    t.text = std::move(out);
    return t;
  }

  std::string_view src_;
  size_t i_ = 0;
  int line_ = 1;
  int col_ = 1;
  int depth_ = 0;
  bool line_empty_ = true;
};

}  // namespace

std::string describe(Tok t) {
  switch (t) {
    case Tok::kError:
      return "error";
    case Tok::kEof:
      return "end of file";
    case Tok::kNewline:
      return "newline";
    case Tok::kIndent:
      return "indent";
    case Tok::kOutdent:
      return "outdent";
    case Tok::kIdent:
      return "identifier";
    case Tok::kInt:
      return "int literal";
    case Tok::kFloat:
      return "float literal";
    case Tok::kString:
      return "string literal";
    case Tok::kIllegal:
      return "illegal token";
    default:
      break;
  }
  for (const auto& p : kPunct) {
    if (p.tok == t) {
      std::string q(1, '\'');
      q.append(p.text);
      q.push_back('\'');
      return q;
    }
  }
  for (const auto& k : kKeywords) {
    if (k.tok == t) return std::string(k.text);
  }
  return "?";
}

// ytt's block rules on top of the raw token stream.
std::vector<Token> scan(std::string_view source) {
  std::vector<Token> raw = RawScanner(source).run();
  std::vector<Token> out;
  out.reserve(raw.size() + 16);
  std::vector<Pos> open;  // positions of block openings
  size_t read = 0;        // the furthest raw token ytt's block scanner has read
  auto emit = [&](Token t) {
    t.scan_end = raw[read].scan_end;
    out.push_back(std::move(t));
  };
  auto error_at = [&](Pos p, std::string msg) {
    Token t;
    t.kind = Tok::kError;
    t.pos = p;
    t.text = std::move(msg);
    out.push_back(std::move(t));
    return out;
  };
  auto outdent = [&](Pos p) -> bool {
    if (open.empty()) return false;
    open.pop_back();
    Token t;
    t.kind = Tok::kOutdent;
    t.pos = p;
    emit(std::move(t));
    return true;
  };
  for (size_t i = 0; i < raw.size(); ++i) {
    Token& t = raw[i];
    size_t n = out.size();
    if (n >= 2 && out[n - 1].kind == Tok::kNewline && out[n - 2].kind == Tok::kColon) {
      open.push_back(out[n - 2].pos);  // the colon's line is where ytt reports a missing end
      Token ind;
      ind.kind = Tok::kIndent;
      ind.pos = out[n - 1].pos;
      emit(std::move(ind));
    }
    read = std::max(read, i);  // after the indent: ytt decides on it before reading on
    Pos prev = out.empty() ? t.pos : out.back().pos;
    switch (t.kind) {
      case Tok::kElse:
        if (i + 1 < raw.size()) read = std::max(read, i + 1);  // it looks for a colon
        if (i + 1 < raw.size() && raw[i + 1].kind == Tok::kColon) {
          if (!outdent(prev)) return error_at(t.pos, "unexpected end");
        }
        break;
      case Tok::kElif:
        if (!outdent(prev)) return error_at(t.pos, "unexpected end");
        break;
      case Tok::kPass:
        return error_at(t.pos, "use of reserved keyword 'pass' is not allowed");
      case Tok::kIdent:
        if (t.text == "end") {
          if (open.empty()) {
            // ytt reports where its scanner stands: past the newline it swallowed after `end`
            Pos at = t.pos;
            if (i + 1 < raw.size()) {
              at = raw[i + 1].pos;
              if (raw[i + 1].kind == Tok::kNewline) at = Pos{t.pos.line + 1, 1};
            }
            return error_at(at, "unexpected end");
          }
          if (i + 1 < raw.size()) read = std::max(read, i + 1);  // it swallows a newline
          outdent(prev);
          if (i + 1 < raw.size() && raw[i + 1].kind == Tok::kNewline) ++i;
          continue;
        }
        break;
      case Tok::kEof:
        if (!open.empty()) {
          return error_at(open.back(),
                          "mismatched set of block openings (if/else/elif/for/def) and closing "
                          "(end)");
        }
        break;
      default:
        break;
    }
    emit(std::move(t));
  }
  return out;
}

}  // namespace hintkit::starlark
