// Schema documents -> `SType` trees (types, defaults, validations, documentation), and the
// type check + defaulting of data values against them: the check is the shared checker's
// (`types::check_each` in `types::Order::kShapesFirst`, ytt's two passes) over a view of the
// engine's value tree (`DView`); this file words and places what it finds as ytt does.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>

#include "diag/diag.h"
#include "gocompat/gocompat.h"
#include "ytt/schema/schema.h"
#include "ytt/template/template.h"

namespace hintkit::ytt {

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

// ---- One function per schema annotation (ytt's pkg/schema/annotations.go) --------------------
//
// Each checks its annotation's arguments and throws ytt's "Invalid schema" error when they are
// wrong; the caller decides what the annotation means for the type.

[[noreturn]] void invalid_schema(const Files& files, SchemaAssertion a) {
  throw_schema(files, {.summary = "Invalid schema", .failures = {std::move(a)}});
}

SchemaAssertion about(const Ann& a, const diag::Span& node, std::string description,
                      std::string found, std::string expected,
                      std::vector<std::string> hints = {}) {
  return {.ann_positions = {a.span},
          .position = node,
          .description = std::move(description),
          .found = std::move(found),
          .expected = std::move(expected),
          .hints = std::move(hints)};
}

// `@schema/type any=True|False`: the value of `any`.
bool type_annotation(const Files& files, const Ann& a, const diag::Span& node) {
  const std::string by = " (by " + pos_text(a.span) + ")";
  if (a.kwargs.empty()) {
    invalid_schema(
        files, about(a, node, "expected @schema/type annotation to have keyword argument and value",
                     "missing keyword argument and value" + by, "valid keyword argument and value",
                     {"Supported key-value pairs are 'any=True', 'any=False'"}));
  }
  bool any = false;
  for (const auto& [name, value] : a.kwargs) {
    if (name != "any") {
      invalid_schema(files, about(a, node, "unknown @schema/type annotation keyword argument",
                                  name + by, "A valid kwarg", {"Supported kwargs are 'any'"}));
    }
    if (!value.is_bool()) {
      invalid_schema(
          files, about(a, node, "unknown @schema/type annotation keyword argument",
                       go_type_name(value) + by, "starlark.Bool", {"Supported kwargs are 'any'"}));
    }
    any = value.as_bool();
  }
  return any;
}

// `@schema/nullable`: takes no keyword arguments (positional ones are ignored, as in ytt).
void nullable_annotation(const Files& files, const Ann& a, const diag::Span& node) {
  if (a.kwargs.empty()) return;
  invalid_schema(
      files,
      about(a, node, "expected @schema/nullable annotation to not contain any keyword arguments",
            "keyword argument in @schema/nullable (by " + pos_text(a.span) + ")", "starlark.Bool",
            {"Supported kwargs are 'any'"}));
}

// The shared checks of annotations that take exactly one value: no keyword arguments, one
// positional argument. `expected` is what the argument should be.
const sl::Value& single_argument(const Files& files, const Ann& a, const diag::Span& node,
                                 const std::string& expected,
                                 std::vector<std::string> kwarg_hints) {
  const std::string name = "@" + a.name;
  const std::string description = "syntax error in " + name + " annotation";
  const std::string by = " (by " + pos_text(a.span) + ")";
  if (!a.kwargs.empty()) {
    invalid_schema(files, about(a, node, description, "keyword argument in " + name + by, expected,
                                std::move(kwarg_hints)));
  }
  if (a.args.empty()) {
    invalid_schema(files, about(a, node, description, "missing value in " + name + by, expected));
  }
  if (a.args.size() > 1) {
    invalid_schema(files,
                   about(a, node, description,
                         std::to_string(a.args.size()) + " values in " + name + by, expected));
  }
  return a.args[0];
}

// `@schema/desc`, `@schema/title` and `@schema/deprecated`: one string.
std::string string_annotation(const Files& files, const Ann& a, const diag::Span& node) {
  const sl::Value& v = single_argument(files, a, node, "string",
                                       {"this annotation only accepts one argument: a string."});
  if (!v.is(sl::Kind::kString)) {
    invalid_schema(files, about(a, node, "syntax error in @" + a.name + " annotation",
                                "Non-string value in @" + a.name + " (by " + pos_text(a.span) + ")",
                                "string"));
  }
  return std::string(v.as_string());
}

// `@schema/default`: one value, in Starlark. `effective` names the node's type for messages.
const sl::Value& default_annotation(const Files& files, const Ann& a, const diag::Span& node,
                                    const std::string& effective) {
  return single_argument(files, a, node, effective,
                         {"this annotation only accepts one argument: the default value.",
                          "value must be in Starlark format, e.g.: {'key': 'value'}, True."});
}

// `@schema/examples`: one or more (description, value) tuples.
std::vector<std::pair<std::string, sl::Value>> examples_annotation(const Files& files, const Ann& a,
                                                                   const diag::Span& node) {
  const std::string description = "syntax error in @schema/examples annotation";
  const std::string expected =
      "2-tuple containing description (string) and example value (of expected type)";
  const std::string by = " (by " + pos_text(a.span) + ")", at = " (at " + pos_text(a.span) + ")";
  auto fail = [&](std::string found) {
    invalid_schema(files, about(a, node, description, std::move(found), expected));
  };
  if (!a.kwargs.empty()) fail("keyword argument in @schema/examples" + by);
  if (a.args.empty()) fail("missing value in @schema/examples" + by);
  std::vector<std::pair<std::string, sl::Value>> out;
  for (const auto& ex : a.args) {
    if (!ex.is(sl::Kind::kTuple)) {
      fail(std::string(ex.type_name()) + " for @schema/examples" + at);
    }
    const auto items = ex.items();
    if (items.size() < 2) fail("empty tuple in @schema/examples" + by);
    if (items.size() > 2) {
      fail(std::to_string(items.size()) + "-tuple argument in @schema/examples" + by);
    }
    if (!items[0].is(sl::Kind::kString)) {
      fail(std::string(items[0].type_name()) + " value for @schema/examples" + at);
    }
    out.emplace_back(std::string(items[0].as_string()), items[1]);
  }
  return out;
}

// ---- Schema documents -> types (ytt's pkg/schema/schema.go) ----------------------------------

// Where a schema node stands: what `@schema/default` and `@schema/deprecated` allow.
enum class Place { kDocument, kMapItem, kArrayItem };

std::string go_printed(const DNode& n, char verb, int depth);

class Inferrer {
 public:
  explicit Inferrer(const Files& files) : files_(files) {}

