// tazuna.yaml -> Config, with every structural problem reported at its place.
#include <algorithm>
#include <array>
#include <filesystem>
#include <map>

#include "fileio/fileio.h"
#include "resolver/tazuna.h"
#include "resolver/template.h"
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
using yaml::go_key_string;
using yaml::go_string;

constexpr std::array<std::string_view, 4> kTopKeys = {"apiVersion", "kind", "spec", "metadata"};
constexpr std::array<std::string_view, 7> kSpecKeys = {"minimumSupportedTazunaVersion",
                                                       "context_matches",
                                                       "context_match_mode",
                                                       "environments",
                                                       "manifests",
                                                       "tests",
                                                       "providers"};
constexpr std::array<std::string_view, 2> kEnvironmentKeys = {"context_matches",
                                                              "context_match_mode"};
constexpr std::array<std::string_view, 1> kIncludeKeys = {"path"};
constexpr std::array<std::string_view, 6> kOrasKeys = {"reference",          "target", "plainHTTP",
                                                       "insecureSkipVerify", "auth",   "delegate"};
constexpr std::array<std::string_view, 3> kDelegateKeys = {"type", "helmfile", "kustomize"};
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

// api/v1's Tazuna as sigs.k8s.io/yaml's conversion sees it (yaml::GoType): which values are
// bound for Go strings, where numbers and bools become text and .inf is "+Inf", and which for
// anything else, where .inf refuses the file. Struct fields of api/v1 without json tags (the
// ORAS types) match case-insensitively, as encoding/json matches them.
const yaml::GoType& tazuna_go_type() {
  using yaml::GoType;
  using K = GoType::Kind;
  const GoType* text = GoType::string();
  const GoType* other = GoType::other();
  static const GoType texts{.kind = K::kSlice, .fields = {}, .elem = text};
  static const GoType text_map{.kind = K::kMap, .fields = {}, .elem = text};
  static const GoType op{.kind = K::kStruct,
                         .fields = {{"key", text}, {"vault", text}, {"item", text}, {"field", text}},
                         .elem = nullptr};
  static const GoType var{.kind = K::kStruct,
                          .fields = {{"from", text},
                                     {"op", &op},
                                     {"static", text},
                                     {"staticSlice", &texts},
                                     {"staticMap", &text_map},
                                     {"env", text}},
                          .elem = nullptr};
  static const GoType vars{.kind = K::kMap, .fields = {}, .elem = &var};
  static const GoType helmfile{.kind = K::kStruct,
                               .fields = {{"includeCRDs", other},
                                          {"vars", &vars},
                                          {"defaultNamespace", text},
                                          {"extraValueFiles", &texts},
                                          {"wait", other},
                                          {"timeoutSeconds", other},
                                          {"kubeVersion", text}},
                               .elem = nullptr};
  static const GoType kustomize{
      .kind = K::kStruct, .fields = {{"defaultNamespace", text}}, .elem = nullptr};
  static const GoType no_fields{.kind = K::kStruct, .fields = {}, .elem = nullptr};
  static const GoType auth{.kind = K::kStruct,
                           .fields = {{"Username", text}, {"Password", text}},
                           .elem = nullptr};
  static const GoType delegate{
      .kind = K::kStruct,
      .fields = {{"Type", text}, {"Helmfile", &helmfile}, {"Kustomize", &kustomize}},
      .elem = nullptr};
  static const GoType oras{.kind = K::kStruct,
                           .fields = {{"Reference", text},
                                      {"Target", text},
                                      {"PlainHTTP", other},
                                      {"InsecureSkipVerify", other},
                                      {"Auth", &auth},
                                      {"Delegate", &delegate}},
                           .elem = nullptr};
  static const GoType resource{.kind = K::kStruct,
                               .fields = {{"apiVersion", text}, {"kind", text}},
                               .elem = nullptr};
  static const GoType wait_until{.kind = K::kStruct,
                                 .fields = {{"resource", &resource},
                                            {"namespace", text},
                                            {"name", text},
                                            {"condition", text}},
                                 .elem = nullptr};
  static const GoType exist{.kind = K::kStruct,
                            .fields = {{"resource", &resource},
                                       {"namespace", text},
                                       {"name", text},
                                       {"shouldExist", other}},
                            .elem = nullptr};
  static const GoType test{.kind = K::kStruct,
                           .fields = {{"type", text},
                                      {"minConsecutiveSuccessCount", other},
                                      {"minConsecutiveFailureCount", other},
                                      {"timeoutSeconds", other},
                                      {"intervalSeconds", other},
                                      {"waitUntil", &wait_until},
                                      {"existNonExist", &exist}},
                           .elem = nullptr};
  static const GoType tests{.kind = K::kSlice, .fields = {}, .elem = &test};
  static const GoType include{.kind = K::kStruct, .fields = {{"path", text}}, .elem = nullptr};
  static const GoType includes{.kind = K::kSlice, .fields = {}, .elem = &include};
  static const GoType manifest{.kind = K::kStruct,
                               .fields = {{"name", text},
                                          {"description", text},
                                          {"includes", &includes},
                                          {"path", text},
                                          {"type", text},
                                          {"tags", &texts},
                                          {"kustomize", &kustomize},
                                          {"genesisSecret", &no_fields},
                                          {"helmfile", &helmfile},
                                          {"oras", &oras},
                                          {"dependsOn", &texts},
                                          {"tests", &tests}},
                               .elem = nullptr};
  static const GoType manifests{.kind = K::kSlice, .fields = {}, .elem = &manifest};
  static const GoType environment{
      .kind = K::kStruct,
      .fields = {{"context_matches", &texts}, {"context_match_mode", text}},
      .elem = nullptr};
  static const GoType environments{.kind = K::kMap, .fields = {}, .elem = &environment};
  static const GoType spec{.kind = K::kStruct,
                           .fields = {{"minimumSupportedTazunaVersion", text},
                                      {"context_matches", &texts},
                                      {"context_match_mode", text},
                                      {"environments", &environments},
                                      {"manifests", &manifests},
                                      {"tests", &tests}},
                           .elem = nullptr};
  static const GoType tazuna{
      .kind = K::kStruct,
      .fields = {{"apiVersion", text}, {"kind", text}, {"spec", &spec}},
      .elem = nullptr};
  return tazuna;
}

