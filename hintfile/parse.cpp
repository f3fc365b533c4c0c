// Hint text -> HintFile: structural checks while reading (shapes of fields, unknown keys),
// then the cross-field checks in check.cpp.
#include <array>

#include "fileio/fileio.h"
#include "hintfile/check.h"
#include "hintfile/hintfile.h"

namespace hintkit::hintfile {

std::string_view to_string(VarType t) {
  switch (t) {
    case VarType::kString:
      return "string";
    case VarType::kSlice:
      return "slice";
    case VarType::kMap:
      return "map";
  }
  return "string";
}

std::optional<VarType> parse_var_type(std::string_view name) {
  for (VarType t : {VarType::kString, VarType::kSlice, VarType::kMap}) {
    if (to_string(t) == name) return t;
  }
  return std::nullopt;
}

std::string_view to_string(RuleType) { return "oneof_required"; }

types::Type Var::checker_type() const {
  if (!type) return types::make(types::Kind::kAny, type_span);
  switch (*type) {
    case VarType::kString:
      return types::make(types::Kind::kScalar, type_span);
    case VarType::kSlice:
      return types::make(types::Kind::kArray, type_span);
    case VarType::kMap:
      return types::make_open_map(type_span);
  }
  return types::make(types::Kind::kAny, type_span);
}

const Var* HintFile::find(std::string_view name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &vars[it->second];
}

std::vector<std::string> HintFile::var_names() const {
  std::vector<std::string> names;
  names.reserve(vars.size());
  for (const Var& v : vars) names.push_back(v.name);
  return names;
}

std::string path_in(std::string_view dir) {
  std::string p(dir);
  if (p.empty()) p = ".";
  if (p.back() != '/') p += '/';
  return p + std::string(kFileName);
}

namespace {

using diag::in_quotes;
using types::a_kind;

constexpr std::array<std::string_view, 4> kTopKeys = {"apiVersion", "kind", "vars", "rules"};
constexpr std::array<std::string_view, 7> kVarKeys = {
    "type", "required", "default", "description", "format", "required_with", "required_without"};
constexpr std::array<std::string_view, 3> kRuleKeys = {"type", "vars", "message"};
constexpr std::array<std::string_view, 3> kVarTypeNames = {"string", "slice", "map"};
constexpr std::array<std::string_view, 1> kRuleTypeNames = {"oneof_required"};

bool is_extension(std::string_view key) { return key.substr(0, 2) == "x-"; }

// api/v1's TazunaHint as sigs.k8s.io/yaml's conversion sees it: which values are bound for
// Go strings (where numbers and bools become text) and which for anything else.
const yaml::GoType& hint_go_type() {
  using yaml::GoType;
  using K = GoType::Kind;
  static const GoType names{.kind = K::kSlice, .fields = {}, .elem = GoType::string()};
  static const GoType var{.kind = K::kStruct,
                          .fields = {{"type", GoType::string()},
                                     {"required", GoType::other()},
                                     {"default", GoType::other()},
                                     {"description", GoType::string()},
                                     {"format", GoType::string()},
                                     {"required_with", &names},
                                     {"required_without", &names}},
                          .elem = nullptr};
  static const GoType vars{.kind = K::kMap, .fields = {}, .elem = &var};
  static const GoType rule{.kind = K::kStruct,
                           .fields = {{"type", GoType::string()},
                                      {"vars", &names},
                                      {"message", GoType::string()}},
                           .elem = nullptr};
  static const GoType rules{.kind = K::kSlice, .fields = {}, .elem = &rule};
  static const GoType hint{.kind = K::kStruct,
                           .fields = {{"apiVersion", GoType::string()},
                                      {"kind", GoType::string()},
                                      {"vars", &vars},
                                      {"rules", &rules}},
                           .elem = nullptr};
  return hint;
}

class Reader {
 public:
  Reader(std::string_view file, diag::Diagnostics& diags) : file_(file), diags_(diags) {}