  // The type of one node (document, map item or array item) holding `v`: its type, then its
  // default value, then its validation, in ytt's order (so the first problem ytt reports is
  // the one reported here). `unique`: `v` and every node above it are held by the tree
  // alone (see `from_value`).
  TypePtr infer(const DPtr& v, const std::vector<Ann>& anns, const diag::Span& span, Place place,
                bool unique = false) {
    TypePtr t = type_of(v, anns, span, place, unique);
    set_default(*t, anns, span, place);
    if (const Ann* a = find_ann(anns, "schema/validation")) {
      if (auto problem = validation_args_problem(*a)) {
        const std::string text = "Invalid @schema/validation annotation - " + *problem;
        throw YttError{" " + text, 1, text};  // one line, laid out when printed
      }
      t->validations.clear();
      t->validations.push_back(*a);
    }
    return t;
  }

 private:
  // ytt's getType: type annotations first, else the type the value implies; then the checks
  // the value must pass under that type; then the documentation annotations.
  TypePtr type_of(const DPtr& v, const std::vector<Ann>& anns, const diag::Span& span, Place place,
                  bool unique) {
    const Ann* type_ann = find_ann(anns, "schema/type");
    const Ann* nullable = find_ann(anns, "schema/nullable");
    const bool any = type_ann && type_annotation(files_, *type_ann, span);
    if (nullable) nullable_annotation(files_, *nullable, span);
    TypePtr t;
    if (any) {
      t = std::make_shared<SType>();
      t->kind = types::Kind::kAny;
      t->default_value = v;
      t->declared = span;
      reject_schema_annotations_within(*v);
    } else if (nullable && !v->is_null()) {
      // ytt infers the value's type inside the nullable annotation's own type: what goes
      // wrong there is quoted by an "Invalid schema" error of its own.
      try {
        t = from_value(v, span, unique);
      } catch (const YttError& e) {
        throw_schema(files_, {.summary = "Invalid schema",
                              .misc = (e.raw.empty() ? e.message() : e.raw) + " \n"});
      }
    } else {
      t = from_value(v, span, unique);
    }
    if (nullable) {
      t->nullable = true;
      t->default_value = make_node(yaml::Kind::kNull, span);
    }
    if (t->kind == types::Kind::kMap) t->index_fields();
    document(*t, anns, span, place);
    return t;
  }