class Reader {
 public:
  // `included`: the file is an include target, where `includes` may not appear again.
  Reader(diag::Diagnostics& diags, diag::Diagnostics& conversions, bool included)
      : diags_(diags), conversions_(conversions), included_(included) {}

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
    yaml::check_go_json(root, tazuna_go_type(), "tazuna.yaml", diags_);
    if (!want(root, yaml::Kind::kMap, "tazuna.yaml", "a mapping")) return;
    const yaml::MapItem* spec = nullptr;
    for (const yaml::MapItem& item : root.items) {
      if (!known_key(item, kTopKeys, "")) continue;
      if (item.key.text == "spec") spec = &item;
      // As tazuna: when set, apiVersion and kind must be exact; only the root file's are
      // validated (an included file is read for its manifests).
      if (!included_ && item.key.text == "kind" && item.value.kind == yaml::Kind::kString &&
          item.value.text != "Tazuna") {
        diags_.error("HK301", item.value.span,
                     "kind must be \"Tazuna\", found " + in_quotes(item.value.text), "kind");
      }
      if (!included_ && item.key.text == "apiVersion" && item.value.is_scalar() &&
          !item.value.is_null() && !item.value.text.empty() &&
          item.value.text != "tazuna.pepabo.com/v1") {
        diags_.error(
            "HK301", item.value.span,
            "apiVersion must be \"tazuna.pepabo.com/v1\", found " + in_quotes(item.value.text),
            "apiVersion");
      }
    }
    if (!spec) {
      diags_.error("HK301", root.span, "tazuna.yaml has no `spec`", "spec");
      return;
    }
    if (!want(spec->value, yaml::Kind::kMap, "spec", "a mapping")) return;
    for (const yaml::MapItem& item : spec->value.items) {
      if (!known_key(item, kSpecKeys, "spec")) continue;
      if (item.key.text == "environments") read_environments(item.value, out);
      if (item.key.text == "manifests" &&
          want(item.value, yaml::Kind::kArray, "spec.manifests", "a list")) {
        for (size_t i = 0; i < item.value.elements.size(); ++i) {
          read_manifest(item.value.elements[i], types::index_path("spec.manifests", i), out);
        }
      }
    }
  }

 private:
  // A string field as tazuna decodes it: any scalar, in its Go spelling (`0755` -> "493").
  std::string scalar(const yaml::MapItem& item, const std::string& path) {
    if (item.value.is_scalar() && !item.value.is_null()) return converted(item.value, path);
    want(item.value, yaml::Kind::kString, path, "a string");
    return {};
  }

  // The Go spelling of a scalar; where it differs from the source text, a warning for lint.
  std::string converted(const yaml::Node& n, const std::string& path, bool key = false) {
    std::string s = key ? go_key_string(n) : go_string(n);
    if (n.kind != yaml::Kind::kString && s != n.text) {
      auto& d = conversions_.warning("HK323", n.span,
                                     in_quotes(n.text) + " is read as YAML 1.1 " +
                                         std::string(yaml::to_string(n.kind)) +
                                         " and handed on as " + in_quotes(s),
                                     path);
      d.hints.push_back("quote it to keep the text: \"" + n.text + "\"");
    }
    return s;
  }

  void read_environments(const yaml::Node& n, Config& out) {
    if (n.is_null() || !want(n, yaml::Kind::kMap, "spec.environments", "a mapping")) return;
    for (const yaml::MapItem& env : n.items) {
      const std::string path = types::join_path("spec.environments", env.key.text);
      out.environments.push_back(converted(env.key, path, true));
      if (env.value.is_null() || !want(env.value, yaml::Kind::kMap, path, "a mapping")) continue;
      for (const yaml::MapItem& f : env.value.items) {
        if (!known_key(f, kEnvironmentKeys, path)) continue;
        const std::string p = types::join_path(path, f.key.text);
        if (f.key.text == "context_matches") {
          want(f.value, yaml::Kind::kArray, p, "a list of regular expressions");
        } else {
          const std::string mode = scalar(f, p);
          if (!mode.empty() && mode != "or" && mode != "and") {
            diags_.error("HK303", f.value.span,
                         p + " must be \"or\" or \"and\", found " + in_quotes(mode), p);
          }
        }
      }
    }
  }

  void read_includes(const yaml::MapItem& item, const std::string& path, Manifest& m) {
    if (included_) {
      diags_.error("HK309", item.key.span,
                   "nested includes are not allowed: an included file cannot include again", path);
      return;
    }
    if (!want(item.value, yaml::Kind::kArray, path, "a list of {path: FILE}")) return;
    if (item.value.elements.empty()) {
      diags_.error("HK303", item.value.span, path + " is empty", path);
    }
    for (size_t i = 0; i < item.value.elements.size(); ++i) {
      const yaml::Node& e = item.value.elements[i];
      const std::string p = types::index_path(path, i);
      if (!want(e, yaml::Kind::kMap, p, "a mapping with `path`")) continue;
      Include inc;
      inc.span = e.span;
      for (const yaml::MapItem& f : e.items) {
        if (!known_key(f, kIncludeKeys, p)) continue;
        inc.path = scalar(f, types::join_path(p, "path"));
        inc.span = f.value.span;
      }
      if (inc.path.empty()) {
        diags_.error("HK308", e.span, p + " has no `path`", types::join_path(p, "path"));
        continue;
      }
      m.includes.push_back(std::move(inc));
    }
  }

  void read_oras(const yaml::Node& n, const std::string& path, Manifest& m) {
    if (!want(n, yaml::Kind::kMap, path, "a mapping")) return;
    for (const yaml::MapItem& item : n.items) {
      if (!known_key(item, kOrasKeys, path) || item.key.text != "delegate") continue;
      const std::string dp = types::join_path(path, "delegate");
      if (!want(item.value, yaml::Kind::kMap, dp, "a mapping")) continue;
      const yaml::MapItem* helmfile = nullptr;
      std::string type;
      for (const yaml::MapItem& f : item.value.items) {
        if (!known_key(f, kDelegateKeys, dp)) continue;
        if (f.key.text == "type") type = scalar(f, types::join_path(dp, "type"));
        if (f.key.text == "helmfile") helmfile = &f;
      }
      if (type == "helmfile") {
        m.oras_helmfile = true;
        if (helmfile) read_helmfile(helmfile->value, types::join_path(dp, "helmfile"), m);
      } else if (type != "kustomize") {
        diags_.error("HK303", item.value.span,
                     dp + ".type must be \"helmfile\" or \"kustomize\", found " + in_quotes(type),
                     types::join_path(dp, "type"));
      }
    }
  }

  void read_manifest(const yaml::Node& n, const std::string& path, Config& out) {
    if (!want(n, yaml::Kind::kMap, path, "a mapping")) return;
    Manifest m;
    m.span = n.span;
    const yaml::MapItem* helmfile = nullptr;
    const yaml::MapItem* oras = nullptr;
    for (const yaml::MapItem& item : n.items) {
      if (!known_key(item, kManifestKeys, path)) continue;
      const std::string& key = item.key.text;
      const std::string p = types::join_path(path, key);
      if (key == "name") {
        m.name = scalar(item, p);
        m.name_span = item.value.span;
      } else if (key == "includes") {
        read_includes(item, p, m);
      } else if (key == "oras") {
        oras = &item;
      } else if (key == "type") {
        m.type = scalar(item, p);
      } else if (key == "path") {
        m.path = scalar(item, p);
        m.path_span = item.value.span;
      } else if (key == "tags") {
        if (want(item.value, yaml::Kind::kArray, p, "a list of strings")) {
          for (size_t i = 0; i < item.value.elements.size(); ++i) {
            const yaml::Node& t = item.value.elements[i];
            if (t.is_scalar() && !t.is_null()) {
              m.tags.push_back(converted(t, types::index_path(p, i)));
            } else {
              want(t, yaml::Kind::kString, types::index_path(p, i), "a string");
            }
          }
        }
      } else if (key == "helmfile") {
        helmfile = &item;
      }
    }
    if (!m.includes.empty()) {  // tazuna ignores an includer's other fields
      out.manifests.push_back(std::move(m));
      return;
    }
    if (m.name.empty()) m.name = m.path;
    if (m.name_span.file.empty()) m.name_span = m.path_span.known() ? m.path_span : m.span;
    if (m.type == "oras" && oras) read_oras(oras->value, types::join_path(path, "oras"), m);
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
        const std::string var_path = types::join_path(vars_path, v.key.text);
        VarSource s = read_var(v, var_path);
        s.name = converted(v.key, var_path, true);
        m.vars.push_back(std::move(s));
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
      diags_.error("HK304", item.key.span,
                   label + " has no From field (supported: env, static, op)",
                   types::join_path(path, "from"));
      s.valid = false;
      return s;
    }
    const std::string from_value = from->value.is_scalar() ? go_string(from->value) : "";
    if (from_value == "env") {
      s.kind = SourceKind::kEnv;
      if (!env || !env->value.is_scalar() || env->value.is_null() || env->value.text.empty()) {
        diags_.error("HK305", env ? env->value.span : item.key.span,
                     label + " has From env but no env field (`env: VARIABLE_NAME`)",
                     types::join_path(path, "env"));
        s.valid = false;
      } else {
        s.env = converted(env->value, types::join_path(path, "env"));
      }
    } else if (from_value == "static") {
      read_static(s, statics, item, path, label);
    } else if (from_value == "op") {
      s.kind = SourceKind::kOp;
      read_op(s, op, item, path, label);
    } else {
      auto& d = diags_.error("HK304", from->value.span,
                             label + " has unsupported From field: " + from->value.text +
                                 " (supported: env, static, op)",
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
          label + (statics.empty() ? " has From static but no static/staticSlice/staticMap field"
                                   : " has From static but multiple static fields are set (static, "
                                     "staticSlice, staticMap)"),
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
      // Non-string scalars become their Go spelling, as tazuna decodes them: 0755 -> "493".
      s.value = yaml::make_string(converted(f.value, p));
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
        yaml::Node str = yaml::make_string(converted(e, types::index_path(p, i)));
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
        const std::string ep = types::join_path(p, e.key.text);
        copy.key = yaml::make_string(converted(e.key, ep, true));
        copy.key.span = e.key.span;
        copy.value = yaml::make_string(converted(e.value, ep));
        copy.value.span = e.value.span;
        s.value.items.push_back(std::move(copy));
      }
    }
  }

  void read_op(VarSource& s, const yaml::MapItem* op, const yaml::MapItem& item,
               const std::string& path, const std::string& label) {
    const std::string p = types::join_path(path, "op");
    if (!op) {
      diags_.error("HK307", item.key.span,
                   label + " has From op but no op field (`op: {key, vault, item, field}`)", p);
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
        diags_.error("HK307", op->key.span,
                     label + " has From op but op." + name + " field is empty",
                     types::join_path(p, name));
        s.valid = false;
      }
    }
    if (!s.op.key.empty() && s.op.key != "id" && s.op.key != "label") {
      auto& d =
          diags_.error("HK307", op->value.span,
                       label + " has From op but op.key field has invalid value: " + s.op.key +
                           " (supported: id, label)",
                       types::join_path(p, "key"));
      std::string hint = diag::did_you_mean(s.op.key, kOpKeyValues);
      if (!hint.empty()) d.hints.push_back(hint);
      s.valid = false;
    }
  }

  diag::Diagnostics& diags_;
  diag::Diagnostics& conversions_;
  bool included_;
};

}  // namespace

