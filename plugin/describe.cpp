// `hintkit describe`: what a hint file declares, for people (text) and tools (yaml, json,
// json-schema); `hintkit schema hint-file`: the JSON Schema of the hint format itself.
#include <algorithm>
#include <filesystem>
#include <ostream>

#include "hintfile/hintfile.h"
#include "plugin/commands.h"

namespace hintkit::plugin {
namespace {

std::string names(const std::vector<hintfile::Ref>& refs) {
  std::string s;
  for (size_t i = 0; i < refs.size(); ++i) s += (i ? ", " : "") + refs[i].name;
  return s;
}

std::string_view status(const hintfile::Var& v) {
  if (v.required) return "required";
  if (!v.required_with.empty() || !v.required_without.empty()) return "conditional";
  return "optional";
}

std::vector<std::string> conditions(const hintfile::Var& v) {
  std::vector<std::string> out;
  if (!v.required_with.empty())
    out.push_back("required when any of " + names(v.required_with) + " is provided");
  if (!v.required_without.empty())
    out.push_back("required when none of " + names(v.required_without) + " is provided");
  return out;
}

void add(yaml::Node& map, std::string key, yaml::Node value) {
  yaml::MapItem item;
  item.key = yaml::make_string(std::move(key));
  item.value = std::move(value);
  map.items.push_back(std::move(item));
}

yaml::Node to_node(const hintfile::HintFile& hint, const std::vector<const hintfile::Var*>& vars) {
  yaml::Node root = yaml::make_map();
  add(root, "file", yaml::make_string(hint.path));
  yaml::Node vars_node = yaml::make_array();
  for (const hintfile::Var* v : vars) {
    yaml::Node n = yaml::make_map();
    add(n, "name", yaml::make_string(v->name));
    add(n, "type", yaml::make_string(v->type ? std::string(hintfile::to_string(*v->type)) : ""));
    add(n, "status", yaml::make_string(std::string(status(*v))));
    if (v->format) add(n, "format", yaml::make_string(std::string(formats::to_string(*v->format))));
    if (!v->description.empty()) add(n, "description", yaml::make_string(v->description));
    if (v->default_value) add(n, "default", *v->default_value);
    yaml::Node conds = yaml::make_array();
    for (std::string& c : conditions(*v)) conds.elements.push_back(yaml::make_string(std::move(c)));
    if (!conds.elements.empty()) add(n, "conditions", std::move(conds));
    vars_node.elements.push_back(std::move(n));
  }
  add(root, "vars", std::move(vars_node));
  yaml::Node rules = yaml::make_array();
  for (const hintfile::Rule& r : hint.rules) {
    yaml::Node n = yaml::make_map();
    add(n, "type", yaml::make_string("oneof_required"));
    yaml::Node rv = yaml::make_array();
    for (const hintfile::Ref& ref : r.vars) rv.elements.push_back(yaml::make_string(ref.name));
    add(n, "vars", std::move(rv));
    if (!r.message.empty()) add(n, "message", yaml::make_string(r.message));
    rules.elements.push_back(std::move(n));
  }
  add(root, "rules", std::move(rules));
  return root;
}

void print_text(std::ostream& out, const hintfile::HintFile& hint,
                const std::vector<const hintfile::Var*>& vars) {
  std::string s = hint.path + ": " + std::to_string(vars.size()) +
                  (vars.size() == 1 ? " var" : " vars") + ", " + std::to_string(hint.rules.size()) +
                  (hint.rules.size() == 1 ? " rule\n" : " rules\n");
  size_t width = 0;
  for (const auto* v : vars) width = std::max(width, v->name.size());
  for (const auto* v : vars) {
    std::string line = "  " + v->name + std::string(width - v->name.size() + 2, ' ');
    std::string type = v->type ? std::string(hintfile::to_string(*v->type)) : "?";
    if (v->format) type += " (" + std::string(formats::to_string(*v->format)) + ")";
    line +=
        type + std::string(type.size() < 18 ? 18 - type.size() : 1, ' ') + std::string(status(*v));
    if (v->default_value) line += "  default: " + yaml::emit_json(*v->default_value);
    s += line + '\n';
    if (!v->description.empty()) s += "      " + v->description + '\n';
    for (const std::string& c : conditions(*v)) s += "      " + c + '\n';
  }
  if (!hint.rules.empty()) s += "rules:\n";
  for (const hintfile::Rule& r : hint.rules) {
    s += "  rule[" + std::to_string(r.index) + "] oneof_required: at least one of " + names(r.vars);
    if (!r.message.empty()) s += " (\"" + r.message + "\")";
    s += '\n';
  }
  out << s;
}

}  // namespace

int run_describe(const DescribeOptions& o, Io io) {
  std::error_code ec;
  std::string path = std::filesystem::is_directory(o.target, ec)
                         ? join_file(o.target, hintfile::kFileName)
                         : o.target;
  diag::Diagnostics diags;
  auto hint = hintfile::load_file(path, diags);
  if (!hint.ok()) return fail(io, "describe: " + hint.error().message);
  if (diags.has_errors()) {
    diags.sort_and_dedupe();
    diag::render(io.err, diag::Format::kText, diags, render_options(io, io.err));
    return kExitFindings;
  }
  std::vector<const hintfile::Var*> vars;
  for (const hintfile::Var& v : hint->vars) vars.push_back(&v);
  std::sort(vars.begin(), vars.end(), [](auto* a, auto* b) { return a->name < b->name; });
  if (o.output == "text") {
    print_text(io.out, *hint, vars);
  } else if (o.output == "json-schema") {
    io.out << yaml::emit_json(hintfile::vars_json_schema(*hint, "vars of " + hint->path), 2)
           << '\n';
  } else if (o.output == "json") {
    io.out << yaml::emit_json(to_node(*hint, vars), 2) << '\n';
  } else {
    io.out << yaml::emit_yaml(to_node(*hint, vars));
  }
  return kExitClean;
}

int run_schema(const std::string& kind, Io io) {
  if (kind != "hint-file") return fail(io, "schema: unknown kind \"" + kind + "\" (hint-file)");
  io.out << yaml::emit_json(hintfile::hint_file_json_schema(), 2) << '\n';
  return kExitClean;
}

}  // namespace hintkit::plugin