  // The type a value implies (ytt's InferTypeFromValue), children first. A map's default is
  // the map with each value replaced by its default and no annotations: `unique` (nobody but
  // the tree holds `v` or a node above it) lets the schema's own map node become that
  // default in place, so a large schema is not held twice.
  TypePtr from_value(const DPtr& v, const diag::Span& span, bool unique = false) {
    if (v->from_code && !v->is_scalar()) {
      // ytt keeps a dict or list that Starlark put here as Go data, which has no schema type.
      std::string msg = "Expected value '" + go_printed(*v, 's', 0) +
                        "' to be a map, array, or scalar, but was " +
                        (v->is_map() ? gocompat::kOrderedMapType : gocompat::kSliceType);
      throw YttError{" " + msg, 1, msg};
    }
    auto t = std::make_shared<SType>();
    t->declared = span;
    switch (v->kind) {
      case yaml::Kind::kMap: {
        t->kind = types::Kind::kMap;
        const bool in_place = unique && v.use_count() == 1;
        DPtr def = in_place ? v : make_node(yaml::Kind::kMap, v->span);
        if (!in_place) def->entries.reserve(v->entries.size());
        t->fields.reserve(v->entries.size());
        for (size_t i = 0; i < v->entries.size(); ++i) {
          const DEntry& e = v->entries[i];
          auto ft = infer(e.value, e.anns.get(), e.span, Place::kMapItem, in_place);
          if (in_place) {
            DEntry& own_entry = v->entries[i];
            own_entry.value = ft->default_value;
            own_entry.key_node = nullptr;
            own_entry.anns.clear();
          } else {
            DEntry de;
            de.key = e.key;
            de.value = ft->default_value;
            de.span = e.span;
            def->entries.push_back(std::move(de));
          }
          t->add_field(e.key, std::move(ft));
        }
        t->default_value = std::move(def);
        break;
      }
      case yaml::Kind::kArray: {
        t->kind = types::Kind::kArray;
        if (v->entries.size() != 1) {
          throw_schema(files_,
                       {.summary = "Invalid schema - wrong number of items in array definition",
                        .failures = {{.position = span,
                                      .found = std::to_string(v->entries.size()) + " array items",
                                      .expected = "exactly 1 array item, of the desired type",
                                      .hints = {"in schema, the one item of the array implies the "
                                                "type of its elements.",
                                                "in schema, the default value for an array is "
                                                "always an empty list.",
                                                "default values can be overridden via a data "
                                                "values overlay."}}}});
        }
        const DEntry& e = v->entries[0];
        t->item =
            infer(e.value, e.anns.get(), e.span, Place::kArrayItem, unique && v.use_count() == 1);
        t->default_value = make_node(yaml::Kind::kArray, v->span);
        break;
      }
      case yaml::Kind::kNull:
        throw_schema(files_,
                     {.summary = "Invalid schema - null value not allowed here",
                      .failures = {{.position = span,
                                    .found = "null value",
                                    .expected = "non-null value",
                                    .hints = {"in YAML, omitting a value implies null.",
                                              "to set the default value to null, annotate with "
                                              "@schema/nullable.",
                                              "to allow any value, annotate with @schema/type "
                                              "any=True."}}}});
      default:
        t->kind = kind_of(v->kind);
        t->default_value = v;
    }
    return t;
  }

  // An "any type" fragment has no constraints: type annotations within it are refused.
  void reject_schema_annotations_within(const DNode& v) {
    for (const auto& e : v.entries) {
      SchemaAssertion a{.position = e.span};
      std::string found;
      for (const char* name : {"schema/nullable", "schema/type", "schema/default"}) {
        if (const Ann* ann = find_ann(e.anns.get(), name)) {
          found += (found.empty() ? "@" : ", @") + std::string(name);
          a.ann_positions.push_back(ann->span);
        }
      }
      if (!found.empty()) {
        a.description = "Schema was specified within an \"any type\" fragment";
        a.found = found + " annotation(s)";
        a.expected = "no '@schema/...' on nodes within a node annotated '@schema/type any=True'";
        a.hints = {
            "an \"any type\" fragment has no constraints; nested schema annotations conflict "
            "and are disallowed"};
        invalid_schema(files_, std::move(a));
      }
      reject_schema_annotations_within(*e.value);
    }
  }