namespace {

std::string position_text(const diag::Span& s) {
  return s.file.str() + ":" + std::to_string(s.begin.line) + ":" + std::to_string(s.begin.column);
}

// Go's filepath.Join: the parts joined with '/' and cleaned (an absolute `b` is not special).
std::string go_join(const std::string& a, const std::string& b) {
  if (a.empty()) return std::filesystem::path(b).lexically_normal().string();
  return (std::filesystem::path(a + "/" + b)).lexically_normal().string();
}

// Moves every span of a file rendered from a template back to its source position.
class Remapper {
 public:
  Remapper(const Rendered& r, const std::string& file) : r_(r), file_(file) {}
  void span(diag::Span& s) const {
    if (r_.identity || !s.known() || s.file != file_) return;
    s.begin = r_.source_position(s.begin);
    s.end = r_.source_position(s.end);
  }
  void node(yaml::Node& n) const {
    span(n.span);
    for (yaml::MapItem& item : n.items) {
      node(item.key);
      node(item.value);
    }
    for (yaml::Node& e : n.elements) node(e);
  }
  void diags(diag::Diagnostics& d) const {
    for (diag::Diagnostic& x : d.items()) {
      span(x.span);
      for (diag::Related& rel : x.related) span(rel.span);
    }
  }
  void config(Config& c) const {
    for (Manifest& m : c.manifests) {
      span(m.span);
      span(m.name_span);
      span(m.path_span);
      for (Include& inc : m.includes) span(inc.span);
      for (VarSource& v : m.vars) {
        span(v.span);
        node(v.value);
      }
    }
    diags(c.conversions);
  }

