// `resolve --config` and `lint --config`: every helmfile manifest of a tazuna.yaml, processed
// concurrently on a thread pool, reported in tazuna.yaml order.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>

#include "plugin/commands.h"
#include "plugin/explain.h"
#include "plugin/out_dir.h"
#include "plugin/parallel.h"
#include "plugin/subprocess.h"
#include "plugin/values_io.h"
#include "resolver/resolver.h"
#include "resolver/tazuna.h"
#include "tmplcheck/tmplcheck.h"

namespace hintkit::plugin {
namespace {

namespace fs = std::filesystem;

// `op item get` prints every field of an item; one call per vault/item serves all its fields.
class OpClient {
 public:
  explicit OpClient(std::chrono::seconds timeout) : timeout_(timeout) {}

  // Fetches every distinct vault/item of `manifests` at once, `jobs` calls at a time, so
  // later `field()` lookups are served from the cache.
  template <typename ParallelFor>
  void prefetch(const std::vector<const resolver::Manifest*>& manifests, ParallelFor run) {
    std::vector<std::pair<std::string, std::string>> items;
    for (const resolver::Manifest* m : manifests) {
      for (const resolver::VarSource& s : m->vars) {
        if (s.valid && s.kind == resolver::SourceKind::kOp)
          items.emplace_back(s.op.vault, s.op.item);
      }
    }
    std::sort(items.begin(), items.end());
    items.erase(std::unique(items.begin(), items.end()), items.end());
    run(items.size(), [&](size_t i) { (void)item(items[i].first, items[i].second); });
  }

  diag::Result<std::string> field(const resolver::OpRef& ref) {
    diag::Result<std::string> json = item(ref.vault, ref.item);
    if (!json.ok()) return json.error();
    return resolver::pick_op_field(*json, ref);
  }

 private:
  diag::Result<std::string> item(const std::string& vault, const std::string& item) {
    const std::string key = vault + '\n' + item;
    {
      std::lock_guard lock(mu_);
      if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    }
    diag::Result<std::string> result = fetch(vault, item);
    std::lock_guard lock(mu_);
    cache_.emplace(key, result);
    return result;
  }

  diag::Result<std::string> fetch(const std::string& vault, const std::string& item) const {
    // `--vault=V` and `--` keep a vault or item spelled like an option (`--config=...`) a
    // value: op's flag parser takes everything after `--` as arguments.
    auto run = run_process(
        {"op", "--format", "json", "item", "get", "--vault=" + vault, "--", item}, timeout_);
    if (!run.ok()) {
      return diag::Error{run.error().message.find("not found on PATH") != std::string::npos
                             ? "the 1Password CLI `op` was not found on PATH"
                             : run.error().message,
                         {}};
    }
    if (run->exit_code != 0) {
      std::string why = run->err;
      while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
      if (why.size() > 300) why = why.substr(0, 300) + "...";
      return diag::Error{"`op item get` exited with " + std::to_string(run->exit_code) +
                             (why.empty() ? "" : ": " + why),
                         {}};
    }
    return run->out;
  }

