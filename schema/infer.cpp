// Schema documents -> `SType` trees (types, defaults, validations, documentation), and the
// type check + defaulting of data values against them.
#include <algorithm>
#include <cctype>

#include "schema/errors.h"

namespace hintkit::schema {

namespace {

types::Kind kind_of(yaml::Kind k) {
  switch (k) {
    case yaml::Kind::kNull: return types::Kind::kNull;
    case yaml::Kind::kBool: return types::Kind::kBool;
    case yaml::Kind::kInt: return types::Kind::kInt;
    case yaml::Kind::kFloat: return types::Kind::kFloat;
    case yaml::Kind::kString: return types::Kind::kString;
    case yaml::Kind::kMap: return types::Kind::kMap;
    case yaml::Kind::kArray: return types::Kind::kArray;
  }
  return types::Kind::kAny;
}

std::string type_name(types::Kind k) {
  switch (k) {
    case types::Kind::kBool: return "boolean";
    case types::Kind::kInt: return "integer";
    case types::Kind::kFloat: return "float";
    case types::Kind::kString: return "string";
    case types::Kind::kMap: return "map";
    case types::Kind::kArray: return "array";
    case types::Kind::kNull: return "null";
    default: return "any";
  }
}

bool fits_kind(yaml::Kind v, types::Kind t) {
  if (t == types::Kind::kAny) return true;
  if (t == types::Kind::kFloat) return v == yaml::Kind::kFloat || v == yaml::Kind::kInt;
  return kind_of(v) == t;
}

std::vector<int> ann_lines(const Ann& a, const diag::Span& node) {
  std::vector<int> l;
  for (int i = a.span.begin.line; i <= node.begin.line && i > 0; ++i) l.push_back(i);
  if (l.empty()) l.push_back(node.begin.line);
  return l;
}

std::string starlark_type(const sl::Value& v) {
  switch (v.kind()) {
    case sl::Kind::kInt: return "starlark.Int";
    case sl::Kind::kBool: return "starlark.Bool";
    case sl::Kind::kString: return "starlark.String";
    case sl::Kind::kFloat: return "starlark.Float";
    case sl::Kind::kNone: return "starlark.NoneType";
    case sl::Kind::kList: return "*starlark.List";
    case sl::Kind::kDict: return "*starlark.Dict";
    case sl::Kind::kTuple: return "starlark.Tuple";
    default: return std::string(v.type_name());
  }
}

std::string normalize_key(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '_' || c == '-') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// The declared key a mistyped one most likely meant (case, `_` and `-` ignored).
std::optional<std::string> similar_key(const std::string& key, const std::vector<std::string>& cands) {
  std::string k = normalize_key(key);
  for (const auto& c : cands)
    if (normalize_key(c) == k) return c;
  if (k.size() < 3) return std::nullopt;
  for (const auto& c : cands)
    if (edit_distance(k, normalize_key(c)) <= 1) return c;
  return std::nullopt;
}

class Inferrer {
 public:
  explicit Inferrer(const Files& files) : files_(files) {}

