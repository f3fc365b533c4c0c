// `@ytt:toml` (ytt's pkg/yttlibraryext/toml). Decoding parses with toml11 (Debian's
// libtoml11-dev) and gives dicts with sorted keys, as ytt's conversion of Go maps does.
// Encoding writes what BurntSushi/toml v1.2.1 (the encoder ytt uses) writes: at each level
// the keys sorted, plain values first, then tables (`[a.b]`, a blank line before each
// top-level one) and arrays of tables (`[[a]]`), nested keys indented by `indent` spaces per
// level; maps inside arrays written inline. What BurntSushi or ytt cannot encode either fails
// with their error or, where ytt itself crashes, is refused.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <toml.hpp>

#include "gocompat/gocompat.h"
#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::ytt {

namespace {

struct TomlError {
  std::string message;
};

// Go's %q-like escaping of BurntSushi's dblQuotedReplacer.
std::string toml_quoted(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", u);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

bool bare_key(std::string_view k) {
  if (k.empty()) return false;
  for (char c : k) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

std::string maybe_quoted(const std::string& k) {
  if (k.empty()) return "\"\"";
  return bare_key(k) ? k : toml_quoted(k);
}

using Key = std::vector<std::string>;

std::string key_text(const Key& key) {
  std::string out;
  for (size_t i = 0; i < key.size(); ++i) out += (i ? "." : "") + maybe_quoted(key[i]);
  return out;
}

// strconv.FormatFloat(f, 'f', -1, 64): the shortest digits that read back as `d`, written
// without an exponent; ".0" added when there is no point.
std::string toml_float(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "+inf";
  std::string s = gocompat::format_float(d, 'f');
  if (s.find('.') == std::string::npos) s += ".0";
  return s;
}

// The encoded text grew past the string limit (deep tables repeat every key above them, so
// the text grows with the square of the depth).
struct TooLarge {
  size_t bytes;
};

class Encoder {
 public:
  Encoder(std::string indent, size_t max_bytes)
      : indent_(std::move(indent)), max_bytes_(max_bytes) {}

  std::string run(const DNode* v) {
    Key root;
    encode(root, v);
    return out_;
  }

 private:
  enum class Type { kNil, kHash, kArrayHash, kOther };

  void wf(std::string_view s) {
    out_ += s;
    written_ = true;
    if (out_.size() > max_bytes_) throw TooLarge{out_.size()};
  }
  void newline() {
    if (written_) wf("\n");
  }
  std::string indent_for(const Key& key) const {
    std::string out;
    for (size_t i = 1; i < key.size(); ++i) out += indent_;
    return out;
  }

  // tomlTypeOfGo: arrays of maps (and only maps) are tables; a null element is an error.
  static Type type_of(const DNode* n) {
    if (!n || n->is_null()) return Type::kNil;
    if (n->is_map()) return Type::kHash;
    if (!n->is_array() || n->entries.empty()) return Type::kOther;
    bool all_hash = true;
    for (const auto& e : n->entries) {
      Type t = type_of(e.value.get());
      if (t == Type::kNil) throw TomlError{"toml: cannot encode array with nil element"};
      if (t != Type::kHash) all_hash = false;
    }
    return all_hash ? Type::kArrayHash : Type::kOther;
  }

  // `key`: the path to `n`, extended and restored by the levels below (one vector for the whole
  // walk: a copy per level was the square of the depth in memory).
  void encode(Key& key, const DNode* n) {
    if (!n || n->is_null()) return;
    if (n->is_map()) return table(key, *n);
    if (n->is_array() && type_of(n) == Type::kArrayHash) return array_of_tables(key, *n);
    write_key_value(key, *n, false);
  }

  void write_key_value(const Key& key, const DNode& n, bool inline_) {
    if (key.empty()) throw TomlError{"toml: top-level values must be Go maps or structs"};
    wf(indent_for(key) + maybe_quoted(key.back()) + " = ");
    element(n);
    if (!inline_) newline();
  }

  void element(const DNode& n) {
    switch (n.kind) {
      case yaml::Kind::kBool:
        wf(n.scalar.bool_value ? "true" : "false");
        return;
      case yaml::Kind::kInt:
        wf(n.scalar.is_unsigned ? std::to_string(static_cast<uint64_t>(n.scalar.int_value))
                                : std::to_string(n.scalar.int_value));
        return;
      case yaml::Kind::kFloat:
        wf(toml_float(n.scalar.float_value));
        return;
      case yaml::Kind::kString:
        wf(toml_quoted(n.scalar.text));
        return;
      case yaml::Kind::kArray: {
        wf("[");
        for (size_t i = 0; i < n.entries.size(); ++i) {
          const DNode* e = n.entries[i].value.get();
          // ytt crashes on a null inside an array it did not check as a table array
          if (!e || e->is_null()) throw Unsupported{"toml.encode of a null inside nested arrays"};
          element(*e);
          if (i + 1 != n.entries.size()) wf(", ");
        }
        wf("]");
        return;
      }
      case yaml::Kind::kMap: {
        Key inline_key;  // an inline table's keys are written bare
        map(inline_key, n, true);
        return;
      }
      default:
        throw Unsupported{"toml.encode of this value"};
    }
  }

  void array_of_tables(Key& key, const DNode& n) {
    if (key.empty()) throw TomlError{"toml: top-level values must be Go maps or structs"};
    for (const auto& e : n.entries) {
      newline();
      wf(indent_for(key) + "[[" + key_text(key) + "]]");
      newline();
      map(key, *e.value, false);
    }
  }

  void table(Key& key, const DNode& n) {
    if (key.size() == 1) newline();
    if (!key.empty()) {
      wf(indent_for(key) + "[" + key_text(key) + "]");
      newline();
    }
    map(key, n, false);
  }

  void map(Key& key, const DNode& n, bool inline_) {
    std::vector<std::pair<std::string, const DNode*>> direct, sub;
    for (const auto& e : n.entries) {
      const DNode* v = e.value.get();
      Type t = type_of(v);
      (t == Type::kHash || t == Type::kArrayHash ? sub : direct).emplace_back(e.key.text, v);
    }
    auto write = [&](std::vector<std::pair<std::string, const DNode*>>& items, bool trailing) {
      std::stable_sort(items.begin(), items.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t i = 0; i < items.size(); ++i) {
        const auto& [k, v] = items[i];
        if (!v || v->is_null()) continue;
        if (inline_) {
          write_key_value({k}, *v, true);
          if (trailing || i + 1 != items.size()) wf(", ");
        } else {
          key.push_back(k);
          encode(key, v);
          key.pop_back();
        }
      }
    };
    if (inline_) wf("{");
    write(direct, !sub.empty());
    write(sub, false);
    if (inline_) wf("}");
  }

  std::string indent_;
  size_t max_bytes_;
  std::string out_;
  bool written_ = false;
};

// ytt turns maps into Go maps with string keys before encoding (other keys crash it).
void check_string_keys(const DNode& n) {
  for (const auto& e : n.entries) {
    if (n.is_map() && (e.key_node || e.key.kind != yaml::Kind::kString)) {
      throw Unsupported{"toml.encode of a map with a key that is not a string"};
    }
    if (e.value) check_string_keys(*e.value);
  }
}

// Integers beyond int64 become strings in the engine's tree; ytt encodes them as numbers.
bool has_wide_int(const sl::Value& v, int depth = 0) {
  if (depth > 1000) return false;
  switch (v.kind()) {
    case sl::Kind::kInt:
      return !v.to_int64().has_value();
    case sl::Kind::kList:
    case sl::Kind::kTuple:
      for (const auto& it : v.items())
        if (has_wide_int(it, depth + 1)) return true;
      return false;
    case sl::Kind::kDict:
      for (const auto& [k, it] : v.dict_items())
        if (has_wide_int(it, depth + 1)) return true;
      return false;
    case sl::Kind::kStruct:
      for (const auto& [k, it] : sl::struct_fields(v))
        if (has_wide_int(it, depth + 1)) return true;
      return false;
    default:
      return false;
  }
}

// How deep arrays and inline tables nest in TOML text (outside strings and comments). toml11
// parses them recursively and overflows the stack on hostile nesting; BurntSushi/toml (ytt's)
// does not, so deeper than YAML allows is refused as unsupported before parsing.
size_t toml_nesting(std::string_view t) {
  size_t depth = 0, deepest = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const char ch = t[i];
    if (ch == '#') {
      i = t.find('\n', i);
      if (i == std::string_view::npos) break;
    } else if (ch == '"' || ch == '\'') {
      const std::string triple(3, ch);
      if (t.substr(i, 3) == triple) {
        i = t.find(triple, i + 3);
        if (i == std::string_view::npos) break;
        i += 2;
        continue;
      }
      for (++i; i < t.size() && t[i] != ch && t[i] != '\n'; ++i)
        if (ch == '"' && t[i] == '\\') ++i;
    } else if (ch == '[' || ch == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// Whether a number's text is beyond what BurntSushi/toml holds (int64, a finite float64):
// toml11 clamps such a number to the nearest bound, where ytt fails ("... is out of range").
bool out_of_range(const toml::value& v) {
  const toml::source_location loc = v.location();
  if (loc.column() == 0 || loc.column() - 1 >= loc.line_str().size()) return false;
  std::string text;
  for (char ch : loc.line_str().substr(loc.column() - 1, loc.region()))
    if (ch != '_') text += ch;
  if (v.is_floating()) {
    if (text.find("inf") != std::string::npos || text.find("nan") != std::string::npos)
      return false;
    return std::isinf(std::strtod(text.c_str(), nullptr));
  }
  int base = 10;
  size_t start = text[0] == '+' || text[0] == '-' ? 1 : 0;
  if (text.size() > start + 1 && text[start] == '0' && std::isalpha(text[start + 1])) {
    base = text[start + 1] == 'x' ? 16 : text[start + 1] == 'o' ? 8 : 2;
    text.erase(start, 2);
  }
  int64_t n = 0;
  auto [p, ec] =
      std::from_chars(text.data() + (text[0] == '+' ? 1 : 0), text.data() + text.size(), n, base);
  return ec == std::errc::result_out_of_range;
}

sl::Value from_toml(const toml::value& v) {
  switch (v.type()) {
    case toml::value_t::boolean:
      return sl::Value::from_bool(v.as_boolean());
    case toml::value_t::integer:
      if (out_of_range(v)) throw Unsupported{"toml.decode of numbers out of range"};
      return sl::Value::from_int(v.as_integer());
    case toml::value_t::floating:
      if (out_of_range(v)) throw Unsupported{"toml.decode of numbers out of range"};
      return sl::Value::from_float(v.as_floating());
    case toml::value_t::string:
      return sl::Value::from_string(v.as_string().str);
    case toml::value_t::array: {
      std::vector<sl::Value> items;
      for (const auto& e : v.as_array()) items.push_back(from_toml(e));
      return sl::make_list(std::move(items));
    }
    case toml::value_t::table: {
      std::vector<std::pair<std::string, const toml::value*>> entries;
      for (const auto& [k, e] : v.as_table()) entries.emplace_back(k, &e);
      std::sort(entries.begin(), entries.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      std::vector<std::pair<sl::Value, sl::Value>> items;
      for (const auto& [k, e] : entries)
        items.emplace_back(sl::Value::from_string(k), from_toml(*e));
      return *sl::make_dict(std::move(items));  // keys are distinct strings
    }
    default:  // dates and times: ytt has no Starlark value for Go's time.Time (it crashes)
      throw Unsupported{"toml.decode of dates and times"};
  }
}

}  // namespace

sl::Value toml_module(Files& files) {
  auto encode =
      sl::make_builtin("toml.encode", [&files](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
        int64_t indent = 0;
        for (const auto& kw : c.kwargs) {
          if (kw.name != "indent")
            return ytt_fail(c, "invalid argument name: " + std::string(kw.name));
        }
        if (auto hint = conversion_hint(c.args[0])) return ytt_fail(c, *hint);
        for (const auto& kw : c.kwargs) {
          if (!kw.value.is(sl::Kind::kInt)) return ytt_fail(c, "expected starlark.Int");
          auto i = kw.value.to_int64();
          if (!i) return ytt_fail(c, "expected int64 value");
          indent = *i;
        }
        if (indent < 0 || indent > 8) return ytt_fail(c, "indent value must be between 0 and 8");
        try {
          // ytt crashes on None (no map to encode)
          if (c.args[0].is_none()) throw Unsupported{"toml.encode(None)"};
          if (has_wide_int(c.args[0])) throw Unsupported{"toml.encode of integers beyond 64 bits"};
          DPtr tree = from_starlark(c.args[0], {});
          check_string_keys(*tree);
          const size_t max_bytes = c.thread.options().limits.max_string_bytes;
          Encoder enc(indent > 0 ? std::string(static_cast<size_t>(indent), ' ') : "  ", max_bytes);
          return sl::Value::from_string(enc.run(tree.get()));
        } catch (const TooLarge& t) {
          sl::Error e;
          e.kind = sl::ErrorKind::kLimit;
          e.message = "toml.encode: string too large: more than " + std::to_string(t.bytes) +
                      " bytes exceeds the limit of " +
                      std::to_string(c.thread.options().limits.max_string_bytes);
          return e;
        } catch (const TomlError& e) {
          return ytt_fail(c, e.message);
        } catch (const Unsupported& u) {
          files.unsupported = u.feature;
          return ytt_fail(c, u.feature);
        }
      });
  auto decode =
      sl::make_builtin("toml.decode", [&files](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
        std::string_view text;
        if (auto e = want_string(c, c.args[0], text)) return *e;
        try {
          if (toml_nesting(text) > static_cast<size_t>(yaml::kMaxDepth))
            throw Unsupported{"toml.decode of arrays or inline tables nested deeper than " +
                              std::to_string(yaml::kMaxDepth) + " levels"};
          std::istringstream in{std::string(text)};
          toml::value parsed = toml::parse(in, "toml");
          return from_toml(parsed);
        } catch (const Unsupported& u) {
          files.unsupported = u.feature;
          return ytt_fail(c, u.feature);
        } catch (const std::exception&) {
          // toml11 words syntax errors its own way, not as BurntSushi/toml does
          files.unsupported = "toml.decode of invalid TOML (ytt's error text)";
          return ytt_fail(c, files.unsupported);
        }
      });
  return sl::make_struct("module", "toml", {{"decode", decode}, {"encode", encode}});
}

}  // namespace hintkit::ytt