  std::chrono::seconds timeout_;
  std::mutex mu_;
  std::map<std::string, diag::Result<std::string>> cache_;
};

std::vector<std::string> split_tags(const std::string& tags) {
  std::vector<std::string> out;
  std::stringstream ss(tags);
  std::string t;
  while (std::getline(ss, t, ',')) {
    if (!t.empty()) out.push_back(t);
  }
  return out;
}

struct Selection {
  std::vector<const resolver::Manifest*> manifests;
  std::string error;  // usage problem, if any
};

Selection select(const resolver::Config& config, const std::vector<std::string>& names,
                 const std::string& tags) {
  Selection sel;
  std::vector<std::string> all;
  for (const auto& m : config.manifests) {
    if (m.has_vars()) all.push_back(m.name);
  }
  for (const std::string& n : names) {
    if (std::find(all.begin(), all.end(), n) == all.end()) {
      sel.error = "no helmfile manifest named \"" + n + "\" in " + config.file;
      if (auto near = diag::nearest(n, all)) sel.error += "; did you mean \"" + *near + "\"?";
      return sel;
    }
  }
  const std::vector<std::string> wanted_tags = split_tags(tags);
  for (const auto& m : config.manifests) {
    if (!m.has_vars()) continue;
    if (!names.empty() && std::find(names.begin(), names.end(), m.name) == names.end()) continue;
    if (!wanted_tags.empty() &&
        std::none_of(wanted_tags.begin(), wanted_tags.end(), [&](const std::string& t) {
          return std::find(m.tags.begin(), m.tags.end(), t) != m.tags.end();
        })) {
      continue;
    }
    sel.manifests.push_back(&m);
  }
  return sel;
}

void prefix_messages(diag::Diagnostics& d, const resolver::Manifest& m) {
  const std::string label = m.label() + ": ";
  for (auto& x : d.items()) x.message = label + x.message;
}

// The hint of a manifest, if it has one. An ORAS artifact's hint is inside the artifact,
// which hintkit does not pull: its vars are resolved from their sources without a hint.
std::optional<hintfile::HintFile> hint_of(const resolver::Config& config,
                                          const resolver::Manifest& m, diag::Diagnostics& diags,
                                          std::string* path_out = nullptr) {
  if (m.oras_helmfile) return std::nullopt;
  const std::string hint_path = hintfile::path_in(resolver::hint_dir(config, m));
  if (path_out) *path_out = hint_path;
  std::error_code ec;
  if (!fs::exists(hint_path, ec)) return std::nullopt;
  auto loaded = hintfile::load_file(hint_path, diags);
  if (!loaded.ok()) {
    diags.error("HK010", diag::Span{hint_path, {}, {}}, loaded.error().message);
    return std::nullopt;
  }
  return std::move(loaded).value();
}

resolver::LoadOptions load_options(const std::string& environment) {
  resolver::LoadOptions options;
  options.environment = environment;
  return options;
}

struct ManifestOutcome {
  yaml::Node resolved;
  diag::Diagnostics diags;
  std::vector<resolver::VarExplanation> explanation;  // with --explain
};

ManifestOutcome resolve_manifest(const resolver::Config& config, const resolver::Manifest& m,
                                 const resolver::Environment& env, bool explain, bool show_values) {
  ManifestOutcome out;
  std::optional<hintfile::HintFile> hint = hint_of(config, m, out.diags);
  yaml::Node provided = resolver::provided_vars(m, env, out.diags);
  if (!out.diags.has_errors() || explain) {
    resolver::Options options;
    options.show_values = show_values;
    if (explain) options.explain = &out.explanation;
    out.resolved = resolver::resolve(hint ? &*hint : nullptr, provided, out.diags, options);
  }
  prefix_messages(out.diags, m);
  return out;
}

// "env CLUSTER_NAME", "static at tazuna.yaml:12:9", "op vault/item/field (label)".
std::string source_text(const resolver::VarSource& s) {
  const diag::Span& at = s.value.span.known() ? s.value.span : s.span;
  const std::string place =
      at.file.str() + ":" + std::to_string(at.begin.line) + ":" + std::to_string(at.begin.column);
  switch (s.kind) {
    case resolver::SourceKind::kEnv:
      return "env " + s.env + " at " + place;
    case resolver::SourceKind::kOp:
      return "op " + s.op.vault + "/" + s.op.item + "/" + s.op.field + " by " + s.op.key + " at " +
             place;
    default:
      return std::string(resolver::to_string(s.kind)) + " at " + place;
  }
}

void explain_manifests(std::ostream& out, const std::vector<const resolver::Manifest*>& manifests,
                       const std::vector<ManifestOutcome>& outcomes, const ResolveOptions& o) {
  yaml::Node all = yaml::make_map();
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const resolver::Manifest& m = *manifests[i];
    ExplainOptions eo{.output = o.output == "json" ? "json" : "text",
                      .show_values = o.show_values,
                      .provided_label = "tazuna.yaml",
                      .provided_source = [&m](const std::string& var) -> std::string {
                        for (const resolver::VarSource& s : m.vars) {
                          if (s.name == var) return source_text(s);
                        }
                        return "";
                      }};
    if (eo.output == "json") {
      yaml::MapItem item;
      item.key = yaml::make_string(m.name);
      item.value = explanation_node(outcomes[i].explanation, eo);
      all.items.push_back(std::move(item));
    } else {
      out << "== " << m.name << '\n';
      write_explanation(out, outcomes[i].explanation, eo);
    }
  }
  if (o.output == "json") out << yaml::emit_json(all, 2) << '\n';
}

bool safe_file_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos;
}

}  // namespace