 private:
  const Rendered& r_;
  std::string file_;
};

// Renders, parses and decodes one file into `out`. False when it had errors (in `diags`).
diag::Result<bool> load_one(const std::string& path, std::string_view text,
                            const LoadOptions& options, bool included, Config& out,
                            diag::Diagnostics& diags) {
  diag::Diagnostics local;
  auto rendered = render_template(text, path, TemplateData{options.environment}, local);
  if (!rendered.ok()) return rendered.error();
  if (local.has_errors()) {
    diags.append(std::move(local));
    return false;
  }
  out.file = path;
  out.dir = std::filesystem::path(path).parent_path().string();
  diag::Diagnostics yaml_diags;
  auto docs = yaml::load(rendered->text, path, yaml_diags);
  const bool broken = yaml_diags.has_errors();
  local.append(std::move(yaml_diags));
  bool found = false;
  if (!broken) {
    for (const yaml::Document& d : docs) {
      if (d.empty) continue;
      Reader(local, out.conversions, included).read(d.root, out);
      found = true;
      break;
    }
    if (!found) local.error("HK301", diag::Span{path, {1, 1}, {1, 1}}, "tazuna.yaml is empty");
  }
  const Remapper remap(*rendered, path);
  remap.diags(local);
  remap.config(out);
  const bool ok = !local.has_errors();
  diags.append(std::move(local));
  return ok;
}

// A diagnostic from an included file names the include that brought it in.
void name_the_chain(diag::Diagnostics& d, const Include& inc) {
  for (diag::Diagnostic& x : d.items()) {
    x.message += " (included from " + position_text(inc.span) + ")";
    x.related.push_back({inc.span, "included from here"});
  }
}

void check_unique_names(const std::vector<Manifest>& manifests, diag::Diagnostics& diags) {
  std::map<std::string, const Manifest*> seen;
  for (const Manifest& m : manifests) {
    auto [it, fresh] = seen.emplace(m.name, &m);
    if (fresh) continue;
    auto& d = diags.error("HK315", m.name_span,
                          "two manifests are named " + in_quotes(m.name) +
                              (m.origin.empty() ? "" : " (in " + m.origin + ")") +
                              "; names must be unique after includes are expanded",
                          "name");
    d.related.push_back({it->second->name_span, "first named here"});
  }
}

// tazuna fails on a helmfile path that does not exist or a folder without a helmfile; each
// manifest that has one learns which file it is.
void find_helmfiles(Config& config, diag::Diagnostics& diags) {
  namespace fs = std::filesystem;
  for (Manifest& m : config.manifests) {
    if (m.type != "helmfile" || m.path.empty()) continue;
    const fs::path p =
        (fs::path(m.path).is_absolute() ? fs::path(m.path) : fs::path(config.dir) / m.path)
            .lexically_normal();
    m.helmfile = helmfile_in(p.string());
    if (!m.helmfile.empty()) continue;
    std::error_code ec;
    if (!fs::exists(p, ec)) {
      auto& d = diags.error("HK313", m.path_span,
                            m.label() + ": helmfile path " + in_quotes(m.path) +
                                " does not exist (" + p.string() + ")",
                            "path");
      d.hints.push_back("path is relative to the folder of " + config.file);
      continue;
    }
    diags.error("HK314", m.path_span,
                m.label() + ": folder " + in_quotes(m.path) +
                    " has no helmfile (looked for helmfile.yaml.gotmpl, helmfile.yaml, "
                    "helmfile.yml.gotmpl, helmfile.yml)",
                "path");
  }
}

}  // namespace