  void read_root(const yaml::Node& root, HintFile& out) {
    if (root.kind != yaml::Kind::kMap) {
      diags_.error(
          "HK100", root.span,
          "the root of " + file_ + " must be a mapping with `vars`, found " + a_kind(root.kind));
      return;
    }
    const yaml::MapItem* vars = nullptr;
    for (const yaml::MapItem& item : root.items) {
      const std::string& key = item.key.text;
      if (!check_key(item, kTopKeys, "top-level", "")) continue;
      if (key == "apiVersion" || key == "kind") {
        string_field(item, key);
      } else if (key == "vars") {
        vars = &item;
      } else if (key == "rules") {
        read_rules(item, out);
      }
    }
    if (!vars) {
      diags_.error("HK101", root.span, "hint file has no `vars` mapping", "vars");
      return;
    }
    read_vars(*vars, out);
  }

 private:
  // False for keys to skip: extensions, and unknown keys (reported here).
  template <size_t N>
  bool check_key(const yaml::MapItem& item, const std::array<std::string_view, N>& known,
                 std::string_view where, std::string_view path) {
    if (item.key.kind != yaml::Kind::kString && item.key.kind != yaml::Kind::kBool &&
        item.key.kind != yaml::Kind::kInt && item.key.kind != yaml::Kind::kFloat) {
      diags_.error("HK102", item.key.span, "keys must be plain strings", std::string(path));
      return false;
    }
    const std::string& key = item.key.text;
    if (is_extension(key)) return false;
    for (std::string_view k : known) {
      if (k == key) return true;
    }
    auto& d = diags_.error("HK102", item.key.span,
                           "unknown " + std::string(where) + " key " + in_quotes(key),
                           types::join_path(path, key));
    std::string hint = diag::did_you_mean(key, known);
    if (!hint.empty()) d.hints.push_back(hint);
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    d.hints.push_back("known keys: " + list + " (keys starting with x- are extensions)");
    return false;
  }

  // A var name as tazuna sees it: a key or list item that YAML 1.1 reads as a bool or number
  // is handed over in its Go spelling (`on:` names the var "true", `0x1F` names "31"), the same
  // spelling tazuna.yaml's var names get. Warns where that changes what the author wrote.
  std::string name_of(const yaml::Node& n, std::string go_spelling, const std::string& path) {
    if (n.kind != yaml::Kind::kString && go_spelling != n.text) {
      auto& d = diags_.warning("HK323", n.span,
                               in_quotes(n.text) + " is read as YAML 1.1 " +
                                   std::string(yaml::to_string(n.kind)) + " and names var " +
                                   in_quotes(go_spelling),
                               path);
      d.hints.push_back("quote it to keep the text: \"" + n.text + "\"");
    }
    return go_spelling;
  }

  // The text a Go string field receives: tazuna decodes hint files with sigs.k8s.io/yaml,
  // which hands a number or bool over in its Go spelling (`description: 8080` -> "8080",
  // `yes` -> "true") and null as "". Collections are errors; nullopt then.
  std::optional<std::string> string_field(const yaml::MapItem& item, std::string_view path) {
    if (item.value.is_scalar()) return yaml::go_string(item.value);
    diags_.error("HK103", item.value.span,
                 std::string(path) + " must be a string, found " + a_kind(item.value.kind),
                 std::string(path));
    return std::nullopt;
  }

  std::vector<Ref> read_ref_list(const yaml::MapItem& item, const std::string& path) {
    std::vector<Ref> refs;
    if (item.value.kind == yaml::Kind::kNull) return refs;
    if (item.value.kind != yaml::Kind::kArray) {
      diags_.error("HK103", item.value.span,
                   path + " must be a list of var names, found " + a_kind(item.value.kind), path);
      return refs;
    }
    for (size_t i = 0; i < item.value.elements.size(); ++i) {
      const yaml::Node& e = item.value.elements[i];
      if (!e.is_scalar() || e.is_null()) {
        diags_.error("HK103", e.span,
                     types::index_path(path, i) + " must be a var name, found " + a_kind(e.kind),
                     types::index_path(path, i));
        continue;
      }
      refs.push_back(Ref{name_of(e, yaml::go_string(e), types::index_path(path, i)), e.span});
    }
    return refs;
  }