  // ytt's collectDocumentationAnnotations + setDocumentationFromAnns.
  void document(SType& t, const std::vector<Ann>& anns, const diag::Span& span, Place place) {
    const Ann* desc = find_ann(anns, "schema/desc");
    const Ann* title = find_ann(anns, "schema/title");
    const Ann* examples = find_ann(anns, "schema/examples");
    const Ann* deprecated = find_ann(anns, "schema/deprecated");
    std::optional<std::string> desc_text, title_text, notice;
    std::vector<std::pair<std::string, sl::Value>> example_values;
    if (desc) desc_text = string_annotation(files_, *desc, span);
    if (title) title_text = string_annotation(files_, *title, span);
    if (examples) example_values = examples_annotation(files_, *examples, span);
    if (deprecated) {
      if (place == Place::kDocument) {
        invalid_schema(files_, about(*deprecated, span,
                                     "@schema/deprecated not supported on a document", "", "",
                                     {"do you mean to deprecate the entire schema document?",
                                      "use schema/deprecated on individual keys."}));
      }
      notice = string_annotation(files_, *deprecated, span);
    }
    if (desc_text) t.edit_docs().desc = std::move(desc_text);
    if (title_text) t.edit_docs().title = std::move(title_text);
    if (examples) {
      SchemaError wrong{.summary = "Invalid schema - @schema/examples has wrong type"};
      std::vector<std::pair<std::string, DPtr>> values;
      for (const auto& [text, value] : example_values) {
        DPtr val = from_starlark(value, span, InnerSpan::kSame);
        make_yaml_nodes(*val);  // as ytt reads it (NewASTFromInterfaceWithPosition)
        DPtr checked = val;  // checked only: ytt shows an example as written, without defaults
        std::vector<TypeProblem> problems;
        check_and_fill(checked, t, problems);
        for (const auto& p : problems)
          wrong.failures.push_back(assertion_of(p, &examples->span, "by"));
        values.emplace_back(text, std::move(val));
      }
      if (!wrong.failures.empty()) throw_schema(files_, wrong);
      t.edit_docs().examples = std::move(values);
    }
    if (notice) t.edit_docs().deprecated = std::move(notice);
  }

  // ytt's getValue: `@schema/default` replaces the default the type implies.
  void set_default(SType& t, const std::vector<Ann>& anns, const diag::Span& span, Place place) {
    const Ann* d = find_ann(anns, "schema/default");
    if (!d) return;
    if (place == Place::kArrayItem) {
      SchemaError inner{
          .summary = "Invalid schema - @schema/default not supported on array item",
          .failures = {{.ann_positions = {d->span},
                        .position = span,
                        .hints = {"do you mean to set a default value for the array?",
                                  "set an array's default by annotating its parent."}}}};
      throw_schema(files_, {.summary = "Invalid schema", .misc = render(files_, inner) + " \n"});
    }
    const sl::Value& value = default_annotation(
        files_, *d, span, expected_name(t) + " (by " + pos_text(t.declared) + ")");
    DPtr dv = from_starlark(value, span, InnerSpan::kSame);
    make_yaml_nodes(*dv);  // ytt reads the default as YAML nodes (NewASTFromInterfaceWithPosition)
    std::vector<TypeProblem> problems;
    check_and_fill(dv, t, problems);
    if (!problems.empty()) {
      SchemaError wrong{.summary = "Invalid schema - @schema/default is wrong type"};
      for (const auto& p : problems) wrong.failures.push_back(assertion_of(p, &d->span, "at"));
      throw_schema(files_, wrong);
    }
    t.default_value = dv;
  }

  // How ytt names a type in messages (its `String()`).
  static std::string expected_name(const SType& t) {
    if (t.any()) return "any";
    if (t.nullable) return "null";
    return type_name(t.kind);
  }

  const Files& files_;
};

// A place in a flag's text rather than in a file (the engine's pseudo sources).
bool in_flag_text(const diag::Span& s) { return s.file.str().starts_with('\x01'); }

}  // namespace

