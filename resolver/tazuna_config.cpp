// tazuna.yaml -> Config, with every structural problem reported at its place.
#include <array>
#include <filesystem>

#include "resolver/tazuna.h"
#include "types/types.h"

namespace hintkit::resolver {

std::string_view to_string(SourceKind k) {
  switch (k) {
    case SourceKind::kEnv:
      return "env";
    case SourceKind::kStatic:
      return "static";
    case SourceKind::kStaticSlice:
      return "staticSlice";
    case SourceKind::kStaticMap:
      return "staticMap";
    case SourceKind::kOp:
      return "op";
  }
  return "static";
}

namespace {

using diag::in_quotes;
using types::a_kind;

constexpr std::array<std::string_view, 4> kTopKeys = {"apiVersion", "kind", "spec", "metadata"};
constexpr std::array<std::string_view, 6> kSpecKeys = {"minimumSupportedTazunaVersion",
                                                       "context_matches",
                                                       "context_match_mode",
                                                       "manifests",
                                                       "tests",
                                                       "providers"};
constexpr std::array<std::string_view, 12> kManifestKeys = {
    "name",      "description",   "includes", "path", "type",      "tags",
    "kustomize", "genesisSecret", "helmfile", "oras", "dependsOn", "tests"};
constexpr std::array<std::string_view, 7> kHelmfileKeys = {
    "includeCRDs", "vars",           "defaultNamespace", "extraValueFiles",
    "wait",        "timeoutSeconds", "kubeVersion"};
constexpr std::array<std::string_view, 6> kVarKeys = {"from",        "op",        "static",
                                                      "staticSlice", "staticMap", "env"};
constexpr std::array<std::string_view, 3> kFromValues = {"env", "static", "op"};
constexpr std::array<std::string_view, 4> kOpKeys = {"key", "vault", "item", "field"};
constexpr std::array<std::string_view, 2> kOpKeyValues = {"id", "label"};

class Reader {
 public:
  explicit Reader(diag::Diagnostics& diags) : diags_(diags) {}

  template <size_t N>
  bool known_key(const yaml::MapItem& item, const std::array<std::string_view, N>& keys,
                 const std::string& path) {
    const std::string& key = item.key.text;
    for (std::string_view k : keys) {
      if (k == key) return true;
    }
    if (key.rfind("x-", 0) == 0) return false;
    auto& d = diags_.error("HK302", item.key.span, "unknown key " + in_quotes(key),
                           types::join_path(path, key));
    std::string hint = diag::did_you_mean(key, keys);
    if (!hint.empty()) d.hints.push_back(hint);
    return false;
  }

  bool want(const yaml::Node& n, yaml::Kind kind, const std::string& path, std::string_view what) {
    if (n.kind == kind) return true;
    diags_.error("HK303", n.span,
                 path + " must be " + std::string(what) + ", found " + a_kind(n.kind), path);
    return false;
  }

  void read(const yaml::Node& root, Config& out) {
    if (!want(root, yaml::Kind::kMap, "tazuna.yaml", "a mapping")) return;
    const yaml::MapItem* spec = nullptr;
    for (const yaml::MapItem& item : root.items) {
      if (!known_key(item, kTopKeys, "")) continue;
      if (item.key.text == "spec") spec = &item;
      if (item.key.text == "kind" && item.value.kind == yaml::Kind::kString &&
          item.value.text != "Tazuna") {
        diags_.error("HK301", item.value.span,
                     "kind must be \"Tazuna\", found " + in_quotes(item.value.text), "kind");
      }
    }
    if (!spec) {
      diags_.error("HK301", root.span, "tazuna.yaml has no `spec`", "spec");
      return;
    }
    if (!want(spec->value, yaml::Kind::kMap, "spec", "a mapping")) return;
    for (const yaml::MapItem& item : spec->value.items) {
      if (!known_key(item, kSpecKeys, "spec")) continue;
      if (item.key.text == "manifests" &&
          want(item.value, yaml::Kind::kArray, "spec.manifests", "a list")) {
        for (size_t i = 0; i < item.value.elements.size(); ++i) {
          read_manifest(item.value.elements[i], types::index_path("spec.manifests", i), out);
        }
      }
    }
  }

 private:
  std::string scalar(const yaml::MapItem& item, const std::string& path) {
    if (item.value.kind == yaml::Kind::kString) return item.value.text;
    want(item.value, yaml::Kind::kString, path, "a string");
    return {};
  }

