// Output. `emit_yaml` follows the decisions of go-yaml v2's emitter as vendored by ytt
// v0.48.0 (block style, 2-space indent, sequences under a key not indented, minimal quoting,
// no line folding); `emit_json` follows Go's encoding/json spelling of strings and numbers.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "gocompat/gocompat.h"
#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

constexpr int kIndent = 2;
constexpr size_t kMaxSimpleKeyLength = 128;  // longer keys are written as `? key`

size_t utf8_width(unsigned char c) {
  if ((c & 0x80) == 0) return 1;
  if ((c & 0xE0) == 0xC0) return 2;
  if ((c & 0xF0) == 0xE0) return 3;
  if ((c & 0xF8) == 0xF0) return 4;
  return 1;
}

// Whether every byte is below 0x80: such text is valid UTF-8 and takes one column a byte.
bool all_ascii(std::string_view v) {
  uint64_t seen = 0;
  size_t i = 0;
  for (; i + 8 <= v.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, v.data() + i, 8);
    seen |= w;
  }
  for (; i < v.size(); ++i) seen |= static_cast<unsigned char>(v[i]);
  return (seen & 0x8080808080808080ull) == 0;
}

unsigned char byte_at(std::string_view v, size_t i) {
  return i < v.size() ? static_cast<unsigned char>(v[i]) : 0;
}

// YAML's printable set as libyaml tests it on UTF-8 bytes.
bool is_printable(std::string_view v, size_t i) {
  unsigned char b0 = byte_at(v, i), b1 = byte_at(v, i + 1), b2 = byte_at(v, i + 2);
  return b0 == 0x0A || (b0 >= 0x20 && b0 <= 0x7E) || (b0 == 0xC2 && b1 >= 0xA0) ||
         (b0 > 0xC2 && b0 < 0xED) || (b0 == 0xED && b1 < 0xA0) || b0 == 0xEE ||
         (b0 == 0xEF && !(b1 == 0xBB && b2 == 0xBF) && !(b1 == 0xBF && (b2 == 0xBE || b2 == 0xBF)));
}

bool is_break(std::string_view v, size_t i) {
  unsigned char b0 = byte_at(v, i), b1 = byte_at(v, i + 1), b2 = byte_at(v, i + 2);
  return b0 == '\r' || b0 == '\n' || (b0 == 0xC2 && b1 == 0x85) ||
         (b0 == 0xE2 && b1 == 0x80 && (b2 == 0xA8 || b2 == 0xA9));
}

bool is_blank_at(std::string_view v, size_t i) {
  return i < v.size() && (v[i] == ' ' || v[i] == '\t');
}

bool is_blankz(std::string_view v, size_t i) {
  return i >= v.size() || v[i] == ' ' || v[i] == '\t' || v[i] == '\0' || is_break(v, i);
}

enum class Out { kPlain, kSingle, kDouble, kLiteral };

struct Analysis {
  bool multiline = false;
  bool flow_plain = true;
  bool block_plain = true;
  bool single = true;
  bool block = true;
};

// Bytes that set no flag in `analyze` wherever they stand, and those that may also start a
// plain scalar. Most keys and values are made of these only (names, numbers, paths).
constexpr bool is_inert(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '/' || c == '-';
}
constexpr bool is_inert_start(unsigned char c) { return is_inert(c) && c != '.' && c != '-'; }

