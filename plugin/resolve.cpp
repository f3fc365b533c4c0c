// `hintkit resolve`: provided vars + hint -> resolved vars on stdout, violations on stderr.
#include <filesystem>
#include <iostream>
#include <iterator>

#include "hintfile/hintfile.h"
#include "plugin/commands.h"
#include "plugin/explain.h"
#include "plugin/values_io.h"
#include "resolver/resolver.h"

namespace hintkit::plugin {

int run_resolve(const ResolveOptions& o, Io io) {
  diag::Diagnostics diags;

  // The hint: --hint must exist; --dir may lack one (the values then pass through).
  std::optional<hintfile::HintFile> hint;
  std::string hint_path = o.hint.empty() ? join_file(o.dir, hintfile::kFileName) : o.hint;
  if (!o.dir.empty() && !std::filesystem::is_directory(o.dir)) {
    return fail(io, "resolve: --dir " + o.dir + " is not a folder");
  }
  std::error_code ec;
  if (!o.hint.empty() || std::filesystem::exists(hint_path, ec)) {
    auto loaded = hintfile::load_file(hint_path, diags);
    if (!loaded.ok()) return fail(io, loaded.error().message);
    hint = std::move(loaded).value();
  }

  auto values = load_values(o.values, io.in, diags, o.show_values);
  if (!values.ok()) return fail(io, values.error().message);

  const diag::RenderOptions options = render_options(io, io.err);
  if (diags.has_errors()) {
    diags.sort_and_dedupe();
    diag::render(io.err, *diag::parse_format(o.format), diags, options);
    return kExitFindings;
  }
  std::vector<resolver::VarExplanation> explanation;
  resolver::Options resolve_options{.values_label = o.values == "-" ? "stdin" : o.values,
                                    .show_values = o.show_values};
  if (o.explain) resolve_options.explain = &explanation;
  yaml::Node resolved = resolver::resolve(hint ? &*hint : nullptr, *values, diags, resolve_options);
  if (!diags.empty()) {
    diag::render(io.err, *diag::parse_format(o.format), diags, options);
  }
  if (o.explain) {
    // The explanation is printed whether or not the values pass: it is how to find out why.
    write_explanation(io.out, explanation,
                      {.output = o.output == "json" ? "json" : "text",
                       .show_values = o.show_values,
                       .provided_label = resolve_options.values_label,
                       .provided_source = {}});
    return diags.has_errors() ? kExitFindings : kExitClean;
  }
  if (diags.has_errors()) return kExitFindings;
  write_values(io.out, resolved, o.output);
  return kExitClean;
}

}  // namespace hintkit::plugin
