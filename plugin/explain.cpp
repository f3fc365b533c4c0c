#include "plugin/explain.h"

#include <algorithm>

namespace hintkit::plugin {
namespace {

std::string place(const diag::Span& s) {
  if (!s.known()) return "";
  return s.file.str() + ":" + std::to_string(s.begin.line) + ":" + std::to_string(s.begin.column);
}

std::string provided_source(const resolver::VarExplanation& v, const ExplainOptions& o) {
  std::string source = o.provided_source ? o.provided_source(v.name) : "";
  if (!source.empty()) return source;
  const std::string at = place(v.where);
  return at.empty() ? o.provided_label : at;
}

// "provided (values.yaml:3:5)", "the hint's default (tazuna.hint.yaml:9:14)", ...
std::string origin_text(const resolver::VarExplanation& v, const ExplainOptions& o) {
  const std::string at = place(v.where);
  switch (v.origin) {
    case resolver::Origin::kProvided:
      return "provided (" + provided_source(v, o) + ")";
    case resolver::Origin::kDefault:
      return "the hint's default (" + at + ")";
    case resolver::Origin::kZero:
      return "zero value of its type (not provided, no default)";
    case resolver::Origin::kMissing:
      return "missing: required and not provided";
    case resolver::Origin::kPassThrough:
      return "passed through, not declared by the hint (" + (at.empty() ? o.provided_label : at) +
             ")";
  }
  return "";
}

void put(yaml::Node& map, std::string key, yaml::Node value) {
  yaml::MapItem item;
  item.key = yaml::make_string(std::move(key));
  item.value = std::move(value);
  map.items.push_back(std::move(item));
}

}  // namespace

yaml::Node explanation_node(const std::vector<resolver::VarExplanation>& vars,
                            const ExplainOptions& o) {
  yaml::Node list = yaml::make_array();
  for (const auto& v : vars) {
    yaml::Node n = yaml::make_map();
    put(n, "name", yaml::make_string(v.name));
    put(n, "origin", yaml::make_string(std::string(resolver::to_string(v.origin))));
    const std::string at =
        v.origin == resolver::Origin::kProvided ? provided_source(v, o) : place(v.where);
    if (!at.empty()) put(n, "source", yaml::make_string(at));
    if (v.value) put(n, "value", o.show_values ? *v.value : yaml::make_string("<redacted>"));
    yaml::Node checks = yaml::make_array();
    for (const auto& c : v.checks) {
      yaml::Node cn = yaml::make_map();
      put(cn, "check", yaml::make_string(c.name));
      put(cn, "passed", yaml::make_bool(c.passed));
      checks.elements.push_back(std::move(cn));
    }
    put(n, "checks", std::move(checks));
    list.elements.push_back(std::move(n));
  }
  yaml::Node root = yaml::make_map();
  put(root, "vars", std::move(list));
  return root;
}

void write_explanation(std::ostream& out, const std::vector<resolver::VarExplanation>& vars,
                       const ExplainOptions& o) {
  if (o.output == "json") {
    out << yaml::emit_json(explanation_node(vars, o), 2) << '\n';
    return;
  }
  size_t width = 0;
  for (const auto& v : vars) width = std::max(width, v.name.size());
  for (const auto& v : vars) {
    out << v.name << std::string(width - v.name.size() + 2, ' ') << origin_text(v, o) << '\n';
    if (v.value && o.show_values) out << "    value: " << yaml::emit_json(*v.value) << '\n';
    if (v.checks.empty()) {
      out << "    checks: none\n";
      continue;
    }
    out << "    checks:";
    for (size_t i = 0; i < v.checks.size(); ++i) {
      out << (i ? ", " : " ") << v.checks[i].name << (v.checks[i].passed ? " ok" : " FAILED");
    }
    out << '\n';
  }
}

}  // namespace hintkit::plugin