  TypePtr infer(const DPtr& v, const std::vector<Ann>& anns, const diag::Span& span, bool is_doc) {
    auto t = std::make_shared<SType>();
    t->declared = span;
    t->is_doc = is_doc;
    const Ann* type_ann = find_ann(anns, "schema/type");
    const Ann* nullable = find_ann(anns, "schema/nullable");
    if (type_ann) {
      if (type_ann->kwargs.empty()) {
        throw_schema(files_, {"", "expected @schema/type annotation to have keyword argument and value",
                              span.file, ann_lines(*type_ann, span),
                              "missing keyword argument and value (by " + pos_text(type_ann->span) + ")",
                              "valid keyword argument and value",
                              {"Supported key-value pairs are 'any=True', 'any=False'"}});
      }
      for (const auto& [k, val] : type_ann->kwargs) {
        if (k != "any") {
          throw_schema(files_, {"", "unknown @schema/type annotation keyword argument", span.file,
                                ann_lines(*type_ann, span), k + " (by " + pos_text(type_ann->span) + ")",
                                "A valid kwarg", {"Supported kwargs are 'any'"}});
        }
        if (!val.is_bool()) {
          throw_schema(files_, {"", "unknown @schema/type annotation keyword argument", span.file,
                                ann_lines(*type_ann, span),
                                starlark_type(val) + " (by " + pos_text(type_ann->span) + ")",
                                "starlark.Bool", {"Supported kwargs are 'any'"}});
        }
        t->any = val.as_bool();
      }
    }
    if (nullable && !nullable->kwargs.empty()) {
      throw_schema(files_, {"", "expected @schema/nullable annotation to not contain any keyword arguments",
                            span.file, ann_lines(*nullable, span),
                            "keyword argument in @schema/nullable (by " + pos_text(nullable->span) + ")",
                            "starlark.Bool", {"Supported kwargs are 'any'"}});
    }
    if (t->any) {
      t->kind = types::Kind::kAny;
      t->default_value = deep_copy(*v);
    } else {
      switch (v->kind) {
        case yaml::Kind::kMap: {
          t->kind = types::Kind::kMap;
          auto def = make_node(yaml::Kind::kMap, v->span);
          for (const auto& e : v->entries) {
            auto ft = infer(e.value, e.anns, e.span, false);
            DEntry de;
            de.key = e.key;
            de.value = deep_copy(*ft->default_value);
            de.span = e.span;
            def->entries.push_back(std::move(de));
            t->fields.emplace_back(e.key, std::move(ft));
          }
          t->default_value = def;
          break;
        }
        case yaml::Kind::kArray: {
          t->kind = types::Kind::kArray;
          if (v->entries.size() != 1) {
            throw_schema(files_, {"wrong number of items in array definition", "", span.file,
                                  {span.begin.line},
                                  std::to_string(v->entries.size()) + " array items",
                                  "exactly 1 array item, of the desired type",
                                  {"in schema, the one item of the array implies the type of its elements.",
                                   "in schema, the default value for an array is always an empty list.",
                                   "default values can be overridden via a data values overlay."}});
          }
          const DEntry& e = v->entries[0];
          if (const Ann* da = find_ann(e.anns, "schema/default")) {
            throw_schema(files_, {"", "Invalid schema - @schema/default not supported on array item\n"
                                      "============================================================\n",
                                  span.file, ann_lines(*da, e.span), "", "",
                                  {"do you mean to set a default value for the array?",
                                   "set an array's default by annotating its parent."}});
          }
          t->item = infer(e.value, e.anns, e.span, false);
          t->default_value = make_node(yaml::Kind::kArray, v->span);
          break;
        }
        case yaml::Kind::kNull:
          if (is_doc) {
            t->kind = types::Kind::kMap;  // an empty schema document
            t->default_value = make_node(yaml::Kind::kMap, v->span);
            break;
          }
          throw_schema(files_, {"null value not allowed here", "", span.file, {span.begin.line},
                                "null value", "non-null value",
                                {"in YAML, omitting a value implies null.",
                                 "to set the default value to null, annotate with @schema/nullable.",
                                 "to allow any value, annotate with @schema/type any=True."}});
        default:
          t->kind = kind_of(v->kind);
          t->default_value = deep_copy(*v);
      }
    }
    if (nullable) {
      t->nullable = true;
      t->default_value = make_node(yaml::Kind::kNull, span);
    }
    if (const Ann* d = find_ann(anns, "schema/default")) {
      if (!d->kwargs.empty()) {
        throw_schema(files_, {"", "syntax error in @schema/default annotation", span.file,
                              ann_lines(*d, span),
                              "keyword argument in @schema/default (by " + pos_text(d->span) + ")",
                              expected_name(*t) + " (by " + pos_text(span) + ")",
                              {"this annotation only accepts one argument: the default value.",
                               "value must be in Starlark format, e.g.: {'key': 'value'}, True."}});
      }
      if (d->args.empty()) {
        throw_schema(files_, {"", "syntax error in @schema/default annotation", span.file,
                              ann_lines(*d, span),
                              "missing value in @schema/default (by " + pos_text(d->span) + ")",
                              expected_name(*t) + " (by " + pos_text(span) + ")", {}});
      }
      DPtr dv = from_starlark(d->args[0], d->span);
      std::vector<TypeProblem> problems;
      check_and_fill(dv, *t, problems);
      if (!problems.empty()) {
        std::string out;
        for (const auto& p : problems) {
          SchemaProblem sp{"@schema/default is wrong type",
                           p.unknown_key ? "Given data value is not declared in schema" : "",
                           span.file, ann_lines(*d, span),
                           p.found + " (at " + pos_text(d->span) + ")",
                           p.expected + " (" + (p.unknown_key ? "from " : "by ") + pos_text(p.by) + ")",
                           {}};
          if (out.empty()) {
            out = schema_problem_text(files_, sp);
          } else {
            // further problems repeat only the excerpt and found/expected
            std::string block = schema_problem_text(files_, sp);
            size_t cut = block.find("\n\n");
            out.resize(out.size() - 1);
            out += block.substr(cut + 2);
          }
        }
        throw YttError{" \n" + out};
      }
      t->default_value = dv;
    }
    for (const auto& a : anns) {
      if (a.name == "schema/validation") {
        check_validation(a);
        t->validations = {a};
        t->validation_span = a.span;
      } else if (a.name == "schema/desc" && !a.args.empty()) {
        t->desc = std::string(a.args[0].is(sl::Kind::kString) ? a.args[0].as_string() : a.args[0].str());
      } else if (a.name == "schema/title" && !a.args.empty()) {
        t->title = std::string(a.args[0].is(sl::Kind::kString) ? a.args[0].as_string() : a.args[0].str());
      } else if (a.name == "schema/deprecated") {
        if (is_doc) {
          throw_schema(files_, {"", "@schema/deprecated not supported on a document", span.file,
                                ann_lines(a, span), "", "",
                                {"do you mean to deprecate the entire schema document?",
                                 "use schema/deprecated on individual keys."}});
        }
        t->deprecated = a.args.empty() ? "" : a.args[0].str();
      } else if (a.name == "schema/examples") {
        t->has_examples = true;
        for (const auto& ex : a.args) {
          auto items = ex.items();
          if (items.size() != 2) continue;
          DPtr val = from_starlark(items[1], a.span);
          std::vector<TypeProblem> problems;
          check_and_fill(val, *t, problems);
          if (!problems.empty()) {
            throw_schema(files_, {"@schema/examples has wrong type", "", span.file, ann_lines(a, span),
                                  problems[0].found + " (by " + pos_text(a.span) + ")",
                                  problems[0].expected + " (by " + pos_text(problems[0].by) + ")", {}});
          }
          t->examples.emplace_back(items[0].is(sl::Kind::kString) ? std::string(items[0].as_string())
                                                                 : items[0].str(),
                                   val);
        }
      }
    }
    return t;
  }