Analysis analyze(std::string_view v) {
  Analysis a;
  if (v.empty()) {
    a.flow_plain = false;
    a.block = false;
    return a;
  }
  // Fast path: nothing in such text can change the default analysis (plain everywhere).
  if (is_inert_start(static_cast<unsigned char>(v[0])) &&
      std::all_of(v.begin() + 1, v.end(), [](char c) { return is_inert(c); })) {
    return a;
  }
  bool block_ind = false, flow_ind = false, line_breaks = false, special = false;
  bool leading_space = false, leading_break = false, trailing_space = false, trailing_break = false,
       break_space = false, space_break = false;
  bool preceded_ws = true, prev_space = false, prev_break = false;
  if (v.size() >= 3 && (v.substr(0, 3) == "---" || v.substr(0, 3) == "...")) {
    block_ind = flow_ind = true;
  }
  for (size_t i = 0, w = 0; i < v.size(); i += w) {
    w = utf8_width(byte_at(v, i));
    bool followed_ws = i + w >= v.size() || is_blank_at(v, i + w);
    char c = v[i];
    if (i == 0) {
      switch (c) {
        case '#':
        case ',':
        case '[':
        case ']':
        case '{':
        case '}':
        case '&':
        case '*':
        case '!':
        case '|':
        case '>':
        case '\'':
        case '"':
        case '%':
        case '@':
        case '`':
          flow_ind = block_ind = true;
          break;
        case '?':
        case ':':
          flow_ind = true;
          if (followed_ws) block_ind = true;
          break;
        case '-':
          if (followed_ws) flow_ind = block_ind = true;
          break;
        default:
          break;
      }
    } else {
      switch (c) {
        case ',':
        case '?':
        case '[':
        case ']':
        case '{':
        case '}':
          flow_ind = true;
          break;
        case ':':
          flow_ind = true;
          if (followed_ws) block_ind = true;
          break;
        case '#':
          if (preceded_ws) flow_ind = block_ind = true;
          break;
        default:
          break;
      }
    }
    if (!is_printable(v, i)) special = true;
    if (c == ' ') {
      if (i == 0) leading_space = true;
      if (i + w == v.size()) trailing_space = true;
      if (prev_break) break_space = true;
      prev_space = true;
      prev_break = false;
    } else if (is_break(v, i)) {
      line_breaks = true;
      if (i == 0) leading_break = true;
      if (i + w == v.size()) trailing_break = true;
      if (prev_space) space_break = true;
      prev_space = false;
      prev_break = true;
    } else {
      prev_space = prev_break = false;
    }
    preceded_ws = is_blankz(v, i);
  }
  a.multiline = line_breaks;
  if (leading_space || leading_break || trailing_space || trailing_break) {
    a.flow_plain = a.block_plain = false;
  }
  if (trailing_space) a.block = false;
  if (break_space) a.flow_plain = a.block_plain = a.single = false;
  if (space_break || special) a.flow_plain = a.block_plain = a.single = a.block = false;
  if (line_breaks) a.flow_plain = a.block_plain = false;
  if (flow_ind) a.flow_plain = false;
  if (block_ind) a.block_plain = false;
  return a;
}

// go-yaml's encodeBase64: standard base64, broken into lines of 70 characters (each line,
// the last included, then ends with a break) when it is longer than one line.
std::string binary_text(std::string_view s) {
  const std::string enc = gocompat::Base64Encoding{}.encode(s);
  constexpr size_t kLine = 70;
  if (enc.size() / kLine + 1 <= 1) return enc;
  std::string out;
  for (size_t i = 0; i < enc.size(); i += kLine) {
    out += enc.substr(i, kLine);
    out += '\n';
  }
  return out;
}

// The text of a scalar and the style go-yaml's encoder asks for. Strings are not copied:
// `text` views `s.text`; other kinds are spelled into `buffer`.
std::string_view scalar_text(const ScalarRef& s, std::string& buffer, Out& style) {
  style = Out::kPlain;
  switch (s.kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return s.bool_value ? "true" : "false";
    case Kind::kInt:
      buffer = s.is_unsigned ? std::to_string(static_cast<uint64_t>(s.int_value))
                             : std::to_string(s.int_value);
      return buffer;
    case Kind::kFloat:
      buffer = internal::format_float_yaml(s.float_value);
      return buffer;
    default:
      break;
  }
  if (s.text.find('\n') != std::string_view::npos) {
    style = Out::kLiteral;
  } else if (internal::needs_quotes_to_stay_string(s.text)) {
    style = Out::kDouble;
  }
  return s.text;
}

// Feeds a Node tree to the emitter.
void emit_node(YamlEmitter& e, const Node& n) {
  if (n.kind == Kind::kMap) {
    e.begin_map(n.items.size());
    for (const MapItem& item : n.items) {
      emit_node(e, item.key);
      emit_node(e, item.value);
    }
    e.end_map();
  } else if (n.kind == Kind::kArray) {
    e.begin_array(n.elements.size());
    for (const Node& el : n.elements) emit_node(e, el);
    e.end_array();
  } else {
    e.scalar(scalar_ref_of(n, n.kind));
  }
}

}  // namespace