int run_resolve_config(const ResolveOptions& o, Io io) {
  diag::Diagnostics diags;
  auto config = resolver::load_config(o.config, diags, load_options(o.environment));
  if (!config.ok()) return fail(io, "resolve: " + config.error().message);
  const diag::Format format = *diag::parse_format(o.format);
  if (diags.has_errors()) {
    diags.sort_and_dedupe();
    diag::render(io.err, format, diags, render_options(io, io.err));
    return kExitFindings;
  }
  Selection sel = select(*config, o.manifests, o.tags);
  if (!sel.error.empty()) return fail(io, "resolve: " + sel.error);

  OpClient op{std::chrono::seconds(o.op_timeout)};
  resolver::Environment env;
  env.getenv = [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  env.op_field = [&op](const resolver::OpRef& ref) { return op.field(ref); };

  // 1Password calls wait on a network: start them all together, before the CPU work.
  op.prefetch(sel.manifests,
              [&](size_t n, auto work) { parallel_for(n, std::max(o.jobs, 8u), work); });

  std::vector<ManifestOutcome> outcomes(sel.manifests.size());
  parallel_for(sel.manifests.size(), o.jobs, [&](size_t i) {
    outcomes[i] = resolve_manifest(*config, *sel.manifests[i], env, o.explain, o.show_values);
  });

  for (auto& oc : outcomes) diags.append(std::move(oc.diags));
  if (!diags.empty()) diag::render(io.err, format, diags, render_options(io, io.err));
  if (o.explain) {
    explain_manifests(io.out, sel.manifests, outcomes, o);
    return diags.has_errors() ? kExitFindings : kExitClean;
  }
  if (diags.has_errors()) return kExitFindings;

  if (!o.out_dir.empty()) {
    std::vector<std::pair<std::string, std::string>> files;
    for (size_t i = 0; i < outcomes.size(); ++i) {
      const std::string& name = sel.manifests[i]->name;
      if (!safe_file_name(name)) {
        return fail(io, "resolve: manifest name \"" + name + "\" cannot be used as a file name");
      }
      std::ostringstream text;
      write_values(text, outcomes[i].resolved, "yaml");
      files.emplace_back(name, text.str());
    }
    FileSystem system;
    auto written = write_all(o.out_dir, files, system);
    if (!written.ok()) return fail(io, "resolve: " + written.error().message);
    return kExitClean;
  }
  yaml::Node all = yaml::make_map();
  for (size_t i = 0; i < outcomes.size(); ++i) {
    yaml::MapItem item;
    item.key = yaml::make_string(sel.manifests[i]->name);
    item.value = std::move(outcomes[i].resolved);
    all.items.push_back(std::move(item));
  }
  write_values(io.out, all, o.output);
  return kExitClean;
}

int run_lint_config(const LintOptions& o, Io io) {
  diag::Diagnostics diags;
  auto config = resolver::load_config(o.config, diags, load_options(o.environment));
  if (!config.ok()) return fail(io, "lint: " + config.error().message);
  diags.append(std::move(config->conversions));
  std::vector<const resolver::Manifest*> manifests;
  for (const auto& m : config->manifests) {
    if (m.has_vars()) manifests.push_back(&m);
  }
  std::vector<diag::Diagnostics> results(manifests.size());
  parallel_for(manifests.size(), o.jobs, [&](size_t i) {
    const resolver::Manifest& m = *manifests[i];
    auto hint = hint_of(*config, m, results[i]);
    if (hint && !results[i].has_errors()) {
      resolver::check_declarations(m, *hint, *config, results[i]);
      // The helmfile tazuna renders with these vars, against the hint.
      if (!m.helmfile.empty()) {
        tmplcheck::check_manifest(m.helmfile, *hint, tmplcheck::Flavor::kTazuna, results[i]);
      }
    }
  });
  for (auto& r : results) diags.append(std::move(r));
  return report_lint(io, o, diags,
                     count_of(manifests.size(), "helmfile manifest") + " of " + o.config);
}

}  // namespace hintkit::plugin