  static void check_validation(const Ann& a) {
    const std::string head = "\n  Invalid @schema/validation annotation - ";
    const std::string at = " (at " + pos_text(a.span) + ")";
    if (a.args.empty() && a.kwargs.empty()) {
      throw YttError{head + "expected annotation to have 2-tuple as argument(s), but found no "
                            "arguments (by " + pos_text(a.span) + ")"};
    }
    static const char* known[] = {"min", "max", "min_len", "max_len", "not_null",
                                  "one_not_null", "one_of", "when", "when_null_skip"};
    for (const auto& [k, v] : a.kwargs) {
      bool ok = false;
      for (const char* n : known) ok = ok || k == n;
      if (!ok) throw YttError{head + "unknown keyword argument \"" + k + "\"" + at};
      if ((k == "min_len" || k == "max_len") && !v.is(sl::Kind::kInt)) {
        throw YttError{head + "expected keyword argument \"" + k + "\" to be a number, but was " +
                       std::string(v.type_name()) + at};
      }
      if (k == "one_of" && !(v.is(sl::Kind::kList) || v.is(sl::Kind::kTuple) || v.is(sl::Kind::kSet))) {
        throw YttError{head + "expected keyword argument one_of to be a sequence, but was " +
                       std::string(v.type_name())};
      }
    }
    for (const auto& r : a.args) {
      auto items = r.items();
      if (!(r.is(sl::Kind::kTuple) || r.is(sl::Kind::kList)) || items.size() != 2) {
        throw YttError{head + "expected annotation to have 2-tuple as argument(s), but found " +
                       std::string(r.type_name()) + at};
      }
      if (!items[0].is(sl::Kind::kString)) {
        throw YttError{head + "expected first item in the 2-tuple to be a string describing a "
                              "valid value, but was " + std::string(items[0].type_name()) + at};
      }
      const sl::Value& f = items[1];
      if (!f.is(sl::Kind::kStruct) && !(f.is(sl::Kind::kFunction) || f.is(sl::Kind::kBuiltin))) {
        throw YttError{head + "expected second item in the 2-tuple to be an assertion function, "
                              "but was " + std::string(f.type_name()) + at};
      }
      if (!(f.is(sl::Kind::kFunction) || f.is(sl::Kind::kBuiltin))) {
        throw YttError{head + "expected second item in tuple to be an assertion function or "
                              "assertion object, but was a " + std::string(f.type_name()) + at};
      }
    }
  }