// go-yaml's emitter state (column, indentation stack, whether the last thing written was
// whitespace or indentation) plus where in the tree the next event lands.
struct YamlEmitter::State {
  // One open collection.
  struct Frame {
    bool is_map = false;
    bool empty = false;       // written as `{}` / `[]`: no indentation level was pushed
    bool at_key = true;       // maps: the next node is a key
    bool simple_key = false;  // maps: the key being written is simple (`key:`, not `? key`)
  };

  std::string out;
  int column = 0;
  bool whitespace = true;
  bool indention = true;
  int indent = -1;
  std::vector<int> indents;
  std::vector<Frame> frames;
  std::string buffer;  // spelling of the current non-string scalar

  // Where a node goes: `-` for array items, the key/value split for map items. Returns
  // whether the node is inside a mapping (key or value) and whether it is a simple key.
  void open_node(bool simple_if_key, bool& mapping, bool& simple) {
    mapping = simple = false;
    if (frames.empty()) return;
    Frame& f = frames.back();
    if (!f.is_map) {
      write_indent();
      write_indicator("-", true, false, true);
      return;
    }
    mapping = true;
    if (!f.at_key) return;
    write_indent();
    f.simple_key = simple_if_key;
    simple = simple_if_key;
    if (!simple) write_indicator("?", true, false, true);
  }

  // After a whole node: a finished key gets its `:`.
  void close_node() {
    if (frames.empty() || !frames.back().is_map) return;
    Frame& f = frames.back();
    if (f.at_key) {
      if (!f.simple_key) write_indent();
      write_indicator(":", !f.simple_key, false, !f.simple_key);
    }
    f.at_key = !f.at_key;
  }

  void begin(bool is_map, size_t size) {
    bool mapping, simple;
    open_node(size == 0, mapping, simple);  // a collection key is simple when empty
    Frame f;
    f.is_map = is_map;
    f.empty = size == 0;
    if (f.empty) {
      write_indicator(is_map ? "{" : "[", true, true, false);
      write_indicator(is_map ? "}" : "]", false, false, false);
    } else {
      increase_indent(false, !is_map && mapping && !indention);
    }
    frames.push_back(f);
  }

  void end() {
    if (!frames.back().empty) pop_indent();
    frames.pop_back();
    close_node();
  }

  void scalar(const ScalarRef& s) {
    Out style;
    std::string_view text = scalar_text(s, buffer, style);
    // A string that is not UTF-8 is written as go-yaml writes it: tagged !!binary, in base64.
    bool ascii = all_ascii(text);
    const bool binary = s.kind == Kind::kString && !ascii && !gocompat::valid_utf8(text);
    if (binary) {
      ascii = false;
      buffer = binary_text(text);
      text = buffer;
      style = text.find('\n') != std::string_view::npos ? Out::kLiteral : Out::kPlain;
    }
    Analysis a = analyze(text);
    bool mapping, simple;
    open_node(!a.multiline && text.size() + (binary ? 8 : 0) <= kMaxSimpleKeyLength, mapping,
              simple);
    if (binary) write_indicator("!!binary", true, false, false);
    if (simple && a.multiline) style = Out::kDouble;
    if (style == Out::kPlain) {
      if (!a.block_plain) style = Out::kSingle;
      if (text.empty() && simple) style = Out::kSingle;
    }
    if (style == Out::kSingle && !a.single) style = Out::kDouble;
    if (style == Out::kLiteral && (!a.block || simple)) style = Out::kDouble;

    increase_indent(true, false);
    switch (style) {
      case Out::kPlain:
        write_plain(text, ascii);
        break;
      case Out::kSingle:
        write_single(text);
        break;
      case Out::kDouble:
        write_double(text);
        break;
      case Out::kLiteral:
        write_literal(text);
        break;
    }
    pop_indent();
    close_node();
  }

  std::string finish() {
    write_indent();  // end of document: finish the last line
    std::string text = std::move(out);
    out.clear();
    column = 0;
    whitespace = indention = true;
    indent = -1;
    indents.clear();
    frames.clear();
    return text;
  }