namespace {

// How Go's fmt prints a value that ytt holds as Go data (an ordered map is a pointer to a
// struct of {Key Value} items, a list an []interface{}), with verb %s or %v. A map below the
// first level is printed by %v as its address, which no one can reproduce: refused.
std::string go_printed(const DNode& n, char verb, int depth) {
  auto wrong = [&](const std::string& type, const std::string& v) {
    return verb == 's' ? "%!s(" + type + "=" + v + ")" : v;
  };
  switch (n.kind) {
    case yaml::Kind::kNull:
      return "<nil>";
    case yaml::Kind::kString:
      return n.scalar.text;
    case yaml::Kind::kBool:
      return wrong("bool", n.scalar.bool_value ? "true" : "false");
    case yaml::Kind::kInt:
      return wrong("int64", std::to_string(n.scalar.int_value));
    case yaml::Kind::kFloat:
      return wrong("float64", gocompat::format_float(n.scalar.float_value, 'g'));
    case yaml::Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < n.entries.size(); ++i) {
        out += (i ? " " : "") + go_printed(*n.entries[i].value, verb, depth + 1);
      }
      return out + "]";
    }
    case yaml::Kind::kMap: {
      if (depth > 0 && verb == 'v') throw Unsupported{"printing a nested Starlark dict as Go does"};
      // a pointer below the top is printed by %s as a bad verb, its value by %v
      if (depth > 0)
        return "%!s(" + std::string(gocompat::kOrderedMapType) + "=" + go_printed(n, 'v', 0) + ")";
      std::string out = "&{[";
      for (size_t i = 0; i < n.entries.size(); ++i) {
        const DEntry& e = n.entries[i];
        DNode key;
        key.kind = e.key.kind;
        key.scalar = e.key;
        out += std::string(i ? " " : "") + "{" + go_printed(key, verb, 1) + " " +
               go_printed(*e.value, verb, 1) + "}";
      }
      return out + "]}";
    }
  }
  return "";
}

// ytt's wording of a value of the wrong type at `at`.
TypeProblem mismatch(const diag::Span& at, const DNode& found, const SType& type) {
  return {at,
          at.file,
          false,
          std::string(ytt_type_name(found.kind)),
          type_name(type.kind),
          type.declared,
          ""};
}

// ytt's wording of a key the map type does not declare.
TypeProblem unknown_key(const DEntry& e, const SType& type) {
  TypeProblem p{e.span, e.span.file, true, key_text(e.key), "", type.declared, ""};
  std::vector<std::string> names;
  for (size_t i = 0; i < type.fields.size(); ++i) names.push_back(go_key_text(type.key(i)));
  std::sort(names.begin(), names.end());
  if (names.size() == 1) {
    p.expected = "a map item with the key named \"" + names[0] + "\"";
  } else if (names.size() > 1 && names.size() <= 9) {  // ytt: Miller's Law
    p.expected = "one of {";
    for (size_t i = 0; i < names.size(); ++i) p.expected += (i ? ", " : " ") + names[i];
    p.expected += " }";
  } else {
    p.expected = "a key declared in map";
  }
  if (std::string n = diag::go_spell_nearest(p.found, names); !n.empty()) {
    p.hint = "did you mean \"" + n + "\"?";
  }
  return p;
}

// How the shared type checker (types::check_each) sees a data value: the node and the item
// that holds it (null for the document's own value). Keys are spelled as `SType` keys them.
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

// A mismatch the checker found, worded and placed as ytt does. ytt checks in two passes
// (types::Order::kShapesFirst): a map or array of the wrong kind is reported at its own
// position, which in a file is its item's line, except that a value parsed from a flag's text
// keeps the place of that parse (the item is the flag), and a map a flag builds for its key
// path has no place at all; a scalar or null at its item's line; an unknown key at its item.
// `root`: where the document's own value is reported.
TypeProblem ytt_problem(types::MismatchReason reason, const DView& at, const types::Type& type,
                        const diag::Span& root) {
  const SType& t = SType::of(type);
  if (reason == types::MismatchReason::kUnknownKey) return unknown_key(*at.entry, t);
  const DNode& v = *at.node;
  const diag::Span& item = at.entry ? at.entry->span : root;
  const bool own = !v.is_scalar() && (in_flag_text(v.span) || is_no_position(v.span));
  return mismatch(own ? v.span : item, v, t);
}

