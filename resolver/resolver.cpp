#include "resolver/resolver.h"

#include <unordered_map>

#include "formats/formats.h"
#include "types/types.h"

namespace hintkit::resolver {
namespace {

using diag::in_quotes;

using hintfile::HintFile;
using hintfile::Var;
using hintfile::VarType;

std::string in_quotes_list(const std::vector<hintfile::Ref>& refs) {
  std::string s;
  for (size_t i = 0; i < refs.size(); ++i) s += (i ? ", " : "") + in_quotes(refs[i].name);
  return s;
}

yaml::Node zero_value(VarType t) {
  switch (t) {
    case VarType::kString:
      return yaml::make_string("");
    case VarType::kSlice:
      return yaml::make_array();
    case VarType::kMap:
      return yaml::make_map();
  }
  return yaml::make_null();
}

// What a hint type takes, for messages: "string (any scalar)".
std::string_view type_detail(VarType t) {
  switch (t) {
    case VarType::kString:
      return "string (any scalar)";
    case VarType::kSlice:
      return "slice (a list)";
    case VarType::kMap:
      return "map (a mapping)";
  }
  return "";
}

constexpr size_t kNoSlot = static_cast<size_t>(-1);

std::string names_list(const std::vector<hintfile::Ref>& refs) {
  std::string s;
  for (size_t i = 0; i < refs.size(); ++i) s += (i ? ", " : "") + refs[i].name;
  return s;
}

// Names as tazuna's messages print a []string (Go's %v): "[a b]".
std::string go_list(const std::vector<hintfile::Ref>& refs) {
  std::string s = "[";
  for (size_t i = 0; i < refs.size(); ++i) s += (i ? " " : "") + refs[i].name;
  return s + "]";
}

class Resolution {
 public:
  Resolution(const HintFile& hint, const yaml::Node& provided, diag::Diagnostics& diags,
             const Options& options)
      : hint_(hint), diags_(diags), options_(options), explain_(options.explain) {
    if (explain_) {
      explain_->clear();
      for (const Var& v : hint.vars)
        explain_->push_back({.name = v.name,
                             .origin = Origin::kProvided,
                             .where = v.span,
                             .value = {},
                             .checks = {}});
    }
    if (provided.kind == yaml::Kind::kMap) {
      provided_.reserve(provided.items.size());
      for (const yaml::MapItem& item : provided.items) {
        if (!item.value.is_null()) provided_.emplace(yaml::go_key_string(item.key), &item);
      }
      find_misspellings(provided);
    }
  }

  yaml::Node run(const yaml::Node& provided) {
    yaml::Node out = yaml::make_map();
    out.items.reserve(hint_.vars.size() +
                      (provided.kind == yaml::Kind::kMap ? provided.items.size() : 0));
    std::vector<size_t> slot(hint_.vars.size(), kNoSlot);  // var index -> item in `out`
    for (size_t i = 0; i < hint_.vars.size(); ++i) {
      const Var& v = hint_.vars[i];
      if (auto value = resolve_var(v)) {
        slot[i] = out.items.size();
        yaml::MapItem item;
        item.key = yaml::make_string(v.name);
        item.value = std::move(*value);
        out.items.push_back(std::move(item));
      }
    }
    if (provided.kind == yaml::Kind::kMap) {
      for (const yaml::MapItem& item : provided.items) {
        const std::string name = yaml::go_key_string(item.key);
        if (hint_.find(name)) continue;
        warn_if_misspelt(item, name);
        out.items.push_back(item);
        out.items.back().key = yaml::make_string(name);  // as tazuna hands vars to helmfile
        out.items.back().key.span = item.key.span;
      }
    }
    for (const Var& v : hint_.vars) check_required_with(v);
    for (const Var& v : hint_.vars) check_required_without(v);
    for (size_t i = 0; i < hint_.vars.size(); ++i) {
      if (slot[i] != kNoSlot) check_format(hint_.vars[i], out.items[slot[i]].value);
    }
    for (const hintfile::Rule& r : hint_.rules) check_rule(r);
    if (explain_) finish_explanation(out, slot);
    return out;
  }

 private:
  const yaml::MapItem* provided(std::string_view name) const {
    auto it = provided_.find(std::string(name));
    return it == provided_.end() ? nullptr : it->second;
  }

