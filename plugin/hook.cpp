// `hintkit hook presync|prepare`: helmfile runs it with the helmfile's folder as working
// directory, argv as rendered (no shell), stdin /dev/null. The release's `.Values` arrive as
// Go-encoded JSON; they are the provided vars. Values are never printed unless asked for:
// helmfile echoes hook arguments and output into its logs, and values carry secrets.
//
// `--values-json` is read by a strict JSON parser (nlohmann/json), never the YAML loader: text
// that is YAML but not JSON (an unrendered `{{ .Values | toJson }}` reads as a YAML mapping)
// must stop the hook instead of passing with nothing checked.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

#include "hintfile/hintfile.h"
#include "plugin/commands.h"
#include "plugin/values_io.h"
#include "resolver/resolver.h"

namespace hintkit::plugin {
namespace {

using ordered_json = nlohmann::ordered_json;

yaml::Node to_node(const ordered_json& j, const diag::Span& span) {
  yaml::Node n;
  switch (j.type()) {
    case ordered_json::value_t::object:
      n = yaml::make_map();
      for (auto it = j.begin(); it != j.end(); ++it) {
        yaml::MapItem item;
        item.key = yaml::make_string(it.key());
        item.key.span = span;
        item.value = to_node(it.value(), span);
        n.items.push_back(std::move(item));
      }
      break;
    case ordered_json::value_t::array:
      n = yaml::make_array();
      for (const auto& e : j) n.elements.push_back(to_node(e, span));
      break;
    case ordered_json::value_t::string:
      n = yaml::make_string(j.get<std::string>());
      break;
    case ordered_json::value_t::boolean:
      n = yaml::make_bool(j.get<bool>());
      break;
    case ordered_json::value_t::number_integer:
      n = yaml::make_int(j.get<int64_t>());
      break;
    case ordered_json::value_t::number_unsigned: {
      const uint64_t u = j.get<uint64_t>();
      n = yaml::make_int(static_cast<int64_t>(u));
      n.is_unsigned = u > static_cast<uint64_t>(INT64_MAX);
      break;
    }
    case ordered_json::value_t::number_float:
      n = yaml::make_float(j.get<double>());
      break;
    default:
      n = yaml::make_null();
  }
  n.span = span;
  return n;
}

const char* kQuotingHint =
    "helmfile renders hook args once: in helmfile.yaml write "
    "'{{ .Values | toJson }}'; only helmfile.yaml.gotmpl, which is rendered once more before, "
    "needs it escaped as '{{`{{ .Values | toJson }}`}}'";

// The release values of --values-json, or why they cannot be used (a usage error: the hook's
// wiring is wrong, not the release's values).
diag::Result<yaml::Node> parse_values_json(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return diag::Error{
        "--values-json is empty: helmfile passed no values (is the argument "
        "'{{ .Values | toJson }}' there?)",
        {}};
  }
  // Nesting is bounded as YAML's is: the conversion and the resolver recurse per level.
  struct TooDeep {};
  auto bounded = [](int depth, ordered_json::parse_event_t event, ordered_json&) {
    if ((event == ordered_json::parse_event_t::object_start ||
         event == ordered_json::parse_event_t::array_start) &&
        depth >= yaml::kMaxDepth)
      throw TooDeep{};
    return true;
  };
  ordered_json j;
  try {
    j = ordered_json::parse(text, bounded);
  } catch (const TooDeep&) {
    return diag::Error{
        "--values-json nests deeper than " + std::to_string(yaml::kMaxDepth) + " levels", {}};
  } catch (const ordered_json::parse_error& e) {
    // A value may hold "{{" in valid JSON; text that is not JSON and has it was not rendered.
    if (text.find("{{") != std::string::npos) {
      return diag::Error{"--values-json holds an unrendered helmfile template, not JSON; " +
                             std::string(kQuotingHint),
                         {}};
    }
    std::string why = e.what();
    if (auto p = why.find("parse error"); p != std::string::npos) why = why.substr(p);
    return diag::Error{"--values-json is not valid JSON (" + why + ")", {}};
  }
  const char* found = nullptr;
  switch (j.type()) {
    case ordered_json::value_t::object:
      return to_node(j, diag::Span{"--values-json", {}, {}});
    case ordered_json::value_t::null:
      found = "JSON null";
      break;
    case ordered_json::value_t::array:
      found = "a JSON array";
      break;
    case ordered_json::value_t::string:
      found = "a JSON string";
      break;
    case ordered_json::value_t::boolean:
      found = "a JSON boolean";
      break;
    default:
      found = "a JSON number";
  }
  return diag::Error{std::string("--values-json must be a JSON object of the release's values, "
                                 "found ") +
                         found,
                     {}};
}

}  // namespace

int run_hook(const HookOptions& o, Io io) {
  const std::string label = "hook " + o.event + ": ";
  if (o.values_json_given == !o.values_file.empty()) {
    return fail(io, label + "give exactly one of --values-json or --values-file");
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(o.dir, ec)) {
    return fail(io, label + "--dir " + o.dir + " is not a folder");
  }
  diag::Diagnostics diags;
  yaml::Node values;
  if (!o.values_file.empty()) {
    auto loaded = load_values(o.values_file, io.in, diags, o.show_values);
    if (!loaded.ok()) return fail(io, label + loaded.error().message);
    values = std::move(loaded).value();
    if (diags.has_errors() || values.kind != yaml::Kind::kMap) {
      io.err << "hintkit: " << label << "the values are not a mapping";
      if (!diags.empty()) {
        const diag::Diagnostic& d = diags.items()[0];
        io.err << " (";
        if (d.span.known()) {
          io.err << d.span.file.str() << ":" << d.span.begin.line << ":" << d.span.begin.column
                 << ": ";
        }
        io.err << d.message << ")";
      }
      io.err << "\n";
      return kExitUsage;
    }
  } else {
    auto parsed = parse_values_json(o.values_json);
    if (!parsed.ok()) return fail(io, label + parsed.error().message);
    values = std::move(parsed).value();
  }

  const std::string hint_path = join_file(o.dir, hintfile::kFileName);
  if (!std::filesystem::exists(hint_path, ec)) return kExitClean;
  auto hint = hintfile::load_file(hint_path, diags);
  if (!hint.ok()) return fail(io, label + hint.error().message);
  if (diags.has_errors()) {
    diags.sort_and_dedupe();
    diag::render(io.err, diag::Format::kText, diags);
    return kExitFindings;
  }
  resolver::Options options;
  options.values_label = "release values";
  options.show_values = o.show_values;
  yaml::Node resolved = resolver::resolve(&*hint, values, diags, options);
  diag::RenderOptions render;
  render.message_prefix = "";
  diag::render(io.err, diag::Format::kText, diags, render);
  if (diags.has_errors()) {
    io.err << "hintkit: " << count_of(diags.error_count(), "problem")
           << " with the values of this release (" << hint_path << ")\n";
    return kExitFindings;
  }
  if (o.show_values) write_values(io.out, resolved, "yaml");
  return kExitClean;
}

}  // namespace hintkit::plugin