// Adds the defaults a type-correct `v` lacks: missing map keys (appended, sharing the type's
// default) and, below arrays, the items' missing keys. `unique`: nobody else can reach `v`
// (then it is changed in place). Returns the replacement when `v` had to be copied first.
DPtr fill_defaults(const DPtr& v, const SType& t, bool unique) {
  if (t.any() || v->is_null()) return nullptr;
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
    const size_t n = v->entries.size();
    for (size_t i = 0; i < n; ++i) {
      const DEntry& e = v->entries[i];
      const long fi = t.field_index(e.key);
      if (fi < 0) continue;
      seen[static_cast<size_t>(fi)] = 1;
      if (DPtr r = fill_defaults(e.value, t.field_type(static_cast<size_t>(fi)), unique)) {
        writable().entries[i].value = std::move(r);
      }
    }
    for (size_t fi = 0; fi < t.fields.size(); ++fi) {
      if (seen[fi]) continue;
      const SType& ft = t.field_type(fi);
      DEntry de;
      de.key = t.key(fi);
      de.value = ft.default_value;
      de.span = ft.declared;
      writable().entries.push_back(std::move(de));
    }
  } else if (t.kind == types::Kind::kArray && t.item && v->is_array()) {
    for (size_t i = 0; i < v->entries.size(); ++i) {
      if (DPtr r = fill_defaults(v->entries[i].value, *t.item_type(), unique)) {
        writable().entries[i].value = std::move(r);
      }
    }
  }
  return copy;
}

}  // namespace

const SType* SType::field(const Scalar& key) const {
  const long i = field_index(key);
  return i < 0 ? nullptr : &field_type(static_cast<size_t>(i));
}

long SType::field_index(const Scalar& key) const {
  std::string scratch;
  return field_index(checker_key(key, scratch));
}

void SType::add_field(Scalar key, std::shared_ptr<const SType> type) {
  std::string scratch;
  std::string spelled(checker_key(key, scratch));
  // Kept out of `keys` only when `key(i)` gives it back exactly: every field of Scalar.
  const Scalar plain = string_scalar(spelled);
  const bool is_plain =
      key.kind == plain.kind && key.style == plain.style && key.bool_value == plain.bool_value &&
      key.is_unsigned == plain.is_unsigned && key.from_code == plain.from_code &&
      key.int_value == plain.int_value &&
      std::bit_cast<uint64_t>(key.float_value) == std::bit_cast<uint64_t>(plain.float_value) &&
      key.text == plain.text;
  if (!is_plain && keys.empty()) {
    for (const types::Field& f : fields) keys.push_back(string_scalar(f.key));
  }
  if (!is_plain || !keys.empty()) keys.push_back(std::move(key));
  fields.emplace_back(std::move(spelled), std::move(type));
}

TypePtr infer_document(const DDoc& doc, const Files& files) {
  Inferrer inf(files);
  std::vector<Ann> anns;
  for (const auto& a : doc.anns)
    if (a.name.rfind("schema/", 0) == 0) anns.push_back(a);
  return inf.infer(doc.value, anns, doc.span, Place::kDocument);
}

TypePtr infer_document(DDoc&& doc, const Files& files) {
  Inferrer inf(files);
  std::vector<Ann> anns;
  for (const auto& a : doc.anns)
    if (a.name.rfind("schema/", 0) == 0) anns.push_back(a);
  return inf.infer(doc.value, anns, doc.span, Place::kDocument, true);
}

DPtr default_of(const SType& t) { return t.default_value; }

void check_and_fill(DPtr& value, const SType& type, std::vector<TypeProblem>& problems,
                    const diag::Span* doc) {
  const diag::Span& root = doc ? *doc : value->span;
  const bool fits = types::check_each(
      DView{value.get()}, type,
      [&](types::MismatchReason reason, const DView& at, const types::Type& t,
          const std::vector<types::PathStep>&) {
        problems.push_back(ytt_problem(reason, at, t, root));
        return true;
      },
      types::Order::kShapesFirst);
  if (!fits) return;  // ytt stops here; defaults would not be seen
  if (DPtr r = fill_defaults(value, type, true)) value = std::move(r);
}

}  // namespace hintkit::ytt
