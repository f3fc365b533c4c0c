// `hintkit lint`: find hint files, check them in parallel, report every problem once.
#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <filesystem>
#include <ostream>
#include <thread>

#include "hintfile/hintfile.h"
#include "plugin/commands.h"

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
    if (ec || !fs::exists(st)) return diag::Error{"cannot read " + root + ": no such file or folder", {}};
    if (!fs::is_directory(st)) {
      files.push_back(root);
      continue;
    }
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
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

int run_lint(const LintOptions& o, Io io) {
  auto found = discover(o.paths.empty() ? std::vector<std::string>{"."} : o.paths);
  if (!found.ok()) return fail(io, "lint: " + found.error().message);
  const std::vector<std::string>& files = *found;

  std::vector<diag::Diagnostics> results(files.size());
  unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  if (files.size() < 4 || jobs == 1) {
    for (size_t i = 0; i < files.size(); ++i) results[i] = lint_one(files[i]);
  } else {
    // Workers take files in chunks; each writes only its own slots, so no locking.
    boost::asio::thread_pool pool(std::min<size_t>(jobs, files.size()));
    const size_t chunk = std::max<size_t>(1, files.size() / (jobs * 8));
    for (size_t begin = 0; begin < files.size(); begin += chunk) {
      const size_t end = std::min(files.size(), begin + chunk);
      boost::asio::post(pool, [&, begin, end] {
        for (size_t i = begin; i < end; ++i) results[i] = lint_one(files[i]);
      });
    }
    pool.join();
  }

  diag::Diagnostics all;
  for (diag::Diagnostics& d : results) all.append(std::move(d));
  const size_t errors = all.error_count(), warnings = all.warning_count();

  const diag::Format format = *diag::parse_format(o.format);
  diag::RenderOptions options;
  options.tool_version = version();
  options.describe_code = describe_code;
  diag::render(io.out, format, all, options);
  std::string summary = "checked " + std::to_string(files.size()) +
                        (files.size() == 1 ? " hint file: " : " hint files: ") +
                        std::to_string(errors) + (errors == 1 ? " error, " : " errors, ") +
                        std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings");
  // Machine formats keep stdout clean; the summary goes to stderr there.
  (format == diag::Format::kText ? io.out : io.err) << summary << '\n';
  if (files.empty()) {
    io.err << "hintkit: no " << hintfile::kFileName << " found\n";
  }
  return errors > 0 || (o.warnings_as_errors && warnings > 0) ? kExitFindings : kExitClean;
}

}  // namespace hintkit::plugin