  void read_vars(const yaml::MapItem& vars_item, HintFile& out) {
    const yaml::Node& vars = vars_item.value;
    if (vars.kind != yaml::Kind::kMap) {
      diags_.error(
          "HK103", vars.kind == yaml::Kind::kNull ? vars_item.key.span : vars.span,
          "vars must be a mapping of var names, found " + a_kind(vars.kind) +
              (vars.kind == yaml::Kind::kNull ? " (write `vars: {}` to declare none)" : ""),
          "vars");
      return;
    }
    out.vars.reserve(vars.items.size());
    for (const yaml::MapItem& item : vars.items) {
      if (!item.key.is_scalar() || item.key.is_null()) {
        diags_.error("HK103", item.key.span, "var names must be plain scalars", "vars");
        continue;
      }
      out.vars.push_back(read_var(item));
    }
  }

  Var read_var(const yaml::MapItem& item) {
    Var v;
    v.name = name_of(item.key, yaml::go_key_string(item.key), "vars");
    v.span = item.key.span;
    const std::string base = types::join_path("vars", v.name);
    if (item.value.kind != yaml::Kind::kMap) {
      diags_.error("HK103", item.value.kind == yaml::Kind::kNull ? item.key.span : item.value.span,
                   "var " + in_quotes(v.name) + " must be a mapping with at least `type`, found " +
                       a_kind(item.value.kind),
                   base);
      return v;
    }
    bool has_type = false;
    for (const yaml::MapItem& f : item.value.items) {
      if (!check_key(f, kVarKeys, "var", base)) continue;
      const std::string& key = f.key.text;
      const std::string path = types::join_path(base, key);
      if (key == "type") {
        has_type = true;
        read_type(v, f, path);
      } else if (key == "required") {
        v.required_span = f.key.span;
        if (f.value.kind == yaml::Kind::kBool) {
          v.required = f.value.bool_value;
        } else if (f.value.kind != yaml::Kind::kNull) {  // null leaves Go's bool false
          auto& d = diags_.error("HK103", f.value.span,
                                 "required of var " + in_quotes(v.name) +
                                     " must be true or false, found " + a_kind(f.value.kind),
                                 path);
          if (f.value.kind == yaml::Kind::kString) d.hints.push_back("remove the quotes");
        }
      } else if (key == "default") {
        if (f.value.kind != yaml::Kind::kNull) {
          v.default_value = yaml::go_json_any(f.value);
          v.default_written_kind = f.value.kind;
        }
      } else if (key == "description") {
        if (auto text = string_field(f, path)) v.description = *text;
      } else if (key == "format") {
        const std::optional<std::string> text = string_field(f, path);
        if (!text || text->empty()) continue;  // the spec's default: "" is no format
        v.format_span = f.value.span;
        v.format = formats::parse(*text);
        if (!v.format) {
          auto& d = diags_.error(
              "HK107", f.value.span,
              "var " + in_quotes(v.name) + " has unknown format " + in_quotes(*text), path);
          std::string hint = diag::did_you_mean(*text, formats::names());
          if (!hint.empty()) d.hints.push_back(hint);
          std::string list;
          for (std::string_view n : formats::names())
            list += (list.empty() ? "" : ", ") + std::string(n);
          d.hints.push_back("known formats: " + list);
        }
      } else if (key == "required_with") {
        v.required_with = read_ref_list(f, path);
      } else if (key == "required_without") {
        v.required_without = read_ref_list(f, path);
      }
    }
    if (!has_type) {
      diags_.error("HK104", item.key.span,
                   "var " + in_quotes(v.name) +
                       " has no type: invalid type \"\" (must be string, slice or map)",
                   types::join_path(base, "type"));
    }
    return v;
  }

