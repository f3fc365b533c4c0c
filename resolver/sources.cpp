// Var sources -> provided values, and the lint cross-check of declarations against a hint.
#include "resolver/tazuna.h"
#include "types/types.h"

namespace hintkit::resolver {
namespace {

using diag::in_quotes;

void put(yaml::Node& map, const VarSource& s, yaml::Node value) {
  yaml::MapItem item;
  item.key = yaml::make_string(s.name);
  item.key.span = s.span;
  item.value = std::move(value);
  map.items.push_back(std::move(item));
}

}  // namespace

yaml::Node provided_vars(const Manifest& m, const Environment& env, diag::Diagnostics& diags) {
  yaml::Node out = yaml::make_map();
  for (const VarSource& s : m.vars) {
    if (!s.valid) continue;
    switch (s.kind) {
      case SourceKind::kEnv: {
        std::optional<std::string> v = env.getenv ? env.getenv(s.env) : std::nullopt;
        if (!v) {
          auto& d =
              diags.error("HK310", s.span,
                          "var " + in_quotes(s.name) + " has From env but environment variable " +
                              s.env + " is not set",
                          s.name);
          d.hints.push_back("export " + s.env + "=... (an empty value counts as provided)");
          continue;
        }
        yaml::Node value = yaml::make_string(*v);
        value.span = s.span;
        put(out, s, std::move(value));
        break;
      }
      case SourceKind::kOp: {
        diag::Result<std::string> v =
            env.op_field ? env.op_field(s.op)
                         : diag::Result<std::string>(diag::Error{"op is not available", {}});
        if (!v.ok()) {
          diags.error("HK311", s.span,
                      "var " + in_quotes(s.name) + " from 1Password (vault " +
                          in_quotes(s.op.vault) + ", item " + in_quotes(s.op.item) + ", field " +
                          in_quotes(s.op.field) + "): " + v.error().message,
                      s.name);
          continue;
        }
        yaml::Node value = yaml::make_string(*v);
        value.span = s.span;
        put(out, s, std::move(value));
        break;
      }
      default:
        put(out, s, s.value);
    }
  }
  return out;
}

diag::Result<std::string> pick_op_field(std::string_view json, const OpRef& ref) {
  diag::Diagnostics d;
  auto docs = yaml::load(json, "op output", d);
  if (d.has_errors() || docs.empty() || docs[0].root.kind != yaml::Kind::kMap) {
    return diag::Error{"op printed something that is not a JSON item", {}};
  }
  const yaml::MapItem* fields = docs[0].root.find("fields");
  if (!fields || fields->value.kind != yaml::Kind::kArray) {
    return diag::Error{"the op item has no fields", {}};
  }
  std::vector<std::string> seen;
  for (const yaml::Node& f : fields->value.elements) {
    if (f.kind != yaml::Kind::kMap) continue;
    const yaml::MapItem* k = f.find(ref.key);
    if (!k) continue;
    if (k->value.text == ref.field) {
      const yaml::MapItem* v = f.find("value");
      if (!v || v->value.is_null()) return std::string();
      return v->value.text;
    }
    seen.push_back(k->value.text);
  }
  std::string msg = "op field " + ref.field + " not found in item " + ref.item +
                    " (no field with " + ref.key + " " + in_quotes(ref.field) + ")";
  if (auto n = diag::nearest(ref.field, seen)) msg += "; did you mean \"" + *n + "\"?";
  return diag::Error{msg, {}};
}

void check_declarations(const Manifest& m, const hintfile::HintFile& hint, const Config& config,
                        diag::Diagnostics& diags) {
  (void)config;
  const std::vector<std::string> names = hint.var_names();
  for (const VarSource& s : m.vars) {
    const hintfile::Var* v = hint.find(s.name);
    if (!v) {
      auto& d = diags.warning("HK320", s.span,
                              "manifest " + in_quotes(m.name) + " declares var " +
                                  in_quotes(s.name) + ", which " + hint.path + " does not know",
                              s.name);
      if (auto n = diag::nearest(s.name, names)) d.hints.push_back("did you mean \"" + *n + "\"?");
      continue;
    }
    if (!s.valid || !v->type) continue;
    const bool fits =
        (s.kind == SourceKind::kStaticSlice && *v->type == hintfile::VarType::kSlice) ||
        (s.kind == SourceKind::kStaticMap && *v->type == hintfile::VarType::kMap) ||
        ((s.kind == SourceKind::kStatic || s.kind == SourceKind::kEnv ||
          s.kind == SourceKind::kOp) &&
         *v->type == hintfile::VarType::kString);
    if (!fits) {
      auto& d = diags.error(
          "HK322", s.span,
          "manifest " + in_quotes(m.name) + " gives var " + in_quotes(s.name) +
              (s.kind == SourceKind::kEnv || s.kind == SourceKind::kOp ? " an " : " a ") +
              std::string(to_string(s.kind)) + " value, but the hint var expects type " +
              std::string(hintfile::to_string(*v->type)),
          s.name);
      d.related.push_back({v->type_span, "type declared here"});
    }
  }
  for (const hintfile::Var& v : hint.vars) {
    if (!v.required) continue;
    bool declared = false;
    for (const VarSource& s : m.vars) declared = declared || s.name == v.name;
    if (!declared) {
      auto& d = diags.error(
          "HK321", m.span,
          "manifest " + in_quotes(m.name) + " does not declare required var " + in_quotes(v.name),
          v.name);
      d.related.push_back({v.span, "declared required here"});
      // A declaration the hint does not know, spelt close to this var, was probably it.
      for (const VarSource& s : m.vars) {
        if (hint.find(s.name) || diag::nearest(s.name, names) != v.name) continue;
        d.related.push_back({s.span, "probably meant here"});
        d.hints.push_back(in_quotes(s.name) +
                          " is declared, which the hint does not know: did you mean " +
                          in_quotes(v.name) + "?");
        break;
      }
    }
  }
}

}  // namespace hintkit::resolver
