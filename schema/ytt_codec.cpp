// `@ytt:json`, `@ytt:yaml` and `@ytt:regexp`. Encoders go through the engine's tree
// (`from_starlark`), so dicts, structs and yamlfragments encode alike; `json.encode` sorts map
// keys as Go's encoding/json does; `json.decode` gives floats for every number and sorted keys,
// as ytt's does (it decodes into Go maps and float64s).
#include <algorithm>
#include <charconv>
#include <cmath>

#include "formats/formats.h"
#include "schema/errors.h"
#include "schema/ytt_modules.h"

namespace hintkit::schema {

namespace {

void sort_keys(yaml::Node& n) {
  for (auto& it : n.items) sort_keys(it.value);
  for (auto& el : n.elements) sort_keys(el);
  std::stable_sort(n.items.begin(), n.items.end(),
                   [](const auto& a, const auto& b) { return a.key.text < b.key.text; });
}

// ---- JSON decoding (Go's encoding/json into interface{}) ----

class JsonParser {
 public:
  explicit JsonParser(std::string_view s) : s_(s) {}

  sl::Result<sl::Value> parse() {
    auto v = value(0);
    if (!v.ok()) return v;
    skip_ws();
    if (i_ < s_.size()) return invalid("after top-level value");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 10000;  // Go's decoder limit; deeper is hostile input

  sl::Error eof() const { return sl::fail_error("json.decode: unexpected end of JSON input"); }
  sl::Error invalid(std::string_view context) const {
    std::string c(1, s_[i_]);
    return sl::fail_error("json.decode: invalid character '" + c + "' " + std::string(context));
  }
  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  sl::Result<sl::Value> value(int depth) {
    if (depth > kMaxDepth) return sl::fail_error("json.decode: exceeded max depth");
    skip_ws();
    if (i_ >= s_.size()) return eof();
    char c = s_[i_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') {
      auto s = string();
      if (!s.ok()) return s.error();
      return sl::Value::from_string(*s);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    if (literal("true")) return sl::Value::from_bool(true);
    if (literal("false")) return sl::Value::from_bool(false);
    if (literal("null")) return sl::Value::none();
    return invalid("looking for beginning of value");
  }

  sl::Result<sl::Value> number() {
    size_t start = i_;
    if (s_[i_] == '-') ++i_;
    while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' ||
                              s_[i_] == 'e' || s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-'))
      ++i_;
    double d = 0;
    auto [p, ec] = std::from_chars(s_.data() + start, s_.data() + i_, d);
    if (ec != std::errc() || p != s_.data() + i_) {
      if (i_ >= s_.size()) return eof();
      return invalid("in numeric literal");
    }
    return sl::Value::from_float(d);
  }

  sl::Result<std::string> string() {
    ++i_;  // opening quote
    std::string out;
    while (true) {
      if (i_ >= s_.size()) return eof();
      char c = s_[i_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) return eof();
      char e = s_[i_++];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u': {
          if (i_ + 4 > s_.size()) return eof();
          unsigned cp = 0;
          std::from_chars(s_.data() + i_, s_.data() + i_ + 4, cp, 16);
          i_ += 4;
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(i_, 2) == "\\u" && i_ + 6 <= s_.size()) {
            unsigned lo = 0;
            std::from_chars(s_.data() + i_ + 2, s_.data() + i_ + 6, lo, 16);
            if (lo >= 0xDC00 && lo < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              i_ += 6;
            }
          }
          sl::append_utf8(out, cp);
          break;
        }
        default:
          out += e;
          break;
      }
    }
  }