  void read_manifest(const yaml::Node& n, const std::string& path, Config& out) {
    if (!want(n, yaml::Kind::kMap, path, "a mapping")) return;
    Manifest m;
    m.span = n.span;
    const yaml::MapItem* helmfile = nullptr;
    for (const yaml::MapItem& item : n.items) {
      if (!known_key(item, kManifestKeys, path)) continue;
      const std::string& key = item.key.text;
      const std::string p = types::join_path(path, key);
      if (key == "name") {
        m.name = scalar(item, p);
      } else if (key == "type") {
        m.type = scalar(item, p);
      } else if (key == "path") {
        m.path = scalar(item, p);
        m.path_span = item.value.span;
      } else if (key == "tags") {
        if (want(item.value, yaml::Kind::kArray, p, "a list of strings")) {
          for (const yaml::Node& t : item.value.elements) m.tags.push_back(t.text);
        }
      } else if (key == "helmfile") {
        helmfile = &item;
      }
    }
    if (m.name.empty()) m.name = m.path;
    if (m.type == "helmfile" && m.path.empty()) {
      diags_.error("HK303", n.span, "helmfile manifest " + in_quotes(m.name) + " has no `path`",
                   types::join_path(path, "path"));
    }
    if (helmfile && m.type == "helmfile")
      read_helmfile(helmfile->value, types::join_path(path, "helmfile"), m);
    out.manifests.push_back(std::move(m));
  }

  void read_helmfile(const yaml::Node& n, const std::string& path, Manifest& m) {
    if (n.is_null() || !want(n, yaml::Kind::kMap, path, "a mapping")) return;
    for (const yaml::MapItem& item : n.items) {
      if (!known_key(item, kHelmfileKeys, path) || item.key.text != "vars") continue;
      const std::string vars_path = types::join_path(path, "vars");
      if (item.value.is_null() || !want(item.value, yaml::Kind::kMap, vars_path, "a mapping"))
        continue;
      for (const yaml::MapItem& v : item.value.items) {
        m.vars.push_back(read_var(v, types::join_path(vars_path, v.key.text)));
      }
    }
  }

  VarSource read_var(const yaml::MapItem& item, const std::string& path) {
    VarSource s;
    s.name = item.key.text;
    s.span = item.key.span;
    const std::string label = "var " + in_quotes(s.name);
    if (!want(item.value, yaml::Kind::kMap, path, "a mapping with `from`")) {
      s.valid = false;
      return s;
    }
    const yaml::MapItem* from = nullptr;
    const yaml::MapItem* env = nullptr;
    const yaml::MapItem* op = nullptr;
    std::vector<const yaml::MapItem*> statics;
    for (const yaml::MapItem& f : item.value.items) {
      if (!known_key(f, kVarKeys, path)) continue;
      const std::string& key = f.key.text;
      if (key == "from") from = &f;
      if (key == "env") env = &f;
      if (key == "op") op = &f;
      if (key == "static" || key == "staticSlice" || key == "staticMap") statics.push_back(&f);
    }
    if (!from) {
      diags_.error("HK304", item.key.span, label + " has no `from` (env, static or op)",
                   types::join_path(path, "from"));
      s.valid = false;
      return s;
    }
    const std::string from_value = from->value.kind == yaml::Kind::kString ? from->value.text : "";
    if (from_value == "env") {
      s.kind = SourceKind::kEnv;
      if (!env || env->value.kind != yaml::Kind::kString || env->value.text.empty()) {
        diags_.error("HK305", env ? env->value.span : item.key.span,
                     label + " is from: env but has no `env: VARIABLE_NAME`",
                     types::join_path(path, "env"));
        s.valid = false;
      } else {
        s.env = env->value.text;
      }
    } else if (from_value == "static") {
      read_static(s, statics, item, path, label);
    } else if (from_value == "op") {
      s.kind = SourceKind::kOp;
      read_op(s, op, item, path, label);
    } else {
      auto& d = diags_.error("HK304", from->value.span,
                             label + " has unknown from " + in_quotes(from->value.text) +
                                 " (must be env, static or op)",
                             types::join_path(path, "from"));
      std::string hint = diag::did_you_mean(from->value.text, kFromValues);
      if (!hint.empty()) d.hints.push_back(hint);
      s.valid = false;
    }
    return s;
  }

