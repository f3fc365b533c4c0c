// encoding/json's reading of a text (json.Unmarshal's two passes): its scanner checks the whole
// text first, and the first syntax error wins, worded as Go's SyntaxError; the checked text is
// then read into a JsonValue, strings unquoted as Go's unquote does them.
#include <charconv>
#include <optional>

#include "gocompat/gocompat.h"

namespace hintkit::gocompat {
namespace {

constexpr int kMaxDepth = 10000;  // the scanner's nesting limit

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// scanner.go's checkValid: the text's first syntax error, or none.
class JsonChecker {
 public:
  explicit JsonChecker(std::string_view s) : s_(s) {}

  std::optional<std::string> check() {
    if (auto e = value(0)) return e;
    skip_space();
    if (i_ < s_.size()) return bad("after top-level value");
    return std::nullopt;
  }

 private:
  static std::string eof() { return "unexpected end of JSON input"; }
  // The byte at the scan position; at the end, the space Go's scanner steps there to finish a
  // number or literal.
  std::string bad(std::string_view context) const {
    const unsigned char c = i_ < s_.size() ? static_cast<unsigned char>(s_[i_]) : ' ';
    return "invalid character " + json_quote_char(c) + " " + std::string(context);
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }

  std::optional<std::string> value(int depth) {
    skip_space();
    if (i_ >= s_.size()) return eof();
    const char c = s_[i_];
    if (c == '{' || c == '[') {
      if (depth + 1 > kMaxDepth) return "exceeded max depth";
      return c == '{' ? object(depth + 1) : array(depth + 1);
    }
    if (c == '"') return string();
    if (c == '-' || is_digit(c)) return number();
    if (c == 't') return literal("true");
    if (c == 'f') return literal("false");
    if (c == 'n') return literal("null");
    return bad("looking for beginning of value");
  }

  std::optional<std::string> literal(std::string_view word) {
    for (size_t k = 0; k < word.size(); ++k, ++i_) {
      if (i_ >= s_.size() || s_[i_] != word[k]) {
        return bad("in literal " + std::string(word) + " (expecting " +
                   json_quote_char(static_cast<unsigned char>(word[k])) + ")");
      }
    }
    return std::nullopt;
  }

  std::optional<std::string> number() {
    if (s_[i_] == '-') {
      ++i_;
      if (i_ >= s_.size() || !is_digit(s_[i_])) return bad("in numeric literal");
    }
    if (s_[i_] == '0') {
      ++i_;
    } else {
      while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (i_ >= s_.size() || !is_digit(s_[i_])) return bad("after decimal point in numeric literal");
      while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (i_ >= s_.size() || !is_digit(s_[i_])) return bad("in exponent of numeric literal");
      while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
    }
    return std::nullopt;
  }

  std::optional<std::string> string() {
    ++i_;  // the opening quote
    while (true) {
      if (i_ >= s_.size()) return eof();
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return std::nullopt;
      }
      if (c < 0x20) return bad("in string literal");
      ++i_;
      if (c != '\\') continue;
      if (i_ >= s_.size()) return eof();
      const char e = s_[i_];
      if (e == 'u') {
        ++i_;
        for (int k = 0; k < 4; ++k, ++i_) {
          if (i_ >= s_.size()) return eof();
          if (!is_hex_digit(s_[i_])) return bad("in \\u hexadecimal character escape");
        }
        continue;
      }
      if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
        return bad("in string escape code");
      }
      ++i_;
    }
  }

  std::optional<std::string> array(int depth) {
    ++i_;
    skip_space();
    if (i_ < s_.size() && s_[i_] == ']') {
      ++i_;
      return std::nullopt;
    }
    std::optional<std::string> error;
    do {
      if (auto e = value(depth)) return e;
    } while (another_element(']', "after array element", error));
    return error;
  }

  // Past an element: true at `,` (another follows); false at `closing` (the collection ends)
  // or at anything else, with Go's error `after ...` in `error`.
  bool another_element(char closing, std::string_view after, std::optional<std::string>& error) {
    skip_space();
    if (i_ >= s_.size()) {
      error = eof();
      return false;
    }
    const char c = s_[i_];
    if (c == ',' || c == closing) {
      ++i_;
      return c == ',';
    }
    error = bad(after);
    return false;
  }