  // Provided keys the hint does not declare that are a plausible misspelling of a declared
  // var nobody provided (`clustrName` for `clusterName`): the first such key per var.
  void find_misspellings(const yaml::Node& values) {
    const std::vector<std::string> names = hint_.var_names();
    for (const yaml::MapItem& item : values.items) {
      const std::string name = yaml::go_key_string(item.key);
      if (hint_.find(name)) continue;
      const std::optional<std::string> near = diag::nearest(name, names);
      if (near && !provided(*near)) misspellings_.emplace(*near, &item);
    }
  }
  const yaml::MapItem* misspelling_of(const std::string& var) const {
    auto it = misspellings_.find(var);
    return it == misspellings_.end() ? nullptr : it->second;
  }
  void warn_if_misspelt(const yaml::MapItem& item, const std::string& name) {
    for (const auto& [var, meant] : misspellings_) {
      if (meant != &item) continue;
      auto& d = diags_.warning("HK206", item.key.span,
                               in_quotes(name) +
                                   " is provided but the hint does not declare it; did you mean " +
                                   in_quotes(var) + "?",
                               name);
      if (const Var* v = hint_.find(var)) d.related.push_back({v->span, "declared here"});
      return;
    }
  }

  // Explanations: one per declared var (index = var index), then the pass-through vars.
  void ran(const Var& v, std::string check, bool passed) {
    if (!explain_) return;
    (*explain_)[static_cast<size_t>(&v - hint_.vars.data())].checks.push_back(
        {std::move(check), passed});
  }
  void origin(const Var& v, Origin o, diag::Span where) {
    if (!explain_) return;
    VarExplanation& e = (*explain_)[static_cast<size_t>(&v - hint_.vars.data())];
    e.origin = o;
    e.where = where;
  }
  void finish_explanation(const yaml::Node& out, const std::vector<size_t>& slot) {
    for (size_t i = 0; i < slot.size(); ++i) {
      if (slot[i] != kNoSlot) (*explain_)[i].value = out.items[slot[i]].value;
    }
    for (const yaml::MapItem& item : out.items) {
      if (hint_.find(item.key.text)) continue;
      explain_->push_back({.name = item.key.text,
                           .origin = Origin::kPassThrough,
                           .where = item.value.span,
                           .value = item.value,
                           .checks = {}});
    }
  }

  // The var's resolved value; nothing when it is required and missing (still reported).
  std::optional<yaml::Node> resolve_var(const Var& v) {
    if (const yaml::MapItem* item = provided(v.name)) {
      origin(v, Origin::kProvided, item->value.span);
      if (v.required) ran(v, "required", true);
      check_type(v, item->value);
      return item->value;
    }
    if (v.required) {
      origin(v, Origin::kMissing, v.span);
      ran(v, "required", false);
      // A missing var has no place in the values; the hint's declaration is the place.
      auto& d = diags_.error("HK200", v.span,
                             "var " + in_quotes(v.name) + " is required but not provided", v.name);
      d.related.push_back({v.required_span, "required here"});
      if (const yaml::MapItem* meant = misspelling_of(v.name)) {
        d.hints.push_back(in_quotes(yaml::go_key_string(meant->key)) +
                          " is provided, which the hint does not declare: did you mean " +
                          in_quotes(v.name) + "?");
        d.related.push_back({meant->key.span, "probably meant here"});
      } else {
        d.hints.push_back("provide a value for " + v.name);
      }
      return std::nullopt;
    }
    if (v.default_value) {
      origin(v, Origin::kDefault, v.default_value->span);
      return *v.default_value;
    }
    origin(v, Origin::kZero, v.span);
    if (v.type) return zero_value(*v.type);
    return yaml::make_null();
  }

  void check_type(const Var& v, const yaml::Node& value) {
    if (!v.type) return;
    const bool fits = types::fits(value, v.checker_type());
    ran(v, "type " + std::string(hintfile::to_string(*v.type)), fits);
    if (fits) return;
    auto& d = diags_.error("HK201", value.span,
                           "var " + in_quotes(v.name) + " expects type " +
                               std::string(type_detail(*v.type)) + ", but got " +
                               types::a_kind(value.kind),
                           v.name);
    d.related.push_back({v.type_span, "type declared here"});
  }