  void read_static(VarSource& s, const std::vector<const yaml::MapItem*>& statics,
                   const yaml::MapItem& item, const std::string& path, const std::string& label) {
    if (statics.size() != 1) {
      auto& d = diags_.error(
          "HK306", statics.empty() ? item.key.span : statics[1]->key.span,
          label + (statics.empty()
                       ? " is from: static but sets none of static, staticSlice, staticMap"
                       : " sets more than one of static, staticSlice, staticMap"),
          path);
      d.hints.push_back("set exactly one of them");
      s.valid = false;
      return;
    }
    const yaml::MapItem& f = *statics[0];
    const std::string p = types::join_path(path, f.key.text);
    if (f.key.text == "static") {
      s.kind = SourceKind::kStatic;
      if (!f.value.is_scalar() || f.value.is_null()) {
        diags_.error("HK303", f.value.span, p + " must be a scalar, found " + a_kind(f.value.kind),
                     p);
        s.valid = false;
        return;
      }
      // Non-string scalars become their YAML text: 8080 -> "8080".
      s.value = yaml::make_string(f.value.text);
      s.value.span = f.value.span;
    } else if (f.key.text == "staticSlice") {
      s.kind = SourceKind::kStaticSlice;
      if (!want(f.value, yaml::Kind::kArray, p, "a list of strings")) {
        s.valid = false;
        return;
      }
      s.value = yaml::make_array();
      s.value.span = f.value.span;
      for (size_t i = 0; i < f.value.elements.size(); ++i) {
        const yaml::Node& e = f.value.elements[i];
        if (!e.is_scalar() || e.is_null()) {
          want(e, yaml::Kind::kString, types::index_path(p, i), "a string");
          s.valid = false;
          continue;
        }
        yaml::Node str = yaml::make_string(e.text);
        str.span = e.span;
        s.value.elements.push_back(std::move(str));
      }
    } else {
      s.kind = SourceKind::kStaticMap;
      if (!want(f.value, yaml::Kind::kMap, p, "a mapping of strings")) {
        s.valid = false;
        return;
      }
      s.value = yaml::make_map();
      s.value.span = f.value.span;
      for (const yaml::MapItem& e : f.value.items) {
        if (!e.value.is_scalar() || e.value.is_null()) {
          want(e.value, yaml::Kind::kString, types::join_path(p, e.key.text), "a string");
          s.valid = false;
          continue;
        }
        yaml::MapItem copy;
        copy.key = yaml::make_string(e.key.text);
        copy.key.span = e.key.span;
        copy.value = yaml::make_string(e.value.text);
        copy.value.span = e.value.span;
        s.value.items.push_back(std::move(copy));
      }
    }
  }

  void read_op(VarSource& s, const yaml::MapItem* op, const yaml::MapItem& item,
               const std::string& path, const std::string& label) {
    const std::string p = types::join_path(path, "op");
    if (!op) {
      diags_.error("HK307", item.key.span, label + " is from: op but has no `op:` selector", p);
      s.valid = false;
      return;
    }
    if (!want(op->value, yaml::Kind::kMap, p, "a mapping with key, vault, item, field")) {
      s.valid = false;
      return;
    }
    for (const yaml::MapItem& f : op->value.items) {
      if (!known_key(f, kOpKeys, p)) continue;
      std::string v = scalar(f, types::join_path(p, f.key.text));
      if (f.key.text == "key") s.op.key = v;
      if (f.key.text == "vault") s.op.vault = v;
      if (f.key.text == "item") s.op.item = v;
      if (f.key.text == "field") s.op.field = v;
    }
    for (auto [name, value] : {std::pair<const char*, std::string*>{"key", &s.op.key},
                               {"vault", &s.op.vault},
                               {"item", &s.op.item},
                               {"field", &s.op.field}}) {
      if (value->empty()) {
        diags_.error("HK307", op->key.span, label + " op selector has no `" + name + "`",
                     types::join_path(p, name));
        s.valid = false;
      }
    }
    if (!s.op.key.empty() && s.op.key != "id" && s.op.key != "label") {
      auto& d = diags_.error("HK307", op->value.span,
                             label + " op key must be id or label, found " + in_quotes(s.op.key),
                             types::join_path(p, "key"));
      std::string hint = diag::did_you_mean(s.op.key, kOpKeyValues);
      if (!hint.empty()) d.hints.push_back(hint);
      s.valid = false;
    }
  }

  diag::Diagnostics& diags_;
};

}  // namespace

Config parse_config(std::string_view source, std::string_view file, diag::Diagnostics& diags) {
  Config out;
  out.file = std::string(file);
  out.dir = std::filesystem::path(out.file).parent_path().string();
  diag::Diagnostics yaml_diags;
  auto docs = yaml::load(source, file, yaml_diags);
  const bool broken = yaml_diags.has_errors();
  diags.append(std::move(yaml_diags));
  if (broken) return out;
  for (const yaml::Document& d : docs) {
    if (d.empty) continue;
    Reader(diags).read(d.root, out);
    return out;
  }
  diags.error("HK301", diag::Span{out.file, {1, 1}, {1, 1}}, "tazuna.yaml is empty");
  return out;
}

diag::Result<Config> load_config(const std::string& path, diag::Diagnostics& diags) {
  auto text = yaml::read_file(path);
  if (!text.ok()) return text.error();
  return parse_config(*text, path, diags);
}

std::string hint_dir(const Config& config, const Manifest& m) {
  namespace fs = std::filesystem;
  fs::path p = fs::path(m.path).is_absolute() ? fs::path(m.path) : fs::path(config.dir) / m.path;
  std::error_code ec;
  if (fs::is_directory(p, ec)) return p.lexically_normal().string();
  return p.parent_path().lexically_normal().string();
}

}  // namespace hintkit::resolver
