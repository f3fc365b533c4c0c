#include "hintfile/check.h"

#include <unordered_set>

namespace hintkit::hintfile {
namespace {

// The declared names, built on first use: only unknown references need them.
class Names {
 public:
  explicit Names(const HintFile& hint) : hint_(hint) {}
  std::optional<std::string> nearest(std::string_view name) {
    if (!names_) names_ = hint_.var_names();
    return diag::nearest(name, *names_);
  }

 private:
  const HintFile& hint_;
  std::optional<std::vector<std::string>> names_;
};

using diag::in_quotes;

std::string var_path(const Var& v, std::string_view field) {
  return types::join_path(types::join_path("vars", v.name), field);
}

void check_refs(const HintFile& hint, const Var& v, const std::vector<Ref>& refs,
                std::string_view field, Names& names, diag::Diagnostics& diags) {
  for (size_t i = 0; i < refs.size(); ++i) {
    const Ref& r = refs[i];
    const std::string path = types::index_path(var_path(v, field), i);
    if (!hint.find(r.name)) {
      auto& d = diags.error("HK109", r.span,
                            "var " + in_quotes(v.name) + " has " + std::string(field) +
                                " referencing non-existent var " + in_quotes(r.name),
                            path);
      if (auto n = names.nearest(r.name)) {
        d.hints.push_back("did you mean \"" + *n + "\"?");
      }
    } else if (r.name == v.name && field == "required_with") {
      auto& d = diags.warning("HK116", r.span,
                              "var " + in_quotes(v.name) +
                                  " lists itself in required_with, which never requires anything",
                              path);
      d.hints.push_back("remove it, or use `required: true`");
    }
  }
}

void check_default(const Var& v, diag::Diagnostics& diags) {
  if (!v.default_value || !v.type) return;
  const yaml::Node& def = *v.default_value;
  const std::string path = var_path(v, "default");
  bool ok = true;
  switch (*v.type) {
    case VarType::kString:
      ok = def.kind == yaml::Kind::kString;
      break;
    case VarType::kSlice:
      ok = def.kind == yaml::Kind::kArray;
      break;
    case VarType::kMap:
      ok = def.kind == yaml::Kind::kMap;
      break;
  }
  if (!ok) {
    auto& d = diags.error("HK114", def.span,
                          "default of var " + in_quotes(v.name) + " must be a " +
                              std::string(to_string(*v.type)) + ", found " +
                              std::string(yaml::to_string(v.default_written_kind)) +
                              (def.is_scalar() ? " " + def.text : ""),
                          path);
    d.related.push_back({v.type_span, "type declared here"});
    if (*v.type == VarType::kString && def.is_scalar()) {
      d.hints.push_back("quote it: default: \"" + def.text + "\"");
    }
    return;
  }
  if (v.format && def.kind == yaml::Kind::kString && !def.text.empty()) {
    if (auto why = formats::check(*v.format, def.text)) {
      auto& d = diags.error("HK115", def.span,
                            "default " + in_quotes(def.text) + " of var " + in_quotes(v.name) +
                                " does not match format " +
                                in_quotes(formats::to_string(*v.format)) + ": " + *why,
                            path);
      d.related.push_back({v.format_span, "format declared here"});
    }
  }
}

void check_var(const HintFile& hint, const Var& v, Names& names, diag::Diagnostics& diags) {
  if (v.required && v.default_value) {
    auto& d = diags.error("HK105", v.default_value->span,
                          "var " + in_quotes(v.name) +
                              " has required: true with a default value, which is contradictory (a "
                              "required var's default is never used)",
                          var_path(v, "default"));
    d.related.push_back({v.required_span, "required here"});
    d.hints.push_back("drop `default`, or make the var optional");
  }
  if (v.format && v.type && *v.type != VarType::kString) {
    auto& d =
        diags.error("HK106", v.format_span,
                    "var " + in_quotes(v.name) + " has format " +
                        in_quotes(formats::to_string(*v.format)) + " but type " +
                        in_quotes(to_string(*v.type)) + " (format is only valid for string type)",
                    var_path(v, "format"));
    d.related.push_back({v.type_span, "type declared here"});
  }
  if (v.required && (!v.required_with.empty() || !v.required_without.empty())) {
    const bool with = !v.required_with.empty();
    const std::string field = with ? "required_with" : "required_without";
    auto& d =
        diags.error("HK108", with ? v.required_with.front().span : v.required_without.front().span,
                    "var " + in_quotes(v.name) + " has required: true with " + field +
                        ", which is contradictory (always required vs. conditionally required)",
                    var_path(v, field));
    d.related.push_back({v.required_span, "required here"});
  }
  check_refs(hint, v, v.required_with, "required_with", names, diags);
  check_refs(hint, v, v.required_without, "required_without", names, diags);
  check_default(v, diags);
}

void check_rule(const HintFile& hint, const Rule& r, Names& names, diag::Diagnostics& diags) {
  const std::string label = "rule[" + std::to_string(r.index) + "]";
  const std::string base = types::index_path("rules", r.index);
  if (!r.type) return;  // already reported
  if (r.vars.size() < 2) {
    diags.error(
        "HK111", r.span,
        label + " (oneof_required) must have at least 2 vars, got " + std::to_string(r.vars.size()),
        types::join_path(base, "vars"));
  }
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < r.vars.size(); ++i) {
    const Ref& ref = r.vars[i];
    const std::string path = types::index_path(types::join_path(base, "vars"), i);
    if (!seen.insert(ref.name).second) {
      diags.error("HK113", ref.span,
                  label + " (oneof_required) lists var " + in_quotes(ref.name) + " twice", path);
      continue;
    }
    if (!hint.find(ref.name)) {
      auto& d = diags.error(
          "HK112", ref.span,
          label + " (oneof_required) references non-existent var " + in_quotes(ref.name), path);
      if (auto n = names.nearest(ref.name)) {
        d.hints.push_back("did you mean \"" + *n + "\"?");
      }
    }
  }
}

}  // namespace

void check_semantics(const HintFile& hint, diag::Diagnostics& diags) {
  Names names(hint);
  for (const Var& v : hint.vars) check_var(hint, v, names, diags);
  for (const Rule& r : hint.rules) check_rule(hint, r, names, diags);
}

}  // namespace hintkit::hintfile
