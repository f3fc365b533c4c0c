// `hintkit lint`: find hint files, check them in parallel, report every problem once.
#include <algorithm>
#include <filesystem>
#include <ostream>

#include "hintfile/hintfile.h"
#include "plugin/commands.h"
#include "plugin/parallel.h"
#include "plugin/terminal.h"

namespace hintkit::plugin {
namespace {

namespace fs = std::filesystem;

bool skipped_dir(const fs::path& p) {
  const std::string name = p.filename().string();
  return name == ".git" || name == "node_modules";
}

// Hint files under `root` (recursively) or `root` itself when it is a file, sorted.
diag::Result<std::vector<std::string>> discover(const std::vector<std::string>& roots) {
  std::vector<std::string> files;
  for (const std::string& root : roots) {
    std::error_code ec;
    fs::file_status st = fs::status(root, ec);
    if (ec || !fs::exists(st))
      return diag::Error{"cannot read " + root + ": no such file or folder", {}};
    if (!fs::is_directory(st)) {
      files.push_back(root);
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
      if (it->path().filename() == hintfile::kFileName) {
        std::string p = it->path().string();
        if (p.rfind("./", 0) == 0) p.erase(0, 2);
        files.push_back(std::move(p));
      }
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

diag::Diagnostics lint_one(const std::string& path) {
  diag::Diagnostics diags;
  auto hint = hintfile::load_file(path, diags);
  if (!hint.ok()) {
    diags.error("HK010", diag::Span{path, {}, {}}, hint.error().message);
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
  auto found = discover(o.paths.empty() ? std::vector<std::string>{"."} : o.paths);
  if (!found.ok()) return fail(io, "lint: " + found.error().message);
  const std::vector<std::string>& files = *found;

  std::vector<diag::Diagnostics> results(files.size());
  Progress progress(io.err, progress_wanted(io), files.size(), "hint files");
  parallel_for(files.size(), o.jobs, [&](size_t i) {
    results[i] = lint_one(files[i]);
    progress.tick();
  });
  progress.finish();

  diag::Diagnostics all;
  for (diag::Diagnostics& d : results) all.append(std::move(d));
  const int rc = report_lint(io, o, all, count_of(files.size(), "hint file"));
  if (files.empty()) {
    io.err << "hintkit: no " << hintfile::kFileName << " found\n";
  }
  return rc;
}

}  // namespace hintkit::plugin