std::string helmfile_in(std::string_view path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  const fs::file_status st = fs::status(p, ec);
  if (!fs::exists(st)) return "";
  if (!fs::is_directory(st)) return std::string(path);
  for (std::string_view name : kHelmfileNames) {
    if (fs::exists(p / name, ec)) {
      std::string out = (p / name).string();
      if (out.rfind("./", 0) == 0) out.erase(0, 2);
      return out;
    }
  }
  return "";
}

std::string Manifest::label() const {
  return "manifest " + in_quotes(name) + (origin.empty() ? "" : " (in " + origin + ")");
}

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
    Reader(diags, out.conversions, false).read(d.root, out);
    return out;
  }
  diags.error("HK301", diag::Span{out.file, {1, 1}, {1, 1}}, "tazuna.yaml is empty");
  return out;
}

diag::Result<Config> load_config(const std::string& path, diag::Diagnostics& diags,
                                 const LoadOptions& options) {
  auto text = fileio::read_file(path);
  if (!text.ok()) return text.error();
  Config root;
  auto loaded = load_one(path, *text, options, false, root, diags);
  if (!loaded.ok()) return loaded.error();
  if (!options.environment.empty() && std::find(root.environments.begin(), root.environments.end(),
                                                options.environment) == root.environments.end()) {
    auto& d = diags.error("HK312", diag::Span{path, {1, 1}, {1, 1}},
                          "environment " + in_quotes(options.environment) +
                              " is not declared under spec.environments");
    if (auto n = diag::nearest(options.environment, root.environments))
      d.hints.push_back("did you mean \"" + *n + "\"?");
  }
  std::vector<Manifest> expanded;
  for (Manifest& m : root.manifests) {
    if (m.includes.empty()) {
      expanded.push_back(std::move(m));
      continue;
    }
    for (const Include& inc : m.includes) {
      // As tazuna: relative to the root file's folder, and so are the included `path`s.
      const std::string file = go_join(root.dir, inc.path);
      auto inc_text = fileio::read_file(file);
      if (!inc_text.ok()) {
        diags.error("HK308", inc.span,
                    "include " + in_quotes(inc.path) + ": " + inc_text.error().message, "includes");
        continue;
      }
      Config sub;
      diag::Diagnostics sub_diags;
      auto sub_loaded = load_one(file, *inc_text, options, true, sub, sub_diags);
      if (!sub_loaded.ok()) return sub_loaded.error();
      name_the_chain(sub_diags, inc);
      name_the_chain(sub.conversions, inc);
      diags.append(std::move(sub_diags));
      root.conversions.append(std::move(sub.conversions));
      for (Manifest& sm : sub.manifests) {
        sm.origin = file + ", included from " + position_text(inc.span);
        expanded.push_back(std::move(sm));
      }
    }
  }
  root.manifests = std::move(expanded);
  check_unique_names(root.manifests, diags);
  find_helmfiles(root, diags);
  return root;
}

std::string hint_dir(const Config& config, const Manifest& m) {
  namespace fs = std::filesystem;
  fs::path p = fs::path(m.path).is_absolute() ? fs::path(m.path) : fs::path(config.dir) / m.path;
  std::error_code ec;
  if (fs::is_directory(p, ec)) return p.lexically_normal().string();
  return p.parent_path().lexically_normal().string();
}

}  // namespace hintkit::resolver
