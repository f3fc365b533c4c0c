// `@ytt:json`, `@ytt:yaml` and `@ytt:regexp`. Encoders go through the engine's tree
// (`from_starlark`), so dicts, structs and yamlfragments encode alike; `json.encode` sorts map
// keys as Go's encoding/json does; `json.decode` gives floats for every number and sorted keys,
// as ytt's does (it decodes into Go maps and float64s).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "formats/formats.h"
#include "gocompat/gocompat.h"
#include "ytt/yamltemplate/yamltemplate.h"
#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::ytt {

namespace {

void sort_keys(yaml::Node& n) {
  for (auto& it : n.items) sort_keys(it.value);
  for (auto& el : n.elements) sort_keys(el);
  std::stable_sort(n.items.begin(), n.items.end(),
                   [](const auto& a, const auto& b) { return a.key.text < b.key.text; });
}

// ---- JSON decoding (Go's encoding/json into interface{}) ----

// json.Unmarshal into interface{}: gocompat's reading, then numbers become float64s (one
// beyond float64 is an UnmarshalTypeError) and objects Go maps, whose keys ytt lists sorted.
sl::Result<sl::Value> json_to_starlark(gocompat::JsonValue& v) {
  using Kind = gocompat::JsonValue::Kind;
  switch (v.kind) {
    case Kind::kNull:
      return sl::Value::none();
    case Kind::kBool:
      return sl::Value::from_bool(v.boolean);
    case Kind::kString:
      return sl::Value::from_string(std::move(v.text));
    case Kind::kNumber: {
      // Go's ParseFloat rounds what underflows to zero and fails on what overflows (strtod
      // flags both; only overflow gives an infinity).
      const double d = std::strtod(v.text.c_str(), nullptr);
      if (std::isinf(d)) {
        return sl::fail_error("json.decode: json: cannot unmarshal number " + v.text +
                              " into Go value of type float64");
      }
      return sl::Value::from_float(d);
    }
    case Kind::kArray: {
      std::vector<sl::Value> items;
      items.reserve(v.elements.size());
      for (auto& e : v.elements) {
        auto item = json_to_starlark(e);
        if (!item.ok()) return item;
        items.push_back(std::move(*item));
      }
      return sl::make_list(std::move(items));
    }
    case Kind::kObject:
      break;
  }
  std::vector<std::pair<std::string, sl::Value>> fields;
  for (gocompat::JsonMember& m : v.members) {
    auto value = json_to_starlark(m.value);
    if (!value.ok()) return value;
    auto same =
        std::find_if(fields.begin(), fields.end(), [&](auto& f) { return f.first == m.key; });
    if (same != fields.end()) {
      same->second = std::move(*value);
    } else {
      fields.emplace_back(std::move(m.key), std::move(*value));
    }
  }
  std::sort(fields.begin(), fields.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<sl::Value, sl::Value>> items;
  items.reserve(fields.size());
  for (auto& [k, value] : fields) items.emplace_back(sl::Value::from_string(k), std::move(value));
  return sl::make_dict(std::move(items));
}

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
    if (auto panic = go_value_panic(c.args[0], "json.encode")) return *panic;
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
    gocompat::JsonParse parsed = gocompat::parse_json(c.args[0].as_string());
    if (!parsed.error.empty()) return sl::fail_error("json.decode: " + parsed.error);
    return json_to_starlark(parsed.value);
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
    // ytt's order: the text must parse, then hold one document, and only converting that
    // document to Go values meets a key a YAML map repeats (its conversion panics there).
    const diag::Diagnostic* duplicate_key = nullptr;
    for (const auto& d : diags.items()) {
      if (d.severity != diag::Severity::kError) continue;
      if (d.code != "HK002") return sl::fail_error("yaml.decode: " + go_yaml_error(d, false));
      if (!duplicate_key) duplicate_key = &d;
    }
    if (docs.size() > 1) {
      return sl::fail_error("yaml.decode: Expected to find exactly one YAML document");
    }
    if (duplicate_key) {
      return sl::fail_error("(p) Unexpected duplicate key (" + duplicate_key->message + ")");
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
          // ytt returns the function's error as its own (ErrWrapper: "regexp.replace: ...")
          const bool own = r.error().kind == sl::ErrorKind::kLimit || r.error().go_panic;
          failed = own ? r.error() : ytt_fail(c, r.error().message);
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
        failed.emplace();
        failed->kind = sl::ErrorKind::kLimit;
        failed->message = "string too large: " + std::to_string(out.size()) +
                          " bytes exceeds the limit of " + std::to_string(max_bytes);
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

}  // namespace hintkit::ytt