  sl::Result<sl::Value> array(int depth) {
    ++i_;
    std::vector<sl::Value> items;
    skip_ws();
    if (i_ < s_.size() && s_[i_] == ']') {
      ++i_;
      return sl::make_list({});
    }
    while (true) {
      auto v = value(depth + 1);
      if (!v.ok()) return v;
      items.push_back(*v);
      skip_ws();
      if (i_ >= s_.size()) return eof();
      if (s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (s_[i_] == ']') {
        ++i_;
        return sl::make_list(std::move(items));
      }
      return invalid("after array element");
    }
  }

  sl::Result<sl::Value> object(int depth) {
    ++i_;
    std::vector<std::pair<std::string, sl::Value>> fields;
    skip_ws();
    if (i_ < s_.size() && s_[i_] == '}') {
      ++i_;
      return make_dict(std::move(fields));
    }
    while (true) {
      skip_ws();
      if (i_ >= s_.size()) return eof();
      if (s_[i_] != '"') return invalid("looking for beginning of object key string");
      auto k = string();
      if (!k.ok()) return k.error();
      skip_ws();
      if (i_ >= s_.size()) return eof();
      if (s_[i_] != ':') return invalid("after object key");
      ++i_;
      auto v = value(depth + 1);
      if (!v.ok()) return v;
      auto same =
          std::find_if(fields.begin(), fields.end(), [&](auto& f) { return f.first == *k; });
      if (same != fields.end())
        same->second = *v;
      else
        fields.emplace_back(*k, *v);
      skip_ws();
      if (i_ >= s_.size()) return eof();
      if (s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (s_[i_] == '}') {
        ++i_;
        return make_dict(std::move(fields));
      }
      return invalid("after object key:value pair");
    }
  }

  // Go maps have no order; ytt's result lists keys sorted.
  static sl::Result<sl::Value> make_dict(std::vector<std::pair<std::string, sl::Value>> fields) {
    std::sort(fields.begin(), fields.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<sl::Value, sl::Value>> items;
    items.reserve(fields.size());
    for (auto& [k, v] : fields) items.emplace_back(sl::Value::from_string(k), std::move(v));
    return sl::make_dict(std::move(items));
  }

  std::string_view s_;
  size_t i_ = 0;
};

const sl::Value* kwarg(const sl::Call& c, std::string_view name) {
  for (const auto& kw : c.kwargs)
    if (kw.name == name) return &kw.value;
  return nullptr;
}

std::optional<sl::Error> only_kwargs(const sl::Call& c,
                                     std::initializer_list<std::string_view> ok) {
  for (const auto& kw : c.kwargs) {
    if (std::find(ok.begin(), ok.end(), kw.name) == ok.end()) {
      return sl::fail_error(std::string(c.name) +
                            ": invalid argument name: " + std::string(kw.name));
    }
  }
  return std::nullopt;
}

std::optional<sl::Error> want_string(const sl::Call& c, const sl::Value& v) {
  if (v.is(sl::Kind::kString)) return std::nullopt;
  return sl::fail_error(std::string(c.name) + ": expected a string, but was " +
                        std::string(v.type_name()));
}

// Go regexp's `Expand`: $1, ${1}, $name, ${name}, $$ (named groups are not supported by
// ytt's patterns in practice and expand to nothing, as Go does for unknown names).
std::string expand(std::string_view tmpl, std::string_view text, const formats::Regex& re,
                   const formats::Regex::Match& m) {
  std::string out;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '$' || i + 1 >= tmpl.size()) {
      out += tmpl[i];
      continue;
    }
    if (tmpl[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    std::string name;
    size_t j = i + 1;
    if (tmpl[j] == '{') {
      size_t close = tmpl.find('}', j);
      if (close == std::string_view::npos) {
        out += tmpl[i];
        continue;
      }
      name = std::string(tmpl.substr(j + 1, close - j - 1));
      j = close + 1;
    } else {
      while (j < tmpl.size() &&
             (std::isalnum(static_cast<unsigned char>(tmpl[j])) || tmpl[j] == '_'))
        name += tmpl[j++];
    }
    if (name.empty()) {
      out += tmpl[i];
      continue;
    }
    // As Go's Regexp.Expand: a number is a group's index, anything else a group's name;
    // unknown groups and groups that did not take part expand to nothing.
    bool digits =
        std::all_of(name.begin(), name.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    std::optional<size_t> g;
    if (digits && name.size() < 9) {
      g = std::stoul(name);
    } else if (!digits) {
      g = re.group_named(name);
    }
    if (g && *g < m.groups.size() && m.groups[*g]) {
      out += text.substr(m.groups[*g]->first, m.groups[*g]->second - m.groups[*g]->first);
    }
    i = j - 1;
  }
  return out;
}

sl::Result<formats::Regex> compile_regexp(const sl::Call& c, std::string_view pattern) {
  formats::Regex re(pattern);
  if (!re.ok()) {
    return sl::fail_error(std::string(c.name) + ": error parsing regexp: " + re.error());
  }
  return re;
}

}  // namespace

namespace {

// What Go's encoding/json refuses in a converted value: maps keyed by anything but strings
// (ytt's AsUnorderedStringMaps panics on them; `keys` true) or, with `keys` false, floats
// that are not finite (json.Marshal: "unsupported value").
std::optional<sl::Error> json_unencodable(const DNode& n, bool keys) {
  if (!keys && n.kind == yaml::Kind::kFloat && !std::isfinite(n.scalar.float_value)) {
    const double f = n.scalar.float_value;
    return sl::fail_error(std::string("json: unsupported value: ") + (std::isnan(f) ? "NaN"
                                                                      : f > 0       ? "+Inf"
                                                                                    : "-Inf"));
  }
  for (const auto& e : n.entries) {
    if (keys && n.is_map() && e.key.kind != yaml::Kind::kString) {
      return sl::fail_error("(p) Expected key to be string");
    }
    if (e.value) {
      if (auto err = json_unencodable(*e.value, keys)) return err;
    }
  }
  return std::nullopt;
}

}  // namespace

// A document set (a fragment of documents) prints as ytt's DocumentSet.AsBytes: its non-empty
// documents (Document.IsEmpty; a computed {} is not empty) joined by `---` lines.
sl::Result<std::string> yaml_text(const sl::Value& v) {
  const std::vector<DDoc>* docs = fragment_docs(v);
  if (!docs) {
    if (auto panic = go_value_panic(v)) return *panic;
    auto tree = convert_starlark(v, {});
    if (!tree.ok()) return tree.error();
    return emit_yaml(*tree.value());
  }
  std::string out;
  bool first = true;
  for (const auto& d : *docs) {
    const DNode* n = d.value.get();
    if (!n || n->is_null() || (!d.computed && !n->is_scalar() && n->entries.empty())) continue;
    if (!first) out += "---\n";
    first = false;
    out += emit_yaml(*n);
  }
  return out;
}

sl::Value json_module() {
  auto encode = sl::make_builtin("json.encode", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
    if (auto e = only_kwargs(c, {"indent"})) return *e;
    // ytt's order: AsGoValue, the string-keyed maps json wants, the indent, then Marshal.
    if (auto panic = go_value_panic(c.args[0])) return *panic;
    auto tree = convert_starlark(c.args[0], {});
    if (!tree.ok()) return sl::fail_error("json.encode: " + tree.error().message);
    if (auto e = json_unencodable(*tree.value(), true)) return *e;
    int indent = 0;
    if (const sl::Value* n = kwarg(c, "indent")) {
      if (!n->is(sl::Kind::kInt)) return ytt_fail(c, "expected starlark.Int");
      auto i = n->to_int64();
      if (!i) return ytt_fail(c, "expected int64 value");
      if (*i < 0 || *i > 8) return ytt_fail(c, "indent value must be between 0 and 8");
      indent = static_cast<int>(*i);
    }
    if (auto e = json_unencodable(*tree.value(), false)) return ytt_fail(c, e->message);
    yaml::Node n = to_yaml(*tree.value());
    sort_keys(n);
    return sl::Value::from_string(yaml::emit_json(n, indent));
  });
  auto decode = sl::make_builtin("json.decode", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
    if (auto e = want_string(c, c.args[0])) return *e;
    return JsonParser(c.args[0].as_string()).parse();
  });
  return sl::make_struct("module", "json", {{"decode", decode}, {"encode", encode}});
}

sl::Value yaml_module() {
  auto encode = sl::make_builtin("yaml.encode", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
    // ytt prints through its document printer, which skips empty documents: None and YAML
    // maps or arrays without items (fragments: a dict or list is never empty to it) give "".
    const sl::Value& v = c.args[0];
    DPtr frag = fragment_node(v);
    if (v.is_none() || (frag && !frag->is_scalar() && frag->entries.empty())) {
      return sl::Value::from_string("");
    }
    auto text = yaml_text(v);
    if (!text.ok()) return sl::fail_error("yaml.encode: " + text.error().message);
    return sl::Value::from_string(text.value());
  });
  auto decode = sl::make_builtin("yaml.decode", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
    if (auto e = want_string(c, c.args[0])) return *e;
    diag::Diagnostics diags;
    auto docs = yaml::load(c.args[0].as_string(), "", diags, ytt_yaml_options());
    for (const auto& d : diags.items()) {
      if (d.severity == diag::Severity::kError && d.code == "HK002") {
        // ytt's conversion to Go values panics on a key a YAML map repeats.
        return sl::fail_error("(p) Unexpected duplicate key (" + d.message + ")");
      }
      if (d.severity == diag::Severity::kError) {
        return sl::fail_error("yaml.decode: " + go_yaml_error(d, c.args[0].as_string(), false));
      }
    }
    if (docs.size() > 1) {
      return sl::fail_error("yaml.decode: Expected to find exactly one YAML document");
    }
    if (docs.empty()) return sl::Value::none();
    return to_plain(from_yaml(docs[0].root));
  });
  return sl::make_struct("module", "yaml", {{"decode", decode}, {"encode", encode}});
}

