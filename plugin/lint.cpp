// `hintkit lint`: find hint files, check them in parallel, report every problem once.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <ostream>

#include "hintfile/hintfile.h"
#include "plugin/commands.h"
#include "plugin/parallel.h"
#include "plugin/terminal.h"
#include "plugin/values_io.h"
#include "resolver/tazuna.h"
#include "tmplcheck/tmplcheck.h"

namespace hintkit::plugin {
namespace {

namespace fs = std::filesystem;

bool skipped_dir(const fs::path& p) {
  const std::string name = p.filename().string();
  return name == ".git" || name == "node_modules";
}

// A name plainly meant for a hint file that tazuna, which opens exactly tazuna.hint.yaml,
// never reads: another case, `-` or `_` for a dot, `.yml`, `hints` (Tazuna.Hint.yaml,
// tazuna-hint.yaml, tazuna_hint.yml, tazuna.hints.yaml).
bool misnamed_hint(std::string_view name) {
  if (name == hintfile::kFileName) return false;
  std::string n;
  for (char c : name) {
    n += c == '-' || c == '_' ? '.' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (n.ends_with(".yml")) n.insert(n.size() - 2, "a");
  return n == hintfile::kFileName || n == "tazuna.hints.yaml";
}

struct Found {
  std::vector<std::string> files;     // hint files, and files given by name
  std::vector<std::string> misnamed;  // misnamed hint files (found, or given by name)
};

// Hint files under `root` (recursively) or `root` itself when it is a file, sorted.
diag::Result<Found> discover(const std::vector<std::string>& roots) {
  Found found;
  std::vector<std::string>& files = found.files;
  for (const std::string& root : roots) {
    std::error_code ec;
    fs::file_status st = fs::status(root, ec);
    if (ec || !fs::exists(st))
      return diag::Error{"cannot read " + root + ": no such file or folder", {}};
    if (!fs::is_directory(st)) {
      files.push_back(root);
      if (misnamed_hint(fs::path(root).filename().string())) found.misnamed.push_back(root);
      continue;
    }
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec),
        end;
    if (ec) return diag::Error{"cannot read " + root + ": " + ec.message(), {}};
    for (; it != end; it.increment(ec)) {
      if (ec) return diag::Error{"cannot read " + root + ": " + ec.message(), {}};
      if (it->is_directory(ec)) {
        if (skipped_dir(it->path())) it.disable_recursion_pending();
        continue;
      }
      const std::string name = it->path().filename().string();
      if (name != hintfile::kFileName && !misnamed_hint(name)) continue;
      std::string p = it->path().string();
      if (p.rfind("./", 0) == 0) p.erase(0, 2);
      (name == hintfile::kFileName ? files : found.misnamed).push_back(std::move(p));
    }
  }
  for (std::vector<std::string>* list : {&files, &found.misnamed}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  return found;
}

void report_misnamed(const std::vector<std::string>& misnamed, diag::Diagnostics& out) {
  for (const std::string& path : misnamed) {
    auto& d = out.warning("HK011", diag::Span{path, {}, {}},
                          "tazuna reads only files named " + std::string(hintfile::kFileName) +
                              ": it ignores " + fs::path(path).filename().string());
    d.hints.push_back("rename it to " + std::string(hintfile::kFileName));
  }
}

// The hint, then the helmfile of its folder (if the folder has one) against it: tazuna's or
// helmfile's renderer may read it, so both function maps are accepted. A hint with errors is
// not a list of vars to check templates against.
diag::Diagnostics lint_one(const std::string& path) {
  diag::Diagnostics diags;
  auto hint = hintfile::load_file(path, diags);
  if (!hint.ok()) {
    diags.error("HK010", diag::Span{path, {}, {}}, hint.error().message);
  } else if (!diags.has_errors()) {
    const std::string folder = fs::path(path).parent_path().string();
    const std::string helmfile = resolver::helmfile_in(folder.empty() ? "." : folder);
    if (!helmfile.empty())
      tmplcheck::check_manifest(helmfile, *hint, tmplcheck::Flavor::kAny, diags);
  }
  diags.sort_and_dedupe();
  return diags;
}

}  // namespace

int report_lint(Io io, const LintOptions& o, diag::Diagnostics& all, const std::string& checked) {
  all.sort_and_dedupe();
  const size_t errors = all.error_count(), warnings = all.warning_count();
  const diag::Format format = *diag::parse_format(o.format);
  diag::render(io.out, format, all, render_options(io, io.out));
  // Machine formats keep stdout clean; the summary goes to stderr there.
  (format == diag::Format::kText ? io.out : io.err)
      << "checked " << checked << ": " << errors << (errors == 1 ? " error, " : " errors, ")
      << warnings << (warnings == 1 ? " warning" : " warnings") << '\n';
  return errors > 0 || (o.warnings_as_errors && warnings > 0) ? kExitFindings : kExitClean;
}

int run_lint(const LintOptions& o, Io io) {
  // `-` is a hint file on standard input; the other paths are searched.
  std::vector<std::string> roots;
  bool from_stdin = false;
  for (const std::string& p : o.paths) {
    if (p == "-") {
      from_stdin = true;
    } else {
      roots.push_back(p);
    }
  }
  if (o.paths.empty()) roots.push_back(".");
  Found found;
  if (!roots.empty()) {
    auto discovered = discover(roots);
    if (!discovered.ok()) return fail(io, "lint: " + discovered.error().message);
    found = std::move(discovered).value();
  }
  const std::vector<std::string>& files = found.files;

  diag::Diagnostics all;
  if (from_stdin) {
    auto text = read_stdin(io.in);
    if (!text.ok()) return fail(io, "lint: " + text.error().message);
    (void)hintfile::parse(*text, "<stdin>", all);
  }
  std::vector<diag::Diagnostics> results(files.size());
  Progress progress(io.err, progress_wanted(io), files.size(), "hint files");
  parallel_for(files.size(), o.jobs, [&](size_t i) {
    results[i] = lint_one(files[i]);
    progress.tick();
  });
  progress.finish();

  for (diag::Diagnostics& d : results) all.append(std::move(d));
  report_misnamed(found.misnamed, all);
  const size_t checked = files.size() + (from_stdin ? 1 : 0);
  const int rc = report_lint(io, o, all, count_of(checked, "hint file"));
  if (checked == 0) {
    // A check that found nothing to check must not pass: CI would stay green forever.
    std::string where;
    for (const std::string& r : roots) where += (where.empty() ? "" : ", ") + r;
    return fail(io, "lint: no " + std::string(hintfile::kFileName) + " found in " + where +
                        ": nothing was checked");
  }
  return rc;
}

}  // namespace hintkit::plugin