  void check_required_with(const Var& v) {
    if (v.required_with.empty()) return;
    const std::string check = "required_with [" + names_list(v.required_with) + "]";
    if (provided(v.name)) return ran(v, check, true);
    std::vector<hintfile::Ref> present;
    for (const hintfile::Ref& r : v.required_with) {
      if (r.name != v.name && provided(r.name)) present.push_back(r);
    }
    ran(v, check, present.empty());
    if (present.empty()) return;
    auto& d = diags_.error("HK202", v.span,
                           "var " + in_quotes(v.name) + " is required because " +
                               in_quotes_list(present) + (present.size() == 1 ? " is" : " are") +
                               " provided (required_with)",
                           v.name);
    d.related.push_back({provided(present.front().name)->key.span, "provided here"});
  }

  void check_required_without(const Var& v) {
    if (v.required_without.empty()) return;
    const std::string check = "required_without [" + names_list(v.required_without) + "]";
    if (provided(v.name)) return ran(v, check, true);
    for (const hintfile::Ref& r : v.required_without) {
      if (provided(r.name)) return ran(v, check, true);
    }
    ran(v, check, false);
    diags_.error("HK203", v.span,
                 "var " + in_quotes(v.name) + " is required because none of " +
                     go_list(v.required_without) + " are provided (required_without)",
                 v.name);
  }

  void check_format(const Var& v, const yaml::Node& value) {
    if (!v.format || value.kind != yaml::Kind::kString || value.text.empty()) return;
    auto why = formats::check(*v.format, value.text);
    ran(v, "format " + std::string(formats::to_string(*v.format)), !why);
    if (!why) return;
    const bool injected = !provided(v.name);
    // The reason quotes parts of the value, so it goes with the value.
    auto& d = diags_.error(
        "HK204", value.span,
        "var " + in_quotes(v.name) +
            (options_.show_values ? " value " + in_quotes(value.text) : "") +
            " does not match format " + in_quotes(formats::to_string(*v.format)) +
            (options_.show_values ? ": " + *why : "") + (injected ? " (from its default)" : ""),
        v.name);
    d.related.push_back({v.format_span, "format declared here"});
    if (!options_.show_values) {
      d.hints.push_back("expected " + std::string(formats::syntax(*v.format)) +
                        "; --show-values prints the value and why it fails");
    }
  }

  void check_rule(const hintfile::Rule& r) {
    if (!r.type) return;
    bool satisfied = false;
    for (const hintfile::Ref& ref : r.vars) satisfied = satisfied || provided(ref.name);
    for (const hintfile::Ref& ref : r.vars) {
      if (const Var* v = hint_.find(ref.name)) {
        ran(*v, "rule[" + std::to_string(r.index) + "] oneof_required [" + names_list(r.vars) + "]",
            satisfied);
      }
    }
    if (satisfied) return;
    std::string msg =
        r.message.empty() ? "at least one of " + go_list(r.vars) + " must be provided" : r.message;
    diags_.error("HK205", r.span, "rule[" + std::to_string(r.index) + "] (oneof_required): " + msg,
                 "rules[" + std::to_string(r.index) + "]");
  }

  const HintFile& hint_;
  diag::Diagnostics& diags_;
  const Options& options_;
  std::vector<VarExplanation>* explain_;
  std::unordered_map<std::string, const yaml::MapItem*> provided_;
  std::unordered_map<std::string, const yaml::MapItem*> misspellings_;  // var -> provided key
};

}  // namespace

std::string_view to_string(Origin o) {
  switch (o) {
    case Origin::kProvided:
      return "provided";
    case Origin::kDefault:
      return "default";
    case Origin::kZero:
      return "zero value";
    case Origin::kMissing:
      return "missing";
    case Origin::kPassThrough:
      return "passed through";
  }
  return "";
}

yaml::Node resolve(const hintfile::HintFile* hint, const yaml::Node& provided,
                   diag::Diagnostics& diags, const Options& options) {
  if (provided.kind != yaml::Kind::kMap && provided.kind != yaml::Kind::kNull) {
    diags.error("HK210", provided.span,
                options.values_label + " must be a mapping of var names to values, found " +
                    std::string(yaml::to_string(provided.kind)));
    return yaml::make_map();
  }
  if (!hint) {
    if (options.explain) {
      options.explain->clear();
      for (const yaml::MapItem& item : provided.items) {
        options.explain->push_back({.name = item.key.text,
                                    .origin = Origin::kPassThrough,
                                    .where = item.value.span,
                                    .value = item.value,
                                    .checks = {}});
      }
    }
    return provided.kind == yaml::Kind::kMap ? provided : yaml::make_map();
  }
  return Resolution(*hint, provided, diags, options).run(provided);
}

}  // namespace hintkit::resolver