sl::Value regexp_module() {
  auto match = sl::make_builtin("regexp.match", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 2) return ytt_fail(c, "expected exactly two arguments");
    if (auto e = want_string(c, c.args[0])) return *e;
    if (auto e = want_string(c, c.args[1])) return *e;
    auto re = compile_regexp(c, c.args[0].as_string());
    if (!re.ok()) return re.error();
    return sl::Value::from_bool(re->search(c.args[1].as_string()));
  });
  auto replace = sl::make_builtin("regexp.replace", [](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 3) return ytt_fail(c, "expected exactly 3 arguments");
    if (auto e = want_string(c, c.args[0])) return *e;
    if (auto e = want_string(c, c.args[1])) return *e;
    auto re = compile_regexp(c, c.args[0].as_string());
    if (!re.ok()) return re.error();
    const sl::Value& repl = c.args[2];
    bool is_fn = repl.is(sl::Kind::kFunction) || repl.is(sl::Kind::kBuiltin);
    if (!is_fn && !repl.is(sl::Kind::kString)) {
      return ytt_fail(c, "expected a string, but was " + std::string(repl.type_name()));
    }
    const std::string s(c.args[1].as_string());
    std::string out;
    size_t last = 0;
    std::optional<sl::Error> failed;
    const size_t max_bytes = c.thread.options().limits.max_string_bytes;
    // A step per match, and the result stops growing at the string limit: millions of matches
    // on a 16 MiB string were seconds of work and a vector of every match.
    re->for_each_replace_match(s, [&](const formats::Regex::Match& m) {
      c.thread.charge(1);
      const auto [begin, end] = *m.groups[0];
      out.append(s, last, begin - last);
      if (is_fn) {
        sl::Value arg = sl::Value::from_string(s.substr(begin, end - begin));
        auto r = c.thread.call(repl, std::span<const sl::Value>(&arg, 1));
        if (!r.ok()) {
          failed = r.error();
          return false;
        }
        if (!r->is(sl::Kind::kString)) {
          failed = ytt_fail(c, "expected a string, but was " + std::string(r->type_name()));
          return false;
        }
        out += r->as_string();
      } else {
        out += expand(repl.as_string(), s, *re, m);
      }
      last = end;
      if (out.size() > max_bytes) {
        failed = sl::Error{sl::ErrorKind::kLimit,
                           "string too large: " + std::to_string(out.size()) +
                               " bytes exceeds the limit of " + std::to_string(max_bytes)};
        return false;
      }
      return true;
    });
    if (failed) return *failed;
    out.append(s, last, std::string::npos);
    return sl::Value::from_string(out);
  });
  return sl::make_struct("module", "regexp", {{"match", match}, {"replace", replace}});
}

}  // namespace hintkit::schema
