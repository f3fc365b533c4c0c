// Schema documents -> `SType` trees (types, defaults, validations, documentation), and the
// type check + defaulting of data values against them.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "schema/errors.h"

namespace hintkit::schema {

namespace {

types::Kind kind_of(yaml::Kind k) {
  switch (k) {
    case yaml::Kind::kNull:
      return types::Kind::kNull;
    case yaml::Kind::kBool:
      return types::Kind::kBool;
    case yaml::Kind::kInt:
      return types::Kind::kInt;
    case yaml::Kind::kFloat:
      return types::Kind::kFloat;
    case yaml::Kind::kString:
      return types::Kind::kString;
    case yaml::Kind::kMap:
      return types::Kind::kMap;
    case yaml::Kind::kArray:
      return types::Kind::kArray;
  }
  return types::Kind::kAny;
}

std::string type_name(types::Kind k) {
  switch (k) {
    case types::Kind::kBool:
      return "boolean";
    case types::Kind::kInt:
      return "integer";
    case types::Kind::kFloat:
      return "float";
    case types::Kind::kString:
      return "string";
    case types::Kind::kMap:
      return "map";
    case types::Kind::kArray:
      return "array";
    case types::Kind::kNull:
      return "null";
    default:
      return "any";
  }
}

std::vector<int> ann_lines(const Ann& a, const diag::Span& node) {
  std::vector<int> l;
  for (int i = a.span.begin.line; i <= node.begin.line && i > 0; ++i) l.push_back(i);
  if (l.empty()) l.push_back(node.begin.line);
  return l;
}

std::string starlark_type(const sl::Value& v) {
  switch (v.kind()) {
    case sl::Kind::kInt:
      return "starlark.Int";
    case sl::Kind::kBool:
      return "starlark.Bool";
    case sl::Kind::kString:
      return "starlark.String";
    case sl::Kind::kFloat:
      return "starlark.Float";
    case sl::Kind::kNone:
      return "starlark.NoneType";
    case sl::Kind::kList:
      return "*starlark.List";
    case sl::Kind::kDict:
      return "*starlark.Dict";
    case sl::Kind::kTuple:
      return "starlark.Tuple";
    default:
      return std::string(v.type_name());
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
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// The declared key a mistyped one most likely meant (case, `_` and `-` ignored).
std::optional<std::string> similar_key(const std::string& key,
                                       const std::vector<std::string>& cands) {
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
        throw_schema(files_,
                     {"",
                      "expected @schema/type annotation to have keyword argument and value",
                      span.file,
                      ann_lines(*type_ann, span),
                      "missing keyword argument and value (by " + pos_text(type_ann->span) + ")",
                      "valid keyword argument and value",
                      {"Supported key-value pairs are 'any=True', 'any=False'"}});
      }
      for (const auto& [k, val] : type_ann->kwargs) {
        if (k != "any") {
          throw_schema(files_, {"",
                                "unknown @schema/type annotation keyword argument",
                                span.file,
                                ann_lines(*type_ann, span),
                                k + " (by " + pos_text(type_ann->span) + ")",
                                "A valid kwarg",
                                {"Supported kwargs are 'any'"}});
        }
        if (!val.is_bool()) {
          throw_schema(files_, {"",
                                "unknown @schema/type annotation keyword argument",
                                span.file,
                                ann_lines(*type_ann, span),
                                starlark_type(val) + " (by " + pos_text(type_ann->span) + ")",
                                "starlark.Bool",
                                {"Supported kwargs are 'any'"}});
        }
        t->any = val.as_bool();
      }
    }
    if (nullable && !nullable->kwargs.empty()) {
      throw_schema(files_,
                   {"",
                    "expected @schema/nullable annotation to not contain any keyword arguments",
                    span.file,
                    ann_lines(*nullable, span),
                    "keyword argument in @schema/nullable (by " + pos_text(nullable->span) + ")",
                    "starlark.Bool",
                    {"Supported kwargs are 'any'"}});
    }
    if (t->any) {
      t->kind = types::Kind::kAny;
      t->default_value = v;
    } else {
      switch (v->kind) {
        case yaml::Kind::kMap: {
          t->kind = types::Kind::kMap;
          auto def = make_node(yaml::Kind::kMap, v->span);
          for (const auto& e : v->entries) {
            auto ft = infer(e.value, e.anns, e.span, false);
            DEntry de;
            de.key = e.key;
            de.value = ft->default_value;
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
            throw_schema(files_,
                         {"wrong number of items in array definition",
                          "",
                          span.file,
                          {span.begin.line},
                          std::to_string(v->entries.size()) + " array items",
                          "exactly 1 array item, of the desired type",
                          {"in schema, the one item of the array implies the type of its elements.",
                           "in schema, the default value for an array is always an empty list.",
                           "default values can be overridden via a data values overlay."}});
          }
          const DEntry& e = v->entries[0];
          if (const Ann* da = find_ann(e.anns, "schema/default")) {
            throw_schema(files_, {"",
                                  "Invalid schema - @schema/default not supported on array item\n"
                                  "============================================================\n",
                                  span.file,
                                  ann_lines(*da, e.span),
                                  "",
                                  "",
                                  {"do you mean to set a default value for the array?",
                                   "set an array's default by annotating its parent."},
                                  /*nested=*/true});
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
          throw_schema(files_,
                       {"null value not allowed here",
                        "",
                        span.file,
                        {span.begin.line},
                        "null value",
                        "non-null value",
                        {"in YAML, omitting a value implies null.",
                         "to set the default value to null, annotate with @schema/nullable.",
                         "to allow any value, annotate with @schema/type any=True."}});
        default:
          t->kind = kind_of(v->kind);
          t->default_value = v;
      }
    }
    if (nullable) {
      t->nullable = true;
      t->default_value = make_node(yaml::Kind::kNull, span);
    }
    build_checker(*t);
    if (const Ann* d = find_ann(anns, "schema/default")) {
      if (!d->kwargs.empty()) {
        throw_schema(files_, {"",
                              "syntax error in @schema/default annotation",
                              span.file,
                              ann_lines(*d, span),
                              "keyword argument in @schema/default (by " + pos_text(d->span) + ")",
                              expected_name(*t) + " (by " + pos_text(span) + ")",
                              {"this annotation only accepts one argument: the default value.",
                               "value must be in Starlark format, e.g.: {'key': 'value'}, True."}});
      }
      if (d->args.empty()) {
        throw_schema(files_, {"",
                              "syntax error in @schema/default annotation",
                              span.file,
                              ann_lines(*d, span),
                              "missing value in @schema/default (by " + pos_text(d->span) + ")",
                              expected_name(*t) + " (by " + pos_text(span) + ")",
                              {}});
      }
      DPtr dv = from_starlark(d->args[0], d->span);
      std::vector<TypeProblem> problems;
      check_and_fill(dv, *t, problems);
      if (!problems.empty()) {
        std::string out;
        for (const auto& p : problems) {
          SchemaProblem sp{
              "@schema/default is wrong type",
              p.unknown_key ? "Given data value is not declared in schema" : "",
              span.file,
              ann_lines(*d, span),
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
        t->validations = {with_int_lengths(a)};
        t->validation_span = a.span;
      } else if (a.name == "schema/desc" && !a.args.empty()) {
        t->edit_docs().desc =
            std::string(a.args[0].is(sl::Kind::kString) ? a.args[0].as_string() : a.args[0].str());
      } else if (a.name == "schema/title" && !a.args.empty()) {
        t->edit_docs().title =
            std::string(a.args[0].is(sl::Kind::kString) ? a.args[0].as_string() : a.args[0].str());
      } else if (a.name == "schema/deprecated") {
        if (is_doc) {
          throw_schema(files_, {"",
                                "@schema/deprecated not supported on a document",
                                span.file,
                                ann_lines(a, span),
                                "",
                                "",
                                {"do you mean to deprecate the entire schema document?",
                                 "use schema/deprecated on individual keys."}});
        }
        t->edit_docs().deprecated = a.args.empty() ? "" : a.args[0].str();
      } else if (a.name == "schema/examples") {
        for (const auto& ex : a.args) {
          auto items = ex.items();
          if (items.size() != 2) continue;
          DPtr val = from_starlark(items[1], a.span);
          std::vector<TypeProblem> problems;
          check_and_fill(val, *t, problems);
          if (!problems.empty()) {
            throw_schema(files_, {"@schema/examples has wrong type",
                                  "",
                                  span.file,
                                  ann_lines(a, span),
                                  problems[0].found + " (by " + pos_text(a.span) + ")",
                                  problems[0].expected + " (by " + pos_text(problems[0].by) + ")",
                                  {}});
          }
          t->edit_docs().examples.emplace_back(
              items[0].is(sl::Kind::kString) ? std::string(items[0].as_string()) : items[0].str(),
              val);
        }
      }
    }
    return t;
  }

  // ytt reads min_len/max_len as ints: a float bound counts as its integer part.
  static Ann with_int_lengths(Ann a) {
    for (auto& [k, v] : a.kwargs) {
      if ((k == "min_len" || k == "max_len") && v.is(sl::Kind::kFloat)) {
        v = sl::int_from_float(v.as_float()).value_or(v);
      }
    }
    return a;
  }

  static void check_validation(const Ann& a) {
    const std::string head = "\n  Invalid @schema/validation annotation - ";
    const std::string at = " (at " + pos_text(a.span) + ")";
    if (a.args.empty() && a.kwargs.empty()) {
      throw YttError{head +
                     "expected annotation to have 2-tuple as argument(s), but found no "
                     "arguments (by " +
                     pos_text(a.span) + ")"};
    }
    static const char* known[] = {"min",          "max",    "min_len", "max_len",       "not_null",
                                  "one_not_null", "one_of", "when",    "when_null_skip"};
    for (const auto& [k, v] : a.kwargs) {
      bool ok = false;
      for (const char* n : known) ok = ok || k == n;
      if (!ok) throw YttError{head + "unknown keyword argument \"" + k + "\"" + at};
      bool finite_float = v.is(sl::Kind::kFloat) && std::isfinite(v.as_float());
      if ((k == "min_len" || k == "max_len") && !v.is(sl::Kind::kInt) && !finite_float) {
        throw YttError{head + "expected keyword argument \"" + k + "\" to be a number, but was " +
                       std::string(v.type_name()) + at};
      }
      if (k == "one_of" &&
          !(v.is(sl::Kind::kList) || v.is(sl::Kind::kTuple) || v.is(sl::Kind::kSet))) {
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
        throw YttError{head +
                       "expected first item in the 2-tuple to be a string describing a "
                       "valid value, but was " +
                       std::string(items[0].type_name()) + at};
      }
      const sl::Value& f = items[1];
      if (!f.is(sl::Kind::kStruct) && !(f.is(sl::Kind::kFunction) || f.is(sl::Kind::kBuiltin))) {
        throw YttError{head +
                       "expected second item in the 2-tuple to be an assertion function, "
                       "but was " +
                       std::string(f.type_name()) + at};
      }
      const bool assertion = f.is(sl::Kind::kStruct) && f.attr("check").has_value();
      if (!(f.is(sl::Kind::kFunction) || f.is(sl::Kind::kBuiltin) || assertion)) {
        throw YttError{head +
                       "expected second item in tuple to be an assertion function or "
                       "assertion object, but was a " +
                       std::string(f.type_name()) + at};
      }
    }
  }

  static std::string expected_name(const SType& t) { return type_name(t.kind); }

  // The node's type for the shared checker, over its children's (already built) ones.
  static void build_checker(SType& t) {
    auto c = std::make_shared<types::Type>();
    c->kind = t.any ? types::Kind::kAny : t.kind;
    c->nullable = t.nullable;
    c->declared = t.declared;
    c->origin = &t;
    if (t.kind == types::Kind::kMap && !t.any) {
      c->fields.reserve(t.fields.size());
      std::string scratch;
      for (const auto& [k, ft] : t.fields)
        c->fields.emplace_back(std::string(checker_key(k, scratch)), ft->checker);
      c->index_fields();
    } else if (t.kind == types::Kind::kArray && t.item) {
      c->item = t.item->checker;
    }
    t.checker = std::move(c);
  }

 private:
  const Files& files_;
};

// A DNode tree as the shared checker walks it; `entry` is the map/array item holding `node`.
struct DView {
  const DNode* node;
  const DEntry* entry = nullptr;
  yaml::Kind kind() const { return node->kind; }
  size_t size() const { return node->entries.size(); }
  DView child(size_t i) const { return {node->entries[i].value.get(), &node->entries[i]}; }
  std::string_view key(size_t i, std::string& scratch) const {
    return checker_key(node->entries[i].key, scratch);
  }
};

// ytt's wording of one mismatch the checker found (`at` is where ytt points: the item's line).
TypeProblem problem_of(types::MismatchReason reason, const DView& at, const SType& type,
                       const diag::Span& root) {
  const diag::Span& span = at.entry ? at.entry->span : root;
  if (reason == types::MismatchReason::kNull) {
    return {span, span.file, false, "null", type_name(type.kind), type.declared, ""};
  }
  if (reason == types::MismatchReason::kWrongType) {
    return {span,
            span.file,
            false,
            std::string(ytt_type_name(at.node->kind)),
            type_name(type.kind),
            type.declared,
            ""};
  }
  const Scalar& key = at.entry->key;
  TypeProblem p{span, span.file, true, key_text(key), "", type.declared, ""};
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
  if (key.kind == yaml::Kind::kString) {
    if (auto n = similar_key(key.text, cands)) p.hint = "did you mean \"" + *n + "\"?";
  }
  return p;
}

// Adds the defaults a type-correct `v` lacks: missing map keys (appended, sharing the type's
// default) and, below arrays, the items' missing keys. `unique`: nobody else can reach `v`
// (then it is changed in place). Returns the replacement when `v` had to be copied first.
DPtr fill_defaults(const DPtr& v, const SType& t, bool unique) {
  if (t.any || v->is_null()) return nullptr;
  unique = unique && v.use_count() == 1;
  DNode* target = unique ? v.get() : nullptr;
  DPtr copy;
  auto writable = [&]() -> DNode& {
    if (!target) {
      copy = shallow_clone(*v);
      target = copy.get();
    }
    return *target;
  };
  if (t.kind == types::Kind::kMap && v->is_map()) {
    std::vector<char> seen(t.fields.size(), 0);
    std::string scratch;
    const size_t n = v->entries.size();
    for (size_t i = 0; i < n; ++i) {
      const DEntry& e = v->entries[i];
      const long fi = t.checker->field_index(checker_key(e.key, scratch));
      if (fi < 0) continue;
      seen[static_cast<size_t>(fi)] = 1;
      if (DPtr r = fill_defaults(e.value, *t.fields[static_cast<size_t>(fi)].second, unique)) {
        writable().entries[i].value = std::move(r);
      }
    }
    for (size_t fi = 0; fi < t.fields.size(); ++fi) {
      if (seen[fi]) continue;
      const auto& [k, ft] = t.fields[fi];
      DEntry de;
      de.key = k;
      de.value = ft->default_value;
      de.span = ft->declared;
      writable().entries.push_back(std::move(de));
    }
  } else if (t.kind == types::Kind::kArray && t.item && v->is_array()) {
    for (size_t i = 0; i < v->entries.size(); ++i) {
      if (DPtr r = fill_defaults(v->entries[i].value, *t.item, unique)) {
        writable().entries[i].value = std::move(r);
      }
    }
  }
  return copy;
}

}  // namespace

const std::shared_ptr<SType>* SType::field(const Scalar& key) const {
  if (checker) {
    std::string scratch;
    const long i = checker->field_index(checker_key(key, scratch));
    return i < 0 ? nullptr : &fields[static_cast<size_t>(i)].second;
  }
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

DPtr default_of(const SType& t) { return t.default_value; }

void check_and_fill(DPtr& value, const SType& type, std::vector<TypeProblem>& problems) {
  const size_t before = problems.size();
  const diag::Span& root = value->span;
  types::check_each(
      DView{value.get()}, *type.checker,
      [&](types::MismatchReason reason, const DView& at, const types::Type& t,
          const std::vector<types::PathStep>&) {
        problems.push_back(problem_of(reason, at, *static_cast<const SType*>(t.origin), root));
        return true;
      });
  if (problems.size() != before) return;  // ytt stops here; defaults would not be seen
  if (DPtr r = fill_defaults(value, type, true)) value = std::move(r);
}

}  // namespace hintkit::schema