  std::optional<std::string> object(int depth) {
    ++i_;
    skip_space();
    if (i_ < s_.size() && s_[i_] == '}') {
      ++i_;
      return std::nullopt;
    }
    std::optional<std::string> error;
    do {
      skip_space();
      if (i_ >= s_.size()) return eof();
      if (s_[i_] != '"') return bad("looking for beginning of object key string");
      if (auto e = string()) return e;
      skip_space();
      if (i_ >= s_.size()) return eof();
      if (s_[i_] != ':') return bad("after object key");
      ++i_;
      if (auto e = value(depth)) return e;
    } while (another_element('}', "after object key:value pair", error));
    return error;
  }

  std::string_view s_;
  size_t i_ = 0;
};

// decode.go's reading of a checked text: no error is possible any more.
class JsonReader {
 public:
  explicit JsonReader(std::string_view s) : s_(s) {}

  JsonValue value() {
    skip_space();
    JsonValue v;
    switch (s_[i_]) {
      case '{':
        v.kind = JsonValue::Kind::kObject;
        read_object(v);
        return v;
      case '[':
        v.kind = JsonValue::Kind::kArray;
        read_array(v);
        return v;
      case '"':
        v.kind = JsonValue::Kind::kString;
        v.text = string();
        return v;
      case 't':
      case 'f':
        v.kind = JsonValue::Kind::kBool;
        v.boolean = s_[i_] == 't';
        i_ += v.boolean ? 4 : 5;
        return v;
      case 'n':
        i_ += 4;
        return v;
      default:
        v.kind = JsonValue::Kind::kNumber;
        v.text = number();
        return v;
    }
  }

 private:
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }

  std::string number() {
    const size_t start = i_;
    while (i_ < s_.size() && (is_digit(s_[i_]) || s_[i_] == '-' || s_[i_] == '+' ||
                              s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E'))
      ++i_;
    return std::string(s_.substr(start, i_ - start));
  }

  unsigned hex4() {
    unsigned v = 0;
    std::from_chars(s_.data() + i_, s_.data() + i_ + 4, v, 16);
    i_ += 4;
    return v;
  }

  // decode.go's unquote: invalid UTF-8 reads as U+FFFD byte by byte; a \u escape of a
  // surrogate is a rune only as the first of a valid pair, else U+FFFD.
  std::string string() {
    ++i_;  // the opening quote
    std::string out;
    while (true) {
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return out;
      }
      if (c >= 0x80) {
        const Rune r = decode_rune(s_, i_);
        if (r.cp == kRuneError && r.width == 1) {
          append_rune(out, kRuneError);
        } else {
          out.append(s_.substr(i_, r.width));
        }
        i_ += r.width;
        continue;
      }
      ++i_;
      if (c != '\\') {
        out += static_cast<char>(c);
        continue;
      }
      const char e = s_[i_++];
      switch (e) {
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xE000) {
            unsigned low = 0;
            if (cp < 0xDC00 && s_.substr(i_, 2) == "\\u") {
              const size_t save = i_;
              i_ += 2;
              low = hex4();
              if (low >= 0xDC00 && low < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
              } else {
                i_ = save;  // the next escape stands on its own
                cp = kRuneError;
              }
            } else {
              cp = kRuneError;
            }
          }
          append_rune(out, cp);
          break;
        }
        default:  // '"', '\\', '/'
          out += e;
          break;
      }
    }
  }

  void read_array(JsonValue& v) {
    ++i_;
    skip_space();
    if (s_[i_] == ']') {
      ++i_;
      return;
    }
    while (true) {
      v.elements.push_back(value());
      skip_space();
      if (s_[i_++] == ']') return;
    }
  }

  void read_object(JsonValue& v) {
    ++i_;
    skip_space();
    if (s_[i_] == '}') {
      ++i_;
      return;
    }
    while (true) {
      skip_space();
      std::string key = string();
      skip_space();
      ++i_;  // ':'
      v.members.push_back({std::move(key), value()});
      skip_space();
      if (s_[i_++] == '}') return;
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

JsonParse parse_json(std::string_view text) {
  JsonParse out;
  if (auto e = JsonChecker(text).check()) {
    out.error = std::move(*e);
    return out;
  }
  out.value = JsonReader(text).value();
  return out;
}

}  // namespace hintkit::gocompat
