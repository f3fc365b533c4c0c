// `hintkit hook presync|prepare`: helmfile runs it with the helmfile's folder as working
// directory, argv as rendered (no shell), stdin /dev/null. The release's `.Values` arrive as
// Go-encoded JSON; they are the provided vars. Values are never printed unless asked for:
// helmfile echoes hook arguments and output into its logs, and values carry secrets.
#include <filesystem>
#include <ostream>

#include "hintfile/hintfile.h"
#include "plugin/commands.h"
#include "plugin/values_io.h"
#include "resolver/resolver.h"

namespace hintkit::plugin {

int run_hook(const HookOptions& o, Io io) {
  if (o.values_json.empty() == o.values_file.empty()) {
    return fail(io, "hook " + o.event + ": give exactly one of --values-json or --values-file");
  }
  diag::Diagnostics diags;
  yaml::Node values;
  if (!o.values_file.empty()) {
    auto loaded = load_values(o.values_file, io.in, diags);
    if (!loaded.ok()) return fail(io, "hook " + o.event + ": " + loaded.error().message);
    values = std::move(loaded).value();
  } else {
    auto docs = yaml::load(o.values_json, "--values-json", diags);
    if (!docs.empty() && !docs[0].empty) values = docs[0].root;
  }
  if (diags.has_errors() || (values.kind != yaml::Kind::kMap && values.kind != yaml::Kind::kNull)) {
    // Malformed input is the hook's wiring, not the release's values: a usage error.
    io.err << "hintkit: hook " << o.event << ": the values are not a JSON object";
    if (!diags.empty()) io.err << " (" << diags.items()[0].message << ")";
    io.err << "\n";
    return kExitUsage;
  }

  const std::string hint_path = join_file(o.dir, hintfile::kFileName);
  std::error_code ec;
  if (!std::filesystem::exists(hint_path, ec)) return kExitClean;
  auto hint = hintfile::load_file(hint_path, diags);
  if (!hint.ok()) return fail(io, "hook " + o.event + ": " + hint.error().message);
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
    io.err << "hintkit: " << diags.error_count()
           << (diags.error_count() == 1 ? " problem" : " problems")
           << " with the values of this release (" << hint_path << ")\n";
    return kExitFindings;
  }
  if (o.show_values) write_values(io.out, resolved, "yaml");
  return kExitClean;
}

}  // namespace hintkit::plugin