  void put(char c) {
    out += c;
    ++column;
  }
  void put_break() {
    out += '\n';
    column = 0;
  }
  void write_at(std::string_view v, size_t& i) {
    size_t w = utf8_width(byte_at(v, i));
    out.append(v.substr(i, w));
    i += w;
    ++column;
  }
  void write_break_at(std::string_view v, size_t& i) {
    if (v[i] == '\n') {
      put_break();
      ++i;
    } else {
      write_at(v, i);
      column = 0;
    }
  }
  void write_indent() {
    int want = indent < 0 ? 0 : indent;
    if (!indention || column > want || (column == want && !whitespace)) put_break();
    if (column < want) {
      out.append(static_cast<size_t>(want - column), ' ');
      column = want;
    }
    whitespace = true;
    indention = true;
  }
  void write_indicator(std::string_view ind, bool need_ws, bool is_ws, bool is_indention) {
    if (need_ws && !whitespace) put(' ');
    out.append(ind);
    column += static_cast<int>(ind.size());
    whitespace = is_ws;
    indention = indention && is_indention;
  }
  void increase_indent(bool flow, bool indentless) {
    indents.push_back(indent);
    if (indent < 0) {
      indent = flow ? kIndent : 0;
    } else if (!indentless) {
      indent += kIndent;
    }
  }
  void pop_indent() {
    indent = indents.back();
    indents.pop_back();
  }

  void write_plain(std::string_view v, bool ascii) {
    if (!whitespace) put(' ');
    // Plain text has no breaks: one append, one column per character.
    out.append(v);
    if (ascii) {
      column += static_cast<int>(v.size());
    } else {
      for (size_t i = 0; i < v.size(); i += utf8_width(byte_at(v, i))) ++column;
    }
    whitespace = false;
    indention = false;
  }

  void write_single(std::string_view v) {
    write_indicator("'", true, false, false);
    bool breaks = false;
    for (size_t i = 0; i < v.size();) {
      if (is_break(v, i)) {
        // Only U+2028/U+2029 get here ('\n' makes a literal block or a double-quoted
        // string); they are written raw and the next line is indented.
        if (!breaks && v[i] == '\n') put_break();
        write_break_at(v, i);
        indention = true;
        breaks = true;
        continue;
      }
      if (breaks) write_indent();
      if (v[i] == '\'') put('\'');
      write_at(v, i);
      indention = false;
      breaks = false;
    }
    write_indicator("'", false, false, false);
    whitespace = false;
    indention = false;
  }

  void write_double(std::string_view v) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    write_indicator("\"", true, false, false);
    bool bom = v.size() >= 3 && v.substr(0, 3) == "\xEF\xBB\xBF";
    for (size_t i = 0; i < v.size();) {
      unsigned char c = byte_at(v, i);
      if (!is_printable(v, i) || bom || is_break(v, i) || c == '"' || c == '\\') {
        size_t w = utf8_width(c);
        uint32_t cp = w == 1 ? c : w == 2 ? (c & 0x1F) : w == 3 ? (c & 0x0F) : (c & 0x07);
        for (size_t k = 1; k < w; ++k) cp = (cp << 6) | (byte_at(v, i + k) & 0x3F);
        i += w;
        put('\\');
        switch (cp) {
          case 0x00:
            put('0');
            break;
          case 0x07:
            put('a');
            break;
          case 0x08:
            put('b');
            break;
          case 0x09:
            put('t');
            break;
          case 0x0A:
            put('n');
            break;
          case 0x0B:
            put('v');
            break;
          case 0x0C:
            put('f');
            break;
          case 0x0D:
            put('r');
            break;
          case 0x1B:
            put('e');
            break;
          case 0x22:
            put('"');
            break;
          case 0x5C:
            put('\\');
            break;
          case 0x85:
            put('N');
            break;
          case 0xA0:
            put('_');
            break;
          case 0x2028:
            put('L');
            break;
          case 0x2029:
            put('P');
            break;
          default: {
            int digits;
            if (cp <= 0xFF) {
              put('x');
              digits = 2;
            } else if (cp <= 0xFFFF) {
              put('u');
              digits = 4;
            } else {
              put('U');
              digits = 8;
            }
            for (int k = (digits - 1) * 4; k >= 0; k -= 4) put(kHex[(cp >> k) & 0xF]);
          }
        }
      } else {
        write_at(v, i);
      }
    }
    write_indicator("\"", false, false, false);
    whitespace = false;
    indention = false;
  }

  void write_literal(std::string_view v) {
    write_indicator("|", true, false, false);
    if (!v.empty() && (v[0] == ' ' || is_break(v, 0))) {
      char hint[2] = {static_cast<char>('0' + kIndent), 0};
      write_indicator(hint, false, false, false);
    }
    // Chomping: `-` without a final break, `+` when the text ends with two breaks.
    size_t last = v.size() - 1;
    while (last > 0 && (byte_at(v, last) & 0xC0) == 0x80) --last;
    if (!is_break(v, last)) {
      write_indicator("-", false, false, false);
    } else if (last == 0) {
      write_indicator("+", false, false, false);
    } else {
      size_t prev = last - 1;
      while (prev > 0 && (byte_at(v, prev) & 0xC0) == 0x80) --prev;
      if (is_break(v, prev)) write_indicator("+", false, false, false);
    }
    put_break();
    indention = true;
    whitespace = true;
    bool breaks = true;
    for (size_t i = 0; i < v.size();) {
      if (is_break(v, i)) {
        write_break_at(v, i);
        indention = true;
        breaks = true;
      } else {
        if (breaks) write_indent();
        write_at(v, i);
        indention = false;
        breaks = false;
      }
    }
  }
};