  static std::string expected_name(const SType& t) { return type_name(t.kind); }

 private:
  const Files& files_;
};

void fill(DPtr& value, const SType& type, std::vector<TypeProblem>& problems,
          const diag::Span& at) {
  if (type.any) return;
  if (value->kind == yaml::Kind::kNull) {
    if (type.nullable) return;
    problems.push_back({at, at.file, false, "null", type_name(type.kind), type.declared, ""});
    return;
  }
  if (!fits_kind(value->kind, type.kind)) {
    problems.push_back({at, at.file, false, std::string(ytt_type_name(value->kind)),
                        type_name(type.kind), type.declared, ""});
    return;
  }
  if (type.kind == types::Kind::kMap) {
    for (auto& e : value->entries) {
      const auto* ft = type.field(e.key);
      if (!ft) {
        TypeProblem p{e.span, e.span.file, true, key_text(e.key), "", type.declared, ""};
        if (type.fields.size() == 1) {
          p.expected = "a map item with the key named \"" + key_text(type.fields[0].first) + "\"";
        } else {
          std::vector<std::string> names;
          for (const auto& f : type.fields) names.push_back(go_key_text(f.first));
          std::sort(names.begin(), names.end());
          p.expected = "one of {";
          for (size_t i = 0; i < names.size(); ++i) p.expected += (i ? ", " : " ") + names[i];
          p.expected += " }";
        }
        std::vector<std::string> cands;
        for (const auto& f : type.fields)
          if (f.first.kind == yaml::Kind::kString) cands.push_back(f.first.text);
        if (e.key.kind == yaml::Kind::kString) {
          if (auto n = similar_key(e.key.text, cands)) p.hint = "did you mean \"" + *n + "\"?";
        }
        problems.push_back(std::move(p));
        continue;
      }
      fill(e.value, **ft, problems, e.span);
    }
    // missing keys: appended with their defaults
    if (value->entries.size() < type.fields.size() || true) {
      for (const auto& [k, ft] : type.fields) {
        bool present = false;
        for (const auto& e : value->entries) {
          if (same_key(e.key, k)) {
            present = true;
            break;
          }
        }
        if (present) continue;
        DEntry de;
        de.key = k;
        de.value = default_of(*ft);
        de.span = ft->declared;
        value->entries.push_back(std::move(de));
      }
    }
  } else if (type.kind == types::Kind::kArray && type.item) {
    for (auto& e : value->entries) fill(e.value, *type.item, problems, e.span);
  }
}

}  // namespace

const std::shared_ptr<SType>* SType::field(const yaml::Node& key) const {
  for (const auto& f : fields)
    if (same_key(f.first, key)) return &f.second;
  return nullptr;
}

TypePtr infer_document(const DDoc& doc, const Files& files) {
  Inferrer inf(files);
  std::vector<Ann> anns;
  for (const auto& a : doc.anns)
    if (a.name.rfind("schema/", 0) == 0) anns.push_back(a);
  return inf.infer(doc.value, anns, doc.span, true);
}

DPtr default_of(const SType& t) { return deep_copy(*t.default_value); }

void check_and_fill(DPtr& value, const SType& type, std::vector<TypeProblem>& problems) {
  fill(value, type, problems, value->span);
}

}  // namespace hintkit::schema
