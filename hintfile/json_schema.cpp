// JSON Schemas (draft 2020-12) for editors and validators: one for a manifest's vars, built
// from a loaded hint, and one for the hint file format itself.
//
// How hint semantics map onto JSON Schema (README "JSON Schemas" lists what cannot map):
//   provided            present and not null: {"required": [v], "properties": {v: {"not": null}}}
//   string              any scalar: ["string", "number", "boolean"] (helmfile passes values typed)
//   slice / map         "array" / "object"
//   required            listed in "required", and "null" is not among its types
//   not required        "null" is allowed too (null means "not provided")
//   required_with       if any listed var is provided then this one is
//   required_without    if none of the listed vars is provided then this one is
//   oneof_required      anyOf: one of the vars is provided
//   format              only on non-empty strings; a `pattern` where the format is a regular
//                       language (email, uuid, semver, hostname), else the `format` keyword
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hintfile/hintfile.h"

namespace hintkit::hintfile {
namespace {

constexpr std::string_view kDialect = "https://json-schema.org/draft/2020-12/schema";

void put(yaml::Node& map, std::string key, yaml::Node value) {
  yaml::MapItem item;
  item.key = yaml::make_string(std::move(key));
  item.value = std::move(value);
  map.items.push_back(std::move(item));
}

yaml::Node strings(std::initializer_list<std::string_view> list) {
  yaml::Node a = yaml::make_array();
  for (std::string_view s : list) a.elements.push_back(yaml::make_string(std::string(s)));
  return a;
}

yaml::Node type_names(VarType t, bool nullable) {
  yaml::Node a = yaml::make_array();
  auto add = [&](std::string_view s) { a.elements.push_back(yaml::make_string(std::string(s))); };
  switch (t) {
    case VarType::kString:
      add("string");
      add("number");
      add("boolean");
      break;
    case VarType::kSlice:
      add("array");
      break;
    case VarType::kMap:
      add("object");
      break;
  }
  if (nullable) add("null");
  return a;
}

// The regular formats as patterns that mean exactly what formats::check accepts.
std::optional<std::string_view> format_pattern(formats::Format f) {
  switch (f) {
    case formats::Format::kEmail:
      return R"(^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$)";
    case formats::Format::kUuid:
      return "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
    case formats::Format::kSemver:
      return R"(^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*))"
             R"((-(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*)?)"
             R"((\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$)";
    case formats::Format::kHostname:
      return R"(^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$)";
    default:
      return std::nullopt;
  }
}

// The standard `format` name, where JSON Schema has one (validators treat it as an annotation
// unless asked to assert it; the pattern above is what asserts).
std::optional<std::string_view> json_schema_format(formats::Format f) {
  switch (f) {
    case formats::Format::kHostname:
      return "hostname";
    case formats::Format::kUrl:
      return "uri";
    case formats::Format::kEmail:
      return "email";
    case formats::Format::kUuid:
      return "uuid";
    case formats::Format::kDatetime:
      return "date-time";
    default:
      return std::nullopt;  // ip and cidr are handled below; semver has no name
  }
}

// {"type": "string", "minLength": 1}: the values a format applies to.
yaml::Node non_empty_string() {
  yaml::Node n = yaml::make_map();
  put(n, "type", yaml::make_string("string"));
  put(n, "minLength", yaml::make_int(1));
  return n;
}

yaml::Node format_check(formats::Format f) {
  yaml::Node then = yaml::make_map();
  if (auto name = json_schema_format(f)) put(then, "format", yaml::make_string(std::string(*name)));
  if (f == formats::Format::kIp) {
    yaml::Node families = yaml::make_array();
    for (std::string_view family : {"ipv4", "ipv6"}) {
      yaml::Node one = yaml::make_map();
      put(one, "format", yaml::make_string(std::string(family)));
      families.elements.push_back(std::move(one));
    }
    put(then, "anyOf", std::move(families));
  }
  if (auto p = format_pattern(f)) put(then, "pattern", yaml::make_string(std::string(*p)));
  put(then, "$comment", yaml::make_string("hintkit format " + std::string(formats::to_string(f))));
  yaml::Node n = yaml::make_map();
  put(n, "if", non_empty_string());
  put(n, "then", std::move(then));
  return n;
}

// Schema of "var `name` is provided" (present and not null).
yaml::Node provided(std::string_view name) {
  yaml::Node not_null = yaml::make_map();
  yaml::Node null_type = yaml::make_map();
  put(null_type, "type", yaml::make_string("null"));
  put(not_null, "not", std::move(null_type));
  yaml::Node props = yaml::make_map();
  put(props, std::string(name), std::move(not_null));
  yaml::Node n = yaml::make_map();
  put(n, "required", strings({name}));
  put(n, "properties", std::move(props));
  return n;
}

yaml::Node any_provided(const std::vector<Ref>& refs) {
  yaml::Node any = yaml::make_array();
  for (const Ref& r : refs) any.elements.push_back(provided(r.name));
  yaml::Node n = yaml::make_map();
  put(n, "anyOf", std::move(any));
  return n;
}

yaml::Node if_then(yaml::Node condition, yaml::Node consequence) {
  yaml::Node n = yaml::make_map();
  put(n, "if", std::move(condition));
  put(n, "then", std::move(consequence));
  return n;
}

yaml::Node var_schema(const Var& v) {
  yaml::Node n = yaml::make_map();
  if (v.type) put(n, "type", type_names(*v.type, !v.required));
  if (!v.description.empty()) put(n, "description", yaml::make_string(v.description));
  if (v.default_value) put(n, "default", *v.default_value);
  if (v.format) {
    yaml::Node all = yaml::make_array();
    all.elements.push_back(format_check(*v.format));
    put(n, "allOf", std::move(all));
  }
  return n;
}

}  // namespace

yaml::Node vars_json_schema(const HintFile& hint, std::string_view title) {
  yaml::Node root = yaml::make_map();
  put(root, "$schema", yaml::make_string(std::string(kDialect)));
  if (!title.empty()) put(root, "title", yaml::make_string(std::string(title)));
  put(root, "type", yaml::make_string("object"));
  yaml::Node props = yaml::make_map();
  yaml::Node required = yaml::make_array();
  yaml::Node all = yaml::make_array();
  for (const Var& v : hint.vars) {
    put(props, v.name, var_schema(v));
    if (!v.required_with.empty()) {
      all.elements.push_back(if_then(any_provided(v.required_with), provided(v.name)));
    }
    if (!v.required_without.empty()) {
      yaml::Node none = yaml::make_map();
      put(none, "not", any_provided(v.required_without));
      all.elements.push_back(if_then(std::move(none), provided(v.name)));
    }
    if (v.required) required.elements.push_back(yaml::make_string(v.name));
  }
  for (const Rule& r : hint.rules) {
    if (r.type != RuleType::kOneofRequired) continue;
    yaml::Node rule = any_provided(r.vars);
    if (!r.message.empty()) put(rule, "description", yaml::make_string(r.message));
    all.elements.push_back(std::move(rule));
  }
  put(root, "properties", std::move(props));
  if (!required.elements.empty()) put(root, "required", std::move(required));
  if (!all.elements.empty()) put(root, "allOf", std::move(all));
  // Vars the hint does not declare pass through unchanged.
  put(root, "additionalProperties", yaml::make_bool(true));
  return root;
}

namespace {

// The pieces of the hint file format's own schema, in the order hint_file_json_schema puts them
// together: the small field shapes, then a var declaration, a rule, the whole file.

yaml::Node object_schema() {
  yaml::Node n = yaml::make_map();
  put(n, "type", yaml::make_string("object"));
  return n;
}

// A Go string field as tazuna decodes it: numbers and bools arrive in their Go spelling,
// null leaves it unset.
yaml::Node go_string_field(std::string_view description) {
  yaml::Node n = yaml::make_map();
  yaml::Node types = yaml::make_array();
  for (const char* t : {"string", "number", "boolean", "null"}) {
    types.elements.push_back(yaml::make_string(t));
  }
  put(n, "type", std::move(types));
  put(n, "description", yaml::make_string(std::string(description)));
  return n;
}

yaml::Node enum_field(const std::vector<std::string_view>& values, std::string_view description) {
  yaml::Node n = yaml::make_map();
  yaml::Node e = yaml::make_array();
  for (std::string_view v : values) e.elements.push_back(yaml::make_string(std::string(v)));
  put(n, "enum", std::move(e));
  put(n, "description", yaml::make_string(std::string(description)));
  return n;
}

yaml::Node var_name_list(std::string_view description) {
  yaml::Node n = yaml::make_map();
  put(n, "type", yaml::make_string("array"));
  // A name YAML 1.1 reads as a bool or number names the var of its Go spelling (on: "true").
  yaml::Node items = yaml::make_map();
  yaml::Node types = yaml::make_array();
  for (const char* t : {"string", "number", "boolean"}) {
    types.elements.push_back(yaml::make_string(t));
  }
  put(items, "type", std::move(types));
  put(n, "items", std::move(items));
  put(n, "description", yaml::make_string(std::string(description)));
  return n;
}

// `x-` keys are free for editors' and tools' own use.
yaml::Node extension_properties() {
  yaml::Node n = yaml::make_map();
  put(n, "^x-", yaml::make_map());
  return n;
}

// The keys a var declaration may have.
yaml::Node var_properties() {
  std::vector<std::string_view> format_names(formats::names().begin(), formats::names().end());
  format_names.insert(format_names.begin(), "");

  yaml::Node vprops = yaml::make_map();
  put(vprops, "type",
      enum_field({"string", "slice", "map"}, "string: any scalar; slice: a list; map: a mapping"));
  yaml::Node required = yaml::make_map();
  yaml::Node bool_or_null = yaml::make_array();
  bool_or_null.elements.push_back(yaml::make_string("boolean"));
  bool_or_null.elements.push_back(yaml::make_string("null"));  // null leaves it false
  put(required, "type", std::move(bool_or_null));
  put(required, "description", yaml::make_string("the var must be provided (not null)"));
  put(vprops, "required", std::move(required));
  yaml::Node default_schema = yaml::make_map();
  put(default_schema, "description",
      yaml::make_string("injected when the var is not provided; has the var's type"));
  put(vprops, "default", std::move(default_schema));
  put(vprops, "description", go_string_field("what the var is for"));
  yaml::Node format =
      enum_field(format_names, "checked on non-empty string values; \"\" or null: none");
  format.find("enum")->value.elements.push_back(yaml::make_null());
  put(vprops, "format", std::move(format));
  put(vprops, "required_with", var_name_list("required when any of these vars is provided"));
  put(vprops, "required_without", var_name_list("required when none of these vars is provided"));
  return vprops;
}

// `required: true` excludes `default` and the conditional requirements.
yaml::Node required_excludes_conditions() {
  yaml::Node when_required = yaml::make_map();
  yaml::Node rp = yaml::make_map();
  yaml::Node is_true = yaml::make_map();
  put(is_true, "const", yaml::make_bool(true));
  put(rp, "required", std::move(is_true));
  put(when_required, "properties", std::move(rp));
  put(when_required, "required", strings({"required"}));
  yaml::Node forbid = yaml::make_map();
  yaml::Node any_of = yaml::make_array();
  for (std::string_view k : {"default", "required_with", "required_without"}) {
    yaml::Node r = yaml::make_map();
    put(r, "required", strings({k}));
    any_of.elements.push_back(std::move(r));
  }
  yaml::Node any = yaml::make_map();
  put(any, "anyOf", std::move(any_of));
  put(forbid, "not", std::move(any));
  return if_then(std::move(when_required), std::move(forbid));
}

// A var that is not a string has no format, or `format: ""` / `format: null` (both mean none).
yaml::Node format_only_on_strings() {
  yaml::Node not_a_string = yaml::make_map();
  yaml::Node fp = yaml::make_map();
  yaml::Node not_string = yaml::make_map();
  yaml::Node string_const = yaml::make_map();
  put(string_const, "const", yaml::make_string("string"));
  put(not_string, "not", std::move(string_const));
  put(fp, "type", std::move(not_string));
  put(not_a_string, "properties", std::move(fp));
  put(not_a_string, "required", strings({"type"}));
  yaml::Node no_format = yaml::make_map();
  yaml::Node nfp = yaml::make_map();
  yaml::Node empty_format = yaml::make_map();
  yaml::Node none = yaml::make_array();
  none.elements.push_back(yaml::make_string(""));
  none.elements.push_back(yaml::make_null());
  put(empty_format, "enum", std::move(none));
  put(nfp, "format", std::move(empty_format));
  put(no_format, "properties", std::move(nfp));
  return if_then(std::move(not_a_string), std::move(no_format));
}

// A default has the var's type (a string var's default is a string, not any scalar): one
// condition for the var type `type_name`, whose default is a JSON `json_type` or null.
yaml::Node default_has_var_type(std::string_view type_name, std::string_view json_type) {
  yaml::Node is_type = yaml::make_map();
  yaml::Node tp = yaml::make_map();
  yaml::Node type_const = yaml::make_map();
  put(type_const, "const", yaml::make_string(std::string(type_name)));
  put(tp, "type", std::move(type_const));
  put(is_type, "properties", std::move(tp));
  put(is_type, "required", strings({"type"}));
  yaml::Node default_type = yaml::make_map();
  yaml::Node dp = yaml::make_map();
  yaml::Node json_type_node = yaml::make_map();
  yaml::Node types = yaml::make_array();
  types.elements.push_back(yaml::make_string(std::string(json_type)));
  types.elements.push_back(yaml::make_string("null"));  // `default: null` is no default
  put(json_type_node, "type", std::move(types));
  put(dp, "default", std::move(json_type_node));
  put(default_type, "properties", std::move(dp));
  return if_then(std::move(is_type), std::move(default_type));
}

// One entry of `vars`: its keys, then the conditions between them.
yaml::Node var_declaration_schema() {
  yaml::Node var = object_schema();
  put(var, "description", yaml::make_string("A var the helmfile manifest expects"));
  put(var, "properties", var_properties());
  put(var, "required", strings({"type"}));
  put(var, "patternProperties", extension_properties());
  put(var, "additionalProperties", yaml::make_bool(false));
  yaml::Node all = yaml::make_array();
  all.elements.push_back(required_excludes_conditions());
  all.elements.push_back(format_only_on_strings());
  for (auto [type_name, json_type] :
       {std::pair{"string", "string"}, std::pair{"slice", "array"}, std::pair{"map", "object"}}) {
    all.elements.push_back(default_has_var_type(type_name, json_type));
  }
  put(var, "allOf", std::move(all));
  return var;
}

// One entry of `rules`.
yaml::Node rule_schema() {
  yaml::Node rule = object_schema();
  yaml::Node rprops = yaml::make_map();
  put(rprops, "type", enum_field({"oneof_required"}, "at least one of vars must be provided"));
  yaml::Node rvars = var_name_list("two or more distinct declared vars");
  put(rvars, "minItems", yaml::make_int(2));
  put(rvars, "uniqueItems", yaml::make_bool(true));
  put(rprops, "vars", std::move(rvars));
  put(rprops, "message", go_string_field("shown when the rule is violated"));
  put(rule, "properties", std::move(rprops));
  put(rule, "required", strings({"type", "vars"}));
  put(rule, "patternProperties", extension_properties());
  put(rule, "additionalProperties", yaml::make_bool(false));
  return rule;
}

}  // namespace

yaml::Node hint_file_json_schema() {
  yaml::Node root = object_schema();
  put(root, "$schema", yaml::make_string(std::string(kDialect)));
  put(root, "title", yaml::make_string("tazuna.hint.yaml"));
  put(root, "description",
      yaml::make_string("The vars a helmfile manifest expects (tazuna hint file)"));
  yaml::Node props = yaml::make_map();
  put(props, "apiVersion", go_string_field("not validated"));
  put(props, "kind", go_string_field("not validated"));
  yaml::Node vars = object_schema();
  put(vars, "additionalProperties", var_declaration_schema());
  put(vars, "description", yaml::make_string("var name -> declaration; may be {}"));
  put(props, "vars", std::move(vars));
  yaml::Node rules = yaml::make_map();
  put(rules, "type", yaml::make_string("array"));
  put(rules, "items", rule_schema());
  put(props, "rules", std::move(rules));
  put(root, "properties", std::move(props));
  put(root, "required", strings({"vars"}));
  put(root, "patternProperties", extension_properties());
  put(root, "additionalProperties", yaml::make_bool(false));
  return root;
}

}  // namespace hintkit::hintfile