  void read_type(Var& v, const yaml::MapItem& f, const std::string& path) {
    v.type_span = f.value.span;
    const std::string& text = f.value.text;
    if (f.value.kind == yaml::Kind::kString) v.type = parse_var_type(text);
    if (v.type) return;
    std::string shown = f.value.kind == yaml::Kind::kString
                            ? in_quotes(text)
                            : a_kind(f.value.kind) + (text.empty() ? "" : " " + in_quotes(text));
    auto& d = diags_.error("HK104", f.value.span,
                           "var " + in_quotes(v.name) + " has invalid type " + shown +
                               " (must be string, slice or map)",
                           path);
    if (f.value.kind == yaml::Kind::kString) {
      std::string hint = diag::did_you_mean(text, kVarTypeNames);
      if (!hint.empty()) d.hints.push_back(hint);
    }
  }

  void read_rules(const yaml::MapItem& item, HintFile& out) {
    const yaml::Node& rules = item.value;
    if (rules.kind == yaml::Kind::kNull) return;
    if (rules.kind != yaml::Kind::kArray) {
      diags_.error("HK103", rules.span, "rules must be a list, found " + a_kind(rules.kind),
                   "rules");
      return;
    }
    for (size_t i = 0; i < rules.elements.size(); ++i) {
      const yaml::Node& r = rules.elements[i];
      const std::string base = types::index_path("rules", i);
      const std::string label = "rule[" + std::to_string(i) + "]";
      Rule rule;
      rule.index = i;
      rule.span = r.span;
      if (r.kind != yaml::Kind::kMap) {
        diags_.error("HK103", r.span, label + " must be a mapping, found " + a_kind(r.kind), base);
        continue;
      }
      bool has_type = false;
      for (const yaml::MapItem& f : r.items) {
        if (!check_key(f, kRuleKeys, "rule", base)) continue;
        const std::string path = types::join_path(base, f.key.text);
        if (f.key.text == "type") {
          has_type = true;
          const std::optional<std::string> text = string_field(f, path);
          if (!text) continue;
          if (*text == "oneof_required") {
            rule.type = RuleType::kOneofRequired;
          } else {
            auto& d = diags_.error(
                "HK110", f.value.span,
                label + " has unknown type " + in_quotes(*text) + " (must be oneof_required)",
                path);
            std::string hint = diag::did_you_mean(*text, kRuleTypeNames);
            if (!hint.empty()) d.hints.push_back(hint);
          }
        } else if (f.key.text == "vars") {
          rule.vars = read_ref_list(f, path);
        } else if (f.key.text == "message") {
          if (auto text = string_field(f, path)) rule.message = *text;
        }
      }
      if (!has_type) {
        diags_.error("HK110", r.span,
                     label + " has no type: unknown type \"\" (must be oneof_required)",
                     types::join_path(base, "type"));
      }
      out.rules.push_back(std::move(rule));
    }
  }

  std::string file_;
  diag::Diagnostics& diags_;
};

}  // namespace

HintFile parse(std::string_view source, std::string_view file, diag::Diagnostics& diags) {
  HintFile out;
  out.path = std::string(file);
  diag::Diagnostics yaml_diags;
  std::vector<yaml::Document> docs = yaml::load(source, file, yaml_diags);
  const bool broken = yaml_diags.has_errors();
  diags.append(std::move(yaml_diags));
  if (broken) return out;

  const yaml::Document* doc = nullptr;
  for (const yaml::Document& d : docs) {
    if (d.empty) continue;
    if (doc) {
      diags.error("HK100", d.span, "a hint file holds one YAML document; found another here");
      break;
    }
    doc = &d;
  }
  if (!doc) {
    diags.error("HK100", diag::Span{std::string(file), {1, 1}, {1, 1}},
                "hint file is empty: expected a mapping with `vars`");
    return out;
  }
  yaml::check_go_json(doc->root, hint_go_type(), "the hint file", diags);
  Reader(file, diags).read_root(doc->root, out);
  for (size_t i = 0; i < out.vars.size(); ++i) {
    auto [it, inserted] = out.index_.emplace(out.vars[i].name, i);
    (void)it;
    (void)inserted;  // duplicate keys were already reported by the loader
  }
  check_semantics(out, diags);
  return out;
}

diag::Result<HintFile> load_file(const std::string& path, diag::Diagnostics& diags) {
  diag::Result<std::string> text = fileio::read_file(path);
  if (!text.ok()) return text.error();
  return parse(*text, path, diags);
}

}  // namespace hintkit::hintfile