YamlEmitter::YamlEmitter() : state_(std::make_unique<State>()) {}
YamlEmitter::~YamlEmitter() = default;
void YamlEmitter::scalar(const ScalarRef& s) { state_->scalar(s); }
void YamlEmitter::begin_map(size_t size) { state_->begin(true, size); }
void YamlEmitter::end_map() { state_->end(); }
void YamlEmitter::begin_array(size_t size) { state_->begin(false, size); }
void YamlEmitter::end_array() { state_->end(); }
std::string YamlEmitter::finish() { return state_->finish(); }

namespace {

// ---- JSON ----------------------------------------------------------------------------

void json_string(std::string& out, std::string_view s) { diag::append_json_string(out, s); }

void json_scalar_text(const Node& n, std::string& out) {
  switch (n.kind) {
    case Kind::kNull:
      out += "null";
      return;
    case Kind::kBool:
      out += n.bool_value ? "true" : "false";
      return;
    case Kind::kInt:
      out += n.is_unsigned ? std::to_string(static_cast<uint64_t>(n.int_value))
                           : std::to_string(n.int_value);
      return;
    case Kind::kFloat:
      // JSON has no spelling for inf and nan; null is the closest valid value.
      out += std::isfinite(n.float_value) ? gocompat::json_float(n.float_value) : "null";
      return;
    default:
      json_string(out, n.text);
  }
}

void json_key(std::string& out, const Node& key) {
  if (key.kind == Kind::kString) {
    json_string(out, key.text);
    return;
  }
  std::string text;
  if (key.is_scalar() && !key.text.empty()) {
    text = key.text;
  } else if (key.is_scalar()) {
    json_scalar_text(key, text);
  } else {
    text = emit_json(key, 0);
  }
  json_string(out, text);
}

void json_value(std::string& out, const Node& n, int indent, int level) {
  auto newline = [&](int lvl) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<size_t>(indent * lvl), ' ');
  };
  if (n.kind == Kind::kMap) {
    if (n.items.empty()) {
      out += "{}";
      return;
    }
    out += '{';
    for (size_t i = 0; i < n.items.size(); ++i) {
      if (i > 0) out += ',';
      newline(level + 1);
      json_key(out, n.items[i].key);
      out += indent > 0 ? ": " : ":";
      json_value(out, n.items[i].value, indent, level + 1);
    }
    newline(level);
    out += '}';
    return;
  }
  if (n.kind == Kind::kArray) {
    if (n.elements.empty()) {
      out += "[]";
      return;
    }
    out += '[';
    for (size_t i = 0; i < n.elements.size(); ++i) {
      if (i > 0) out += ',';
      newline(level + 1);
      json_value(out, n.elements[i], indent, level + 1);
    }
    newline(level);
    out += ']';
    return;
  }
  json_scalar_text(n, out);
}

}  // namespace

std::string emit_yaml(const Node& node) {
  YamlEmitter e;
  emit_node(e, node);
  return e.finish();
}

std::string emit_json(const Node& node, int indent) {
  std::string out;
  json_value(out, node, indent, 0);
  return out;
}

}  // namespace hintkit::yaml
